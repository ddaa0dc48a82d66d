#pragma once
// A convolution tile (model::TileOp of kind conv) as matrix products, the
// form the tensor cores take (docs/gpu.md, "Tensor cores"): the implicit
// GEMM of the convolution, made explicit.
//
//   C[z][m][j] = sum over q < kg of A[z][m][q] * B[z][j][q]
//
// z is a group of output channels the tile touches (and, with per-sample
// weights, a sample: z = sample * groups + group); m an output cell of the
// tile (n, h, w row-major; h, w alone per sample); j an output channel of
// the group (k = group * group_k + j); q a term of the group's reduction,
// q = c * R * S + r * S + s, the order of the weights in memory.
//
// A[z][m][q] is the input the term reads, or 0 where the element reads
// nothing there: a tap in the padding, and -- as conv_element_dp4a --
// a sample, channel or cell the input tile lacks. B[z][j][q] is the
// weight, 0 for a channel outside the tile. Integer sums in any order are
// the same sums, so C equals tile_element(op, .) bit for bit wherever the
// output box has the element (tested on the CPU, tests/gpu_backend/
// test_conv_gemm.cpp, and on the GPU against the dp4a kernel).
//
// The padded extents are those the CUDA kernel tiles by (kBlockM x kBlockN
// outputs, kBlockK terms a step); the packed operands are zero there.
// Everything here is GEMINI_HD index arithmetic: the CPU build runs and
// tests the very functions the packing kernels call.

#include <cstdint>

#include "gemini/ir/hd.h"
#include "gemini/model/tile_op.h"

namespace gemini::gpu {

inline constexpr std::int32_t kBlockM = 128, kBlockN = 64, kBlockK = 64;

struct ConvGemm {
  std::int32_t g0 = 0;                  // the first group the tile touches
  std::int32_t groups = 0;              // groups it touches
  std::int32_t samples = 1;             // per-sample weights: the tile's samples; else 1
  std::int64_t z = 0;                   // samples * groups products
  std::int64_t m = 0, n = 0;            // rows (output cells) and columns (group_k) of each
  std::int64_t k = 0;                   // terms: group_c * R * S
  std::int64_t mp = 0, np = 0, kp = 0;  // padded to kBlockM, kBlockN, kBlockK
  std::int64_t hw = 0;                  // output cells per sample: H * W of the tile
  std::int64_t rs = 0;                  // R * S

