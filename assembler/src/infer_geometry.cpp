// Geometry, from one place: the layer geometry as far as the IR implies it
// (lowering.h, infer_geometry: used when no layer-semantics model is
// given), and the kernel, stride, window and padding each workload's
// compute instructions take from its layer's geometry, exact or inferred
// (lowering/geometry.h). Where the geometry is inferred, kernel, stride and
// padding for timing come from each workload's own boxes and tile: the
// layer table gives the rest.
#include <algorithm>
#include <cmath>

#include "gemini/assembler/lowering.h"
#include "lowering/geometry.h"

namespace gemini::assembler {

namespace lowering {

std::int64_t box_stride(const ir::Workload& w, int d) {
  const ir::Box* in = w.ifmap.empty() ? nullptr : &w.ifmap.front().box;
  if (!in || in->rank != 4 || w.workload.rank != 4) return 1;
  return std::clamp<std::int64_t>(in->extent(d) / std::max<std::int64_t>(w.workload.extent(d), 1),
                                  1, 255);
}

std::int64_t tile_kernel(const ir::Tile& t, int d, std::int64_t stride) {
  const auto i = static_cast<std::size_t>(d);
  return t.act_mini_tile[i] - (t.out_mini_tile[i] - 1) * stride;
}

namespace {
// The bottom and right padding are the zero rows and columns after the
// input; a negative one (a layer that crops: its last window ends before
// its input does, ResNet's stride-2 1x1 convolutions) adds none.
std::array<std::int32_t, 4> zero_rows_after(std::array<std::int32_t, 4> pad) {
  pad[1] = std::max(pad[1], 0);
  pad[3] = std::max(pad[3], 0);
  return pad;
}
}  // namespace

PeGeometry pe_geometry(const ir::Workload& w, const ir::LayerGeometry& g, bool exact) {
  PeGeometry p;
  if (exact) {
    p.kernel = {g.kernel[0], g.kernel[1]};
    p.stride = {g.stride[0], g.stride[1]};
    p.pad = zero_rows_after(g.pad);
    return p;
  }
  p.pad = zero_rows_after(w.tile_padding_tblr.value_or(std::array<std::int32_t, 4>{0, 0, 0, 0}));
  p.stride = {box_stride(w, 2), box_stride(w, 3)};
  const ir::Tile* tile = w.tile_info && !w.tile_info->empty() ? &w.tile_info->front() : nullptr;
  if ((w.weight && w.weight->box.rank == 4) || g.per_sample_weights) {
    // [0, K, C, R*S] (infer_geometry splits R*S), or a batched matrix
    // product (infer_geometry: 1 x 1)
    p.kernel = {g.kernel[0], g.kernel[1]};
  } else if (tile) {
    // An edge tile may imply less than one tap (its activation mini tile
    // cut by the input's end): the kernel it does not tell is 1.
    p.kernel = {std::max<std::int64_t>(1, tile_kernel(*tile, 2, p.stride[0])),
                std::max<std::int64_t>(1, tile_kernel(*tile, 3, p.stride[1]))};
  }
  return p;
}

VpGeometry vp_geometry(const ir::Workload& w, const ir::LayerGeometry& g, bool exact, bool pools,
                       const ir::Box& input) {
  std::int64_t window = 1;
  if (pools && input.rank == 4 && w.workload.rank == 4)
    window = std::max<std::int64_t>(
        1, input.extent(2) / std::max<std::int64_t>(w.workload.extent(2), 1));
  std::int64_t stride = window;
  const bool pool = g.op == ir::LayerOp::pool_max || g.op == ir::LayerOp::pool_avg;
  const bool global =
      g.op == ir::LayerOp::pool_avg && g.ofmap_shape[2] == 1 && g.ofmap_shape[3] == 1;
  std::array<std::int32_t, 2> kernel = g.kernel, vstride = g.stride;
  if (global) {
    kernel = {g.ifmap_shape[2], g.ifmap_shape[3]};
    vstride = {1, 1};
  }
  if (exact && pool) {
    window = kernel[0];
    stride = vstride[0];
  } else if (!global) {
    kernel = {static_cast<std::int32_t>(window), static_cast<std::int32_t>(window)};
    vstride = {static_cast<std::int32_t>(stride), static_cast<std::int32_t>(stride)};
  }
  VpGeometry v;
  v.kernel = {kernel[0], kernel[1]};
  v.stride = {vstride[0], vstride[1]};
  v.window = window;
  v.window_stride = stride;
  if (!global) v.pad = g.pad;
  return v;
}

}  // namespace lowering

namespace {

void grow(std::array<std::int32_t, 4>& shape, const ir::Box& b) {
  if (b.rank != 4) return;
  for (int d = 0; d < 4; ++d)
    shape[static_cast<std::size_t>(d)] = std::max(shape[static_cast<std::size_t>(d)], b.hi[d] + 1);
}

// R and S of a kernel of rs positions (a 4-D weight box holds R*S as one
// dimension): the tile's activation mini tile gives R where it has one
// (act = (out - 1) * stride + R); else a square kernel where rs is a
// square; else rs x 1.
std::array<std::int32_t, 2> split_kernel(std::int64_t rs, const ir::Workload& w) {
  rs = std::max<std::int64_t>(rs, 1);
  const ir::Box* in = w.ifmap.empty() ? nullptr : &w.ifmap.front().box;
  if (w.tile_info && !w.tile_info->empty() && in && in->rank == 4 && w.workload.rank == 4) {
    const std::int64_t r =
        lowering::tile_kernel(w.tile_info->front(), 2, lowering::box_stride(w, 2));
    if (r >= 1 && rs % r == 0)
      return {static_cast<std::int32_t>(r), static_cast<std::int32_t>(rs / r)};
  }
  auto root = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(rs))));
  if (root * root == rs) return {static_cast<std::int32_t>(root), static_cast<std::int32_t>(root)};
  return {static_cast<std::int32_t>(rs), 1};
}

}  // namespace

