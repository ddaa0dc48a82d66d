#include "gemini/assembler/assemble_file.h"

#include "gemini/ir/graph.h"
#include "gemini/ir/import.h"
#include "gemini/ir/validator.h"

namespace gemini::assembler {

AssembledFile assemble_file(const std::string& path, const ir::HardwareConfig& hw,
                            const ir::LoadOptions& options, ir::Diagnostics& diagnostics,
                            const std::function<void(const char* phase)>& on_phase,
                            const std::function<void(const ir::Model&)>& on_loaded,
                            const AssembleOptions& assemble) {
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
  phase("load+validate/load");
  out.model = std::move(loaded.model);
  if (on_loaded) on_loaded(out.model);
  // Built once, for validation, import and lowering; it refers to out.model
  // and is not used once the lowering returns.
  auto graph_ptr = std::make_shared<const ir::ModelGraph>(out.model);
  phase("load+validate/graph");
  ir::validate(*graph_ptr, hw, diagnostics);
  phase("load+validate");
  if (diagnostics.errors() > 0) {
    out.failed = AssembledFile::Failed::input;
    return out;
  }
  if (assemble.semantics) {
    const bool changed = assemble.semantics(out.model, diagnostics);
    if (changed && diagnostics.errors() == 0) {
      // The corrected model, graph and checks again.
      graph_ptr = std::make_shared<const ir::ModelGraph>(out.model);
      ir::validate(*graph_ptr, hw, diagnostics);
    }
    phase("semantics");
    if (diagnostics.errors() > 0) {
      out.failed = AssembledFile::Failed::input;
      return out;
    }
  }
  const ir::ModelGraph& graph = *graph_ptr;
  if (out.model.dialect == ir::Dialect::set) {
    out.import_report =
        ir::import_model(out.model, hw, assemble.import, out.import_diagnostics, &graph);
    if (!out.import_report) {
      out.failed = AssembledFile::Failed::import;
      return out;
    }
  }
  phase("import");
  std::shared_ptr<void> lowering_scratch;
  out.program =
      lower(out.model, hw, out.lower_errors, on_phase, &graph, &lowering_scratch, assemble.lower);
  phase("lower");
  out.scratch =
      std::make_shared<std::pair<std::shared_ptr<const ir::ModelGraph>, std::shared_ptr<void>>>(
          std::move(graph_ptr), std::move(lowering_scratch));
  if (!out.program) out.failed = AssembledFile::Failed::lowering;
  return out;
}

}  // namespace gemini::assembler
