#pragma once
// Power over time, as the run goes (power.h): every energy event a core
// spends, priced at once by the configuration's costs and added to that
// core's windows by component -- at an instant, or spread evenly over an
// interval (an operation's time on its engine). Windows of a fixed length
// (--power-window) or, by default, 10 ns doubled whenever the run would
// need more than kDefaultWindows of them (two neighbours merged: every
// window's energy is kept exactly); a fixed length is doubled the same way
// when the cores x windows would pass kMaxPowerCells. Built only when power
// is asked for: the cores hold a null pointer otherwise, and spend nothing
// else on it.

#include <cstdint>
#include <vector>

#include "gemini/sim/dram_model.h"
#include "gemini/sim/energy.h"
#include "gemini/sim/power.h"

namespace gemini::sim {

class PowerRecorder {
 public:
  // `window_ps` 0: the default.
  PowerRecorder(std::size_t cores, const EnergyCosts& costs, Tick window_ps);

  // `n` events `e` spent by core `core` (its index), from `from` to `to`
  // (ps; at `from` alone when to <= from).
  void add(std::size_t core, Event e, std::int64_t n, Tick from, Tick to);

  Tick window() const { return window_; }
  bool widened() const { return widened_; }  // a fixed window doubled to fit kMaxPowerCells
  // Per core, its windows so far (pJ by component; shorter vectors: no
  // energy after their end).
  const std::vector<std::vector<Energy>>& cores() const { return bins_; }

 private:
  // Makes room for time `t`: doubles the window while t falls beyond the
  // allowed windows.
  void reach(Tick t);
  Energy& at(std::size_t core, Tick t);

  std::vector<double> cost_;                 // pJ per event
  std::vector<std::uint8_t> component_;      // per event
  std::vector<std::vector<Energy>> bins_;    // per core, per window
  Tick window_;
  std::int64_t max_windows_;
  bool adaptive_, widened_ = false;
};

// What the report's scopes need of the mesh (System fills it).
struct PowerLayout {
  std::int32_t xlen = 1, ylen = 1, x_cut = 1, y_cut = 1;
  std::vector<std::int32_t> core_ids;  // per core index
  double leakage_w_per_core = 0;
  std::vector<double> lanes_w_per_die;  // per die: its halves of the SerDes lanes
  bool io_die = false;                  // an IO die on a cut mesh
  double lanes_w_io = 0;                // its halves
};

// The report's scopes and figures from the recorder's windows, for a run
// that ended at `end` (power.h); `asked_window_ns` is --power-window's.
PowerReport make_power_report(const PowerRecorder& rec, const PowerLayout& layout, Tick end,
                              double asked_window_ns);

}  // namespace gemini::sim
