#include "common.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "diagnostics_out.h"
#include "gemini/sim/sim_config.h"
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

namespace {
// Decimal digits only, in [lo, hi].
std::optional<std::uint64_t> parse_unsigned(const std::string& s, std::uint64_t lo,
                                            std::uint64_t hi) {
  std::uint64_t v = 0;
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
  return v;
}
}  // namespace

CLI::Option* add_unsigned_option(CLI::App& cmd, const std::string& name,
                                 std::function<void(std::uint64_t)> set, std::uint64_t lo,
                                 std::uint64_t hi, const std::string& description) {
  CLI::Option* o = cmd.add_option_function<std::string>(
      name, [set, lo, hi](const std::string& s) { set(*parse_unsigned(s, lo, hi)); }, description);
  o->type_name("UINT");
  o->check(CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        if (parse_unsigned(s, lo, hi)) return {};
        return "expected an unsigned integer in [" + std::to_string(lo) + ", " +
               std::to_string(hi) + "], got \"" + s + "\"";
      },
      ""));
  return o;
}

void add_memory_limit_option(CLI::App& cmd, ir::MemoryLimit& limit) {
  cmd.add_option_function<std::string>(
         "--memory-limit",
         [&limit](const std::string& s) { limit.bytes = *ir::parse_byte_size(s); },
         "memory the run may take for the data its input sizes, e.g. 16G or 512M (default: the "
         "machine's available memory); a run that needs more is refused before it starts")
      ->type_name("SIZE")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            if (ir::parse_byte_size(s)) return {};
            return "expected a size such as 16G, 512M or 1073741824 (bytes), got \"" + s + "\"";
          },
          ""));
}

bool output_dir_exists(const std::string& path, std::string& error) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (dir.empty() || std::filesystem::is_directory(dir, ec)) return true;
  error = "cannot write " + path + ": its directory " + dir.string() + " does not exist";
  return false;
}

bool write_output_file(const std::string& path, const std::function<void(std::ostream&)>& body,
                       std::string& error) {
  if (!output_dir_exists(path, error)) return false;
  std::ofstream os(path, std::ios::binary);
  if (os) body(os);
  if (!os) {
    error = "cannot write " + path;
    return false;
  }
  return true;
}

std::optional<ir::HardwareConfig> load_hw(const std::string& name) {
  if (name.empty()) return ir::HardwareConfig{};
  ir::ConfigErrors errors;
  const std::string path = resolve_config(name);
  auto hw = sim::load_hw_config(path.empty() ? name : path, errors);
  report_config_errors(errors);
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
  for (const ir::Diagnostic& x : d.items()) record(file, x);  // --diagnostics-json: all kept
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

bool model_file_readable(const std::string& path) {
  const std::optional<std::string> why = model::unreadable_model_file(path);
  if (!why) return true;
  std::cerr << path << ": " << *why << "\n";
  record_refusal(path, *why);
  return false;
}

std::optional<model::Network> load_model_file(const std::string& path, int& status) {
  status = kExitUnreadable;
  if (!model_file_readable(path)) return std::nullopt;
  ir::Diagnostics d(100);
  auto net = model::load_network(path, d);
  status = net ? kExitOk : kExitInvalid;
  if (!net) {
    print_diagnostics(std::cerr, path, d, 20, 20);
    std::cerr << path << ": the model file is invalid\n";
  }
  return net;
}

}  // namespace gemini::cli
