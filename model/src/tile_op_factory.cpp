// The op-to-tile-operation factory (tile_op_factory.h).
#include "gemini/model/tile_op_factory.h"

#include <cstdio>
#include <cstdlib>

#include "gemini/model/layer_params.h"

namespace gemini::model {

TileKind tile_kind_of(ir::LayerOp op, bool whole_layer) {
  switch (op) {
    case ir::LayerOp::conv:
    case ir::LayerOp::fc:
      return TileKind::conv;
    case ir::LayerOp::pool_max:
      return TileKind::pool;
    case ir::LayerOp::pool_avg:
      return whole_layer ? TileKind::pool_sum : TileKind::pool;
    case ir::LayerOp::eltwise:
      return whole_layer ? TileKind::add_sum : TileKind::add;
    case ir::LayerOp::copy:
    case ir::LayerOp::transpose:
      return TileKind::transpose;
    case ir::LayerOp::unknown:
      break;
  }
  std::fprintf(stderr, "gemini: internal error: layer operation %s has no tile operation\n",
               ir::to_string(op));
  std::abort();
}

bool requantises(ir::LayerOp op) {
  return op == ir::LayerOp::conv || op == ir::LayerOp::fc || op == ir::LayerOp::pool_avg ||
         op == ir::LayerOp::eltwise;
}

bool requantises(const Op& op) { return requantises(ir::describe(op.type).layer_op(op.global)); }

TileOp tile_op_for(ir::LayerOp op, const TileParams& p, const ir::Box& out, bool whole_layer) {
  TileOp t;
  t.kind = tile_kind_of(op, whole_layer);
  t.out = out;
  switch (t.kind) {
    case TileKind::conv:
      t.conv = p.conv;
      break;
    case TileKind::pool:
    case TileKind::pool_sum:
      t.pool = p.pool;
      t.pool.average = op == ir::LayerOp::pool_avg;
      break;
    case TileKind::add:
      t.shift = p.shift;
      break;
    case TileKind::transpose:
      for (std::size_t d = 0; d < 4; ++d)
        t.perm[d] = op == ir::LayerOp::copy ? static_cast<std::int32_t>(d) : p.perm[d];
      break;
    case TileKind::add_sum:
    case TileKind::requantize:
      break;
  }
  return t;
}

TileOp requantize_op(const std::int32_t* sums, std::int32_t shift, const ir::Box& out) {
  TileOp t;
  t.kind = TileKind::requantize;
  t.shift = shift;
  t.sums = sums;
  t.out = out;
  return t;
}

ir::Box tile_input_box(const TileOp& t) {
  switch (t.kind) {
    case TileKind::conv:
      return conv_input_box(t.conv, t.out);
    case TileKind::pool:
    case TileKind::pool_sum:
      return pool_input_box(t.pool, t.out);
    case TileKind::transpose: {
      // Output element o reads input element i with i[d] = o[perm[d]].
      ir::Box need;
      for (int d = 0; d < 4; ++d) {
        need.lo[d] = t.out.lo[t.perm[d]];
        need.hi[d] = t.out.hi[t.perm[d]];
      }
      return need;
    }
    case TileKind::add:
    case TileKind::add_sum:
    case TileKind::requantize:
      break;
  }
  return t.out;
}

OpTileOp tile_op_for(const Op& op, const ConstTile& in, const ConstTile& weights,
                     const ir::Box& out) {
  const ir::LayerOp lop = ir::describe(op.type).layer_op(op.global);
  TileParams p;
  if (op.has_weights()) p.conv = conv_params(op);
  if (lop == ir::LayerOp::pool_max || lop == ir::LayerOp::pool_avg) p.pool = pool_params(op, 0);
  for (std::size_t d = 0; d < 4; ++d) p.perm[d] = static_cast<std::int32_t>(op.permutation[d]);
  OpTileOp t;
  t.op = tile_op_for(lop, p, out, /*whole_layer=*/true);
  if (op.has_weights()) t.op.weights = weights;
  if (lop == ir::LayerOp::eltwise) {
    // Operand j is channels [j*K, (j+1)*K) of the concatenated input: the
    // same data seen through a box shifted by j*K channels.
    const auto k = static_cast<std::int32_t>(op.ofmap_shape[1]);
    for (std::int64_t j = 0; j < op.operands; ++j) {
      ConstTile o = in;
      o.box.lo[1] -= static_cast<std::int32_t>(j) * k;
      o.box.hi[1] -= static_cast<std::int32_t>(j) * k;
      t.inputs.push_back(o);
    }
  } else {
    t.inputs.push_back(in);
  }
  if (t.fits()) {
    t.op.inputs = static_cast<std::int32_t>(t.inputs.size());
    for (std::size_t j = 0; j < t.inputs.size(); ++j) t.op.in[j] = t.inputs[j];
  } else {
    t.op.inputs = 0;
  }
  return t;
}

}  // namespace gemini::model
