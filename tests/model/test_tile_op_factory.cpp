// The op-to-tile-operation factory (model/tile_op_factory.h), pinned per
// op type: the kind, the parameters, the input tiles (an Eltwise's
// operands seen through shifted boxes), the weights and whether the sums
// are requantised. The reference and the plan executors both build their
// tile operations here, so what is pinned is what both compute.
#include <gtest/gtest.h>

#include "gemini/model/layer_params.h"
#include "gemini/model/op_registry.h"
#include "gemini/model/tile_op_factory.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file
using ir::Box;
using model::ConstTile;
using model::OpType;
using model::TileKind;

namespace {

ir::Box box(std::array<std::int32_t, 4> lo, std::array<std::int32_t, 4> hi) {
  ir::Box b;
  for (int d = 0; d < 4; ++d) {
    b.lo[d] = lo[static_cast<std::size_t>(d)];
    b.hi[d] = hi[static_cast<std::size_t>(d)];
  }
  return b;
}

void expect_box(const ir::Box& got, const ir::Box& want) {
  for (int d = 0; d < 4; ++d) {
    EXPECT_EQ(got.lo[d], want.lo[d]) << "lo[" << d << "]";
    EXPECT_EQ(got.hi[d], want.hi[d]) << "hi[" << d << "]";
  }
}

model::Op op_of(OpType t, model::Dims4 in, model::Dims4 out) {
  model::Op op;
  op.type = t;
  op.ifmap_shape = in;
  op.ofmap_shape = out;
  return op;
}

// Distinct addresses: the factory must pass each tile through untouched.
const std::int8_t kInBytes[1] = {0};
const std::int8_t kWeightBytes[1] = {0};

struct Built {
  model::OpTileOp t;
  ConstTile in, w;
  ir::Box out;
};

Built build(const model::Op& op) {
  Built b;
  b.in = {kInBytes, model::whole_box(op.ifmap_shape)};
  b.w = {kWeightBytes, op.has_weights() ? model::weight_box(op) : ir::Box{}};
  b.out = box({0, 1, 2, 3}, {0, 2, 3, 4});
  b.t = model::tile_op_for(op, b.in, b.w, b.out);
  return b;
}

TEST(TileOpFactory, Conv2dIsAConvOfItsParamsAndWeights) {
  model::Op op = op_of(OpType::conv2d, {1, 8, 16, 16}, {1, 4, 8, 8});
  op.kernel = {3, 3};
  op.stride = {2, 2};
  op.pad = {1, 0, 1, 0};
  op.groups = 2;
  op.weight_shape = {4, 4, 3, 3};
  const Built b = build(op);
  const model::TileOp& t = b.t.op;
  EXPECT_EQ(t.kind, TileKind::conv);
  EXPECT_TRUE(t.wide());
  EXPECT_TRUE(model::requantises(op));
  EXPECT_EQ(t.conv.stride_h, 2);
  EXPECT_EQ(t.conv.stride_w, 2);
  EXPECT_EQ(t.conv.pad_t, 1);
  EXPECT_EQ(t.conv.pad_l, 1);
  EXPECT_EQ(t.conv.kernel_r, 3);
  EXPECT_EQ(t.conv.kernel_s, 3);
  EXPECT_EQ(t.conv.in_h, 16);
  EXPECT_EQ(t.conv.in_w, 16);
  EXPECT_EQ(t.conv.group_k, 2);
  EXPECT_EQ(t.conv.group_c, 4);
  EXPECT_FALSE(t.conv.per_sample);
  EXPECT_EQ(t.weights.data, kWeightBytes);
  expect_box(t.weights.box, box({0, 0, 0, 0}, {3, 3, 2, 2}));
  ASSERT_EQ(t.inputs, 1);
  EXPECT_EQ(t.in[0].data, kInBytes);
  expect_box(t.in[0].box, box({0, 0, 0, 0}, {0, 7, 15, 15}));
  expect_box(t.out, b.out);
  ASSERT_EQ(b.t.inputs.size(), 1u);
  EXPECT_TRUE(b.t.fits());
}

TEST(TileOpFactory, Conv2dWithWeightsFromFmapIsPerSample) {
  model::Op op = op_of(OpType::conv2d, {2, 4, 4, 4}, {2, 3, 4, 4});
  op.weight_from_fmap = true;
  op.weight_shape = {3, 4, 1, 1};
  const Built b = build(op);
  EXPECT_EQ(b.t.op.kind, TileKind::conv);
  EXPECT_TRUE(b.t.op.conv.per_sample);
  expect_box(b.t.op.weights.box, box({0, 0, 0, 0}, {1, 2, 3, 0}));
}

TEST(TileOpFactory, FullyConnectedIsAConvOverItsWholeInput) {
  model::Op op = op_of(OpType::fully_connected, {1, 6, 5, 7}, {1, 10, 1, 1});
  op.weight_shape = {10, 6 * 5 * 7, 1, 1};
  const Built b = build(op);
  const model::TileOp& t = b.t.op;
  EXPECT_EQ(t.kind, TileKind::conv);
  EXPECT_TRUE(model::requantises(op));
  EXPECT_EQ(t.conv.kernel_r, 5);
  EXPECT_EQ(t.conv.kernel_s, 7);
  EXPECT_EQ(t.conv.stride_h, 1);
  EXPECT_EQ(t.conv.pad_t, 0);
  EXPECT_EQ(t.conv.group_k, 10);
  EXPECT_EQ(t.conv.group_c, 6);
  EXPECT_EQ(t.weights.data, kWeightBytes);
  expect_box(t.weights.box, box({0, 0, 0, 0}, {9, 5, 4, 6}));
}

TEST(TileOpFactory, PoolIsMaxPoolingUnrequantised) {
  model::Op op = op_of(OpType::pool, {1, 3, 9, 9}, {1, 3, 4, 4});
  op.kernel = {3, 2};
  op.stride = {2, 2};
  op.pad = {0, 0, 1, 0};
  const Built b = build(op);
  const model::TileOp& t = b.t.op;
  EXPECT_EQ(t.kind, TileKind::pool);
  EXPECT_FALSE(t.wide());
  EXPECT_FALSE(model::requantises(op));
  EXPECT_FALSE(t.pool.average);
  EXPECT_EQ(t.pool.kernel_r, 3);
  EXPECT_EQ(t.pool.kernel_s, 2);
  EXPECT_EQ(t.pool.stride_h, 2);
  EXPECT_EQ(t.pool.pad_l, 1);
  EXPECT_EQ(t.pool.shift, 0);
  ASSERT_EQ(t.inputs, 1);
  EXPECT_EQ(t.in[0].data, kInBytes);
  EXPECT_EQ(t.weights.data, nullptr);  // no weights, whatever is passed
}

TEST(TileOpFactory, GlobalPoolIsWindowSumsRequantised) {
  model::Op op = op_of(OpType::pool, {1, 3, 7, 5}, {1, 3, 1, 1});
  op.global = true;
  const Built b = build(op);
  const model::TileOp& t = b.t.op;
  EXPECT_EQ(t.kind, TileKind::pool_sum);
  EXPECT_TRUE(t.wide());
  EXPECT_TRUE(model::requantises(op));
  EXPECT_TRUE(t.pool.average);
  EXPECT_EQ(t.pool.kernel_r, 7);
  EXPECT_EQ(t.pool.kernel_s, 5);
}

TEST(TileOpFactory, EltwiseOperandsAreShiftedViewsOfTheInput) {
  model::Op op = op_of(OpType::eltwise, {1, 12, 4, 4}, {1, 4, 4, 4});
  op.operands = 3;
  const Built b = build(op);
  const model::TileOp& t = b.t.op;
  EXPECT_EQ(t.kind, TileKind::add_sum);
  EXPECT_TRUE(t.wide());
  EXPECT_TRUE(model::requantises(op));
  ASSERT_TRUE(b.t.fits());
  ASSERT_EQ(t.inputs, 3);
  ASSERT_EQ(b.t.inputs.size(), 3u);
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(t.in[j].data, kInBytes);
    // Operand j's channel c is the input's channel c + 4j.
    expect_box(t.in[j].box, box({0, -4 * j, 0, 0}, {0, 11 - 4 * j, 3, 3}));
    expect_box(b.t.inputs[static_cast<std::size_t>(j)].box, t.in[j].box);
  }
}

