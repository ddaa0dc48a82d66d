#pragma once
// The validator: runs the check catalogue (diagnostics.h, docs/validation.md)
// over a loaded model. Schema checks happen while loading; validate() adds
// identity, cross-reference, geometry, buffer (full dialect) and order checks.

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/graph.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/model.h"

namespace gemini::ir {

void validate(const Model& m, const HardwareConfig& hw, Diagnostics& d);
// The same with the model's graph already built (it is validated: mg.model()).
void validate(const ModelGraph& mg, const HardwareConfig& hw, Diagnostics& d);

// Loads `path` and, when it loaded without errors, validates it. Semantic
// checks need a well-formed model: run on a file with schema errors they
// would report the consequences of each bad value (a workload left out, so
// every transfer it produces is "missing") rather than its cause. So, as a
// compiler stops after syntax errors, they run once the schema is clean;
// `semantic_checks_ran` says whether they did.
struct CheckedFile {
  LoadResult load;
  bool semantic_checks_ran = false;
};
CheckedFile load_and_validate(const std::string& path, const LoadOptions& opts,
                              const HardwareConfig& hw, Diagnostics& d);

namespace checks {
// The groups validate() runs, in order; exposed for focused tests.
void identity(const Model& m, Diagnostics& d);
void cross_references(const Model& m, const TransferIndex& ix, Diagnostics& d);
void geometry(const Model& m, const TransferIndex& ix, const HardwareConfig& hw, Diagnostics& d);
void buffers(const Model& m, const HardwareConfig& hw, Diagnostics& d);
void results(const Model& m, const HardwareConfig& hw, Diagnostics& d);
void order(const Model& m, const DependencyGraph& g, Diagnostics& d);
}  // namespace checks

}  // namespace gemini::ir
