// The op-to-tile-operation factory (tile_op_factory.h).
#include "gemini/model/tile_op_factory.h"

#include "gemini/model/layer_params.h"

namespace gemini::model {

bool requantises(const Op& op) {
  switch (op.type) {
    case OpType::conv2d:
    case OpType::fully_connected:
    case OpType::eltwise:
      return true;
    case OpType::pool:
      return op.global;
    case OpType::ptp:
    case OpType::transpose:
      return false;
  }
  return false;
}

OpTileOp tile_op_for(const Op& op, const ConstTile& in, const ConstTile& weights,
                     const ir::Box& out) {
  OpTileOp t;
  TileOp& base = t.op;
  base.out = out;
  t.inputs.push_back(in);
  switch (op.type) {
    case OpType::conv2d:
    case OpType::fully_connected:
      base.kind = TileKind::conv;
      base.conv = conv_params(op);
      base.weights = weights;
      break;
    case OpType::pool:
      base.kind = op.global ? TileKind::pool_sum : TileKind::pool;
      base.pool = pool_params(op, 0);
      break;
    case OpType::eltwise: {
      // Operand j is channels [j*K, (j+1)*K) of the concatenated input: the
      // same data seen through a box shifted by j*K channels.
      base.kind = TileKind::add_sum;
      const auto k = static_cast<std::int32_t>(op.ofmap_shape[1]);
      t.inputs.clear();
      for (std::int64_t j = 0; j < op.operands; ++j) {
        ConstTile o = in;
        o.box.lo[1] -= static_cast<std::int32_t>(j) * k;
        o.box.hi[1] -= static_cast<std::int32_t>(j) * k;
        t.inputs.push_back(o);
      }
      break;
    }
    case OpType::ptp:
      base.kind = TileKind::transpose;  // the identity permutation
      break;
    case OpType::transpose:
      base.kind = TileKind::transpose;
      for (int d = 0; d < 4; ++d)
        base.perm[d] = static_cast<std::int32_t>(op.permutation[static_cast<std::size_t>(d)]);
      break;
  }
  if (t.fits()) {
    base.inputs = static_cast<std::int32_t>(t.inputs.size());
    for (std::size_t j = 0; j < t.inputs.size(); ++j) base.in[j] = t.inputs[j];
  } else {
    base.inputs = 0;
  }
  return t;
}

}  // namespace gemini::model
