#pragma once
// The progress of a local sweep on stderr: on a terminal one line redrawn
// in place ("[=====>    ] 37/114 done, 2 failed, 1.3/min, ~52 min left");
// otherwise one line per finished point, for logs.
#include <chrono>
#include <iosfwd>
#include <string>

#include "gemini/sweep/plan.h"
#include "gemini/sweep/point.h"

namespace gemini::sweep {

class ProgressLine {
 public:
  ProgressLine(std::ostream& os, bool tty, std::size_t total);
  void finished(const Point& p, const PointRecord& r, std::size_t done, std::size_t failed);
  void tick(std::size_t done, std::size_t failed);  // redraw (terminal only)
  void message(const std::string& line);
  void clear();

 private:
  std::string status(std::size_t done, std::size_t failed) const;
  std::ostream& os_;
  bool tty_;
  std::size_t total_;
  std::chrono::steady_clock::time_point start_;
  bool shown_ = false;
};

}  // namespace gemini::sweep
