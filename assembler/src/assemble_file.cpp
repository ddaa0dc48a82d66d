#include "gemini/assembler/assemble_file.h"

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
  ir::CheckedFile checked = ir::load_and_validate(path, options, hw, diagnostics);
  phase("load+validate");
  out.load_status = checked.load.status;
  if (checked.load.status != ir::LoadStatus::ok || diagnostics.errors() > 0) {
    out.failed = AssembledFile::Failed::input;
    return out;
  }
  out.model = std::move(checked.load.model);
  if (out.model.dialect == ir::Dialect::set &&
      !ir::import_model(out.model, hw, {}, out.import_diagnostics)) {
    out.failed = AssembledFile::Failed::import;
    return out;
  }
  phase("import");
  out.program = lower(out.model, hw, out.lower_errors, on_phase);
  phase("lower");
  if (!out.program) out.failed = AssembledFile::Failed::lowering;
  return out;
}

}  // namespace gemini::assembler
