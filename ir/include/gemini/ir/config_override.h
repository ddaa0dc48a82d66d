#pragma once
// Configuration values that no file holds. A hardware configuration is
// read from a file (or is the built-in defaults) and may have values given
// on top of it: `gemini noc --set KEY=VALUE` and `--model`, a sweep's axes
// (and a study's hardware point), Python's `simulate(..., set=...)`. A
// problem with such a value is the override's, not the file's: this is the
// one rule that names it.
//
// Contract: attribute_overrides() changes only the errors whose pointer is
// at or under an override's pointer; of several such overrides the one
// given last wins (its value is the one the configuration holds). Such an
// error keeps its check, pointer and message; its `file` becomes
// prefix + the error's pointer as a dotted path + suffix (e.g.
// "--set noc.booksim.input_speedup", `set["noc.num_vcs"]`) and `given` is
// set, so config_text() reads "--set noc.num_vcs: message" and
// diagnostic_json() carries the same name. Every other error is left
// exactly as it was (its file's location).

#include <string>
#include <string_view>
#include <vector>

#include "gemini/ir/diagnostics.h"

namespace gemini::ir {

// The origin that names the built-in defaults (no configuration file)
// where a problem is not an override's.
inline constexpr const char* kDefaultsOrigin = "(gemini's defaults)";

// One value given on top of a configuration, and how it was given.
struct ConfigOverride {
  std::string pointer;  // where it is in the configuration: "/noc/num_vcs", "/noc/booksim"
  std::string prefix;   // the name's text before the dotted path: "--set ", "axis ", "set[\""
  std::string suffix;   // and after it: "", "\"]"
};
using ConfigOverrides = std::vector<ConfigOverride>;

// A JSON pointer as a parameter path: "/noc/booksim/input_speedup" ->
// "noc.booksim.input_speedup" ("~1" and "~0" unescaped).
std::string dotted_path(std::string_view pointer);
// The JSON pointer of a parameter path: "noc.num_vcs" -> "/noc/num_vcs"
// (each part escaped as a pointer token).
std::string path_pointer(std::string_view dotted);

// Names each error at or under an override by that override (see above).
void attribute_overrides(ConfigErrors& errors, const ConfigOverrides& overrides);

}  // namespace gemini::ir
