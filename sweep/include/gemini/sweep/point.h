#pragma once
// Running one point and its record, DIR/points/<id>.json. A point runs as
// its own `gemini sim` process (the same command a user would type, so a
// sweep's numbers are those of separate runs), its output going to
// DIR/logs/<id>.log. The record says whether it ran ("ok"), or failed with
// the exit code or signal and the last line the run printed; it carries the
// JSON report of an ok run and the host resources it took. Records are
// written whole (a temporary file renamed into place), so a point killed
// halfway leaves no record and counts as missing.

#include <sys/types.h>

#include <atomic>
#include <boost/json/value.hpp>
#include <functional>
#include <optional>
#include <string>

#include "gemini/sweep/plan.h"

namespace gemini::sweep {

struct PointRecord {
  std::string id;
  bool ok = false;
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  std::string message;  // why it failed (the run's last line), empty when ok
  double host_seconds = 0, cpu_seconds = 0, peak_rss_mb = 0;
  std::string hostname;
  boost::json::value report;  // the sim report of an ok run (null otherwise)
};

std::string point_file(const std::string& dir, const std::string& id);
std::string log_file(const std::string& dir, const std::string& id);

struct RunHooks {
  // Called with the child's pid once it runs, and with -1 when it ended
  // (the local runner uses it to stop children on Ctrl-C).
  std::function<void(pid_t)> on_child;
  // When set and true once the child ended, nothing is recorded: the run was
  // interrupted, so the point stays missing.
  const std::atomic<bool>* interrupted = nullptr;
};

// Runs `point` with the executable `gemini` and writes its record. Returns
// the record, or nullopt when it was interrupted or could not be started
// or written (`error` says which).
std::optional<PointRecord> run_point(const std::string& dir, const Point& point,
                                     const std::string& gemini, const RunHooks& hooks,
                                     std::string& error);

// Reads DIR/points/<id>.json; nullopt when absent or unreadable (a partial
// file never exists: records are renamed into place).
std::optional<PointRecord> read_point(const std::string& dir, const std::string& id);

}  // namespace gemini::sweep
