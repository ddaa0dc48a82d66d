// gemini sim: IR -> programs -> cycle-level simulation -> report.
#include <fstream>
#include <iostream>

#include "commands.h"
#include "common.h"
#include "diagnostics_out.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/simulator.h"
#include "pipeline.h"
#include "semantics.h"

namespace gemini::cli {
namespace {

struct SimCliOptions {
  std::string in, hw, dialect, report, trace, dram_trace, csv, allocation, power_csv;
  std::int64_t expect = -1;
  double expect_energy = -1;  // pJ
  std::int64_t until = 0;
  bool quiet = false;
  bool progress = false;  // --progress: lines on stderr in a pipe or log too
  SemanticsOptions semantics;
  bool functional = false;
  bool power = false;
  double power_window_ns = 0;  // 0: the default
};

template <typename Fn>
bool write_file(const std::string& path, Fn&& fn) {
  std::string error;
  if (write_output_file(path, fn, error)) return true;
  std::cerr << "gemini sim: " << error << "\n";
  record_refusal(path, error);
  return false;
}

int run_sim(const SimCliOptions& opt) {
  auto hw = load_hw(opt.hw);
  if (!hw) return kExitUnreadable;
  // Where the outputs go must exist before a long run starts (exit 2 as
  // for any output that cannot be written).
  for (const std::string* out : {&opt.report, &opt.trace, &opt.dram_trace, &opt.csv, &opt.power_csv}) {
    std::string error;
    if (!out->empty() && !output_dir_exists(*out, error)) {
      std::cerr << "gemini sim: " << error << "\n";
      record_refusal(*out, error);
      return kExitUnreadable;
    }
  }
  int status = kExitOk;
  StatusLine line(progress_mode(opt.progress, opt.quiet));
  if (opt.functional && opt.semantics.model.empty()) {
    std::cerr << "gemini sim: --functional needs --model (the layer semantics)\n";
    record_refusal("", "--functional needs --model (the layer semantics)");
    return kExitUnreadable;
  }
  std::unique_ptr<Semantics> semantics;
  if (!opt.semantics.model.empty()) {
    line.phase("computing the reference");
    semantics = load_semantics(opt.semantics, status);
    if (!semantics) return status;
  }
  ir::ImportOptions io;
  io.allocation = ir::l2_allocation_from(opt.allocation).value_or(ir::L2Allocation::prefetch);
  auto lowered = load_and_lower(opt.in, *hw, opt.dialect, "not simulated", status, &line, {},
                                semantics.get(), opt.quiet, io);
  if (!lowered) return status;
  sim::SimOptions so;
  so.input_name = opt.in;
  so.trace_path = opt.trace;
  so.dram_trace_path = opt.dram_trace;
  so.progress = line.mode();
  so.progress_since = line.since();
  line.phase("simulating");
  so.until_cycles = opt.until;
  so.xlen = lowered->model.xlen;
  so.ylen = lowered->model.ylen;
  so.memory_limit = opt.semantics.memory_limit;
  so.model = &lowered->model;
  so.power.enabled = opt.power || opt.power_window_ns > 0 || !opt.power_csv.empty();
  so.power.window_ns = opt.power_window_ns;
  if (opt.functional) {
    so.network = &semantics->net;
    so.reference = &semantics->ref;
  }
  sim::Report report;
  std::string error;
  PhaseTimer timer;
  if (!sim::simulate(lowered->program, *hw, sim::workload_table(lowered->model), so, report,
                     error)) {
    std::cerr << opt.in << ": not simulated: " << error << "\n";
    record_refusal(opt.in, "not simulated: " + error);
    // The trace writer names its file first: an output that cannot be
    // written, not an invalid input.
    const bool trace_failed = (!opt.trace.empty() && error.starts_with(opt.trace + ": ")) ||
                              (!opt.dram_trace.empty() && error.starts_with(opt.dram_trace));
    return trace_failed ? kExitUnreadable : kExitInvalid;
  }
  timer.mark("simulate");
  if (report.functional.enabled) report.functional.quirks = semantics->quirks.named();
  if (opt.expect >= 0) report.expect_cycles = opt.expect;
  if (opt.expect_energy >= 0) report.expect_energy_pj = opt.expect_energy;
  if (const auto& imp = lowered->import_report) {
    sim::L2AllocationSummary a;
    a.strategy = ir::to_string(imp->allocation);
    const ir::WarStats w = imp->war(), t = imp->war_tight();
    a.loads = w.loads;
    a.waits = w.waits;
    a.forced = w.forced;
    a.waits_tight = t.waits;
    a.forced_tight = t.forced;
    a.alloc_peak = imp->alloc_peak();
    a.buffer = imp->buffersize;
    for (const ir::CoreImport& c : imp->cores) a.live_peak = std::max(a.live_peak, c.live_peak);
    report.l2_allocation = a;
  }
  if (!opt.quiet) sim::print_report(std::cout, report);
  if (!opt.report.empty() &&
      !write_file(opt.report, [&](std::ostream& os) { sim::write_report_json(os, report, true); }))
    return kExitUnreadable;
  if (!opt.csv.empty() &&
      !write_file(opt.csv, [&](std::ostream& os) { sim::write_workload_csv(os, report); }))
    return kExitUnreadable;
  if (!opt.power_csv.empty() &&
      !write_file(opt.power_csv, [&](std::ostream& os) { sim::write_power_csv(os, report); }))
    return kExitUnreadable;
  if (report.deadlock) {
    std::cerr << opt.in << ": deadlock at cycle " << report.total_cycles
              << ": nothing can progress\n";
    for (const std::string& b : report.blocked) std::cerr << "  " << b << "\n";
    return kExitInvalid;
  }
  if (report.functional.enabled && !report.functional.passed()) {
    if (opt.quiet) sim::print_functional(std::cerr, report.functional);
    std::cerr << opt.in
              << ": the programs do not compute the network: " << report.functional.mismatches()
              << " mismatches, " << report.functional.fault_count << " faults, "
              << report.functional.incomplete() << " layers computed in part or not at all\n";
    return kExitInvalid;
  }
  keep_until_exit(std::move(*lowered));
  return kExitOk;
}

}  // namespace

Command add_sim(CLI::App& app) {
  auto opt = std::make_shared<SimCliOptions>();
  CLI::App* s = app.add_subcommand(
      "sim",
      "Simulate an IR (either dialect) on the cycle-level model of the mesh and print where the "
      "time goes (docs/timing-model.md).");
  s->add_option("input", opt->in, "IR file")->required();
  s->add_flag_callback(
      "--list-params",
      [] {
        sim::print_params(std::cout);
        throw CLI::Success();
      },
      "list every parameter of a hardware configuration (each component's, each DRAM and "
      "NoC model's), and exit");
  add_hw_option(*s, opt->hw);
  add_dialect_option(*s, opt->dialect);
  add_allocation_option(*s, opt->allocation);
  s->add_option("--report", opt->report, "write the JSON report here");
  s->add_option("--trace", opt->trace, "write a Chrome trace-event JSON here (Perfetto)");
  s->add_option("--dram-trace", opt->dram_trace,
                "write every DRAM request here (time, port, R/W, address, bytes) and each "
                "port's Ramulator 2 LoadStoreTrace beside it (FILE.portP.trace)");
  s->add_option("--csv", opt->csv, "write one line per workload here");
  s->add_flag("--power", opt->power,
              "power over time: the energy in windows per core, die and package; peak and "
              "average in the report, counter tracks in --trace (docs/timing-model.md)");
  s->add_option("--power-window", opt->power_window_ns,
                "the power windows' length in ns (implies --power; default: the run in at most "
                "200 windows of 10 ns x 2^k)")
      ->check(CLI::Range(1e-3, 1e15));
  s->add_option("--power-csv", opt->power_csv,
                "write the power windows here, per package, DRAM, die and core (implies --power)");
  add_unsigned_option(*s, "--expect-cycles", opt->expect, 0, INT64_MAX,
                      "the scheduler's whole-network estimate, to compare with");
  s->add_option("--expect-energy", opt->expect_energy,
                "the scheduler's energy estimate in pJ (manifest.csv's set_energy), to compare "
                "with")
      ->check(CLI::Range(0.0, 1e30));
  add_unsigned_option(*s, "--until-cycles", opt->until, 1, INT64_MAX,
                      "stop after N cycles and list what is still waiting (debugging)");
  s->add_flag("-q,--quiet", opt->quiet, "print nothing on success (and no progress bar)");
  s->add_flag("--progress", opt->progress,
              "show progress on stderr in a pipe or a log too: a line every few seconds "
              "(simulated time, workloads finished, host rate, time left; a bar on a terminal, "
              "even with -q)");
  add_semantics_options(*s, opt->semantics, true);
  s->add_flag("--functional", opt->functional,
              "move real bytes and compute every tile; compare with the reference from --model "
              "(exit 1 on any mismatch)");
  return [s, opt] { return s->parsed() ? run_sim(*opt) : -1; };
}

}  // namespace gemini::cli
