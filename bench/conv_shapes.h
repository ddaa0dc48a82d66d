#pragma once
// The convolution layer shapes the model and backend benchmarks share:
// ResNet-50's and a transformer projection's, batch 1, square kernels,
// symmetric padding, one group.

#include <cstdint>
#include <random>
#include <vector>

#include "gemini/model/tile_ops.h"

namespace gemini::bench {

struct ConvShape {
  const char* name;
  int c, k, h, w, r, stride, pad;  // input C x H x W, K outputs, r x r kernel

  int out_h() const { return (h + 2 * pad - r) / stride + 1; }
  int out_w() const { return (w + 2 * pad - r) / stride + 1; }
  model::ConvParams params() const {
    model::ConvParams p;
    p.kernel_r = p.kernel_s = r;
    p.stride_h = p.stride_w = stride;
    p.pad_t = p.pad_l = pad;
    p.in_h = h;
    p.in_w = w;
    p.group_k = k;
    p.group_c = c;
    return p;
  }
  ir::Box in_box() const { return box(1, c, h, w); }
  ir::Box weight_box() const { return box(k, c, r, r); }
  ir::Box out_box() const { return box(1, k, out_h(), out_w()); }
  double macs() const { return static_cast<double>(out_box().volume()) * c * r * r; }

  static ir::Box box(int n, int c, int h, int w) {
    ir::Box b;
    b.hi[0] = n - 1;
    b.hi[1] = c - 1;
    b.hi[2] = h - 1;
    b.hi[3] = w - 1;
    return b;
  }
};

inline constexpr ConvShape kConvShapes[] = {
    {"resnet_conv1_7x7s2", 3, 64, 224, 224, 7, 2, 3},
    {"resnet_conv2_3x3_64", 64, 64, 56, 56, 3, 1, 1},
    {"resnet_conv2_1x1_64_256", 64, 256, 56, 56, 1, 1, 0},
    {"resnet_conv5_3x3_512", 512, 512, 7, 7, 3, 1, 1},
    {"bert_proj_1x1_1024", 1024, 1024, 512, 1, 1, 1, 0},
};

// n uniformly random int8 values, the same for every call.
inline std::vector<std::int8_t> random8(std::int64_t n) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<std::int8_t> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<std::int8_t>(d(rng));
  return v;
}

}  // namespace gemini::bench