TEST(TileOpFactory, EltwiseOfMoreOperandsThanATileOpHoldsKeepsThemAll) {
  const int n = model::kMaxTileInputs + 2;
  model::Op op = op_of(OpType::eltwise, {1, 2 * n, 1, 1}, {1, 2, 1, 1});
  op.operands = n;
  const Built b = build(op);
  EXPECT_FALSE(b.t.fits());
  EXPECT_EQ(b.t.op.kind, TileKind::add_sum);
  EXPECT_EQ(b.t.op.inputs, 0);  // nothing a backend could read past in[]
  ASSERT_EQ(b.t.inputs.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(b.t.inputs.back().box.lo[1], -2 * (n - 1));
}

TEST(TileOpFactory, PtpIsTheIdentityTranspose) {
  const model::Op op = op_of(OpType::ptp, {1, 3, 4, 5}, {1, 3, 4, 5});
  const Built b = build(op);
  const model::TileOp& t = b.t.op;
  EXPECT_EQ(t.kind, TileKind::transpose);
  EXPECT_FALSE(model::requantises(op));
  for (int d = 0; d < 4; ++d) EXPECT_EQ(t.perm[d], d);
  EXPECT_EQ(t.in[0].data, kInBytes);
}

TEST(TileOpFactory, TransposeCarriesItsPermutation) {
  model::Op op = op_of(OpType::transpose, {1, 3, 4, 5}, {1, 5, 3, 4});
  op.permutation = {0, 2, 3, 1};
  const Built b = build(op);
  const model::TileOp& t = b.t.op;
  EXPECT_EQ(t.kind, TileKind::transpose);
  EXPECT_FALSE(t.wide());
  EXPECT_FALSE(model::requantises(op));
  EXPECT_EQ(t.perm[0], 0);
  EXPECT_EQ(t.perm[1], 2);
  EXPECT_EQ(t.perm[2], 3);
  EXPECT_EQ(t.perm[3], 1);
}

// Every registered op type has a tile operation whose sums are requantised
// exactly when the op requantises (what a new registration must define).
TEST(TileOpFactory, EveryRegisteredOpTypeIsBuilt) {
  for (const model::OpRegistration& r : model::all_op_types()) {
    model::Op op = op_of(r.type, {1, 4, 4, 4}, {1, 4, 4, 4});
    op.weight_shape = {4, 4, 1, 1};
    const model::OpTileOp t =
        model::tile_op_for(op, {kInBytes, model::whole_box(op.ifmap_shape)},
                           {kWeightBytes, ir::Box{}}, box({0, 0, 0, 0}, {0, 3, 3, 3}));
    EXPECT_EQ(t.op.wide(), model::requantises(op)) << r.ark_name();
    EXPECT_NE(t.op.kind, TileKind::requantize) << r.ark_name();
    EXPECT_NE(t.op.kind, TileKind::add) << r.ark_name();
    EXPECT_TRUE(t.fits()) << r.ark_name();
  }
}

}  // namespace
