#include "common.h"

#include <CLI/CLI.hpp>
#include <iostream>

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
  cmd.add_option("--hw", hw, "hardware configuration (configs/*.json)")->check(CLI::ExistingFile);
}

std::optional<ir::HardwareConfig> load_hw(const std::string& path) {
  if (path.empty()) return ir::HardwareConfig{};
  std::vector<std::string> errors;
  auto hw = ir::load_hw_config(path, errors);
  for (const auto& e : errors) std::cerr << e << "\n";
  return hw;
}

void print_diagnostics(std::ostream& os, const std::string& file, const ir::Diagnostics& d,
                       std::size_t limit) {
  std::size_t shown = 0;
  for (const ir::Diagnostic& x : d.items()) {
    if (shown++ >= limit) break;
    os << file;
    if (x.line) {
      os << ':' << *x.line << ':' << *x.column;
    } else if (!x.pointer.empty()) {
      os << ':' << x.pointer;
    }
    os << ": " << x.code() << ": " << ir::to_string(x.severity) << ": " << x.message << "\n";
  }
  const std::size_t total = d.errors() + d.warnings();
  if (total > shown)
    os << file << ": ... " << (total - std::min(shown, total))
       << " more not shown (--max-errors)\n";
}

std::optional<model::Network> load_model_file(const std::string& path) {
  ir::Diagnostics d(100);
  auto net = model::load_network(path, d);
  if (!net) {
    print_diagnostics(std::cerr, path, d, 20);
    std::cerr << path << ": the model file is invalid\n";
  }
  return net;
}

}  // namespace gemini::cli
