#include "gemini/model/layer_params.h"

namespace gemini::model {

ir::Box whole_box(const Dims4& s) {
  ir::Box b;
  for (int d = 0; d < 4; ++d) {
    b.lo[d] = 0;
    b.hi[d] = static_cast<std::int32_t>(s[static_cast<std::size_t>(d)] - 1);
  }
  return b;
}

namespace {
std::int32_t i32(std::int64_t v) { return static_cast<std::int32_t>(v); }
}  // namespace

ConvParams conv_params(const Op& op) {
  ConvParams p;
  p.in_h = i32(op.ifmap_shape[2]);
  p.in_w = i32(op.ifmap_shape[3]);
  if (op.type == OpType::fully_connected) {
    p.kernel_r = p.in_h;
    p.kernel_s = p.in_w;
    p.group_k = i32(op.ofmap_shape[1]);
    p.group_c = i32(op.ifmap_shape[1]);
    return p;
  }
  p.stride_h = i32(op.stride[0]);
  p.stride_w = i32(op.stride[1]);
  p.pad_t = i32(op.pad[0]);
  p.pad_l = i32(op.pad[2]);
  p.kernel_r = i32(op.kernel[0]);
  p.kernel_s = i32(op.kernel[1]);
  p.group_k = i32(op.group_k());
  p.group_c = i32(op.group_c());
  p.per_sample = op.weight_from_fmap;
  return p;
}

ir::Box weight_box(const Op& op) {
  ir::Box b;
  auto set = [&](std::int64_t a, std::int64_t c, std::int64_t h, std::int64_t w) {
    b.hi[0] = i32(a - 1);
    b.hi[1] = i32(c - 1);
    b.hi[2] = i32(h - 1);
    b.hi[3] = i32(w - 1);
  };
  if (op.type == OpType::fully_connected) {
    set(op.ofmap_shape[1], op.ifmap_shape[1], op.ifmap_shape[2], op.ifmap_shape[3]);
  } else if (op.weight_from_fmap) {
    set(op.ifmap_shape[0], op.weight_shape[0], op.weight_shape[1],
        op.weight_shape[2] * op.weight_shape[3]);
  } else {
    set(op.weight_shape[0], op.weight_shape[1], op.weight_shape[2], op.weight_shape[3]);
  }
  return b;
}

PoolParams pool_params(const Op& op, std::int32_t shift) {
  PoolParams p;
  p.in_h = i32(op.ifmap_shape[2]);
  p.in_w = i32(op.ifmap_shape[3]);
  if (op.global) {
    p.kernel_r = p.in_h;
    p.kernel_s = p.in_w;
  } else {
    p.kernel_r = i32(op.kernel[0]);
    p.kernel_s = i32(op.kernel[1]);
    p.stride_h = i32(op.stride[0]);
    p.stride_w = i32(op.stride[1]);
    p.pad_t = i32(op.pad[0]);
    p.pad_l = i32(op.pad[2]);
  }
  p.average = op.global;
  p.shift = shift;
  return p;
}

}  // namespace gemini::model
