#pragma once
// The top module: builds the mesh (cores, NoC, DRAM ports) for a program and
// a configuration, runs it, and turns the units' counters into a Report.
// Constructors build structure; the units' processes carry the behaviour.

#include <memory>
#include <string>
#include <vector>

#include "core_module.h"
#include "dram_module.h"
#include "gemini/sim/report.h"
#include "gemini/sim/workloads.h"
#include "noc_module.h"
#include "program_image.h"

namespace gemini::sim {

class System : public sc_core::sc_module {
 public:
  System(const sc_core::sc_module_name& name, const assembler::Program& program,
         const std::vector<CoreImage>& images, SimContext& ctx);
  // Runs to completion (or until nothing can progress) and fills `r`.
  // `until` > 0: stop once everything up to that time (ps) has happened.
  void run_and_report(const WorkloadTable& workloads, Tick until, Report& r);

 private:
  // The parts of run_and_report's report, each filling its own fields.
  void report_stats(Report& r) const;
  void report_cores(Report& r, Tick end) const;
  void report_dram(Report& r, Tick end) const;
  void report_noc(Report& r, Tick end) const;
  void report_chiplets(Report& r, Tick end) const;
  void report_energy(Report& r, Tick end) const;
  void report_power(Report& r, Tick end) const;
  void report_workloads(const WorkloadTable& workloads, Report& r) const;
  static void report_layers(Report& r);
  const assembler::Program& program_;
  SimContext& ctx_;
  std::unique_ptr<NocModule> noc_;
  std::vector<std::unique_ptr<DramModule>> ports_;
  std::vector<std::unique_ptr<CoreModule>> cores_;
};

// Resolves the configuration for a mesh into `ctx.params` and builds the
// NoC and DRAM models there (before the simulation starts); false with
// `error` when the `dram`, `noc` or `energy` section does not read (sim_config.h), the
// mesh cannot hold the program, or a model's parameters do not fit it.
bool resolve_params(const ir::HardwareConfig& hw, const assembler::Program& program,
                    std::int32_t xlen, std::int32_t ylen, Params& p, std::string& error);

}  // namespace gemini::sim
