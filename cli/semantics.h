#pragma once
// --model and --seed, shared by validate, asm and sim: the layer-semantics
// model, its seeded reference (whose calibrated shifts the programs carry)
// and the exact layer geometry the lowering follows.

#include <cstdint>
#include <memory>
#include <string>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/layer_geometry.h"
#include "gemini/ir/model.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"
#include "gemini/model/semantics.h"

namespace CLI {
class App;
}

namespace gemini::cli {

struct SemanticsOptions {
  std::string model;
  std::uint64_t seed = 1;
};
void add_semantics_options(CLI::App& cmd, SemanticsOptions& o, bool with_seed);

struct Semantics {
  model::Network net;
  model::Reference ref;  // seeded: its shifts are part of the network's parameters
  ir::GeometryTable geometry;
  // Corrects the scheduler's known quirks (M009 warnings, counted in
  // `quirks`) and checks the IR against the layer semantics (M-codes).
  // Returns whether the corrections changed the model's transfers.
  bool apply(ir::Model& m, ir::Diagnostics& d) const;
  mutable model::QuirkCounts quirks;
};

// Loads the model and computes its reference; prints what is wrong and sets
// `status` on failure.
std::unique_ptr<Semantics> load_semantics(const SemanticsOptions& o, int& status);

}  // namespace gemini::cli
