#pragma once
// One tile operation of the PE or the vector processor, described exactly
// as a pe_run / vp_run describes it (docs/isa.md, docs/numerics.md): the
// op, its parameters, its input tiles and output box. A TileOp is what a
// backend is handed to compute on its own (`gemini xcheck`, the plan
// executors), and tile_element() is how every backend computes it: the CPU
// backend loops over it, the CUDA kernels call it once per thread.
//
// Everything here is GEMINI_HD, plain data and index arithmetic. The
// convolution reduces four input channels at a time through dot4(), which
// is the hardware's __dp4a on the GPU and the same arithmetic in C++ on the
// host, so the CPU build runs (and tests) the very code the GPU runs.

#include <cstdint>

#include "gemini/ir/hd.h"
#include "gemini/model/numerics.h"
#include "gemini/model/tile_ops.h"

namespace gemini::model {

enum class TileKind : std::uint8_t {
  conv,        // pe_run: int32 sums of a convolution / FC tile
  requantize,  // the end of a pe_run chain: its int32 sums -> int8
  pool,        // vp_run pool_max / pool_avg
  add,         // vp_run add: the operands' sum, requantised
  transpose,   // vp_run transpose, and copy / PTP (the identity permutation)
  // What a whole-layer executor needs before it knows a layer's shift (the
  // shift is calibrated on the sums, docs/numerics.md): the int32 sums of
  // average pooling and of an elementwise add, requantised afterwards.
  pool_sum,
  add_sum,
};
const char* to_string(TileKind k);
inline constexpr int kMaxTileInputs = 4;

struct TileOp {
  TileKind kind = TileKind::conv;
  ConvParams conv;                      // conv
  PoolParams pool;                      // pool (average: requantised by pool.shift)
  std::int32_t shift = 0;               // requantize, add
  std::int32_t perm[4] = {0, 1, 2, 3};  // transpose: input dim i becomes output dim perm[i]
  ConstTile in[kMaxTileInputs];         // conv, pool, transpose: in[0]; add: in[0..inputs)
  std::int32_t inputs = 1;
  ConstTile weights;                   // conv
  const std::int32_t* sums = nullptr;  // requantize: out.volume() sums, dense over `out`
  ir::Box out;                         // the output tile (the layer's coordinates)

  // conv, pool_sum and add_sum produce int32 sums; the others int8 values.
  GEMINI_HD bool wide() const {
    return kind == TileKind::conv || kind == TileKind::pool_sum || kind == TileKind::add_sum;
  }
  GEMINI_HD std::int64_t elements() const { return out.volume(); }
};

// ---- dp4a --------------------------------------------------------------
GEMINI_HD inline std::int32_t pack4(std::int8_t a, std::int8_t b, std::int8_t c, std::int8_t d) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint8_t>(a)) |
                                   static_cast<std::uint32_t>(static_cast<std::uint8_t>(b)) << 8 |
                                   static_cast<std::uint32_t>(static_cast<std::uint8_t>(c)) << 16 |
                                   static_cast<std::uint32_t>(static_cast<std::uint8_t>(d)) << 24);
}

// acc + the dot product of the four signed bytes of a and b.
GEMINI_HD inline std::int32_t dot4(std::int32_t a, std::int32_t b, std::int32_t acc) {
#if defined(__CUDA_ARCH__)
  return __dp4a(a, b, acc);
#else
  std::int32_t s = 0;
  for (int i = 0; i < 4; ++i) {
    const auto x = static_cast<std::int8_t>(static_cast<std::uint32_t>(a) >> (8 * i));
    const auto y = static_cast<std::int8_t>(static_cast<std::uint32_t>(b) >> (8 * i));
    s += static_cast<std::int32_t>(x) * y;
  }
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(acc) + static_cast<std::uint32_t>(s));
#endif
}

