// The tensor-core form of a convolution tile (gpu/conv_gemm.h): on the
// CPU, the packed operands multiplied by plain loops equal tile_element on
// every output, each written once, with zeros in all the padding; the
// choice of path; on a GPU (skipped elsewhere, saying why), the cuda
// backend's tensor-core kernels equal tile_element on shapes that take
// them: padding, strides, groups, per-sample weights, tiles that lack
// cells, boxes that start inside the layer, sizes off the block multiples.
#include <gtest/gtest.h>

#include <random>

#include "gemini/gpu/backend.h"
#include "gemini/gpu/conv_gemm.h"
#include "gemini/model/reference.h"
#include "gemini/model/tile_op.h"
#include "tile_cases.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file
using test::box;
using test::random_tile;

namespace {

// One convolution tile with its data.
struct Case {
  model::TileOp op;
  std::vector<std::int8_t> in, w;
};

// c -> k channels in g groups over an ih x iw input, r x s kernel; `out`
// the tile; trim: bit 0 drops the input tile's last channel, bit 1 its
// first row, bit 2 its first sample (cells the tile lacks read as 0).
Case make_case(int c, int k, int ih, int iw, int r, int s, int stride, int pad, int g,
               bool per_sample, int n, ir::Box out, int trim, std::mt19937& rng) {
  Case x;
  model::TileOp& op = x.op;
  op.kind = model::TileKind::conv;
  op.conv = test::conv_case_params(c, k, ih, iw, r, s, stride, pad, pad, g, per_sample);
  op.out = out;
  ir::Box in = model::conv_input_box(op.conv, out);
  if (trim & 1) in.hi[1] -= 1;
  if (trim & 2) in.lo[2] += 1;
  if (trim & 4) in.lo[0] += 1;
  const ir::Box wb = per_sample ? box({0, 0, 0, 0}, {n - 1, k - 1, c / g - 1, r * s - 1})
                                : box({0, 0, 0, 0}, {k - 1, c / g - 1, r - 1, s - 1});
  x.in = random_tile(in, rng);
  x.w = random_tile(wb, rng);
  op.in[0] = {x.in.data(), in};
  op.weights = {x.w.data(), wb};
  return x;
}

// Small shapes for the CPU's loops.
std::vector<Case> small_cases(std::mt19937& rng) {
  std::vector<Case> v;
  v.push_back(
      make_case(3, 16, 16, 16, 3, 3, 2, 1, 1, false, 1, box({0, 0, 0, 0}, {0, 15, 7, 7}), 0, rng));
  v.push_back(
      make_case(16, 32, 9, 9, 3, 3, 1, 1, 4, false, 2, box({0, 5, 1, 0}, {1, 29, 8, 8}), 3, rng));
  v.push_back(
      make_case(16, 12, 10, 1, 1, 1, 1, 0, 4, true, 3, box({0, 0, 0, 0}, {2, 11, 9, 0}), 4, rng));
  v.push_back(
      make_case(40, 5, 3, 2, 3, 2, 1, 0, 1, false, 1, box({0, 0, 0, 0}, {0, 4, 0, 0}), 0, rng));
  v.push_back(
      make_case(24, 24, 7, 7, 3, 3, 1, 1, 3, false, 2, box({1, 3, 2, 2}, {1, 20, 6, 6}), 1, rng));
  return v;
}

TEST(ConvGemm, ProductsOfThePackedOperandsEqualTheDefinition) {
  std::mt19937 rng(21);
  for (const Case& x : small_cases(rng)) {
    const model::TileOp& op = x.op;
    const gpu::ConvGemm g = gpu::conv_gemm_shape(op);
    ASSERT_EQ(g.mp % gpu::kBlockM, 0);
    ASSERT_EQ(g.np % gpu::kBlockN, 0);
    ASSERT_EQ(g.kp % gpu::kBlockK, 0);
    std::vector<int> written(static_cast<std::size_t>(op.elements()), 0);
    for (std::int64_t z = 0; z < g.z; ++z)
      for (std::int64_t m = 0; m < g.mp; ++m)
        for (std::int64_t j = 0; j < g.np; ++j) {
          std::int32_t sum = 0;
          for (std::int64_t q = 0; q < g.kp; ++q)
            sum += gpu::conv_gemm_a(op, g, z, m, q) * gpu::conv_gemm_b(op, g, z, j, q);
          const std::int64_t at = gpu::conv_gemm_out(op, g, z, m, j);
          if (at < 0) continue;
          ASSERT_LT(at, op.elements());
          ++written[static_cast<std::size_t>(at)];
          ASSERT_EQ(sum, model::tile_element(op, at)) << "z " << z << " m " << m << " j " << j;
        }
    for (std::size_t e = 0; e < written.size(); ++e) ASSERT_EQ(written[e], 1) << "element " << e;
    // The packing kernels' runs of 16 (and of fewer, from any term) give
    // the same operands.
    for (std::int64_t z = 0; z < g.z; ++z)
      for (std::int64_t m = 0; m < g.mp; m += 7)
        for (std::int64_t q0 = 0; q0 < g.kp; q0 += 5) {
          std::int8_t a[16], b[16];
          const int count = q0 % 2 ? 16 : 11;
          gpu::conv_gemm_a_run(op, g, z, m, q0, count, a);
          gpu::conv_gemm_b_run(op, g, z, m % g.np, q0, count, b);
          for (int i = 0; i < count; ++i) {
            ASSERT_EQ(a[i], gpu::conv_gemm_a(op, g, z, m, q0 + i)) << z << " " << m << " " << q0;
            ASSERT_EQ(b[i], gpu::conv_gemm_b(op, g, z, m % g.np, q0 + i)) << z << " " << q0;
          }
        }
    // The padding of the operands is zero.
    for (std::int64_t z = 0; z < g.z; ++z) {
      for (std::int64_t q = g.k; q < g.kp; ++q) {
        ASSERT_EQ(gpu::conv_gemm_a(op, g, z, 0, q), 0);
        ASSERT_EQ(gpu::conv_gemm_b(op, g, z, 0, q), 0);
      }
      for (std::int64_t m = g.m; m < g.mp; ++m) ASSERT_EQ(gpu::conv_gemm_a(op, g, z, m, 0), 0);
      for (std::int64_t j = g.n; j < g.np; ++j) ASSERT_EQ(gpu::conv_gemm_b(op, g, z, j, 0), 0);
    }
  }
}

TEST(ConvGemm, TensorCoresTakeTheConvolutionsThatFillThem) {
  std::mt19937 rng(2);
  // ResNet's 3x3, 64 -> 64 on 28 x 28: yes.
  const Case big = make_case(64, 64, 28, 28, 3, 3, 1, 1, 1, false, 1,
                             box({0, 0, 0, 0}, {0, 63, 27, 27}), 0, rng);
  EXPECT_TRUE(gpu::use_tensor_cores(big.op));
  const gpu::ConvGemm g = gpu::conv_gemm_shape(big.op);
  EXPECT_EQ(g.m, 784);
  EXPECT_EQ(g.n, 64);
  EXPECT_EQ(g.k, 576);
  EXPECT_EQ(g.z, 1);
  // Depthwise (one output channel per group), and a small tile: no.
  const Case dw = make_case(64, 64, 28, 28, 3, 3, 1, 1, 64, false, 1,
                            box({0, 0, 0, 0}, {0, 63, 27, 27}), 0, rng);
  EXPECT_FALSE(gpu::use_tensor_cores(dw.op));
  const Case small =
      make_case(16, 16, 8, 8, 3, 3, 1, 1, 1, false, 1, box({0, 0, 0, 0}, {0, 15, 7, 7}), 0, rng);
  EXPECT_FALSE(gpu::use_tensor_cores(small.op));
  model::TileOp pool;
  pool.kind = model::TileKind::pool;
  pool.out = box({0, 0, 0, 0}, {0, 63, 27, 27});
  EXPECT_FALSE(gpu::use_tensor_cores(pool));
}

// Shapes the tensor cores take, on the cuda backend against tile_element.
TEST(ConvGemm, CudaTensorCoresEqualTheDefinition) {
  std::string why;
  auto b = gpu::make_backend("cuda", why);
  if (!b) GTEST_SKIP() << "no GPU run: " << why;
  std::mt19937 rng(7);
  std::vector<Case> cases;
  // ResNet's first layer (7x7 stride 2, 3 channels: 147 terms), a tile of it.
  cases.push_back(make_case(3, 64, 64, 64, 7, 7, 2, 3, 1, false, 2,
                            box({0, 0, 0, 0}, {1, 63, 31, 31}), 0, rng));
  // 3x3 with padding, a box inside the layer, the tile lacking cells.
  cases.push_back(make_case(64, 96, 20, 20, 3, 3, 1, 1, 1, false, 2,
                            box({1, 8, 3, 2}, {1, 90, 19, 17}), 3, rng));
  // Grouped: two groups of 48 -> 32, the box across both.
  cases.push_back(make_case(96, 64, 28, 28, 3, 3, 1, 1, 2, false, 1,
                            box({0, 10, 0, 0}, {0, 50, 27, 27}), 0, rng));
  // Per-sample weights (attention's 1x1 products), 3 samples, 2 groups.
  cases.push_back(make_case(256, 256, 128, 1, 1, 1, 1, 0, 2, true, 3,
                            box({0, 0, 0, 0}, {2, 255, 127, 0}), 4, rng));
  // A fully connected layer at batch 16: 2048 terms, 1000 outputs (16
  // output tiles: the terms split across blocks).
  cases.push_back(make_case(2048, 1000, 1, 1, 1, 1, 1, 0, 1, false, 16,
                            box({0, 0, 0, 0}, {15, 999, 0, 0}), 0, rng));
  // 1x1 stride 2 (a projection shortcut), 130 cells a sample.
  cases.push_back(make_case(256, 128, 26, 20, 1, 1, 2, 0, 1, false, 4,
                            box({0, 0, 0, 0}, {3, 127, 12, 9}), 0, rng));
  // Each case's data on the backend, in one batch with a dp4a op.
  Case dw =
      make_case(32, 32, 9, 9, 3, 3, 1, 1, 32, false, 1, box({0, 0, 0, 0}, {0, 31, 8, 8}), 0, rng);
  ASSERT_FALSE(gpu::use_tensor_cores(dw.op));
  cases.push_back(std::move(dw));
  std::vector<gpu::Buffer> bufs;
  auto on_backend = [&](const std::vector<std::int8_t>& v) {
    bufs.emplace_back(*b, v.size());
    EXPECT_TRUE(b->upload(bufs.back().as<void>(), v.data(), v.size()));
    return bufs.back().as<std::int8_t>();
  };
  std::vector<model::TileOp> ops;
  std::vector<std::int64_t> offsets;
  std::int64_t total = 0;
  for (const Case& x : cases) {
    if (ops.size() + 1 < cases.size()) {
      ASSERT_TRUE(gpu::use_tensor_cores(x.op)) << "case " << ops.size();
    }
    model::TileOp op = x.op;
    op.in[0].data = on_backend(x.in);
    op.weights.data = on_backend(x.w);
    ops.push_back(op);
    offsets.push_back(total);
    total += op.elements();
  }
  // Poisoned output: every element must be written.
  std::vector<std::int32_t> got(static_cast<std::size_t>(total), 0x5A5A5A5A);
  gpu::Buffer out(*b, got.size() * sizeof(std::int32_t));
  ASSERT_TRUE(b->upload(out.as<void>(), got.data(), got.size() * sizeof(std::int32_t)));
  ASSERT_TRUE(b->run(ops.data(), ops.size(), offsets.data(), out.as<std::int32_t>())) << b->error();
  EXPECT_GT(b->last_run_seconds(), 0.0);
  ASSERT_TRUE(b->download(got.data(), out.as<void>(), got.size() * sizeof(std::int32_t)));
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (std::int64_t e = 0; e < cases[i].op.elements(); ++e)
      ASSERT_EQ(got[static_cast<std::size_t>(offsets[i] + e)], model::tile_element(cases[i].op, e))
          << "case " << i << " element " << e;
}

// The end of a layer on the backend: the shift calibrated on the sums and
// the requantised values, as the CPU computes them.
void check_finish_layer(gpu::Backend& b) {
  std::mt19937 rng(4);
  for (std::int64_t n : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{1} << 20}) {
    std::vector<std::int32_t> v(static_cast<std::size_t>(n));
    std::uniform_int_distribution<std::int32_t> d(INT32_MIN, INT32_MAX);
    for (auto& x : v) x = n == 1000 ? d(rng) % 5000 : d(rng);
    gpu::Buffer values(b, v.size() * sizeof(std::int32_t)), out(b, v.size());
    ASSERT_TRUE(b.upload(values.as<void>(), v.data(), v.size() * sizeof(std::int32_t)));
    for (bool requantise : {true, false}) {
      std::int32_t shift = -1;
      ASSERT_TRUE(
          b.finish_layer(values.as<std::int32_t>(), n, requantise, shift, out.as<std::int8_t>()))
          << b.error();
      const std::int32_t want = requantise ? model::calibrated_shift(v.data(), n) : 0;
      ASSERT_EQ(shift, want) << b.name() << " n " << n;
      std::vector<std::int8_t> got(v.size());
      ASSERT_TRUE(b.download(got.data(), out.as<void>(), got.size()));
      for (std::size_t i = 0; i < v.size(); ++i)
        ASSERT_EQ(got[i],
                  requantise ? model::requantize(v[i], want) : static_cast<std::int8_t>(v[i]))
            << b.name() << " element " << i;
    }
  }
}

TEST(FinishLayer, CpuCalibratesAndRequantises) {
  std::string why;
  auto b = gpu::make_backend("cpu", why);
  ASSERT_TRUE(b) << why;
  check_finish_layer(*b);
}

TEST(FinishLayer, CudaCalibratesAndRequantises) {
  std::string why;
  auto b = gpu::make_backend("cuda", why);
  if (!b) GTEST_SKIP() << "no GPU run: " << why;
  check_finish_layer(*b);
}

}  // namespace
