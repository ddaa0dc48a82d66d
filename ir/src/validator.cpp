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

}  // namespace gemini::ir
