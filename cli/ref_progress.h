#pragma once
// The progress of `gemini ref` while it computes: layers done of all, the
// multiply-accumulates done (model::op_macs) and their rate, and the time
// left at that rate, shown as `gemini sim` shows its own
// (sim::ProgressDisplay: a bar on a terminal, a line every few seconds in
// a pipe or a log with --progress, nothing with -q). Its steps are layers:
// a layer that takes long moves it when it ends.

#include <cstdint>
#include <string>

#include "gemini/model/network.h"
#include "gemini/sim/progress_display.h"

namespace gemini::cli {

class RefProgress {
 public:
  using Clock = sim::ProgressDisplay::Clock;
  // `since`: when the command started.
  RefProgress(sim::ProgressMode mode, const model::Network& net, Clock::time_point since);
  void layer_done(std::int32_t op);
  // The bar cleared, or a last line after lines.
  void done();

 private:
  std::string status(Clock::time_point t, bool words) const;
  sim::ProgressDisplay display_;
  const model::Network& net_;
  std::int64_t macs_ = 0, macs_done_ = 0, layers_done_ = 0;
};

}  // namespace gemini::cli
