// gemini import IN -o OUT: complete a public-dialect IR into the full dialect
// (L2 / WL0 allocation, tensor order, tiling) and write it.
#include <iomanip>
#include <iostream>
#include <optional>

#include "commands.h"
#include "common.h"
#include "gemini/ir/import.h"
#include "gemini/ir/validator.h"
#include "gemini/ir/writer.h"
#include "gemini/model/network.h"
#include "gemini/model/semantics.h"

namespace gemini::cli {
namespace {

struct ImportOptions {
  std::string in, out, hw, dialect, model, allocation;
  std::int64_t buffersize = 0;
  bool quiet = false;
  bool as_scheduler = false;
};

std::string kib(std::int64_t b) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << static_cast<double>(b) / 1024.0;
  return os.str();
}

int run(const ImportOptions& opt) {
  auto hw = load_hw(opt.hw);
  if (!hw) return kExitUnreadable;
  ir::Diagnostics diags(100);
  ir::LoadOptions lo;
  lo.dialect = parse_dialect(opt.dialect);
  ir::CheckedFile f = ir::load_and_validate(opt.in, lo, *hw, diags);
  if (f.load.status != ir::LoadStatus::ok || diags.errors() > 0) {
    print_diagnostics(std::cerr, opt.in, diags, 20, 0);
    std::cerr << opt.in << ": not imported: the input is invalid (gemini validate lists all)\n";
    return f.load.status == ir::LoadStatus::unreadable ? kExitUnreadable : kExitInvalid;
  }
  std::optional<model::Network> net;
  std::optional<ir::Model> original;  // --as-scheduler: the schedule as loaded
  if (!opt.model.empty()) {
    // The layer semantics first: the corrected schedule is what gets
    // allocated and written (weight tensors a quirk left out included);
    // --as-scheduler writes that allocation with the quirks put back.
    int status = kExitOk;
    net = load_model_file(opt.model, status);
    if (!net) return status;
    ir::Diagnostics sd(100);
    if (opt.as_scheduler) original = f.load.model;
    model::correct_and_check(f.load.model, *net, sd, &*hw);
    print_diagnostics(std::cerr, opt.in, sd, 20, 20);
    if (sd.errors() > 0) {
      std::cerr << opt.in << ": not imported: the schedule does not compute " << opt.model << "\n";
      return kExitInvalid;
    }
    // Weight boxes in the specification's layout, C and R*S from the layer.
    model::write_weight_boxes(f.load.model, *net);
  }
  const bool was_full = f.load.model.dialect == ir::Dialect::full;
  ir::ImportOptions io;
  if (opt.buffersize > 0) io.buffersize = opt.buffersize;
  io.allocation = ir::l2_allocation_from(opt.allocation).value_or(ir::L2Allocation::prefetch);
  ir::Diagnostics idiags(1000);
  auto rep = ir::import_model(f.load.model, *hw, io, idiags);
  print_diagnostics(std::cerr, opt.in, idiags, 50, 50);
  if (!rep) {
    std::cerr << opt.in << ": not imported: the schedule does not fit --buffersize "
              << opt.buffersize << "\n";
    return kExitInvalid;
  }
  // The full dialect as the scheduler's IR generator writes it: its quirks
  // (with the model: put back after allocating the corrected schedule), and
  // a buffer entry does not name the workload it is held for
  // (gemini-ir-format.md).
  if (original) {
    if (!model::keep_quirks(f.load.model, *original)) {
      std::cerr << opt.in
                << ": --as-scheduler: internal error: the corrections changed the "
                   "schedule's structure\n";
      return kExitInvalid;
    }
    model::write_weight_boxes(f.load.model, *net);
  }
  if (opt.as_scheduler) ir::drop_entry_workload_ids(f.load.model);
  std::string err;
  if (!ir::write_full_file(f.load.model, opt.out, err)) {
    std::cerr << "gemini import: " << err << "\n";
    return kExitUnreadable;
  }
  if (opt.quiet) return kExitOk;
  if (was_full) {
    std::cout << opt.in << ": already in the full dialect; written unchanged to " << opt.out
              << "\n";
    return kExitOk;
  }
  std::cout << opt.in << " -> " << opt.out << ": L2 buffersize " << rep->buffersize << " bytes";
  if (!rep->fits)
    std::cout << " (grown from " << rep->configured_buffersize << ": the schedule does not fit)";
  std::cout << ", WL0 " << hw->wl0.size_bytes << " bytes\n";
  std::cout << "core  tensors  live-peak KiB  alloc-peak KiB  ratio  frag   strategy            "
               "wl0-peak  streamed\n";
  std::int64_t worst_live = 0, worst_alloc = 0;
  double worst_ratio = 0;
  std::size_t streamed = 0;
  for (const auto& c : rep->cores) {
    const double ratio = c.live_peak > 0
                             ? static_cast<double>(c.alloc_peak) / static_cast<double>(c.live_peak)
                             : 1.0;
    worst_ratio = std::max(worst_ratio, ratio);
    worst_live = std::max(worst_live, c.live_peak);
    worst_alloc = std::max(worst_alloc, c.alloc_peak);
    streamed += c.streamed_weights;
    std::cout << std::setw(4) << c.core_id << std::setw(9) << c.tensors << std::setw(15)
              << kib(c.live_peak) << std::setw(16) << kib(c.alloc_peak) << std::setw(7)
              << std::fixed << std::setprecision(3) << ratio << std::setw(6) << std::setprecision(1)
              << 100.0 * c.fragmentation() << "%  " << std::left << std::setw(18)
              << (std::string(ir::to_string(c.strategy)) + (c.wrapped ? "+ring" : "")) << std::right
              << std::setw(10) << c.wl0_peak << std::setw(10) << c.streamed_weights << "\n";
  }
  std::cout << "max live peak " << kib(worst_live) << " KiB, max allocated peak "
            << kib(worst_alloc) << " KiB, worst ratio " << std::setprecision(3) << worst_ratio
            << "; " << rep->tensors_with_order << " loaded tensors ordered; " << streamed
            << " weights larger than WL0 streamed through it in chunks\n";
  print_allocation_summary(std::cout, *rep);
  return kExitOk;
}

}  // namespace

