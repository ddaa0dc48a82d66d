#include "progress_line.h"

#include <cstdio>
#include <ostream>

#include "gemini/sweep/results.h"

namespace gemini::sweep {

ProgressLine::ProgressLine(std::ostream& os, bool tty, std::size_t total)
    : os_(os), tty_(tty), total_(total), start_(std::chrono::steady_clock::now()) {}

namespace {
std::string duration(double s) {
  char buf[32];
  if (s < 90)
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 5400)
    std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  else
    std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
  return buf;
}
}  // namespace

std::string ProgressLine::status(std::size_t done, std::size_t failed) const {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char buf[160];
  std::string rate = "-", left = "?";
  if (done > 0 && elapsed > 0) {
    const double per_min = 60.0 * static_cast<double>(done) / elapsed;
    std::snprintf(buf, sizeof buf, per_min >= 10 ? "%.0f/min" : "%.2g/min", per_min);
    rate = buf;
    left = duration(elapsed / static_cast<double>(done) * static_cast<double>(total_ - done));
  }
  std::snprintf(buf, sizeof buf, "%zu/%zu done, %zu failed, %s, ~%s left", done, total_, failed,
                rate.c_str(), done == total_ ? "0 s" : left.c_str());
  return buf;
}

void ProgressLine::tick(std::size_t done, std::size_t failed) {
  if (!tty_ || total_ == 0) return;
  constexpr std::size_t kWidth = 24;
  const std::size_t fill = total_ ? done * kWidth / total_ : kWidth;
  std::string bar(fill, '=');
  if (fill < kWidth) bar += '>' + std::string(kWidth - fill - 1, ' ');
  os_ << "\r\033[K[" << bar << "] " << status(done, failed) << std::flush;
  shown_ = true;
}

void ProgressLine::clear() {
  if (shown_) os_ << "\r\033[K" << std::flush;
  shown_ = false;
}

void ProgressLine::message(const std::string& line) {
  clear();
  os_ << "gemini sweep: " << line << "\n";
}

void ProgressLine::finished(const Point& p, const PointRecord& r, std::size_t done,
                            std::size_t failed) {
  if (tty_) {
    if (!r.ok) message("failed: " + p.input.label + " (" + describe(p) + "): " + r.message);
    tick(done, failed);
    return;
  }
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f s", r.host_seconds);
  os_ << "[" << done << "/" << total_ << "] " << (r.ok ? "ok    " : "FAILED") << " "
      << p.input.label << (p.params.empty() ? "" : " (" + describe(p) + ")") << " " << secs;
  if (!r.ok) os_ << ": " << r.message;
  os_ << "; " << status(done, failed) << "\n" << std::flush;
}

}  // namespace gemini::sweep
