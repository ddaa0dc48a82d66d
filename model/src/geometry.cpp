#include "gemini/model/geometry.h"

#include "gemini/model/layer_params.h"

namespace gemini::model {
namespace {
std::array<std::int32_t, 4> i32(const Dims4& d) {
  return {static_cast<std::int32_t>(d[0]), static_cast<std::int32_t>(d[1]),
          static_cast<std::int32_t>(d[2]), static_cast<std::int32_t>(d[3])};
}
}  // namespace

ir::GeometryTable geometry_table(const Network& net, const std::vector<LayerNumerics>& numerics) {
  ir::GeometryTable t;
  t.from_model = true;
  for (std::size_t i = 0; i < net.ops.size(); ++i) {
    const Op& op = net.ops[i];
    ir::LayerGeometry g;
    g.ofmap_shape = i32(op.ofmap_shape);
    g.ifmap_shape = i32(op.ifmap_shape);
    g.shift = i < numerics.size() ? numerics[i].shift : 0;
    // What each layer operation's instructions take (ir/op_table.h gives
    // the operation of the op's type).
    g.op = ir::describe(op.type).layer_op(op.global);
    switch (g.op) {
      case ir::LayerOp::conv:
      case ir::LayerOp::fc: {
        const ConvParams p = conv_params(op);
        g.kernel = {p.kernel_r, p.kernel_s};
        g.stride = {p.stride_h, p.stride_w};
        if (g.op == ir::LayerOp::conv) g.pad = i32(op.pad);
        g.group_k = p.group_k;
        g.group_c = p.group_c;
        g.per_sample_weights = p.per_sample;
        if (!p.per_sample) {
          const ir::Box w = weight_box(op);
          for (int d = 0; d < 4; ++d) g.weight_shape[static_cast<std::size_t>(d)] = w.hi[d] + 1;
        }
        break;
      }
      case ir::LayerOp::pool_max:
      case ir::LayerOp::pool_avg:
        g.kernel = {static_cast<std::int32_t>(op.kernel[0]),
                    static_cast<std::int32_t>(op.kernel[1])};
        g.stride = {static_cast<std::int32_t>(op.stride[0]),
                    static_cast<std::int32_t>(op.stride[1])};
        g.pad = i32(op.pad);
        break;
      case ir::LayerOp::eltwise:
        g.operands = static_cast<std::int32_t>(op.operands);
        break;
      case ir::LayerOp::transpose:
        for (std::size_t d = 0; d < 4; ++d)
          g.permutation[d] = static_cast<std::int32_t>(op.permutation[d]);
        break;
      case ir::LayerOp::copy:
      case ir::LayerOp::unknown:
        break;
    }
    for (const InputPart& p : op.inputs)
      if (p.external) {
        const External& e = net.externals[static_cast<std::size_t>(p.external_index)];
        g.externals.push_back({e.tensor_id, static_cast<std::int32_t>(p.offset), i32(e.shape)});
      }
    t.layers.emplace(op.name, std::move(g));
  }
  return t;
}

}  // namespace gemini::model
