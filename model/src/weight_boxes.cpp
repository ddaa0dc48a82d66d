// The weight boxes of a schedule in the IR specification's layout
// (semantics.h, write_weight_boxes; docs/ir-model.md, "Weight boxes").
#include <algorithm>
#include <map>

#include "gemini/model/semantics.h"

namespace gemini::model {
namespace {

// [N, K, C, R*S] of `op` for batch range [n0, n1] and output channels
// [k0, k1]: every input channel of a group and every kernel position.
ir::Box example_box(const Op& op, std::int32_t n0, std::int32_t n1, std::int32_t k0,
                    std::int32_t k1) {
  ir::Box b;
  b.rank = 4;
  b.scalar = false;
  b.lo = {n0, k0, 0, 0};
  const std::int64_t c = op.weight_from_fmap ? op.weight_shape[1] : op.group_c();
  const std::int64_t rs = std::max<std::int64_t>(1, op.kernel[0] * op.kernel[1]);
  b.hi = {n1, k1, static_cast<std::int32_t>(std::max<std::int64_t>(c, 1) - 1),
          static_cast<std::int32_t>(rs - 1)};
  return b;
}

// A box that holds a weight range: the public dialect's scalar K range or
// per-sample [n, k, c]; 4-D boxes are already in the layout.
bool convert(const Op& op, ir::Box& b) {
  if (b.rank == 1) {
    b = example_box(op, 0, 0, b.lo[0], b.hi[0]);
    return true;
  }
  if (b.rank == 3 && op.weight_from_fmap) {
    b = example_box(op, b.lo[0], b.hi[0], b.lo[1], b.hi[1]);
    return true;
  }
  return false;
}

}  // namespace

std::int64_t write_weight_boxes(ir::Model& m, const Network& net) {
  std::int64_t n = 0;
  // DRAM weight entries, and the DRAM sources that name them.
  std::map<ir::TransferId, const Op*> dram_weight;
  for (ir::DramOut& e : m.dram_out) {
    if (e.type != ir::DataType::weight || !e.layer_name) continue;
    const Op* op = net.find(*e.layer_name);
    if (!op || !op->has_weights()) continue;
    dram_weight[e.transfer_id] = op;
    n += convert(*op, e.box);
  }
  for (ir::Core& c : m.cores)
    for (ir::Workload& w : c.workloads) {
      if (const Op* op = net.find(w.layer_name); op && op->has_weights() && w.weight)
        n += convert(*op, w.weight->box);
      for (ir::BufferEntry& e : w.buffer) {
        if (e.type != ir::TensorType::weight) continue;
        const Op* op = net.find(e.layer_name);
        if (!op || !op->has_weights()) continue;
        n += convert(*op, e.box);
        for (ir::Source& s : e.source)
          if (s.type == ir::EndpointType::dram)
            if (auto it = dram_weight.find(s.transfer_id); it != dram_weight.end())
              n += convert(*it->second, s.box);
      }
    }
  return n;
}

}  // namespace gemini::model
