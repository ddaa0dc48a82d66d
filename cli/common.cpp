#include "common.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "install_paths.h"

namespace gemini::cli {

std::optional<ir::Dialect> parse_dialect(const std::string& s) {
  if (s == "full") return ir::Dialect::full;
  if (s == "set") return ir::Dialect::set;
  return std::nullopt;
}

void add_dialect_option(CLI::App& cmd, std::string& dialect) {
  cmd.add_option("--dialect", dialect, "force the input dialect instead of detecting it")
      ->check(CLI::IsMember({"full", "set"}));
}

void add_hw_option(CLI::App& cmd, std::string& hw) {
  cmd.add_option("--hw", hw,
                 "hardware configuration: a file, or the name of an installed one (set-polar)")
      ->check(CLI::Validator(
          [](const std::string& s) {
            return resolve_config(s).empty()
                       ? "no such file, nor an installed configuration (" + known_configs() + ")"
                       : std::string();
          },
          "FILE|NAME"));
}

void add_allocation_option(CLI::App& cmd, std::string& allocation) {
  cmd.add_option("--l2-allocation", allocation,
                 "how a public-dialect file's tensors are placed in L2: prefetch (default: each "
                 "load's bytes free while the workload before it computes, where L2 has room) or "
                 "tight (the tightest packing; docs/allocation.md)")
      ->check(CLI::IsMember({"prefetch", "tight"}));
}

void print_allocation_summary(std::ostream& os, const ir::ImportReport& r) {
  const ir::WarStats w = r.war(), t = r.war_tight();
  std::int64_t live = 0, failed = 0, moved = 0;
  for (const ir::CoreImport& c : r.cores) {
    live = std::max(live, c.live_peak);
    failed += c.prefetch_failed ? 1 : 0;
    moved += static_cast<std::int64_t>(c.repaired);
  }
  auto kib = [](std::int64_t b) {
    return std::to_string((b * 10 + 512) / 1024 / 10) + "." +
           std::to_string((b * 10 + 512) / 1024 % 10);
  };
  os << "L2 allocation " << ir::to_string(r.allocation) << ": " << w.waits << " of " << w.loads
     << " loads wait for the workload before them to free their bytes (tight packing: " << t.waits
     << "), " << w.forced << " of them forced by capacity (tight: " << t.forced
     << "); allocated peak " << kib(r.alloc_peak()) << " KiB of a " << kib(r.buffersize)
     << " KiB buffer, live-data peak " << kib(live) << " KiB";
  if (failed > 0)
    os << "; " << failed << " cores full at their peak: tight packing with " << moved
       << " loads moved out of the previous workload's bytes";
  os << "\n";
}

std::optional<ir::HardwareConfig> load_hw(const std::string& name) {
  if (name.empty()) return ir::HardwareConfig{};
  std::vector<std::string> errors;
  const std::string path = resolve_config(name);
  auto hw = ir::load_hw_config(path.empty() ? name : path, errors);
  for (const auto& e : errors) std::cerr << e << "\n";
  return hw;
}

namespace {
void print_location(std::ostream& os, const std::string& file, const ir::Diagnostic& x) {
  os << file;
  if (x.line) {
    os << ':' << *x.line << ':' << *x.column;
  } else if (!x.pointer.empty()) {
    os << ':' << x.pointer;
  }
}
}  // namespace

void print_diagnostics(std::ostream& os, const std::string& file, const ir::Diagnostics& d,
                       std::size_t max_errors, std::size_t max_warnings) {
  std::vector<std::size_t> shown(ir::all_checks().size(), 0);
  for (const ir::Severity severity : {ir::Severity::error, ir::Severity::warning}) {
    const std::size_t limit = severity == ir::Severity::error ? max_errors : max_warnings;
    std::size_t n = 0;
    for (const ir::Diagnostic& x : d.items()) {
      if (x.severity != severity || n >= limit) continue;
      ++n;
      ++shown[static_cast<std::size_t>(x.check)];
      print_location(os, file, x);
      os << ": " << x.code() << ": " << ir::to_string(x.severity) << ": " << x.message << "\n";
    }
    // The rest, one line per check.
    for (const ir::CheckInfo& c : ir::all_checks()) {
      if (c.severity != severity) continue;
      const ir::Diagnostics::Tally& t = d.tally(c.check);
      const std::size_t left = t.count - shown[static_cast<std::size_t>(c.check)];
      if (left == 0 || !t.first) continue;
      print_location(os, file, *t.first);
      if (t.count == 1) {  // its one line is the diagnostic itself
        os << ": " << c.code << ": " << ir::to_string(severity) << ": " << t.first->message << "\n";
        continue;
      }
      os << ": " << c.code << ": " << ir::to_string(severity) << ": " << c.name << ": " << t.count
         << " in all, " << left << " not shown; the first is here ("
         << (severity == ir::Severity::error ? "--max-errors" : "--max-warnings") << ")\n";
    }
  }
}

std::optional<model::Network> load_model_file(const std::string& path) {
  ir::Diagnostics d(100);
  auto net = model::load_network(path, d);
  if (!net) {
    print_diagnostics(std::cerr, path, d, 20, 20);
    std::cerr << path << ": the model file is invalid\n";
  }
  return net;
}

}  // namespace gemini::cli
