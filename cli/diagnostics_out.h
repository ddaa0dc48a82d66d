#pragma once
// What a command said about its input, for programs that run gemini (the
// Python package's child processes): with --diagnostics-json FILE, an
// option of every command, each diagnostic it printed and each refusal in
// words are kept and written to FILE when it exits, as one JSON document:
//
//   {"exit_status": 1,
//    "diagnostics": [{"file": ..., "code": "S002", "name": ..., "severity":
//                     "error", "pointer": "/0/0" (or "line", "column"),
//                     "message": ...}, ...]}
//
// A refusal that is no located diagnostic (the lowering's, a simulation
// that could not start, a usage error) has code "", name "" and pointer "".
// A configuration value given on the command line (`gemini noc --set`)
// has for its file how it was given ("--set noc.num_vcs") and "given":
// true (ir/config_override.h).
// The text on stderr is unchanged; the file is written whatever the exit
// status (an empty list when nothing was wrong).

#include <string>

#include "gemini/ir/diagnostics.h"

namespace gemini::cli {

// A diagnostic about `file` (its own file, d.file, when it names one).
void record(const std::string& file, const ir::Diagnostic& d);
// A refusal in words about `file` ("" when it concerns no file).
void record_refusal(const std::string& file, const std::string& message);
// A configuration's problems: each printed on stderr (config_text) and
// recorded.
void report_config_errors(const ir::ConfigErrors& errors);
// Writes what was recorded to `path`; false with `error` when it cannot.
bool write_recorded(const std::string& path, int exit_status, std::string& error);

}  // namespace gemini::cli
