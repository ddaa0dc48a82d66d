// The power report's figures (power.h); how the windows are built:
// power_report_build.cpp.
#include "gemini/sim/power.h"

#include <algorithm>

namespace gemini::sim {

double PowerReport::end_ns_of(std::int64_t w) const {
  return std::min(static_cast<double>(w + 1) * window_ns, end_ns);
}

const PowerScope* PowerReport::hottest_die() const {
  const PowerScope* best = nullptr;
  for (const PowerScope& d : dies)
    if (!best || d.peak_w > best->peak_w) best = &d;
  return best;
}

double PowerReport::die_peak_w() const {
  const PowerScope* d = hottest_die();
  return d ? d->peak_w : 0.0;
}

double PowerReport::die_average_w() const {
  double w = 0;
  for (const PowerScope& d : dies) w = std::max(w, d.average_w);
  return w;
}

}  // namespace gemini::sim
