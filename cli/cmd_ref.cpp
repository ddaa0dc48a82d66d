// gemini ref: every layer of a network computed on the CPU from its model
// file alone (docs/numerics.md), written as raw int8 files with an index.
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "common.h"
#include "diagnostics_out.h"
#include "gemini/gpu/libcheck.h"
#include "gemini/gpu/plan_build.h"
#include "gemini/gpu/plan_exec.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"
#include "gemini/model/stats.h"
#include "pipeline.h"
#include "ref_progress.h"

namespace gemini::cli {
namespace {

struct RefOptions {
  std::string model, out, plan, backend;
  std::uint64_t seed = 1;
  unsigned threads = 0;
  bool quiet = false;
  bool progress = false;  // --progress: lines on stderr in a pipe or log too
  bool check_libraries = false;
  ir::MemoryLimit memory_limit;
};

int run_ref(const RefOptions& opt) {
  const auto started = std::chrono::steady_clock::now();
  int status = kExitOk;
  auto net = load_model_file(opt.model, status);
  if (!net) return status;
  RefProgress progress(progress_mode(opt.progress, opt.quiet), *net, started);
  const model::LayerDone layer_done = [&progress](std::int32_t op) { progress.layer_done(op); };
  // Everything the reference keeps, known before any of it is taken.
  std::string detail;
  if (auto why = ir::exceeds(opt.memory_limit, model::reference_bytes(*net, &detail),
                             "computing the reference", detail)) {
    std::cerr << opt.model << ": " << *why << "\n";
    record_refusal(opt.model, *why);
    return kExitInvalid;
  }
  if (opt.check_libraries) {
    // Our CUDA kernels and NVIDIA's libraries against the CPU reference.
    std::string why;
    auto cuda = gpu::make_backend("cuda", why);
    if (!cuda) {
      std::cerr << "gemini ref: --check-libraries needs a GPU: " << why << "\n";
      return kExitUnreadable;
    }
    const model::Reference ref = model::compute_reference(*net, opt.seed, opt.threads, layer_done);
    progress.done();
    const gpu::LibCheckReport lc = gpu::library_check(*net, ref, opt.seed, *cuda);
    gpu::print_library_check(std::cout, lc);
    return lc.passed() ? kExitOk : kExitInvalid;
  }
  model::Reference r;
  std::string where = "the CPU", breakdown;
  auto t0 = std::chrono::steady_clock::now();
  if (opt.plan.empty() && opt.backend.empty()) {
    r = model::compute_reference(*net, opt.seed, opt.threads, layer_done);
  } else {
    // A plan on a backend: the given one, or one task per layer.
    const std::string name = opt.backend.empty() ? "cpu" : opt.backend;
    std::string why;
    auto backend = gpu::make_backend(name, why);
    if (!backend) {
      std::cerr << "gemini ref: the " << name << " backend cannot run here: " << why << "\n";
      return kExitUnreadable;
    }
    ir::Diagnostics d(100);
    std::optional<gpu::Plan> plan;
    if (!opt.plan.empty()) {
      plan = gpu::load_plan(opt.plan, d);
    } else {
      std::ifstream is(opt.model, std::ios::binary);
      std::ostringstream ss;
      ss << is.rdbuf();
      boost::system::error_code ec;
      const boost::json::value doc = boost::json::parse(ss.str(), ec);
      plan = gpu::whole_layer_plan(*net, ec ? boost::json::value() : doc);
    }
    gpu::PlanRunStats st;
    std::optional<model::Reference> got;
    t0 = std::chrono::steady_clock::now();
    if (plan) got = gpu::run_plan(*plan, *net, opt.seed, *backend, d, &st, layer_done);
    progress.done();
    if (!got) {
      print_diagnostics(std::cerr, opt.plan.empty() ? opt.model : opt.plan, d, 20, 20);
      std::cerr << "gemini ref: the plan cannot be run\n";
      return kExitInvalid;
    }
    r = std::move(*got);
    char split[160];
    std::snprintf(split, sizeof split,
                  "; of it %.3f s computing, %.3f s moving data, %.3f s on the host, %.3f s "
                  "generating",
                  st.backend_seconds, st.transfer_seconds, st.host_seconds, st.generate_seconds);
    where = std::string("the ") + backend->name() + " backend (" + backend->device() + "), " +
            std::to_string(st.tasks) + " tasks of " +
            (opt.plan.empty() ? std::string("one per layer") : opt.plan);
    breakdown = split;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  progress.done();
  std::string error;
  if (!opt.out.empty() && !model::write_reference(r, *net, opt.out, error)) {
    std::cerr << "gemini ref: " << error << "\n";
    record_refusal(opt.out, error);
    return kExitUnreadable;
  }
  if (opt.quiet) return kExitOk;
  const std::int64_t macs = model::network_macs(*net);
  std::cout << net->ops.size() << " layers of " << opt.model << " computed on " << where << " in "
            << std::fixed << std::setprecision(3) << secs << " s (" << std::setprecision(2)
            << static_cast<double>(macs) / 1e9 << " GMAC, "
            << static_cast<double>(macs) / 1e9 / std::max(secs, 1e-9) << " GMAC/s" << breakdown
            << "), seed " << opt.seed << "\n";
  std::cout << std::left << std::setw(24) << "layer" << std::setw(15) << "type" << std::setw(22)
            << "shape" << std::right << std::setw(6) << "shift" << std::setw(10) << "saturated"
            << std::setw(9) << "values"
            << "  digest\n";
  for (std::int32_t i : net->order) {
    const model::Op& op = net->ops[static_cast<std::size_t>(i)];
    const model::Tensor8& t = r.outputs[static_cast<std::size_t>(i)];
    const model::ValueStats s = model::value_stats(t.data);
    std::cout << std::left << std::setw(24) << op.name << std::setw(15) << model::to_string(op.type)
              << std::setw(22) << model::to_string(t.shape) << std::right << std::setw(6)
              << r.numerics[static_cast<std::size_t>(i)].shift << std::setw(9)
              << std::setprecision(2) << 100.0 * s.saturated_fraction() << "%" << std::setw(9)
              << s.distinct << "  crc32:" << model::digest(t.data) << "\n";
  }
  if (!opt.out.empty()) std::cout << "written to " << opt.out << " (index.json)\n";
  return kExitOk;
}

}  // namespace

Command add_ref(CLI::App& app) {
  auto opt = std::make_shared<RefOptions>();
  CLI::App* s = app.add_subcommand(
      "ref",
      "Compute every layer of a network from its model file alone (the reference the functional "
      "simulator is compared with; docs/numerics.md): on the CPU, or by an ARK plan on a "
      "backend (docs/gpu.md).");
  s->add_option("--model", opt->model, "layer-semantics model file (ARK format)")->required();
  add_unsigned_option(*s, "--seed", opt->seed, 0, UINT64_MAX,
                      "seed of the generated inputs and weights (default 1)");
  add_memory_limit_option(*s, opt->memory_limit);
  s->add_option("-o,--output", opt->out,
                "write the layer outputs and index.json into this directory");
  add_unsigned_option(*s, "--threads", opt->threads, 0, 4096, "threads (default 0: all)");
  s->add_option("--plan", opt->plan,
                "run this ARK plan (gemini plan) task by task on --backend (default cpu)");
  s->add_option("--backend", opt->backend,
                "cpu or cuda: compute through the backend's per-element kernels, by --plan or "
                "one task per layer (default: the CPU reference's fast kernels)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  s->add_flag("--check-libraries", opt->check_libraries,
              "on a GPU: compute every convolution and FC layer with cuDNN / cuBLAS and with the "
              "cuda backend's kernels, and compare their int32 sums with the CPU reference's");
  s->add_flag("-q,--quiet", opt->quiet, "print nothing on success (no progress bar either)");
  s->add_flag("--progress", opt->progress,
              "show the progress on stderr in a pipe or a log too: a line every few seconds "
              "(layers done, GMAC and their rate, time left); on a terminal a bar is shown "
              "anyway unless -q");
  return [s, opt] { return s->parsed() ? run_ref(*opt) : -1; };
}

}  // namespace gemini::cli
