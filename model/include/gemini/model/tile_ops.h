#pragma once
// The tile operations of the PE and the vector processor, element by
// element (docs/numerics.md): a convolution (grouped, strided, padded,
// with per-sample weights for attention), max / average pooling, the
// saturating elementwise add, transpose and copy. A tile is described as a
// pe_run / vp_run describes it: boxes in the layer's coordinates and dense
// int8 data over those boxes.
//
// Everything here is GEMINI_HD, plain data and index arithmetic: the CPU
// reference, the simulator's functional units and the CUDA kernels all
// compute an element with these same functions (the CPU's fast paths are
// tested against them).

#include <cstdint>

#include "gemini/ir/box.h"
#include "gemini/ir/hd.h"
#include "gemini/model/numerics.h"

namespace gemini::model {

// Tiles are ir::Box (4-D, [lo, hi] inclusive: N, C, H, W; weights K, C/G,
// R, S or, per sample, N, K, C/G, R*S).

// Dense int8 data over a box.
struct ConstTile {
  const std::int8_t* data = nullptr;
  ir::Box box;
  GEMINI_HD std::int8_t at(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t e) const {
    return data[box.offset(a, b, c, e)];
  }
};

// ---- Convolution and fully connected ------------------------------------
// out[n,k,h,w] = sum over c' < group_c, r < kernel_r, s < kernel_s of
//   in[n, g*group_c + c', h*stride_h - pad_t + r, w*stride_w - pad_l + s]
//   * W[k, c', r, s]                     (per_sample: W[n, k, c', r*kernel_s + s])
// with g = k / group_k; input rows outside [0, in_h) and columns outside
// [0, in_w) are zero padding. A fully connected layer is the convolution
// whose kernel is its whole input (stride 1, no padding).
struct ConvParams {
  std::int32_t stride_h = 1, stride_w = 1, pad_t = 0, pad_l = 0;
  std::int32_t kernel_r = 1, kernel_s = 1;
  std::int32_t in_h = 1, in_w = 1;        // the layer's input extent
  std::int32_t group_k = 1, group_c = 1;  // output / input channels per group
  bool per_sample = false;                // WeightFromFmap weights
};

// The input box (layer input coordinates) the outputs in `out` read: the
// halo rule, clipped to the input (what must be present, padding aside).
// The halo rule of a sliding window, for one spatial dimension: output
// cells [o0, o1] read input cells [o0*stride - pad, o1*stride - pad + k - 1]
// clipped to [0, extent).
GEMINI_HD inline void window_range(std::int32_t o0, std::int32_t o1, std::int32_t stride,
                                   std::int32_t pad, std::int32_t k, std::int32_t extent,
                                   std::int32_t& lo, std::int32_t& hi) {
  lo = o0 * stride - pad;
  hi = o1 * stride - pad + k - 1;
  lo = lo < 0 ? 0 : lo;
  hi = hi > extent - 1 ? extent - 1 : hi;
}

// Calls f(r, s, ih, iw) for every tap (r, s) of output cell (h, x)'s window
// that lies inside the layer's input [0, in_h) x [0, in_w) (the rest is
// padding), rows then columns. P: ConvParams or PoolParams.
template <typename P, typename F>
GEMINI_HD inline void for_each_tap(const P& p, std::int32_t h, std::int32_t x, F&& f) {
  for (std::int32_t r = 0; r < p.kernel_r; ++r) {
    const std::int32_t ih = h * p.stride_h - p.pad_t + r;
    if (ih < 0 || ih >= p.in_h) continue;
    for (std::int32_t s = 0; s < p.kernel_s; ++s) {
      const std::int32_t iw = x * p.stride_w - p.pad_l + s;
      if (iw >= 0 && iw < p.in_w) f(r, s, ih, iw);
    }
  }
}

GEMINI_HD inline ir::Box conv_input_box(const ConvParams& p, const ir::Box& out) {
  ir::Box b;
  b.lo[0] = out.lo[0];
  b.hi[0] = out.hi[0];
  b.lo[1] = out.lo[1] / p.group_k * p.group_c;
  b.hi[1] = (out.hi[1] / p.group_k + 1) * p.group_c - 1;
  window_range(out.lo[2], out.hi[2], p.stride_h, p.pad_t, p.kernel_r, p.in_h, b.lo[2], b.hi[2]);
  window_range(out.lo[3], out.hi[3], p.stride_w, p.pad_l, p.kernel_s, p.in_w, b.lo[3], b.hi[3]);
  return b;
}

// The weight box the outputs in `out` read.
GEMINI_HD inline ir::Box conv_weight_box(const ConvParams& p, const ir::Box& out) {
  ir::Box b;
  if (p.per_sample) {
    b.lo[0] = out.lo[0];
    b.hi[0] = out.hi[0];
    b.lo[1] = out.lo[1];
    b.hi[1] = out.hi[1];
    b.lo[2] = 0;
    b.hi[2] = p.group_c - 1;
    b.lo[3] = 0;
    b.hi[3] = p.kernel_r * p.kernel_s - 1;
  } else {
    b.lo[0] = out.lo[1];
    b.hi[0] = out.hi[1];
    b.lo[1] = 0;
    b.hi[1] = p.group_c - 1;
    b.lo[2] = 0;
    b.hi[2] = p.kernel_r - 1;
    b.lo[3] = 0;
    b.hi[3] = p.kernel_s - 1;
  }
  return b;
}

// One output element's sum. `in` must hold conv_input_box of the element
// (cells it lacks read as zero; callers check coverage first) and `w` its
// weights.
GEMINI_HD inline std::int32_t conv_element(const ConvParams& p, const ConstTile& in,
                                           const ConstTile& w, std::int32_t n, std::int32_t k,
                                           std::int32_t h, std::int32_t x) {
  const std::int32_t g = k / p.group_k;
  std::int32_t acc = 0;
  for (std::int32_t c = 0; c < p.group_c; ++c) {
    const std::int32_t ci = g * p.group_c + c;
    for_each_tap(p, h, x, [&](std::int32_t r, std::int32_t s, std::int32_t ih, std::int32_t iw) {
      if (!in.box.holds(n, ci, ih, iw)) return;
      const std::int32_t wv = p.per_sample ? w.at(n, k, c, r * p.kernel_s + s) : w.at(k, c, r, s);
      acc += static_cast<std::int32_t>(in.at(n, ci, ih, iw)) * wv;
    });
  }
  return acc;
}

// ---- Pooling ---------------------------------------------------------------
// Max: the largest input cell of the window that lies inside the input
// (padding never wins; a window with no cell inside gives -128).
// Average: the sum of those cells, requantised by `shift` (a global pool's
// window is the whole input).
struct PoolParams {
  std::int32_t kernel_r = 1, kernel_s = 1, stride_h = 1, stride_w = 1, pad_t = 0, pad_l = 0;
  std::int32_t in_h = 1, in_w = 1;
  bool average = false;
  std::int32_t shift = 0;
};

GEMINI_HD inline ir::Box pool_input_box(const PoolParams& p, const ir::Box& out) {
  ir::Box b = out;
  window_range(out.lo[2], out.hi[2], p.stride_h, p.pad_t, p.kernel_r, p.in_h, b.lo[2], b.hi[2]);
  window_range(out.lo[3], out.hi[3], p.stride_w, p.pad_l, p.kernel_s, p.in_w, b.lo[3], b.hi[3]);
  return b;
}

// The sum of a window's cells that lie inside the input (average pooling).
GEMINI_HD inline std::int64_t pool_window_sum(const PoolParams& p, const ConstTile& in,
                                              std::int32_t n, std::int32_t c, std::int32_t h,
                                              std::int32_t x) {
  std::int64_t sum = 0;
  for_each_tap(p, h, x, [&](std::int32_t, std::int32_t, std::int32_t ih, std::int32_t iw) {
    if (in.box.holds(n, c, ih, iw)) sum += in.at(n, c, ih, iw);
  });
  return sum;
}

GEMINI_HD inline std::int8_t pool_element(const PoolParams& p, const ConstTile& in, std::int32_t n,
                                          std::int32_t c, std::int32_t h, std::int32_t x) {
  if (p.average) return requantize(pool_window_sum(p, in, n, c, h, x), p.shift);
  std::int32_t best = -128;
  for_each_tap(p, h, x, [&](std::int32_t, std::int32_t, std::int32_t ih, std::int32_t iw) {
    if (!in.box.holds(n, c, ih, iw)) return;
    const std::int32_t v = in.at(n, c, ih, iw);
    best = v > best ? v : best;
  });
  return static_cast<std::int8_t>(best);
}

// ---- Elementwise -----------------------------------------------------------
// The sum of the operands, requantised by `shift` (saturating).
GEMINI_HD inline std::int8_t add_element(std::int64_t sum, std::int32_t shift) {
  return requantize(sum, shift);
}

// ---- Transpose ---------------------------------------------------------------
// Input dimension i becomes output dimension perm[i]: the output element at
// coordinates o reads the input at i with i[d] = o[perm[d]].
GEMINI_HD inline void transpose_source(const std::int32_t perm[4], const std::int32_t out[4],
                                       std::int32_t in[4]) {
  for (int d = 0; d < 4; ++d) in[d] = out[perm[d]];
}

}  // namespace gemini::model
