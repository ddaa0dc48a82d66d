// A run's progress on stderr (progress.h).
#include "progress.h"

#include <algorithm>

#include "text_format.h"

namespace gemini::sim {
namespace {

using namespace std::chrono_literals;

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

// Host time: "42 s", "3 min 05 s", "2 h 07 min"; compact: "42s", "3m05s",
// "2h07m".
std::string span(double s, bool compact) {
  const auto whole = static_cast<long long>(s + 0.5);
  if (whole < 1) return compact ? "<1s" : "under a second";
  if (whole < 60) return fmt(compact ? "%llds" : "%lld s", whole);
  if (whole < 3600)
    return fmt(compact ? "%lldm%02llds" : "%lld min %02lld s", whole / 60, whole % 60);
  return fmt(compact ? "%lldh%02lldm" : "%lld h %02lld min", whole / 3600, whole / 60 % 60);
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
    : mode_(mode), instructions_(instructions), workloads_(workloads),
      period_(period > 0 ? period : 1), since_(since), start_(Clock::now()), out_(out) {}

// The bar: redrawn at most every 200 ms, once the command has taken a
// second. Lines: the first 2 s after the command started, then every 2 s
// for a minute, less often in longer runs (a thirtieth of the time so far,
// at most a minute apart), so that a log of an hour's run stays short.
void Progress::due() {
  polls_ = 0;
  const Clock::time_point t = Clock::now();
  const Clock::duration since = t - since_;
  if (mode_ == ProgressMode::bar) {
    if (since < 1s || (shown_ && t - last_ < 200ms)) return;
    std::fprintf(out_, "\r%-79.79s", status(t, false).c_str());
  } else {
    const Clock::duration every = std::clamp<Clock::duration>(since / 30, 2s, 60s);
    if (since < 2s || (shown_ && t - last_ < every)) return;
    std::fprintf(out_, "%s\n", status(t, true).c_str());
  }
  std::fflush(out_);
  last_ = t;
  shown_ = true;
}

std::string Progress::status(Clock::time_point t, bool words) const {
  const double cycles = static_cast<double>(now_) / static_cast<double>(period_);
  const double run = seconds(t - start_);
  const double rate = run > 0 ? cycles / run : 0;
  const double f =
      instructions_ > 0 ? static_cast<double>(retired_) / static_cast<double>(instructions_) : 1;
  const bool known = f > 0 && f < 1 && run > 0;
  const std::string left = known ? span(run * (1 - f) / f, !words) : "";
  const auto wl_done = static_cast<long long>(workloads_done_);
  const auto wl_all = static_cast<long long>(workloads_);
  if (words)
    return fmt("gemini: simulating for %s: %s cycles (%s) simulated, %lld of %lld workloads "
               "finished, %.0f%% of the instructions, %s cycles/s, %s",
               span(seconds(t - since_), false).c_str(), si(cycles).c_str(),
               simulated(now_).c_str(), wl_done, wl_all, f * 100.0, si(rate).c_str(),
               known ? ("about " + left + " left").c_str() : "the time left not known yet");
  const int width = 10;
  const int fill = std::clamp(static_cast<int>(f * width), 0, width);
  return fmt("simulating [%.*s%*s] %3.0f%% %s cyc, wl %lld/%lld, %s cyc/s, %s left", fill,
             "==========",
             width - fill, "", f * 100.0, si(cycles).c_str(), wl_done, wl_all, si(rate).c_str(),
             known ? ("~" + left).c_str() : "?");
}

void Progress::done() {
  if (!shown_) return;
  if (mode_ == ProgressMode::bar) {
    std::fprintf(out_, "\r%79s\r", "");
  } else {
    const Clock::time_point t = Clock::now();
    const double cycles = static_cast<double>(now_) / static_cast<double>(period_);
    std::fprintf(out_, "gemini: simulation ended at %s cycles (%s) after %s\n", si(cycles).c_str(),
                 simulated(now_).c_str(), span(seconds(t - since_), false).c_str());
  }
  std::fflush(out_);
  shown_ = false;
}

}  // namespace gemini::sim
