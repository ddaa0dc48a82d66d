#pragma once
// Test helpers for tile operations: boxes from corners, random int8 tiles,
// and a convolution's tile parameters from a layer's shape.

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "gemini/model/tile_ops.h"

namespace gemini::test {

inline ir::Box box(std::array<std::int32_t, 4> lo, std::array<std::int32_t, 4> hi) {
  ir::Box b;
  for (int d = 0; d < 4; ++d) {
    b.lo[d] = lo[static_cast<std::size_t>(d)];
    b.hi[d] = hi[static_cast<std::size_t>(d)];
  }
  return b;
}

// Random dense data over a box.
inline std::vector<std::int8_t> random_tile(const ir::Box& b, std::mt19937& rng) {
  std::vector<std::int8_t> v(static_cast<std::size_t>(b.volume()));
  std::uniform_int_distribution<int> d(-128, 127);
  for (auto& x : v) x = static_cast<std::int8_t>(d(rng));
  return v;
}

// c input and k output channels in g groups, an ih x iw input, an r x s
// kernel at `stride`, top / left padding pt, pl; per_sample: attention's
// per-sample weights.
inline model::ConvParams conv_case_params(int c, int k, int ih, int iw, int r, int s, int stride,
                                          int pt, int pl, int g, bool per_sample) {
  model::ConvParams p;
  p.stride_h = p.stride_w = stride;
  p.pad_t = pt;
  p.pad_l = pl;
  p.kernel_r = r;
  p.kernel_s = s;
  p.in_h = ih;
  p.in_w = iw;
  p.group_k = k / g;
  p.group_c = c / g;
  p.per_sample = per_sample;
  return p;
}

}  // namespace gemini::test
