#include "gemini/ir/validator.h"

namespace gemini::ir {

void validate(const Model& m, const HardwareConfig& hw, Diagnostics& d) {
  const TransferIndex ix(m);
  checks::identity(m, d);
  checks::cross_references(m, ix, d);
  checks::geometry(m, ix, hw, d);
  checks::buffers(m, hw, d);
  checks::order(m, ix, d);
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
