// The report's derived totals (report.h).
#include "gemini/sim/report.h"

namespace gemini::sim {

std::int64_t Report::predicted_total() const {
  std::int64_t s = 0;
  for (const LayerReport& l : layers) s += l.predicted_cycles;
  return s;
}

std::int64_t Report::roofline_total() const {
  std::int64_t s = 0;
  for (const LayerReport& l : layers)
    if (l.roofline) s += l.roofline->bound_cycles();
  return s;
}

std::int64_t Report::roofline_segments_total() const {
  std::int64_t s = 0;
  for (const SegmentRoofline& x : roofline_segments) s += x.bound_cycles();
  return s;
}

}  // namespace gemini::sim
