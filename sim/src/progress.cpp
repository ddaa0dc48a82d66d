// A run's progress on stderr (progress.h).
#include "progress.h"

#include <algorithm>
#include <string>

#include "text_format.h"

namespace gemini::sim {
namespace {

double seconds(Progress::Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// 3 significant digits and a unit prefix: 950, 12.3k, 4.56M.
std::string si(double v) {
  static const char* const kPrefix[] = {"", "k", "M", "G", "T", "P"};
  int p = 0;
  while (v >= 999.5 && p < 5) {
    v /= 1000;
    ++p;
  }
  if (p == 0) return fmt("%.0f", v);
  return fmt(v < 9.995 ? "%.2f%s" : v < 99.95 ? "%.1f%s" : "%.0f%s", v, kPrefix[p]);
}

// Simulated time: "835.000 ns", "11.516 ms".
std::string simulated(Tick ps) {
  const double ns = static_cast<double>(ps) / 1000.0;
  if (ns < 1e3) return fmt("%.3f ns", ns);
  if (ns < 1e6) return fmt("%.3f us", ns / 1e3);
  if (ns < 1e9) return fmt("%.3f ms", ns / 1e6);
  return fmt("%.3f s", ns / 1e9);
}

}  // namespace

Progress::Progress(ProgressMode mode, std::int64_t instructions, std::int64_t workloads,
                   Tick period, Clock::time_point since, std::FILE* out)
    : display_(mode, since, out),
      instructions_(instructions),
      workloads_(workloads),
      period_(period > 0 ? period : 1),
      start_(Clock::now()) {}

void Progress::due() {
  polls_ = 0;
  display_.offer([this](Clock::time_point t, bool words) { return status(t, words); });
}

std::string Progress::status(Clock::time_point t, bool words) const {
  const double cycles = static_cast<double>(now_) / static_cast<double>(period_);
  const double run = seconds(t - start_);
  const double rate = run > 0 ? cycles / run : 0;
  const double f =
      instructions_ > 0 ? static_cast<double>(retired_) / static_cast<double>(instructions_) : 1;
  const bool known = f > 0 && f < 1 && run > 0;
  const std::string left = known ? ProgressDisplay::span(run * (1 - f) / f, !words) : "";
  const auto wl_done = static_cast<long long>(workloads_done_);
  const auto wl_all = static_cast<long long>(workloads_);
  if (words)
    return fmt(
        "gemini: simulating for %s: %s cycles (%s) simulated, %lld of %lld workloads "
        "finished, %.0f%% of the instructions, %s cycles/s, %s",
        ProgressDisplay::span(seconds(t - display_.since()), false).c_str(), si(cycles).c_str(),
        simulated(now_).c_str(), wl_done, wl_all, f * 100.0, si(rate).c_str(),
        known ? ("about " + left + " left").c_str() : "the time left not known yet");
  const int width = 10;
  const int fill = std::clamp(static_cast<int>(f * width), 0, width);
  return fmt("simulating [%.*s%*s] %3.0f%% %s cyc, wl %lld/%lld, %s cyc/s, %s left", fill,
             "==========", width - fill, "", f * 100.0, si(cycles).c_str(), wl_done, wl_all,
             si(rate).c_str(), known ? ("~" + left).c_str() : "?");
}

void Progress::done() {
  display_.end([this](Clock::time_point t) {
    const double cycles = static_cast<double>(now_) / static_cast<double>(period_);
    return fmt("gemini: simulation ended at %s cycles (%s) after %s", si(cycles).c_str(),
               simulated(now_).c_str(),
               ProgressDisplay::span(seconds(t - display_.since()), false).c_str());
  });
}

}  // namespace gemini::sim
