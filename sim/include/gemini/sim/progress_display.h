#pragma once
// Where a command's progress goes and when (progress_mode.h): a bar
// redrawn in place on stderr, at most every 200 ms once the command has
// taken a second; or a plain line, the first 2 s after the command started,
// then every 2 s for a minute and less often in longer runs (a thirtieth of
// the time so far, at most a minute apart), so that a log of an hour's run
// stays short; off, nothing. The one display of `gemini sim`'s Progress
// (sim/src/progress.h) and `gemini ref`'s (cli/ref_progress.h): each says
// what its status is, this says when and how it is shown.

#include <chrono>
#include <cstdio>
#include <string>

#include "gemini/sim/progress_mode.h"

namespace gemini::sim {

class ProgressDisplay {
 public:
  using Clock = std::chrono::steady_clock;

  ProgressDisplay() = default;  // off
  // `since`: when the command started.
  ProgressDisplay(ProgressMode mode, Clock::time_point since, std::FILE* out = stderr)
      : mode_(mode), since_(since), out_(out) {}

  ProgressMode mode() const { return mode_; }
  Clock::time_point since() const { return since_; }
  // When one is due, writes status(t, words): t the host time, words a
  // line's text (else the bar's).
  template <class Status>
  void offer(Status&& status) {
    if (mode_ == ProgressMode::off) return;
    const Clock::time_point t = Clock::now();
    if (!due(t)) return;
    show(status(t, mode_ == ProgressMode::lines), t);
  }
  // The end: the bar cleared, or after lines a last one, last(t). Nothing
  // when nothing was shown.
  template <class Last>
  void end(Last&& last) {
    if (!shown_) return;
    if (mode_ == ProgressMode::lines) {
      show(last(Clock::now()), Clock::now());
    } else {
      std::fprintf(out_, "\r%79s\r", "");
      std::fflush(out_);
    }
    shown_ = false;
  }

  // Host time: "42 s", "3 min 05 s", "2 h 07 min"; compact: "42s",
  // "3m05s", "2h07m".
  static std::string span(double seconds, bool compact);

 private:
  bool due(Clock::time_point t) const;
  void show(const std::string& text, Clock::time_point t);

  ProgressMode mode_ = ProgressMode::off;
  Clock::time_point since_{}, last_{};
  bool shown_ = false;
  std::FILE* out_ = stderr;
};

}  // namespace gemini::sim
