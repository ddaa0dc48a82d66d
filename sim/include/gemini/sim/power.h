#pragma once
// Power over time (docs/timing-model.md, "Power over time"): the energy the
// simulator counts (energy.h), binned into windows of simulated time, per
// core, per die of a cut mesh (chiplets.h), for DRAM and for the package,
// by component. Off unless asked for (SimOptions::power); then the report
// gains a PowerReport, the trace counter tracks and `gemini sim
// --power-csv` its windows.
//
// Where an event's energy goes in time: a PE run's, a VP run's and a WL0
// fill from L2's own events are spread evenly over the operation's time on
// its engine (start to completion); DRAM bytes when their port has moved
// them (each chunk of a read as the model delivers it, each packet of a
// write as it is written); every other event (a DMA's L2 write, a packet's
// NoC and D2D byte-hops) at the instant the simulator counts it. A window's power is its energy over its
// length (the last window ends with the run); static power -- every core's
// leakage (energy.static_mw_per_core) and the XSR SerDes lanes
// (chiplets.lane_mw) -- is the constant it is in every window.
//
// Scopes: a core's energy is what it spends (report.h, CoreReport::energy:
// its units and the transfers it started, DRAM bytes included); a die's is
// its cores' but DRAM (the DRAM devices are no die's), with its cores'
// leakage and half of every SerDes lane of its D2D links (the other half is
// the die at the link's other end, the IO die for a link to a DRAM port);
// `dram` is the DRAM bytes' energy; the package is everything, so its
// energy is the report's total.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemini/sim/energy.h"

namespace gemini::sim {

struct PowerOptions {
  bool enabled = false;
  // The windows' length; 0: the default, the shortest of 10 ns x 2^k that
  // cuts the run into at most kDefaultWindows windows.
  double window_ns = 0;
};
inline constexpr std::int64_t kDefaultWindows = 200;
// At most this many (core, window) cells are kept; a window so short that
// the run would need more is doubled until it fits (the report says so).
inline constexpr std::int64_t kMaxPowerCells = 1 << 20;

struct PowerScope {
  std::string name;            // "core 3", "die 1 (1,0)", "io die", "dram", "package"
  std::int32_t id = -1;        // the core's id, the die's index; -1 otherwise
  std::vector<Energy> windows;  // pJ per window, by component (static included)
  double static_w = 0;          // the constant part: leakage, SerDes lanes
  double energy_pj = 0;         // over the run
  double average_w = 0;         // energy_pj over the run's time
  double peak_w = 0;            // the largest window's energy over its length
  std::int64_t peak_window = 0;
};

struct PowerReport {
  double window_ns = 0;        // the windows' length
  double asked_window_ns = 0;  // what --power-window asked (0: the default)
  std::int64_t windows = 0;
  double end_ns = 0;  // the run's end: the last window ends there
  bool widened = false;  // the asked window doubled to keep within kMaxPowerCells
  std::vector<PowerScope> cores, dies;
  std::optional<PowerScope> io_die;  // a cut mesh with its DRAM ports on an IO die
  PowerScope dram, package;
  double start_ns(std::int64_t w) const { return static_cast<double>(w) * window_ns; }
  double end_ns_of(std::int64_t w) const;
  // The die with the highest peak (nullptr without dies).
  const PowerScope* hottest_die() const;
  double die_peak_w() const;     // the hottest die's peak; 0 without dies
  double die_average_w() const;  // the highest average of a die; 0 without dies
};

}  // namespace gemini::sim
