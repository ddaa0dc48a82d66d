#pragma once
// IR file -> validated full-dialect model -> per-core programs: the chain
// that `gemini asm`, `gemini sim`, the golden cases, the corpus tests and the
// benchmarks share. It prints nothing; callers report what went wrong.
//
// The lowering trusts the IR, so a file that does not load and validate
// cleanly is refused before it. Public-dialect files go through the same
// import as `gemini import`, in memory.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gemini/assembler/lowering.h"
#include "gemini/ir/diagnostics.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/import.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/model.h"

namespace gemini::assembler {

struct AssembledFile {
  enum class Failed { none, input, import, lowering };
  Failed failed = Failed::none;
  ir::LoadStatus load_status = ir::LoadStatus::ok;
  ir::Diagnostics import_diagnostics;  // of the in-memory import
  std::vector<std::string> lower_errors;
  // What the import did (a public-dialect file only).
  std::optional<ir::ImportReport> import_report;
  ir::Model model;                 // full dialect once imported
  std::optional<Program> program;  // when failed == none
  // The model's graph and the lowering's working state, no longer needed:
  // the caller frees them when it likes (the CLI keeps them until exit
  // rather than spend milliseconds freeing them block by block).
  std::shared_ptr<void> scratch;
};

struct AssembleOptions {
  LowerOptions lower;
  ir::ImportOptions import;  // for public-dialect files
  // Called once the file has loaded and validated without errors, before
  // the import: checks and corrections from the layer semantics (the CLI's
  // --model). What it reports goes to the file's diagnostics; an error
  // there refuses the file. It returns whether it changed the model's
  // transfers (sources, destinations, tensors): the model is then
  // validated again.
  std::function<bool(ir::Model&, ir::Diagnostics&)> semantics;
};

// Load and validation diagnostics go to `diagnostics`. `on_phase`, when
// given, is called after "load+validate", "import", each stage of the
// lowering ("lower/events", ...) and "lower". `on_loaded`, when given, is
// called once the file has loaded, before it is validated, with the model
// as loaded (not yet validated: a caller may only start work there that it
// can throw away, such as creating output files).
AssembledFile assemble_file(const std::string& path, const ir::HardwareConfig& hw,
                            const ir::LoadOptions& options, ir::Diagnostics& diagnostics,
                            const std::function<void(const char* phase)>& on_phase = {},
                            const std::function<void(const ir::Model&)>& on_loaded = {},
                            const AssembleOptions& assemble = {});

}  // namespace gemini::assembler
