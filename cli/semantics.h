#pragma once
// --model and --seed, shared by asm and sim: the layer semantics
// (model::LayerSemantics) loaded, with what went wrong printed.

#include <cstdint>
#include <memory>
#include <string>

#include "gemini/model/layer_semantics.h"

namespace CLI {
class App;
}

namespace gemini::cli {

struct SemanticsOptions {
  std::string model;
  std::uint64_t seed = 1;
  ir::MemoryLimit memory_limit;  // --memory-limit
};
// --model, --seed (with_seed) and --memory-limit.
void add_semantics_options(CLI::App& cmd, SemanticsOptions& o, bool with_seed);

using Semantics = model::LayerSemantics;

// Prints what is wrong and sets `status` on failure.
std::unique_ptr<Semantics> load_semantics(const SemanticsOptions& o, int& status);

}  // namespace gemini::cli