// conv_element (tile_ops.h), reduced four input channels at a time with
// dot4: for each kernel tap (r, s) that lies inside the input and the
// tile, the input channels the tile holds are packed four by four with
// their weights (the last group padded with zeros) and multiplied in one
// step. Integer sums in any order are the same sums, so this equals
// conv_element bit for bit (tested).
GEMINI_HD inline std::int32_t conv_element_dp4a(const ConvParams& p, const ConstTile& in,
                                                const ConstTile& w, std::int32_t n, std::int32_t k,
                                                std::int32_t h, std::int32_t x) {
  if (n < in.box.lo[0] || n > in.box.hi[0]) return 0;
  const std::int32_t g = k / p.group_k;
  // The group's input channels the tile holds: c in [c_lo, c_hi].
  const std::int32_t first = g * p.group_c;
  const std::int32_t c_lo = in.box.lo[1] > first ? in.box.lo[1] - first : 0;
  const std::int32_t c_hi =
      in.box.hi[1] < first + p.group_c - 1 ? in.box.hi[1] - first : p.group_c - 1;
  if (c_lo > c_hi) return 0;
  const std::int64_t in_c_stride = in.box.extent(2) * in.box.extent(3);
  // Weights of (k, c, r, s): [K, C/G, R, S], or per sample [N, K, C/G, R*S].
  const std::int64_t w_c_stride =
      p.per_sample ? w.box.extent(3) : w.box.extent(2) * w.box.extent(3);
  const std::int32_t count = c_hi - c_lo + 1;
  std::int32_t acc = 0;
  for_each_tap(p, h, x, [&](std::int32_t r, std::int32_t s, std::int32_t ih, std::int32_t iw) {
    if (ih < in.box.lo[2] || ih > in.box.hi[2] || iw < in.box.lo[3] || iw > in.box.hi[3]) return;
    const std::int8_t* a = in.data + in.box.offset(n, first + c_lo, ih, iw);
    const std::int8_t* b = w.data + (p.per_sample ? w.box.offset(n, k, c_lo, r * p.kernel_s + s)
                                                  : w.box.offset(k, c_lo, r, s));
    for (std::int32_t c0 = 0; c0 < count; c0 += 4) {
      std::int8_t va[4] = {0, 0, 0, 0}, vb[4] = {0, 0, 0, 0};
      for (std::int32_t j = 0; j < 4 && c0 + j < count; ++j) {
        va[j] = a[(c0 + j) * in_c_stride];
        vb[j] = b[(c0 + j) * w_c_stride];
      }
      acc = dot4(pack4(va[0], va[1], va[2], va[3]), pack4(vb[0], vb[1], vb[2], vb[3]), acc);
    }
  });
  return acc;
}

// The coordinates of element `index` (row-major N, C, H, W) of `box`.
GEMINI_HD inline void box_coords(const ir::Box& box, std::int64_t index, std::int32_t o[4]) {
  for (int d = 3; d >= 0; --d) {
    const std::int64_t e = box.extent(d);
    o[d] = static_cast<std::int32_t>(box.lo[d] + index % e);
    index /= e;
  }
}

// Element `index` (row-major over op.out) of the op: an int32 sum for conv,
// an int8 value (widened) for every other kind. Inputs must hold what the
// element reads (cells a conv or pool input lacks read as outside).
GEMINI_HD inline std::int32_t tile_element(const TileOp& op, std::int64_t index) {
  std::int32_t o[4];
  box_coords(op.out, index, o);
  switch (op.kind) {
    case TileKind::conv:
      return conv_element_dp4a(op.conv, op.in[0], op.weights, o[0], o[1], o[2], o[3]);
    case TileKind::requantize:
      return requantize(op.sums[index], op.shift);
    case TileKind::pool:
      return pool_element(op.pool, op.in[0], o[0], o[1], o[2], o[3]);
    case TileKind::add:
    case TileKind::add_sum: {
      std::int64_t sum = 0;
      for (std::int32_t i = 0; i < op.inputs; ++i) sum += op.in[i].at(o[0], o[1], o[2], o[3]);
      return op.kind == TileKind::add ? add_element(sum, op.shift) : static_cast<std::int32_t>(sum);
    }
    case TileKind::pool_sum:
      return static_cast<std::int32_t>(pool_window_sum(op.pool, op.in[0], o[0], o[1], o[2], o[3]));
    case TileKind::transpose: {
      std::int32_t i[4];
      transpose_source(op.perm, o, i);
      return op.in[0].at(i[0], i[1], i[2], i[3]);
    }
  }
  return 0;
}

}  // namespace gemini::model
