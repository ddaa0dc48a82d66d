// The tile operations every reference backend computes (model/tile_op.h):
// dot4 is __dp4a's arithmetic, the packed convolution equals the
// per-element definition, every kind equals the CPU's whole-tile kernels,
// and the backends (cpu always; cuda where a GPU is present, else skipped
// saying why) compute batches equal to tile_element.
#include <gtest/gtest.h>

#include <random>

#include "gemini/gpu/backend.h"
#include "gemini/gpu/tile_batch.h"
#include "gemini/model/cpu_kernels.h"
#include "gemini/model/tile_op.h"
#include "tile_cases.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file
using ir::Box;
using test::box;
using test::random_tile;

namespace {

TEST(Dot4, IsDp4aArithmetic) {
  EXPECT_EQ(model::dot4(model::pack4(1, 2, 3, 4), model::pack4(5, 6, 7, 8), 10),
            10 + 5 + 12 + 21 + 32);
  EXPECT_EQ(
      model::dot4(model::pack4(-128, -128, -128, -128), model::pack4(-128, -128, -128, -128), 0),
      4 * 16384);
  EXPECT_EQ(model::dot4(model::pack4(-128, 127, -1, 0), model::pack4(127, -128, -1, 5), -7),
            -7 - 16256 - 16256 + 1);
  // The accumulator wraps as a 32-bit register does.
  EXPECT_EQ(model::dot4(model::pack4(1, 0, 0, 0), model::pack4(1, 0, 0, 0), INT32_MAX), INT32_MIN);
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> d(-128, 127);
  for (int i = 0; i < 1000; ++i) {
    std::int8_t a[4], b[4];
    std::int32_t want = 0;
    for (int j = 0; j < 4; ++j) {
      a[j] = static_cast<std::int8_t>(d(rng));
      b[j] = static_cast<std::int8_t>(d(rng));
      want += a[j] * b[j];
    }
    ASSERT_EQ(
        model::dot4(model::pack4(a[0], a[1], a[2], a[3]), model::pack4(b[0], b[1], b[2], b[3]), 0),
        want);
  }
}

struct ConvCase {
  model::ConvParams p;
  ir::Box out, in;  // the input tile may hold less than the outputs read
  ir::Box weights;
};

std::vector<ConvCase> conv_cases() {
  std::vector<ConvCase> cases;
  auto add = [&](int c, int k, int ih, int iw, int r, int s, int stride, int pt, int pl, int g,
                 bool per_sample, int n, ir::Box out, int trim) {
    ConvCase x;
    x.p = test::conv_case_params(c, k, ih, iw, r, s, stride, pt, pl, g, per_sample);
    x.out = out;
    x.in = model::conv_input_box(x.p, out);
    // A tile that lacks some of what it should hold: those cells read as 0.
    if (trim & 1) x.in.hi[1] -= 1;
    if (trim & 2) x.in.lo[2] += 1;
    x.weights = per_sample ? box({0, 0, 0, 0}, {n - 1, k - 1, c / g - 1, r * s - 1})
                           : box({0, 0, 0, 0}, {k - 1, c / g - 1, r - 1, s - 1});
    cases.push_back(x);
  };
  add(3, 16, 16, 16, 3, 3, 2, 0, 0, 1, false, 1, box({0, 0, 0, 0}, {0, 15, 7, 7}), 0);
  add(3, 8, 15, 13, 7, 7, 2, 3, 2, 1, false, 1, box({0, 2, 1, 2}, {0, 6, 6, 5}), 0);
  add(16, 32, 9, 9, 3, 3, 1, 1, 1, 4, false, 2, box({1, 5, 0, 0}, {1, 29, 8, 8}), 0);
  add(16, 12, 10, 1, 1, 1, 1, 0, 0, 4, true, 2, box({0, 0, 0, 0}, {1, 11, 9, 0}), 0);
  add(8, 8, 12, 12, 1, 1, 2, 0, 0, 1, false, 1, box({0, 0, 0, 0}, {0, 7, 5, 5}), 0);
  add(40, 5, 3, 2, 3, 2, 1, 0, 0, 1, false, 1, box({0, 0, 0, 0}, {0, 4, 0, 0}), 0);
  add(13, 6, 9, 9, 3, 3, 1, 1, 1, 1, false, 1, box({0, 0, 0, 0}, {0, 5, 8, 8}), 3);
  add(24, 24, 7, 7, 3, 3, 1, 1, 1, 3, false, 1, box({0, 3, 2, 2}, {0, 20, 6, 6}), 1);
  return cases;
}

TEST(TileOp, PackedConvolutionEqualsTheDefinition) {
  std::mt19937 rng(11);
  const std::vector<ConvCase> cases = conv_cases();
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    const ConvCase& x = cases[ci];
    const auto in = random_tile(x.in, rng);
    const auto w = random_tile(x.weights, rng);
    const model::ConstTile it{in.data(), x.in}, wt{w.data(), x.weights};
    for (int n = x.out.lo[0]; n <= x.out.hi[0]; ++n)
      for (int k = x.out.lo[1]; k <= x.out.hi[1]; ++k)
        for (int h = x.out.lo[2]; h <= x.out.hi[2]; ++h)
          for (int q = x.out.lo[3]; q <= x.out.hi[3]; ++q)
            ASSERT_EQ(model::conv_element_dp4a(x.p, it, wt, n, k, h, q),
                      model::conv_element(x.p, it, wt, n, k, h, q))
                << "case " << ci << " at " << n << "," << k << "," << h << "," << q;
  }
  // At the extremes: all -128, 1100 terms (past float32's exact range).
  model::ConvParams p;
  p.in_h = p.in_w = 2;
  p.group_c = 1100;
  p.group_k = 3;
  const ir::Box ib = box({0, 0, 0, 0}, {0, 1099, 1, 1}), wb = box({0, 0, 0, 0}, {2, 1099, 0, 0});
  std::vector<std::int8_t> in(static_cast<std::size_t>(ib.volume()), -128),
      w(static_cast<std::size_t>(wb.volume()), -128);
  EXPECT_EQ(model::conv_element_dp4a(p, {in.data(), ib}, {w.data(), wb}, 0, 1, 1, 0), 1100 * 16384);
}

