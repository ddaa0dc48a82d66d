#pragma once
// The one place an op of the layer semantics (network.h) becomes a tile
// operation (tile_op.h): its kind, its parameters (layer_params.h), its
// input tiles and whether its int32 sums are requantised with a shift
// calibrated on them (docs/numerics.md). The CPU reference computes each
// layer from it, and the plan executors (gpu_backend) each task of a layer;
// an op type added to the registry is taught to both here.
//
//   Conv2d, FullyConnected  conv       (requantised)
//   Pool                    pool       (max), or pool_sum when Global (requantised)
//   Eltwise                 add_sum    (requantised): operand j is channels
//                                      [j*K, (j+1)*K) of the concatenated input
//   PTP                     transpose  (the identity permutation: a copy)
//   Transpose               transpose  (the op's Permutation)

#include <vector>

#include "gemini/model/network.h"
#include "gemini/model/tile_op.h"

namespace gemini::model {

// An op as one tile operation over an output box.
struct OpTileOp {
  // Kind, parameters, weights and `out`. Its in[] / `inputs` hold `inputs`
  // below when they fit (fits()); otherwise `op.inputs` is 0 and only the
  // vector carries the operands (an Eltwise of more than kMaxTileInputs).
  TileOp op;
  std::vector<ConstTile> inputs;  // every input tile: one per Eltwise operand, else one
  bool fits() const { return inputs.size() <= static_cast<std::size_t>(kMaxTileInputs); }
};

// Whether the op's tile operation yields int32 sums that are requantised
// with a shift calibrated on the whole layer's sums (conv, FC, Eltwise,
// Global pooling); the others yield their int8 results directly.
bool requantises(const Op& op);

// The tile operation computing `op` over `out` (the layer's output
// coordinates) from `in`, the op's whole (concatenated) input, and
// `weights` (Conv2d and FullyConnected only; ignored otherwise).
OpTileOp tile_op_for(const Op& op, const ConstTile& in, const ConstTile& weights,
                     const ir::Box& out);

}  // namespace gemini::model
