#pragma once
// A timing model that cannot make progress under its configuration ends the
// run with a diagnostic, never a hang (docs/timing-model.md, "When a model
// cannot make progress").
//
// Contract: a model that finds itself stalled throws ModelStall, whose text
// names the model, the resource that stopped (a port, a node, a channel)
// and the configuration values involved. Who drives models catches it: the
// simulator stops the run and simulate() fails with the text (exit 1, no
// report); `gemini noc` and `gemini dram-replay` report it the same way.
// Each model decides what "no progress" is in its own terms:
//   - closed-loop models (booksim2, ramulator2) and banked watch their own
//     work with a StallWatch: work waiting and nothing served for longer than
//     a bound the configuration itself makes impossible in a sound one;
//   - every model refuses a time past kTickLimit (the simulator's clock):
//     the closed-form models (mesh, simple) can only stop that way.

#include <cstdint>
#include <stdexcept>
#include <string>

#include "gemini/sim/dram_model.h"

namespace gemini::sim {

class ModelStall : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The latest time a model may report: 2^62 ps (about 53 days), far below
// where Tick arithmetic could overflow.
inline constexpr Tick kTickLimit = Tick{1} << 62;

// Progress of one resource in the model's own clock (cycles or ps): the
// model calls progressed(now) when it serves something and check(now,
// waiting) when it looks; stalled() is true once work has been waiting with
// nothing served for more than `bound`. Plain counters, no allocation: cheap
// enough to call once per cycle.
class StallWatch {
 public:
  explicit StallWatch(std::int64_t bound = 0) : bound_(bound) {}
  void set_bound(std::int64_t bound) { bound_ = bound; }
  std::int64_t bound() const { return bound_; }
  void progressed(std::int64_t now) { last_ = now; }
  // `waiting`: the model holds work it should be serving. Waiting starts the
  // clock from `now` when nothing waited before.
  bool stalled(std::int64_t now, bool waiting) {
    if (!waiting) {
      idle_ = true;
      return false;
    }
    if (idle_) {
      idle_ = false;
      last_ = now;
    }
    return now - last_ > bound_;
  }
  // How long nothing has been served (valid once stalled() said so).
  std::int64_t since(std::int64_t now) const { return now - last_; }

 private:
  std::int64_t bound_;
  std::int64_t last_ = 0;
  bool idle_ = true;
};

// "<what> at <t> ps is past the simulator's clock (2^62 ps)": the text of a
// ModelStall for a time beyond kTickLimit, naming the model and `why` (the
// configuration values that made it so).
std::string past_clock_text(const std::string& model, const std::string& what, double t_ps,
                            const std::string& why);

}  // namespace gemini::sim