Command add_import(CLI::App& app) {
  auto opt = std::make_shared<ImportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "import",
      "Complete a public-dialect IR into the full dialect: L2 and WL0 allocation, "
      "tensor order, tiling (docs/allocation.md). Writes .json or .json.gz by name.");
  cmd->add_option("input", opt->in, "IR file (either dialect, .json or .json.gz)")->required();
  cmd->add_option("-o,--output", opt->out, "output file (.json or .json.gz)")->required();
  add_hw_option(*cmd, opt->hw);
  add_unsigned_option(
      *cmd, "--buffersize", opt->buffersize, 1, ir::kMaxMemoryBytes,
      "L2 bytes per core (overrides the configuration; not fitting is then an error)");
  add_dialect_option(*cmd, opt->dialect);
  add_allocation_option(*cmd, opt->allocation);
  cmd->add_option("--model", opt->model,
                  "layer-semantics model file: check the schedule against it and correct the "
                  "scheduler's known quirks before allocating (M-codes, docs/validation.md)");
  cmd->add_flag("--as-scheduler", opt->as_scheduler,
                "write the file as the scheduler's own IR generator would: its known quirks "
                "(Q1-Q3) kept as the input has them (--model only checks them), buffer entries "
                "without the public dialect's workload_id; addresses allocated as usual");
  cmd->add_flag("-q,--quiet", opt->quiet, "print no summary");
  return [cmd, opt] { return cmd->parsed() ? run(*opt) : -1; };
}

}  // namespace gemini::cli