// Every kind through tile_element against the CPU's whole-tile kernels.
TEST(TileOp, EveryKindEqualsTheCpuKernels) {
  std::mt19937 rng(5);
  auto each = [](const model::TileOp& op, auto&& check) {
    for (std::int64_t e = 0; e < op.elements(); ++e) check(e, model::tile_element(op, e));
  };
  for (const ConvCase& x : conv_cases()) {
    const auto in = random_tile(x.in, rng);
    const auto w = random_tile(x.weights, rng);
    model::TileOp op;
    op.kind = model::TileKind::conv;
    op.conv = x.p;
    op.in[0] = {in.data(), x.in};
    op.weights = {w.data(), x.weights};
    op.out = x.out;
    std::vector<std::int32_t> fast(static_cast<std::size_t>(x.out.volume()));
    model::conv_tile_cpu(x.p, op.in[0], op.weights, x.out, fast.data());
    each(op,
         [&](std::int64_t e, std::int32_t v) { ASSERT_EQ(v, fast[static_cast<std::size_t>(e)]); });
    // Its requantisation.
    model::TileOp rq;
    rq.kind = model::TileKind::requantize;
    rq.shift = 7;
    rq.sums = fast.data();
    rq.out = x.out;
    std::vector<std::int8_t> q(fast.size());
    model::requantize_all(fast.data(), static_cast<std::int64_t>(fast.size()), 7, q.data());
    each(rq, [&](std::int64_t e, std::int32_t v) { ASSERT_EQ(v, q[static_cast<std::size_t>(e)]); });
  }
  // Pooling, max and average, and its window sums.
  model::PoolParams pp;
  pp.kernel_r = pp.kernel_s = 3;
  pp.stride_h = pp.stride_w = 2;
  pp.pad_t = pp.pad_l = 1;
  pp.in_h = pp.in_w = 9;
  const ir::Box out = box({0, 1, 1, 0}, {1, 3, 4, 4});
  const ir::Box ib = model::pool_input_box(pp, out);
  const auto pin = random_tile(ib, rng);
  for (bool average : {false, true}) {
    pp.average = average;
    pp.shift = average ? 2 : 0;
    model::TileOp op;
    op.kind = model::TileKind::pool;
    op.pool = pp;
    op.in[0] = {pin.data(), ib};
    op.out = out;
    std::vector<std::int8_t> fast(static_cast<std::size_t>(out.volume()));
    model::pool_tile_cpu(pp, op.in[0], out, fast.data());
    each(op,
         [&](std::int64_t e, std::int32_t v) { ASSERT_EQ(v, fast[static_cast<std::size_t>(e)]); });
  }
  model::TileOp ps;
  ps.kind = model::TileKind::pool_sum;
  ps.pool = pp;
  ps.in[0] = {pin.data(), ib};
  ps.out = out;
  std::vector<std::int32_t> sums(static_cast<std::size_t>(out.volume()));
  model::window_sums_cpu(pp, ps.in[0], out, sums.data());
  each(ps,
       [&](std::int64_t e, std::int32_t v) { ASSERT_EQ(v, sums[static_cast<std::size_t>(e)]); });
  // Add, with its sums; three operands.
  const auto a = random_tile(out, rng), b = random_tile(out, rng), c = random_tile(out, rng);
  const model::ConstTile ops3[3] = {{a.data(), out}, {b.data(), out}, {c.data(), out}};
  model::TileOp add;
  add.kind = model::TileKind::add;
  add.shift = 1;
  add.inputs = 3;
  for (int i = 0; i < 3; ++i) add.in[i] = ops3[i];
  add.out = out;
  std::vector<std::int8_t> added(static_cast<std::size_t>(out.volume()));
  model::add_tile_cpu(ops3, 3, 1, out, added.data());
  each(add,
       [&](std::int64_t e, std::int32_t v) { ASSERT_EQ(v, added[static_cast<std::size_t>(e)]); });
  add.kind = model::TileKind::add_sum;
  model::operand_sums_cpu(ops3, 3, out, sums.data());
  each(add,
       [&](std::int64_t e, std::int32_t v) { ASSERT_EQ(v, sums[static_cast<std::size_t>(e)]); });
  // Transpose.
  const ir::Box tin = box({0, 0, 1, 0}, {0, 3, 5, 1}), tout = box({0, 1, 0, 0}, {0, 5, 3, 1});
  const auto t = random_tile(tin, rng);
  model::TileOp tr;
  tr.kind = model::TileKind::transpose;
  const std::int32_t perm[4] = {0, 2, 1, 3};
  for (int d = 0; d < 4; ++d) tr.perm[d] = perm[d];
  tr.in[0] = {t.data(), tin};
  tr.out = tout;
  std::vector<std::int8_t> moved(static_cast<std::size_t>(tout.volume()));
  model::transpose_tile_cpu(perm, tr.in[0], tout, moved.data());
  each(tr,
       [&](std::int64_t e, std::int32_t v) { ASSERT_EQ(v, moved[static_cast<std::size_t>(e)]); });
}

