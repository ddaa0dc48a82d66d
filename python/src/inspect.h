#pragma once
// What the Python module computes in its own process: reading and checking
// (an IR file's diagnostics, its summary, a hardware configuration). None
// of it touches SystemC, so every call is independent of every other and
// safe from several threads at once; simulations and references run in a
// child gemini process instead (gemini/_run.py, docs/python.md).
//
// Contract: no function throws on bad input; what is wrong comes back as
// diagnostics (code, severity, JSON pointer or line:column, message).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gemini::python {

// One diagnostic of docs/validation.md, or of a configuration or model file.
struct Diagnostic {
  std::string code;  // "S002", "M009", ...; "H001" for a configuration's; "IO" an unreadable model
  std::string name;  // the check's name
  std::string severity;  // "error" | "warning"
  std::string pointer;   // JSON pointer; "" with a line:column or for the document
  std::optional<std::uint64_t> line, column;
  std::string message;
  // A configuration file's problem: its file; with `given`, how its value
  // was given instead (`set["noc.num_vcs"]`: gemini/ir/config_override.h).
  std::string file;
  bool given = false;
};

// The verdict on one IR file: gemini validate's, item for item.
struct Validation {
  std::string file;
  std::string status;   // "valid" | "invalid" | "unreadable"
  std::string dialect;  // "" when the file did not load
  std::size_t errors = 0, warnings = 0, not_shown = 0;
  bool semantic_checks = false;
  std::vector<Diagnostic> diagnostics;
};

// As `gemini validate FILE [--model M] [--dialect D] [--hw H]`: `hw_json`
// is a configuration's JSON text ("" for the built-in defaults), already
// checked by check_hw. A model file that does not load gives status
// "unreadable" or "invalid" with its diagnostics, as the CLI's exit 2 / 1.
Validation validate_file(const std::string& path, const std::string& model,
                         const std::string& dialect, const std::string& hw_json,
                         std::size_t max_kept);

// As `gemini info FILE --json`: the same keys; `ok` false with the
// diagnostics when the file does not load cleanly.
struct Info {
  bool ok = false;
  std::vector<Diagnostic> diagnostics;
  std::string json;  // the summary, as gemini info --json prints it
};
Info info_file(const std::string& path, const std::string& dialect);

// A hardware configuration's JSON text checked as `--hw` checks a file
// (ir's reading, then the simulator's dram, noc and energy components):
// the problems, each with its JSON pointer and message; none when it is
// good. `set_paths` are the parameters simulate's set= gave by dotted path
// ("noc.num_vcs"), in the order set: a problem with one of their values is
// named by it, set["noc.num_vcs"] (a value under it, set["noc.booksim.x"]);
// the others by "<hw>".
std::vector<Diagnostic> check_hw(const std::string& text,
                                 const std::vector<std::string>& set_paths);

}  // namespace gemini::python
