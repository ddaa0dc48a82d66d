#pragma once
// `gemini sweep run`: every point of a plan on this machine, `jobs` at a
// time, with a progress line on stderr (points done, failed, rate, time
// left). Points that already have a record are kept unless `force` (all) or
// `retry_failed` (the failed ones) says otherwise; the results files are
// rewritten as points finish.

#include <atomic>
#include <iosfwd>
#include <string>

#include "gemini/sweep/plan.h"
#include "gemini/sweep/results.h"

namespace gemini::sweep {

struct LocalOptions {
  std::string gemini;  // the executable each point runs
  unsigned jobs = 1;
  bool force = false, retry_failed = false;
  bool tty = false;  // a redrawn progress bar; otherwise one line per finished point
  // Set (by a signal handler) to stop: no new points start, running ones
  // are stopped and stay missing.
  const std::atomic<bool>* stop = nullptr;
};

struct LocalSummary {
  Tally tally;
  std::size_t ran = 0, kept = 0;
  bool interrupted = false;
  double seconds = 0;
};

// Returns false with `error` when the results cannot be written.
bool run_local(const std::string& dir, const Plan& plan, const LocalOptions& options,
               std::ostream& progress, LocalSummary& summary, std::string& error);

// Which points a run (local or on a cluster) has to run.
std::vector<const Point*> points_to_run(const std::string& dir, const Plan& plan, bool force,
                                        bool retry_failed, std::size_t* kept = nullptr);

}  // namespace gemini::sweep