// A batch of every kind through a backend: what tile_element gives.
void check_backend(gpu::Backend& b) {
  std::mt19937 rng(9);
  gpu::TileBatch batch;
  std::vector<std::vector<std::int8_t>> keep;
  std::vector<model::TileOp> ops;
  for (const ConvCase& x : conv_cases()) {
    keep.push_back(random_tile(x.in, rng));
    keep.push_back(random_tile(x.weights, rng));
    model::TileOp op;
    op.kind = model::TileKind::conv;
    op.conv = x.p;
    op.in[0] = {keep[keep.size() - 2].data(), x.in};
    op.weights = {keep.back().data(), x.weights};
    op.out = x.out;
    ops.push_back(op);
  }
  std::vector<std::int32_t> sums(64);
  std::uniform_int_distribution<int> d(-3000000, 3000000);
  for (auto& s : sums) s = d(rng);
  model::TileOp rq;
  rq.kind = model::TileKind::requantize;
  rq.shift = 13;
  rq.sums = sums.data();
  rq.out = box({0, 0, 0, 0}, {0, 3, 3, 3});
  ops.push_back(rq);
  const ir::Box out = box({0, 0, 0, 0}, {0, 2, 4, 3});
  keep.push_back(random_tile(out, rng));
  keep.push_back(random_tile(out, rng));
  model::TileOp add;
  add.kind = model::TileKind::add;
  add.shift = 1;
  add.inputs = 2;
  add.in[0] = {keep[keep.size() - 2].data(), out};
  add.in[1] = {keep.back().data(), out};
  add.out = out;
  ops.push_back(add);
  for (const model::TileOp& op : ops) batch.add(op);
  std::vector<std::int32_t> got;
  std::string error;
  ASSERT_TRUE(gpu::run_batch(b, batch, got, error)) << error;
  ASSERT_EQ(got.size(), static_cast<std::size_t>(batch.elements()));
  for (std::size_t i = 0; i < ops.size(); ++i)
    for (std::int64_t e = 0; e < ops[i].elements(); ++e)
      ASSERT_EQ(got[static_cast<std::size_t>(batch.offset(i) + e)], model::tile_element(ops[i], e))
          << b.name() << " op " << i << " element " << e;
  // The generator, where the data is made.
  gpu::Buffer buf(b, 1000);
  ASSERT_TRUE(buf.ok());
  ASSERT_TRUE(b.generate(buf.as<std::int8_t>(), 1000, model::stream_base(1, 77), 5));
  std::vector<std::int8_t> host(1000);
  ASSERT_TRUE(b.download(host.data(), buf.as<void>(), 1000));
  for (std::size_t i = 0; i < host.size(); ++i)
    ASSERT_EQ(host[i], model::generate(1, 77, 5 + i)) << i;
}

TEST(Backend, CpuComputesWhatTileElementGives) {
  std::string why;
  auto b = gpu::make_backend("cpu", why);
  ASSERT_TRUE(b) << why;
  check_backend(*b);
}

TEST(Backend, CudaComputesWhatTileElementGives) {
  std::string why;
  auto b = gpu::make_backend("cuda", why);
  if (!b) GTEST_SKIP() << "no GPU run: " << why;
  check_backend(*b);
}

TEST(Backend, UnknownNamesAndAbsentCudaSayWhy) {
  std::string why;
  EXPECT_FALSE(gpu::make_backend("tpu", why));
  EXPECT_NE(why.find("unknown backend"), std::string::npos);
  if (!gpu::cuda_built()) {
    EXPECT_FALSE(gpu::make_backend("cuda", why));
    EXPECT_NE(why.find("built without CUDA"), std::string::npos) << why;
  }
}

}  // namespace
