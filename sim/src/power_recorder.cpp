// Power over time as the run goes (power_recorder.h).
#include "power_recorder.h"

#include <algorithm>

#include "gemini/sim/power.h"

namespace gemini::sim {

namespace {
constexpr Tick kDefaultFirstWindow = 10'000;  // 10 ns
}

PowerRecorder::PowerRecorder(std::size_t cores, const EnergyCosts& costs, Tick window_ps)
    : cost_(costs.pj_per_event.begin(), costs.pj_per_event.end()),
      bins_(cores),
      window_(window_ps > 0 ? window_ps : kDefaultFirstWindow),
      max_windows_(window_ps > 0
                       ? std::max<std::int64_t>(
                             1, kMaxPowerCells / std::max<std::int64_t>(
                                                     1, static_cast<std::int64_t>(cores)))
                       : kDefaultWindows),
      adaptive_(window_ps <= 0) {
  for (const EventInfo& e : kEventTable) component_.push_back(static_cast<std::uint8_t>(e.component));
}

void PowerRecorder::reach(Tick t) {
  while (t / window_ >= max_windows_) {
    // Two neighbours into one: every window's energy kept.
    for (std::vector<Energy>& core : bins_) {
      std::vector<Energy> merged((core.size() + 1) / 2);
      for (std::size_t i = 0; i < core.size(); ++i)
        for (std::size_t c = 0; c < kComponents; ++c) merged[i / 2].pj[c] += core[i].pj[c];
      core = std::move(merged);
    }
    window_ *= 2;
    if (!adaptive_) widened_ = true;
  }
}

Energy& PowerRecorder::at(std::size_t core, Tick t) {
  std::vector<Energy>& bins = bins_[core];
  const auto i = static_cast<std::size_t>(t / window_);
  if (bins.size() <= i) bins.resize(i + 1);
  return bins[i];
}

void PowerRecorder::add(std::size_t core, Event e, std::int64_t n, Tick from, Tick to) {
  const auto k = static_cast<std::size_t>(e);
  const double pj = static_cast<double>(n) * cost_[k];
  if (pj == 0 || core >= bins_.size()) return;
  const std::size_t c = component_[k];
  from = std::max<Tick>(from, 0);
  if (to <= from) {
    reach(from);
    at(core, from).pj[c] += pj;
    return;
  }
  reach(to - 1);
  const double per_ps = pj / static_cast<double>(to - from);
  for (Tick t = from; t < to;) {
    const Tick end = std::min(to, (t / window_ + 1) * window_);
    at(core, t).pj[c] += per_ps * static_cast<double>(end - t);
    t = end;
  }
}

}  // namespace gemini::sim
