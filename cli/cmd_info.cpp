// gemini info FILE: what an IR file holds.
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <iomanip>
#include <iostream>

#include "commands.h"
#include "common.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/summary.h"

namespace gemini::cli {
namespace {

struct InfoOptions {
  std::string file;
  std::string dialect;
  bool json = false;
};

std::string human_bytes(std::int64_t b) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1);
  if (b >= (1 << 20)) {
    os << static_cast<double>(b) / (1 << 20) << " MiB";
  } else if (b >= 1024) {
    os << static_cast<double>(b) / 1024 << " KiB";
  } else {
    os << b << " B";
  }
  return os.str();
}

int run(const InfoOptions& opt) {
  ir::Diagnostics diags(20);
  ir::LoadOptions lo;
  lo.dialect = parse_dialect(opt.dialect);
  const ir::SummarizedFile f = ir::summarize_file(opt.file, lo, diags);
  const ir::LoadResult& res = f.load;
  if (!f.summary) {
    print_diagnostics(std::cerr, opt.file, diags, 20, 0);
    std::cerr << opt.file << ": cannot summarise; run `gemini validate` for the full list\n";
    return res.status == ir::LoadStatus::unreadable ? kExitUnreadable : kExitInvalid;
  }
  const ir::Model& m = res.model;
  const ir::Summary& s = *f.summary;

  if (opt.json) {
    const boost::json::object o = ir::summary_json(m, s, opt.file);
    std::cout << boost::json::serialize(o) << "\n";
    return kExitOk;
  }

  std::cout << opt.file << ": " << ir::to_string(m.dialect) << " dialect"
            << (res.compressed ? ", gzip" : "") << ", "
            << human_bytes(static_cast<std::int64_t>(res.bytes)) << " of JSON\n";
  std::cout << "mesh           " << s.xlen << " x " << s.ylen << " (" << s.xlen * s.ylen
            << " cores, " << s.cores_with_work << " with work)";
  if (m.buffersize) std::cout << ", L2 buffersize " << human_bytes(*m.buffersize);
  std::cout << "\n";
  std::cout << "workloads      " << s.workloads << " (";
  bool first = true;
  for (auto& [k, v] : s.workloads_by_kind) {
    std::cout << (first ? "" : ", ") << k << " " << v;
    first = false;
  }
  std::cout << "; by layer_type:";
  for (auto& [k, v] : s.workloads_by_layer_type) std::cout << " " << k << " " << v;
  std::cout << ")\n";
  std::cout << "layers         " << s.layers << " (";
  first = true;
  for (auto& [k, v] : s.layers_by_kind) {
    std::cout << (first ? "" : ", ") << k << " " << v;
    first = false;
  }
  std::cout << ")\n";
  auto line = [](const char* name, const ir::Summary::Traffic& t) {
    std::cout << name << human_bytes(t.bytes) << " in " << t.tensors << " tensors\n";
  };
  line("DRAM read      fmap   ", s.dram_read_fmap);
  line("DRAM read      weight ", s.dram_read_weight);
  line("DRAM written   fmap   ", s.dram_written);
  line("core to core          ", s.core_to_core);
  line("same core             ", s.same_core);
  std::cout << "per core       workloads / sum of predicted time (cycles)\n";
  for (auto& [core, n] : s.workloads_by_core)
    std::cout << "  core " << std::setw(4) << core << "  " << std::setw(6) << n << "  "
              << std::setw(12) << s.time_by_core.at(core) << "\n";
  std::cout << "busiest core   " << s.max_core_time << " cycles of predicted time\n";
  if (s.acyclic) {
    std::cout << "longest path   " << s.longest_path_time << " cycles through "
              << s.longest_path.size() << " workloads";
    if (!s.longest_path.empty())
      std::cout << ": " << s.longest_path.front() << " ... " << s.longest_path.back();
    std::cout << "\n";
  } else {
    std::cout << "longest path   none: the dependency graph has a cycle (see gemini validate)\n";
  }
  return kExitOk;
}

}  // namespace

Command add_info(CLI::App& app) {
  auto opt = std::make_shared<InfoOptions>();
  CLI::App* cmd = app.add_subcommand(
      "info",
      "Summarise an IR file: mesh, workloads, layers, DRAM and NoC traffic, predicted "
      "time per core and the longest dependency path.");
  cmd->add_option("file", opt->file, "IR file (.json or .json.gz, either dialect)")->required();
  add_dialect_option(*cmd, opt->dialect);
  cmd->add_flag("--json", opt->json, "print JSON");
  return [cmd, opt] { return cmd->parsed() ? run(*opt) : -1; };
}

}  // namespace gemini::cli
