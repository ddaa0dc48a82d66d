// gemini ref: every layer of a network computed on the CPU from its model
// file alone (docs/numerics.md), written as raw int8 files with an index.
#include <chrono>
#include <iomanip>
#include <iostream>

#include "commands.h"
#include "common.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"
#include "gemini/model/stats.h"

namespace gemini::cli {
namespace {

struct RefOptions {
  std::string model, out;
  std::uint64_t seed = 1;
  unsigned threads = 0;
  bool quiet = false;
};

int run_ref(const RefOptions& opt) {
  auto net = load_model_file(opt.model);
  if (!net) return kExitInvalid;
  const auto t0 = std::chrono::steady_clock::now();
  const model::Reference r = model::compute_reference(*net, opt.seed, opt.threads);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string error;
  if (!opt.out.empty() && !model::write_reference(r, *net, opt.out, error)) {
    std::cerr << "gemini ref: " << error << "\n";
    return kExitUnreadable;
  }
  if (opt.quiet) return kExitOk;
  const std::int64_t macs = model::network_macs(*net);
  std::cout << net->ops.size() << " layers of " << opt.model << " computed in " << std::fixed
            << std::setprecision(3) << secs << " s (" << std::setprecision(2)
            << static_cast<double>(macs) / 1e9 << " GMAC, "
            << static_cast<double>(macs) / 1e9 / std::max(secs, 1e-9) << " GMAC/s), seed "
            << opt.seed << "\n";
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
      "Compute every layer of a network on the CPU from its model file alone (the reference the "
      "functional simulator and the CUDA backend are compared with; docs/numerics.md).");
  s->add_option("--model", opt->model, "layer-semantics model file (ARK format)")->required();
  s->add_option("--seed", opt->seed, "seed of the generated inputs and weights (default 1)");
  s->add_option("-o,--output", opt->out,
                "write the layer outputs and index.json into this directory");
  s->add_option("--threads", opt->threads, "threads (default: all)");
  s->add_flag("-q,--quiet", opt->quiet, "print nothing on success");
  return [s, opt] { return s->parsed() ? run_ref(*opt) : -1; };
}

}  // namespace gemini::cli
