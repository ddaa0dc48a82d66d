#pragma once
// Helpers shared by the subcommands: dialect and hardware options, and the
// printing of diagnostics.

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
}

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
// Loads --hw (a file or an installed configuration's name) or the built-in
// defaults; prints errors and returns nullopt.
std::optional<ir::HardwareConfig> load_hw(const std::string& name);

// Loads a layer-semantics model file (--model); prints what is wrong and
// returns nullopt when it does not load.
std::optional<model::Network> load_model_file(const std::string& path);

// "file:pointer: CODE: severity: message" lines: the errors first, at most
// `max_errors`, then the warnings, at most `max_warnings` (0: none). What is
// left out is summarised, one line per check: its count and where the first
// one is. An error is never hidden behind warnings.
void print_diagnostics(std::ostream& os, const std::string& file, const ir::Diagnostics& d,
                       std::size_t max_errors, std::size_t max_warnings);

}  // namespace gemini::cli
