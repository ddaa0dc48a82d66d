#pragma once
// Test helper: a small fixture assembled with its layer-semantics model
// (the model's geometry, its quirk corrections) and simulated functionally
// against the model's CPU reference, as `gemini sim --model M --functional`
// does -- with the program at hand, so a test can change an instruction
// between the two.

#include <memory>

#include "gemini/assembler/assemble_file.h"
#include "gemini/model/layer_semantics.h"
#include "gemini/sim/simulator.h"
#include "gemini/sim/tile_hook.h"

namespace gemini::test {

struct FunctionalCase {
  std::unique_ptr<model::LayerSemantics> semantics;  // seed 1
  assembler::AssembledFile file;
};

// tests/data/<ir> with tests/data/<model>, assembled for set-polar.
FunctionalCase prepare_functional(const char* ir, const char* model);

// Its functional simulation on set-polar; tile operations also go to `hook`.
sim::Report simulate_functional(const FunctionalCase& x, sim::TileHook* hook = nullptr);

}  // namespace gemini::test
