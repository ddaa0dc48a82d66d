#pragma once
// The progress of `gemini ref` on stderr while it computes: layers done of
// all, the multiply-accumulates done (model::op_macs) and their rate, and
// the time left at that rate -- a bar redrawn in place on a terminal, a
// plain line every few seconds in a pipe or a log with --progress, nothing
// with -q (progress_mode, pipeline.h), as `gemini sim` shows its own. Its
// steps are layers: a layer that takes long moves it when it ends.

#include <chrono>
#include <cstdint>
#include <string>

#include "gemini/model/network.h"
#include "gemini/sim/progress_mode.h"

namespace gemini::cli {

class RefProgress {
 public:
  using Clock = std::chrono::steady_clock;
  // `since`: when the command started (the first bar waits 1 s from
  // then, the first line 2 s).
  RefProgress(sim::ProgressMode mode, const model::Network& net, Clock::time_point since);
  void layer_done(std::int32_t op);
  // The bar cleared, or a last line after lines.
  void done();

 private:
  std::string status(Clock::time_point t, bool words) const;
  sim::ProgressMode mode_;
  const model::Network& net_;
  std::int64_t macs_ = 0, macs_done_ = 0, layers_done_ = 0;
  Clock::time_point since_, last_{};
  bool shown_ = false;
};

}  // namespace gemini::cli
