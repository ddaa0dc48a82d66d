#pragma once
// Helpers shared by the subcommands: dialect and hardware options, and the
// printing of diagnostics.

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/import.h"
#include "gemini/ir/model.h"
#include "gemini/model/network.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace gemini::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitUnreadable = 2;

std::optional<ir::Dialect> parse_dialect(const std::string& s);  // "" -> nullopt
// The options every IR-reading subcommand shares: --dialect (full|set) and
// --hw (a hardware configuration file, or an installed one by name).
void add_dialect_option(CLI::App& cmd, std::string& dialect);
void add_hw_option(CLI::App& cmd, std::string& hw);
// --l2-allocation prefetch|tight: how a public-dialect file's tensors are
// placed in L2 (docs/allocation.md); `out` gets the choice.
void add_allocation_option(CLI::App& cmd, std::string& allocation);
// One line on the import's L2 allocation: its write-after-read waits
// (loads that wait for the workload before them to free their bytes), with
// the tight packing's beside them, how many capacity forces, and the
// allocated peak against the buffer.
void print_allocation_summary(std::ostream& os, const ir::ImportReport& r);
// An option taking an unsigned integer in [lo, hi]: decimal digits only (no
// sign, exponent or fraction); anything else is a usage error that names
// the option and the range.
CLI::Option* add_unsigned_option(CLI::App& cmd, const std::string& name,
                                 std::function<void(std::uint64_t)> set, std::uint64_t lo,
                                 std::uint64_t hi, const std::string& description);
template <typename T>
CLI::Option* add_unsigned_option(CLI::App& cmd, const std::string& name, T& target,
                                 std::uint64_t lo, std::uint64_t hi,
                                 const std::string& description) {
  return add_unsigned_option(
      cmd, name, [&target](std::uint64_t v) { target = static_cast<T>(v); }, lo, hi, description);
}
// --memory-limit SIZE ("16G", "512M", bytes): what a run may allocate for
// data sized by its input (default: the machine's available memory).
void add_memory_limit_option(CLI::App& cmd, ir::MemoryLimit& limit);

// Loads --hw (a file or an installed configuration's name) or the built-in
// defaults; prints errors and returns nullopt.
std::optional<ir::HardwareConfig> load_hw(const std::string& name);

// Whether a model file can be read; says why not on stderr (a missing,
// unreadable or empty file: exit status 2, as for an unreadable IR).
bool model_file_readable(const std::string& path);
// Loads a layer-semantics model file (--model); prints what is wrong and
// returns nullopt when it does not load, with `status` 2 when it cannot be
// read and 1 when it is invalid.
std::optional<model::Network> load_model_file(const std::string& path, int& status);

// Whether the directory `path` would be written into exists (the current
// one for a bare name); false with `error` naming it.
bool output_dir_exists(const std::string& path, std::string& error);
// Writes a file, creating no directory: a missing one is reported ("cannot
// write PATH: its directory DIR does not exist"). False with `error`.
bool write_output_file(const std::string& path, const std::function<void(std::ostream&)>& body,
                       std::string& error);

// "file:pointer: CODE: severity: message" lines: the errors first, at most
// `max_errors`, then the warnings, at most `max_warnings` (0: none). What is
// left out is summarised, one line per check: its count and where the first
// one is. An error is never hidden behind warnings.
void print_diagnostics(std::ostream& os, const std::string& file, const ir::Diagnostics& d,
                       std::size_t max_errors, std::size_t max_warnings);

}  // namespace gemini::cli
