#pragma once
// Every process of the simulation (a core's engines, the NoC's router, each
// DRAM port's controller) runs its activations through run_guarded(): a
// timing model that cannot make progress (ModelStall, model_stall.h) stops
// the simulation instead of escaping into the SystemC kernel. The first
// stall's text is kept in the context (`where` names the unit, e.g. "DRAM
// port 2: "), sc_stop() ends the run, and simulate() fails with the text;
// nothing runs after it.

#include <string>

#include "gemini/sim/model_stall.h"
#include "sc_include.h"
#include "sim_context.h"

namespace gemini::sim {

template <typename F>
void run_guarded(SimContext& ctx, const std::string& where, F&& activation) {
  if (!ctx.stall.empty()) return;
  try {
    activation();
  } catch (const ModelStall& e) {
    ctx.stall = where + e.what();
    sc_core::sc_stop();
  }
}

}  // namespace gemini::sim
