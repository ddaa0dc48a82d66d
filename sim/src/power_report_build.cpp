// Power over time: the report's windows per core, die, DRAM and package,
// built from what the recorder binned (make_power_report, power_recorder.h).
#include <algorithm>

#include "gemini/sim/power.h"
#include "power_recorder.h"

namespace gemini::sim {

namespace {

constexpr auto kStatic = static_cast<std::size_t>(Component::leakage);
constexpr auto kD2d = static_cast<std::size_t>(Component::d2d);
constexpr auto kDram = static_cast<std::size_t>(Component::dram);

// A scope's figures from its windows (W = pJ / ps).
void finish(PowerScope& s, Tick window, Tick end) {
  s.energy_pj = 0;
  s.peak_w = 0;
  s.peak_window = 0;
  for (std::size_t w = 0; w < s.windows.size(); ++w) {
    const double e = s.windows[w].total();
    s.energy_pj += e;
    const Tick from = static_cast<Tick>(w) * window;
    const Tick len = std::min(from + window, end) - from;
    const double p = len > 0 ? e / static_cast<double>(len) : 0.0;
    if (p > s.peak_w) {
      s.peak_w = p;
      s.peak_window = static_cast<std::int64_t>(w);
    }
  }
  s.average_w = end > 0 ? s.energy_pj / static_cast<double>(end) : 0.0;
}

// Constant power `watts` into component `c` of every window.
void add_constant(PowerScope& s, std::size_t c, double watts, Tick window, Tick end) {
  for (std::size_t w = 0; w < s.windows.size(); ++w) {
    const Tick from = static_cast<Tick>(w) * window;
    s.windows[w].pj[c] += watts * static_cast<double>(std::min(from + window, end) - from);
  }
  s.static_w += watts;
}

}  // namespace

PowerReport make_power_report(const PowerRecorder& rec, const PowerLayout& layout, Tick end,
                              double asked_window_ns) {
  PowerReport r;
  const Tick window = rec.window();
  r.window_ns = static_cast<double>(window) / 1000.0;
  r.asked_window_ns = asked_window_ns;
  r.widened = rec.widened();
  r.end_ns = static_cast<double>(end) / 1000.0;
  r.windows = end > 0 ? (end + window - 1) / window : 0;
  const auto n = static_cast<std::size_t>(r.windows);
  auto scope = [&](std::string name, std::int32_t id) {
    PowerScope s;
    s.name = std::move(name);
    s.id = id;
    s.windows.assign(n, Energy{});
    return s;
  };
  const std::int32_t die_w = layout.xlen / std::max(1, layout.x_cut);
  const std::int32_t die_h = layout.ylen / std::max(1, layout.y_cut);
  for (std::int32_t d = 0; d < layout.x_cut * layout.y_cut; ++d)
    r.dies.push_back(scope("die " + std::to_string(d) + " (" + std::to_string(d % layout.x_cut) +
                               "," + std::to_string(d / layout.x_cut) + ")",
                           d));
  r.dram = scope("dram", -1);
  r.package = scope("package", -1);
  for (std::size_t i = 0; i < layout.core_ids.size(); ++i) {
    const std::int32_t id = layout.core_ids[i];
    PowerScope core = scope("core " + std::to_string(id), id);
    const auto& bins = rec.cores()[i];
    for (std::size_t w = 0; w < bins.size() && w < n; ++w) core.windows[w] = bins[w];
    add_constant(core, kStatic, layout.leakage_w_per_core, window, end);
    const std::int32_t x = id % layout.xlen, y = id / layout.xlen;
    PowerScope& die = r.dies[static_cast<std::size_t>((y / die_h) * layout.x_cut + x / die_w)];
    for (std::size_t w = 0; w < n; ++w)
      for (std::size_t c = 0; c < kComponents; ++c) {
        const double e = core.windows[w].pj[c];
        r.package.windows[w].pj[c] += e;
        (c == kDram ? r.dram : die).windows[w].pj[c] += e;
      }
    die.static_w += layout.leakage_w_per_core;
    r.package.static_w += layout.leakage_w_per_core;
    finish(core, window, end);
    r.cores.push_back(std::move(core));
  }
  for (std::size_t d = 0; d < r.dies.size() && d < layout.lanes_w_per_die.size(); ++d) {
    add_constant(r.dies[d], kD2d, layout.lanes_w_per_die[d], window, end);
    add_constant(r.package, kD2d, layout.lanes_w_per_die[d], window, end);
  }
  if (layout.io_die) {
    r.io_die = scope("io die", -1);
    add_constant(*r.io_die, kD2d, layout.lanes_w_io, window, end);
    add_constant(r.package, kD2d, layout.lanes_w_io, window, end);
    finish(*r.io_die, window, end);
  }
  for (PowerScope& d : r.dies) finish(d, window, end);
  finish(r.dram, window, end);
  finish(r.package, window, end);
  return r;
}

}  // namespace gemini::sim
