#pragma once
// Observing the functional PE and VP (`gemini xcheck`): with a TileHook in
// SimOptions, the functional simulation hands every tile operation it
// computes -- each pe_run's convolution sums, the requantisation at the end
// of a pe_run chain, each vp_run -- to the hook, as a model::TileOp with
// the very inputs the unit read and the result it produced, when the hook
// wants that one. The hook only observes: the simulation, its cycles and
// its report are the same with or without it.

#include <cstdint>

#include "gemini/model/tile_op.h"

namespace gemini::sim {

// Where a tile operation ran.
struct TileSite {
  std::int32_t core_id = -1;
  std::uint32_t instr = 0;  // index in the core's program
  std::int64_t workload = -1;
  std::int32_t layer = -1;  // index into the model's ops; -1 when unknown
};

class TileHook {
 public:
  virtual ~TileHook() = default;
  // Asked before the unit gathers anything for the operation.
  virtual bool wants(const TileSite& site, model::TileKind kind) = 0;
  // The operation, valid only during the call: `result` holds
  // op.elements() values, int32 when op.wide(), else int8. `seconds` is
  // the time the unit took to compute it.
  virtual void seen(const model::TileOp& op, const TileSite& site, const void* result,
                    double seconds) = 0;
};

}  // namespace gemini::sim
