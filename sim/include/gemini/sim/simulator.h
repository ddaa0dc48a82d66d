#pragma once
// gemini sim: runs the assembler's per-core programs on the cycle-level
// SystemC model of the mesh (docs/timing-model.md) and returns the report.
//
// The SystemC kernel is global state; simulate() gives every run a fresh
// simulation context, so it may be called repeatedly in one process (never
// concurrently).

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "gemini/assembler/lowering.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/model.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"
#include "gemini/sim/power.h"
#include "gemini/sim/progress_mode.h"
#include "gemini/sim/report.h"
#include "gemini/sim/tile_hook.h"
#include "gemini/sim/workloads.h"

namespace gemini::sim {

struct SimOptions {
  std::string input_name;  // shown in the report
  std::string trace_path;  // Chrome trace-event JSON; empty: none
  // Every DRAM request, and each port's Ramulator 2 trace beside it
  // (dram_trace.h); empty: none.
  std::string dram_trace_path;
  // Progress on stderr (progress_mode.h): a bar once `progress_since` is a
  // second old, or a line every few seconds from 2 s after it (the CLI
  // passes its own start, so the whole command counts).
  ProgressMode progress = ProgressMode::off;
  std::chrono::steady_clock::time_point progress_since = std::chrono::steady_clock::now();
  std::int32_t xlen = 0, ylen = 0;  // the mesh (from the IR)
  // Stop after this many cycles (everything up to and including time
  // until_cycles * period happens); 0 runs to the end. For tests and
  // debugging: the report then says `stopped` and counts what retired.
  std::int64_t until_cycles = 0;
  // Functional simulation (docs/isa.md, "Functional semantics"): with both,
  // every instruction also acts on real bytes and the results are compared
  // with the reference (Report::functional). The program must have been
  // lowered with the model's geometry. The timing is the same either way.
  const model::Network* network = nullptr;
  const model::Reference* reference = nullptr;
  // With functional simulation: every tile operation the PE and VP compute
  // that the hook wants goes to it (tile_hook.h).
  TileHook* tiles = nullptr;
  // The functional simulation's memory (the DRAM image, every core's L2
  // and WL0) is checked against this before it is taken.
  ir::MemoryLimit memory_limit;
  // Statistics of observers outside the model's units (a TileHook's): each
  // group's snapshot follows the units' in Report::stats, so the reports
  // show it like any unit's (stats.h). The groups outlive the call.
  std::vector<const StatGroup*> stat_groups;
  // The IR the program was lowered from: with it, every layer of the report
  // gets its roofline (roofline.h).
  const ir::Model* model = nullptr;
  // Power over time (power.h): with `power.enabled`, the energy binned into
  // windows (Report::power) and, with a trace, its counter tracks.
  PowerOptions power;
};

// Returns false (with `error`) when the program cannot be simulated on this
// mesh (a core outside it), the configuration's `dram` or `noc` section
// does not read (sim_config.h) or the trace cannot be written; a run-time
// deadlock is not an error here: the report says `deadlock` and what blocks.
// A timing model that cannot make progress under the configuration (a
// ModelStall, model_stall.h) stops the run: false, with its text in `error`
// and no report.
bool simulate(const assembler::Program& program, const ir::HardwareConfig& hw,
              const WorkloadTable& workloads, const SimOptions& options, Report& report,
              std::string& error);

}  // namespace gemini::sim
