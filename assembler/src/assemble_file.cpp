#include "gemini/assembler/assemble_file.h"

#include "gemini/ir/graph.h"
#include "gemini/ir/import.h"
#include "gemini/ir/validator.h"

namespace gemini::assembler {

AssembledFile assemble_file(const std::string& path, const ir::HardwareConfig& hw,
                            const ir::LoadOptions& options, ir::Diagnostics& diagnostics,
                            const std::function<void(const char* phase)>& on_phase) {
  auto phase = [&](const char* name) {
    if (on_phase) on_phase(name);
  };
  AssembledFile out;
  // As ir::load_and_validate, with the model already where it stays, so
  // that the graph validation builds serves the import and the lowering.
  ir::LoadResult loaded = ir::load_file(path, diagnostics, options);
  out.load_status = loaded.status;
  if (loaded.status != ir::LoadStatus::ok || diagnostics.errors() > 0) {
    phase("load+validate");
    out.failed = AssembledFile::Failed::input;
    return out;
  }
  out.model = std::move(loaded.model);
  const ir::ModelGraph graph(out.model);
  ir::validate(graph, hw, diagnostics);
  phase("load+validate");
  if (diagnostics.errors() > 0) {
    out.failed = AssembledFile::Failed::input;
    return out;
  }
  if (out.model.dialect == ir::Dialect::set &&
      !ir::import_model(out.model, hw, {}, out.import_diagnostics, &graph)) {
    out.failed = AssembledFile::Failed::import;
    return out;
  }
  phase("import");
  out.program = lower(out.model, hw, out.lower_errors, on_phase, &graph);
  phase("lower");
  if (!out.program) out.failed = AssembledFile::Failed::lowering;
  return out;
}

}  // namespace gemini::assembler