ir::GeometryTable infer_geometry(const ir::Model& m) {
  ir::GeometryTable t;
  for (const ir::Core& c : m.cores)
    for (const ir::Workload& w : c.workloads) {
      auto [it, fresh] = t.layers.try_emplace(w.layer_name);
      ir::LayerGeometry& g = it->second;
      if (fresh) {
        g.op = ir::layer_op_of(w);
        g.per_sample_weights = w.weight && w.weight->from_ofmap.value_or(false);
        g.group_c = 0;  // gathered below for per-sample weights, then set
      }
      grow(g.ofmap_shape, w.workload);
      for (const ir::Ifmap& f : w.ifmap) grow(g.ifmap_shape, f.box);
      // Per-sample weights (the public dialect's from_ofmap: attention's
      // batched matrix products) have a weight box [n, k, c] (+ R*S): its c
      // extent is the input channels of one group.
      if (g.per_sample_weights && w.weight && w.weight->box.rank >= 3)
        g.group_c = std::max(g.group_c, static_cast<std::int32_t>(w.weight->box.extent(2)));
      // Constant weights [0, K, C, R*S]: the kernel from R*S.
      if (!g.per_sample_weights && w.weight && w.weight->box.rank == 4)
        g.kernel = split_kernel(w.weight->box.extent(3), w);
      if (w.tile_padding_tblr && w.workload.rank == 4) {
        const auto& p = *w.tile_padding_tblr;
        if (w.workload.lo[2] == 0) g.pad[0] = std::max(g.pad[0], p[0]);
        if (w.workload.lo[3] == 0) g.pad[2] = std::max(g.pad[2], p[2]);
      }
      for (const ir::BufferEntry& b : w.buffer)
        if (b.layer_name == w.layer_name && b.type == ir::TensorType::ifmap)
          g.operands = std::max<std::int32_t>(
              g.operands,
              static_cast<std::int32_t>(std::max<std::size_t>(1, ir::operand_slabs(b).size())));
    }
  for (auto& [name, g] : t.layers) {
    for (std::size_t d = 0; d < 4; ++d) {
      g.ofmap_shape[d] = std::max(g.ofmap_shape[d], 1);
      g.ifmap_shape[d] = std::max(g.ifmap_shape[d], 1);
    }
    const std::int32_t sample_gc = g.group_c;
    g.group_k = g.ofmap_shape[1];
    g.group_c = g.ifmap_shape[1];
    // A batched matrix product: G = C / (C/G) groups of 1x1 products, when
    // the group width divides both sides (SET's attention layers: one group
    // per head).
    if (sample_gc > 0 && g.ifmap_shape[1] % sample_gc == 0 &&
        g.ofmap_shape[1] % (g.ifmap_shape[1] / sample_gc) == 0) {
      g.group_c = sample_gc;
      g.group_k = g.ofmap_shape[1] / (g.ifmap_shape[1] / sample_gc);
      g.kernel = {1, 1};
    }
    if (g.op == ir::LayerOp::transpose) g.permutation = {0, 2, 1, 3};
    if (g.op == ir::LayerOp::pool_max && g.ofmap_shape[2] == 1 && g.ofmap_shape[3] == 1 &&
        g.ifmap_shape[2] * g.ifmap_shape[3] > 1)
      g.op = ir::LayerOp::pool_avg;  // a global pool: average (the models README)
    if (g.op == ir::LayerOp::fc) g.kernel = {g.ifmap_shape[2], g.ifmap_shape[3]};
  }
  return t;
}

}  // namespace gemini::assembler
