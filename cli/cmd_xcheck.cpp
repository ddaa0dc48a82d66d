// gemini xcheck: the simulator's tile operations against a reference
// backend, bit for bit (gpu_backend/, xcheck.h).
#include <iostream>

#include "commands.h"
#include "common.h"
#include "gemini/gpu/xcheck.h"
#include "gemini/sim/simulator.h"
#include "pipeline.h"
#include "semantics.h"

namespace gemini::cli {
namespace {

struct XCheckCliOptions {
  std::string in, hw, dialect, backend = "cuda";
  SemanticsOptions semantics;
  std::size_t sample = 0;
  bool json = false;
  bool progress = false;  // --progress: lines on stderr in a pipe or log too
};

int run_xcheck(const XCheckCliOptions& opt) {
  auto hw = load_hw(opt.hw);
  if (!hw) return kExitUnreadable;
  std::string why;
  auto backend = gpu::make_backend(opt.backend, why);
  if (!backend) {
    std::cerr << "gemini xcheck: the " << opt.backend << " backend cannot run here: " << why
              << (opt.backend == "cuda" ? " (--backend cpu runs on the host)" : "") << "\n";
    return kExitUnreadable;
  }
  int status = kExitOk;
  StatusLine line(progress_mode(opt.progress, false));
  line.phase("computing the reference");
  std::unique_ptr<Semantics> semantics = load_semantics(opt.semantics, status);
  if (!semantics) return status;
  auto lowered = load_and_lower(opt.in, *hw, opt.dialect, "not checked", status, &line, {},
                                semantics.get(), true);
  if (!lowered) return status;
  gpu::XCheckOptions xo;
  xo.sample = opt.sample;
  xo.seed = opt.semantics.seed;
  gpu::XCheck check(*backend, lowered->program, semantics->net, xo);
  sim::SimOptions so;
  so.input_name = opt.in;
  so.xlen = lowered->model.xlen;
  so.ylen = lowered->model.ylen;
  so.network = &semantics->net;
  so.reference = &semantics->ref;
  so.tiles = &check;
  so.memory_limit = opt.semantics.memory_limit;
  so.progress = line.mode();
  so.progress_since = line.since();
  line.phase("simulating");
  sim::Report report;
  std::string error;
  if (!sim::simulate(lowered->program, *hw, sim::workload_table(lowered->model), so, report,
                     error)) {
    std::cerr << opt.in << ": not checked: " << error << "\n";
    return kExitInvalid;
  }
  line.phase("checking");
  const gpu::XCheckReport r = check.finish();
  line.clear();
  if (opt.json) {
    std::cout << gpu::xcheck_json(r) << "\n";
  } else {
    gpu::print_xcheck(std::cout, r);
  }
  keep_until_exit(std::move(*lowered));
  if (!r.error.empty()) return kExitUnreadable;
  return r.passed() ? kExitOk : kExitInvalid;
}

}  // namespace

Command add_xcheck(CLI::App& app) {
  auto opt = std::make_shared<XCheckCliOptions>();
  CLI::App* s = app.add_subcommand(
      "xcheck",
      "Recompute the tile operations the simulator's functional PE and VP compute (all, or a "
      "seeded sample) on a reference backend from the same inputs and compare bit for bit. "
      "Exit 0 all equal, 1 a mismatch, 2 the backend cannot run.");
  s->add_option("input", opt->in, "IR file")->required();
  add_hw_option(*s, opt->hw);
  add_dialect_option(*s, opt->dialect);
  add_semantics_options(*s, opt->semantics, true);
  s->get_option("--model")->required();
  s->add_option("--backend", opt->backend, "cuda (default) or cpu")
      ->check(CLI::IsMember({"cuda", "cpu"}));
  add_unsigned_option(*s, "--sample", opt->sample, 1, INT64_MAX,
                      "check N tile operations drawn by --seed instead of every one");
  s->add_flag("--json", opt->json, "print the result as one JSON document");
  s->add_flag("--progress", opt->progress,
              "show the simulation's progress on stderr in a pipe or a log too: a line every "
              "few seconds (a bar on a terminal)");
  return [s, opt] { return s->parsed() ? run_xcheck(*opt) : -1; };
}

}  // namespace gemini::cli
