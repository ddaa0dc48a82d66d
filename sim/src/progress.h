#pragma once
// A run's progress on stderr while it lasts (SimOptions::progress,
// progress_mode.h): simulated time, workloads finished of all, the host's
// rate (simulated cycles per second) and an estimate of the time left, from
// the share of instructions retired -- shown by a ProgressDisplay (a bar
// redrawn in place on a terminal, a plain line every few seconds for a
// pipe or a log).
//
// Contract: the units report retired instructions (retired()), finished
// workloads (workload_done()) and their wakes (poll(), with the simulated
// time); off, each costs an increment or a compare. On, the host clock is
// read every kPollEvery polls and a bar or line written when one is due, so
// a model that advances simulated time slowly (booksim2 steps every BookSim
// cycle) moves it as instructions do. Nothing reaches the simulation: its
// counts are its own and it only writes to its stream.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "gemini/sim/dram_model.h"  // Tick
#include "gemini/sim/progress_display.h"

namespace gemini::sim {

class Progress {
 public:
  using Clock = std::chrono::steady_clock;

  Progress() = default;  // off
  // `instructions` and `workloads` in the whole run; `period` the core
  // clock (ps); `since` when the command started (the first bar or line
  // waits for 1 s or 2 s from then).
  Progress(ProgressMode mode, std::int64_t instructions, std::int64_t workloads, Tick period,
           Clock::time_point since, std::FILE* out = stderr);

  void retired(Tick now) {
    ++retired_;
    poll(now);
  }
  void workload_done() { ++workloads_done_; }
  void poll(Tick now) {
    if (display_.mode() == ProgressMode::off) return;
    now_ = now;  // simulated time only grows
    if (++polls_ >= kPollEvery) due();
  }
  // The run has ended: the bar is cleared; after lines, a last one says
  // where the run ended and how long it took.
  void done();

 private:
  static constexpr std::uint32_t kPollEvery = 64;
  void due();
  // The status, short (the bar's) or in words (a line's), at host time `t`.
  std::string status(Clock::time_point t, bool words) const;

  ProgressDisplay display_;
  std::uint32_t polls_ = 0;
  std::int64_t instructions_ = 0, workloads_ = 0;
  std::int64_t retired_ = 0, workloads_done_ = 0;
  Tick period_ = 1000, now_ = 0;
  Clock::time_point start_{};
};

}  // namespace gemini::sim