  GEMINI_HD std::int64_t a_bytes() const { return z * mp * kp; }
  GEMINI_HD std::int64_t b_bytes() const { return z * np * kp; }
  GEMINI_HD std::int64_t macs() const { return z * m * n * k; }
};

GEMINI_HD inline ConvGemm conv_gemm_shape(const model::TileOp& op) {
  const model::ConvParams& p = op.conv;
  ConvGemm g;
  g.g0 = op.out.lo[1] / p.group_k;
  g.groups = op.out.hi[1] / p.group_k - g.g0 + 1;
  g.samples = p.per_sample ? static_cast<std::int32_t>(op.out.extent(0)) : 1;
  g.z = std::int64_t{g.samples} * g.groups;
  g.hw = op.out.extent(2) * op.out.extent(3);
  g.m = p.per_sample ? g.hw : op.out.extent(0) * g.hw;
  g.n = p.group_k;
  g.rs = std::int64_t{p.kernel_r} * p.kernel_s;
  g.k = std::int64_t{p.group_c} * g.rs;
  auto up = [](std::int64_t v, std::int64_t b) { return (v + b - 1) / b * b; };
  g.mp = up(g.m, kBlockM);
  g.np = up(g.n, kBlockN);
  g.kp = up(g.k, kBlockK);
  return g;
}

// The output cell (sample, row, column in the layer's coordinates) of row
// m of product z. Row and product indices fit 32 bits (the operands are
// at most 1 GiB, use_tensor_cores): the divisions here are 32-bit ones,
// several times cheaper on a GPU than 64-bit ones.
GEMINI_HD inline void conv_gemm_cell(const model::TileOp& op, const ConvGemm& g, std::int64_t z,
                                     std::int64_t m, std::int32_t& n, std::int32_t& h,
                                     std::int32_t& w) {
  const auto m32 = static_cast<std::uint32_t>(m), hw = static_cast<std::uint32_t>(g.hw);
  const auto width = static_cast<std::uint32_t>(op.out.extent(3));
  const std::uint32_t cell = m32 % hw;
  n = op.out.lo[0] + static_cast<std::int32_t>(op.conv.per_sample
                                                   ? static_cast<std::uint32_t>(z) /
                                                         static_cast<std::uint32_t>(g.groups)
                                                   : m32 / hw);
  h = op.out.lo[2] + static_cast<std::int32_t>(cell / width);
  w = op.out.lo[3] + static_cast<std::int32_t>(cell % width);
}

GEMINI_HD inline std::int32_t conv_gemm_group(const ConvGemm& g, std::int64_t z) {
  return g.g0 + static_cast<std::int32_t>(static_cast<std::uint32_t>(z) %
                                          static_cast<std::uint32_t>(g.groups));
}

// dst[i] = A[z][m][q0 + i] for i < count: what conv_gemm_a gives, the
// window's position found once and then stepped along the terms (c, r, s)
// -- how the packing kernel fills 16 bytes at a time.
GEMINI_HD inline void conv_gemm_a_run(const model::TileOp& op, const ConvGemm& g, std::int64_t z,
                                      std::int64_t m, std::int64_t q0, int count,
                                      std::int8_t* dst) {
  for (int i = 0; i < count; ++i) dst[i] = 0;
  if (m >= g.m || q0 >= g.k) return;
  const model::ConvParams& p = op.conv;
  const model::ConstTile& in = op.in[0];
  std::int32_t n, h, w;
  conv_gemm_cell(op, g, z, m, n, h, w);
  if (n < in.box.lo[0] || n > in.box.hi[0]) return;  // a sample the tile lacks
  const std::int32_t c_first = conv_gemm_group(g, z) * p.group_c;
  const auto rs = static_cast<std::uint32_t>(g.rs), q = static_cast<std::uint32_t>(q0);
  std::int32_t c = static_cast<std::int32_t>(q / rs);
  const auto t = static_cast<std::int32_t>(q % rs);
  std::int32_t r = t / p.kernel_s, s = t % p.kernel_s;
  const std::int32_t ih0 = h * p.stride_h - p.pad_t, iw0 = w * p.stride_w - p.pad_l;
  const std::int64_t left = g.k - q0;
  for (int i = 0; i < count && i < left; ++i) {
    const std::int32_t ch = c_first + c, ih = ih0 + r, iw = iw0 + s;
    if (ih >= 0 && ih < p.in_h && iw >= 0 && iw < p.in_w &&  // not padding
        ch >= in.box.lo[1] && ch <= in.box.hi[1] && ih >= in.box.lo[2] && ih <= in.box.hi[2] &&
        iw >= in.box.lo[3] && iw <= in.box.hi[3])  // and in the tile
      dst[i] = in.at(n, ch, ih, iw);
    if (++s == p.kernel_s) {
      s = 0;
      if (++r == p.kernel_r) {
        r = 0;
        ++c;
      }
    }
  }
}

// A[z][m][q] (0 in the padding of m and q).
GEMINI_HD inline std::int8_t conv_gemm_a(const model::TileOp& op, const ConvGemm& g, std::int64_t z,
                                         std::int64_t m, std::int64_t q) {
  if (m >= g.m || q >= g.k) return 0;
  const model::ConvParams& p = op.conv;
  const model::ConstTile& in = op.in[0];
  std::int32_t n, h, w;
  conv_gemm_cell(op, g, z, m, n, h, w);
  const std::int32_t group = conv_gemm_group(g, z);
  const auto c = static_cast<std::int32_t>(q / g.rs) + group * p.group_c;
  const auto t = static_cast<std::int32_t>(q % g.rs);
  const std::int32_t ih = h * p.stride_h - p.pad_t + t / p.kernel_s;
  const std::int32_t iw = w * p.stride_w - p.pad_l + t % p.kernel_s;
  if (ih < 0 || ih >= p.in_h || iw < 0 || iw >= p.in_w) return 0;  // padding
  if (n < in.box.lo[0] || n > in.box.hi[0] || c < in.box.lo[1] || c > in.box.hi[1] ||
      ih < in.box.lo[2] || ih > in.box.hi[2] || iw < in.box.lo[3] || iw > in.box.hi[3])
    return 0;  // what the tile lacks reads as outside (conv_element_dp4a)
  return in.at(n, c, ih, iw);
}

// B[z][j][q] (0 in the padding and for channels outside the tile).
GEMINI_HD inline std::int8_t conv_gemm_b(const model::TileOp& op, const ConvGemm& g, std::int64_t z,
                                         std::int64_t j, std::int64_t q) {
  if (j >= g.n || q >= g.k) return 0;
  const model::ConvParams& p = op.conv;
  const auto k = static_cast<std::int32_t>(conv_gemm_group(g, z) * p.group_k + j);
  if (k < op.out.lo[1] || k > op.out.hi[1]) return 0;
  const auto c = static_cast<std::int32_t>(q / g.rs);
  const auto t = static_cast<std::int32_t>(q % g.rs);
  if (p.per_sample) {
    const auto n = static_cast<std::int32_t>(op.out.lo[0] + z / g.groups);
    return op.weights.at(n, k, c, t);
  }
  return op.weights.at(k, c, t / p.kernel_s, t % p.kernel_s);
}

// dst[i] = B[z][j][q0 + i] for i < count (conv_gemm_b, stepped).
GEMINI_HD inline void conv_gemm_b_run(const model::TileOp& op, const ConvGemm& g, std::int64_t z,
                                      std::int64_t j, std::int64_t q0, int count,
                                      std::int8_t* dst) {
  for (int i = 0; i < count; ++i) dst[i] = 0;
  if (j >= g.n || q0 >= g.k) return;
  const model::ConvParams& p = op.conv;
  const auto k = static_cast<std::int32_t>(conv_gemm_group(g, z) * p.group_k + j);
  if (k < op.out.lo[1] || k > op.out.hi[1]) return;
  const auto rs = static_cast<std::uint32_t>(g.rs), q = static_cast<std::uint32_t>(q0);
  std::int32_t c = static_cast<std::int32_t>(q / rs);
  std::int32_t t = static_cast<std::int32_t>(q % rs);
  const std::int32_t n =
      p.per_sample ? op.out.lo[0] + static_cast<std::int32_t>(static_cast<std::uint32_t>(z) /
                                                              static_cast<std::uint32_t>(g.groups))
                   : 0;
  const std::int64_t left = g.k - q0;
  for (int i = 0; i < count && i < left; ++i) {
    dst[i] = p.per_sample ? op.weights.at(n, k, c, t)
                          : op.weights.at(k, c, t / p.kernel_s, t % p.kernel_s);
    if (++t == static_cast<std::int32_t>(rs)) {
      t = 0;
      ++c;
    }
  }
}

// Where C[z][m][j] goes in the op's output (dense over op.out), or -1 when
// the output box lacks it.
GEMINI_HD inline std::int64_t conv_gemm_out(const model::TileOp& op, const ConvGemm& g,
                                            std::int64_t z, std::int64_t m, std::int64_t j) {
  if (m >= g.m || j >= g.n) return -1;
  const auto k = static_cast<std::int32_t>(conv_gemm_group(g, z) * op.conv.group_k + j);
  if (k < op.out.lo[1] || k > op.out.hi[1]) return -1;
  std::int32_t n, h, w;
  conv_gemm_cell(op, g, z, m, n, h, w);
  return op.out.offset(n, k, h, w);
}

// Whether the cuda backend computes the op on the tensor cores: a
// convolution with enough work per product to fill them (at least 16
// output channels per group, 16 output cells per product) and enough in
// all to pay for its three launches (2^23 MACs: at the dp4a kernel's
// ~1 TMAC/s about the 10 us the launches cost), with packed operands of at
// most 1 GiB. Everything else (depthwise convolutions, a batch-1 fully
// connected layer, the small tiles of a schedule) goes to the per-element
// dp4a kernel, all of a batch in one launch.
GEMINI_HD inline bool use_tensor_cores(const model::TileOp& op) {
  if (op.kind != model::TileKind::conv || op.elements() <= 0) return false;
  const ConvGemm g = conv_gemm_shape(op);
  if (g.n < 16 || g.m < 16 || g.k < 16) return false;
  if (g.macs() < (std::int64_t{1} << 23)) return false;
  if (g.z > 65535) return false;  // the grid's z
  return g.a_bytes() + g.b_bytes() <= (std::int64_t{1} << 30);
}

}  // namespace gemini::gpu
