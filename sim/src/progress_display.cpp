// When and how a progress status is shown (progress_display.h).
#include "gemini/sim/progress_display.h"

#include <algorithm>

#include "text_format.h"

namespace gemini::sim {

using namespace std::chrono_literals;

bool ProgressDisplay::due(Clock::time_point t) const {
  const Clock::duration since = t - since_;
  if (mode_ == ProgressMode::bar) return since >= 1s && (!shown_ || t - last_ >= 200ms);
  const Clock::duration every = std::clamp<Clock::duration>(since / 30, 2s, 60s);
  return since >= 2s && (!shown_ || t - last_ >= every);
}

void ProgressDisplay::show(const std::string& text, Clock::time_point t) {
  if (mode_ == ProgressMode::bar) {
    std::fprintf(out_, "\r%-79.79s", text.c_str());
  } else {
    std::fprintf(out_, "%s\n", text.c_str());
  }
  std::fflush(out_);
  last_ = t;
  shown_ = true;
}

std::string ProgressDisplay::span(double s, bool compact) {
  const auto whole = static_cast<long long>(s + 0.5);
  if (whole < 1) return compact ? "<1s" : "under a second";
  if (whole < 60) return fmt(compact ? "%llds" : "%lld s", whole);
  if (whole < 3600)
    return fmt(compact ? "%lldm%02llds" : "%lld min %02lld s", whole / 60, whole % 60);
  return fmt(compact ? "%lldh%02lldm" : "%lld h %02lld min", whole / 3600, whole / 60 % 60);
}

}  // namespace gemini::sim
