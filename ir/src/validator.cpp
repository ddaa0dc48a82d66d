#include "gemini/ir/validator.h"

#include <tuple>

namespace gemini::ir {

namespace {
// A configuration that fixes the mesh must agree with the IR's: cores are
// numbered along the mesh, so another size would move them silently.
void mesh_agrees(const Model& m, const HardwareConfig& hw, Diagnostics& d) {
  for (const auto& [key, ir, cfg] :
       {std::tuple{"xlen", m.xlen, hw.mesh.xlen}, std::tuple{"ylen", m.ylen, hw.mesh.ylen}})
    if (cfg > 0 && cfg != ir)
      d.report(Check::bad_mesh, std::string("/") + key,
               std::string(key) + " is " + std::to_string(ir) +
                   ", but the hardware configuration's mesh." + key + " is " + std::to_string(cfg) +
                   " (0 there takes the IR's)");
}
}  // namespace

void validate(const ModelGraph& mg, const HardwareConfig& hw, Diagnostics& d) {
  const Model& m = mg.model();
  mesh_agrees(m, hw, d);
  checks::identity(m, d);
  checks::cross_references(m, mg.transfers(), d);
  checks::geometry(m, mg.transfers(), hw, d);
  checks::buffers(m, hw, d);
  checks::results(m, hw, d);
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
