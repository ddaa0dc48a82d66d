#include "gemini/ir/validator.h"

namespace gemini::ir {

void validate(const ModelGraph& mg, const HardwareConfig& hw, Diagnostics& d) {
  const Model& m = mg.model();
  checks::identity(m, d);
  checks::cross_references(m, mg.transfers(), d);
  checks::geometry(m, mg.transfers(), hw, d);
  checks::buffers(m, hw, d);
  checks::order(m, mg.graph(), d);
}

void validate(const Model& m, const HardwareConfig& hw, Diagnostics& d) {
  const ModelGraph mg(m);
  validate(mg, hw, d);
}

CheckedFile load_and_validate(const std::string& path, const LoadOptions& opts,
                              const HardwareConfig& hw, Diagnostics& d) {
  CheckedFile f;
  f.load = load_file(path, d, opts);
  if (f.load.status == LoadStatus::ok && d.errors() == 0) {
    validate(f.load.model, hw, d);
    f.semantic_checks_ran = true;
  }
  return f;
}

}  // namespace gemini::ir
