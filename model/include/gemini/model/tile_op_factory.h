#pragma once
// The one place a layer operation becomes a tile operation (tile_op.h): its
// kind, its parameters (layer_params.h), its input tiles and whether its
// int32 sums are requantised with a shift calibrated on them
// (docs/numerics.md). Keyed by ir::LayerOp (the op descriptor table,
// ir/op_table.h, gives each op type's), so every caller builds the same
// tile for the same operation:
//   * the CPU reference computes each layer from tile_op_for(op, ...), and
//     the plan executors (gpu_backend) each task of a layer;
//   * the simulator's functional unit builds each pe_run / vp_run's tile
//     from its engine's registers with tile_op_for(layer_op, params, ...),
//     the layer operation being the one its VP operation computes
//     (assembler::layer_op_of).
// A layer operation is taught to all of them here.
//
//   LayerOp     one instruction's tile   a whole layer (shift not yet known)
//   conv, fc    conv                     conv        (requantised)
//   pool_max    pool (max)               pool
//   pool_avg    pool (average, shift)    pool_sum    (requantised)
//   eltwise     add (shift)              add_sum     (requantised): an Eltwise's
//                                                    operand j is channels
//                                                    [j*K, (j+1)*K) of its input
//   copy        transpose (identity)     transpose
//   transpose   transpose (perm)         transpose

#include <array>
#include <vector>

#include "gemini/ir/op_table.h"
#include "gemini/model/network.h"
#include "gemini/model/tile_op.h"

namespace gemini::model {

// The parameters a tile operation takes from its engine's registers (pe_cfg,
// vp_cfg) or from its op's arguments; each kind reads its own.
struct TileParams {
  ConvParams conv;                               // conv
  PoolParams pool;                               // pool, pool_sum (average: from the LayerOp)
  std::int32_t shift = 0;                        // add
  std::array<std::int32_t, 4> perm{0, 1, 2, 3};  // transpose (copy: the identity)
};

// The tile kind of a layer operation: as one instruction computes it
// (`whole_layer` false: its shift is known), or as a whole layer before its
// shift is calibrated (average pooling and sums stay int32). unknown has
// none: a bug, which aborts.
TileKind tile_kind_of(ir::LayerOp op, bool whole_layer);

// Whether a layer operation's tile yields int32 sums that are requantised
// with a shift calibrated on the whole layer's sums (conv, FC, Eltwise,
// average pooling); the others yield their int8 results directly.
bool requantises(ir::LayerOp op);
bool requantises(const Op& op);

// The tile operation of `op` over `out` (the layer's output coordinates)
// with `p`'s parameters; its inputs not attached yet (in[0] must hold
// tile_input_box, weights conv_weight_box; `inputs` is 1).
TileOp tile_op_for(ir::LayerOp op, const TileParams& p, const ir::Box& out, bool whole_layer);

// The end of a PE chain: `sums` (dense over `out`) requantised with `shift`.
TileOp requantize_op(const std::int32_t* sums, std::int32_t shift, const ir::Box& out);

// The box of its input that a tile operation reads through in[0] (every
// operand of an add reads `out`).
ir::Box tile_input_box(const TileOp& t);

// An op as one tile operation over an output box.
struct OpTileOp {
  // Kind, parameters, weights and `out`. Its in[] / `inputs` hold `inputs`
  // below when they fit (fits()); otherwise `op.inputs` is 0 and only the
  // vector carries the operands (an Eltwise of more than kMaxTileInputs).
  TileOp op;
  std::vector<ConstTile> inputs;  // every input tile: one per Eltwise operand, else one
  bool fits() const { return inputs.size() <= static_cast<std::size_t>(kMaxTileInputs); }
};

// The tile operation computing `op` over `out` from `in`, the op's whole
// (concatenated) input, and `weights` (ops with weights only; ignored
// otherwise), as a whole layer computes it.
OpTileOp tile_op_for(const Op& op, const ConstTile& in, const ConstTile& weights,
                     const ir::Box& out);

}  // namespace gemini::model
