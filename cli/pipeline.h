#pragma once
// IR file -> validated full-dialect model -> per-core programs, as `asm`
// and `sim` both need it. Problems are printed to stderr; on failure the
// result is empty and `status` holds the exit code.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "gemini/assembler/lowering.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/import.h"
#include "gemini/ir/model.h"
#include "gemini/model/layer_semantics.h"
#include "gemini/sim/progress_mode.h"

namespace gemini::cli {

struct Lowered {
  ir::Model model;
  assembler::Program program;
  std::shared_ptr<void> scratch;                  // AssembledFile::scratch
  std::optional<ir::ImportReport> import_report;  // public-dialect files
};

// With GEMINI_PHASES set in the environment, prints the wall and CPU time of
// each phase to stderr ("phase lower: 0.52 s (cpu 0.9 s, ...)"). A phase named "a/b" is a part of
// phase "a", timed from the mark before it; "a" is timed from the last mark
// that was not such a part.
class PhaseTimer {
 public:
  PhaseTimer();
  void mark(const char* phase);

 private:
  bool on_;
  std::chrono::steady_clock::time_point t_, sub_;
  double cpu_t_ = 0, cpu_sub_ = 0;
};

// The progress a command shows on stderr (sim, xcheck): on a terminal a
// bar, unless `quiet` (-q) and not `asked` (--progress); elsewhere (a pipe,
// a log) a line every few seconds when `asked`, else nothing.
sim::ProgressMode progress_mode(bool asked, bool quiet);

// The phase a command is in on stderr ("gemini: lowering..."), as `mode`
// shows progress: on a terminal (bar) one line redrawn in place once the
// command has taken a second, the simulator's progress bar taking the same
// line over; in a pipe or a log (lines) a line of its own for each phase
// that starts 2 s or more into the command; nothing when off.
class StatusLine {
 public:
  explicit StatusLine(sim::ProgressMode mode);
  ~StatusLine();
  void phase(const char* what);
  void clear();  // before printing the result
  std::chrono::steady_clock::time_point since() const { return start_; }
  sim::ProgressMode mode() const { return mode_; }

 private:
  sim::ProgressMode mode_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
};

// Hands a lowered file over to the end of the process instead of freeing it:
// the process exits right after, and freeing a model and program of a few
// hundred MB block by block costs a tenth of a second (LLVM's -disable-free
// does the same). It stays reachable from a static, so leak checkers stay
// quiet.
void keep_until_exit(Lowered&& l);

// `verb` names the refusal ("not assembled", "not simulated"); `on_loaded`
// is assemble_file's.
// With `semantics` (--model), the file is checked and corrected against the
// layer semantics and lowered with their exact geometry; the corrections
// are printed as M009 warnings unless `quiet`.

std::optional<Lowered> load_and_lower(const std::string& in, const ir::HardwareConfig& hw,
                                      const std::string& dialect, const char* verb, int& status,
                                      StatusLine* status_line = nullptr,
                                      const std::function<void(const ir::Model&)>& on_loaded = {},
                                      const model::LayerSemantics* semantics = nullptr,
                                      bool quiet = false, const ir::ImportOptions& import = {});

}  // namespace gemini::cli
