// The lowering's passes one at a time (assembler/src/lowering/), on small
// hand-made inputs: geometry per workload, VP operation selection, data
// layouts, DRAM multicast grouping, token ordinals and the schedule's ready
// set. The whole lowering is pinned end to end by test_asm.cpp and the
// corpus tests; these pin each pass's own contract.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "lowering/emit.h"
#include "lowering/geometry.h"
#include "lowering/layout.h"
#include "lowering/multicast.h"
#include "lowering/rank_set.h"
#include "lowering/select.h"

namespace {

using namespace gemini;
using namespace gemini::assembler::lowering;

ir::Box box4(std::array<std::int32_t, 4> lo, std::array<std::int32_t, 4> hi) {
  ir::Box b;
  b.lo = lo;
  b.hi = hi;
  return b;
}

// A PE workload of a 3x3, stride-2 convolution seen only through its IR:
// output rows 0..7 from input rows 0..16, a tile whose activation mini
// tile is 9 rows for 4 output rows, padding 1 at the top.
ir::Workload strided_conv() {
  ir::Workload w;
  w.kind = ir::LayerKind::pe;
  w.layer_type = "conv2d";
  w.workload = box4({0, 0, 0, 0}, {0, 15, 7, 7});
  ir::Ifmap in;
  in.box = box4({0, 0, 0, 0}, {0, 7, 16, 16});
  w.ifmap.push_back(in);
  ir::Tile t;
  t.act_mini_tile = {1, 8, 9, 9};
  t.out_mini_tile = {1, 16, 4, 4};
  w.tile_info = std::vector<ir::Tile>{t};
  w.tile_padding_tblr = std::array<std::int32_t, 4>{1, 0, 1, 0};
  return w;
}

TEST(LoweringGeometry, InferredPeGeometryComesFromTheWorkloadsBoxesAndTile) {
  const ir::Workload w = strided_conv();
  ir::LayerGeometry g;  // inferred: nothing about this layer's kernel
  const PeGeometry p = pe_geometry(w, g, /*exact=*/false);
  // 17 input rows over 8 output rows: stride 2; act 9 = (4 - 1) * 2 + R: R 3.
  EXPECT_EQ(p.stride, (std::array<std::int64_t, 2>{2, 2}));
  EXPECT_EQ(p.kernel, (std::array<std::int64_t, 2>{3, 3}));
  EXPECT_EQ(p.pad, (std::array<std::int32_t, 4>{1, 0, 1, 0}));
  EXPECT_EQ(box_stride(w, 2), 2);
  EXPECT_EQ(tile_kernel(w.tile_info->front(), 2, 2), 3);
}

TEST(LoweringGeometry, AFourDWeightBoxTakesTheLayersKernelAndExactGeometryIsTheLayers) {
  ir::Workload w = strided_conv();
  ir::Weight wt;
  wt.box = box4({0, 0, 0, 0}, {0, 15, 7, 24});  // [0, K, C, R*S]: 25 positions
  w.weight = wt;
  ir::LayerGeometry g;
  g.kernel = {5, 5};
  g.stride = {3, 3};
  g.pad = {2, 2, 2, 2};
  const PeGeometry inferred = pe_geometry(w, g, false);
  EXPECT_EQ(inferred.kernel, (std::array<std::int64_t, 2>{5, 5}));  // the table's R x S
  EXPECT_EQ(inferred.stride, (std::array<std::int64_t, 2>{2, 2}));  // still the boxes'
  EXPECT_EQ(inferred.pad, (std::array<std::int32_t, 4>{1, 0, 1, 0}));
  const PeGeometry exact = pe_geometry(w, g, true);
  EXPECT_EQ(exact.kernel, (std::array<std::int64_t, 2>{5, 5}));
  EXPECT_EQ(exact.stride, (std::array<std::int64_t, 2>{3, 3}));
  EXPECT_EQ(exact.pad, (std::array<std::int32_t, 4>{2, 2, 2, 2}));
}

TEST(LoweringGeometry, ABoxlessWorkloadHasUnitStrideAndKernel) {
  ir::Workload w;
  w.workload = box4({0, 0, 0, 0}, {0, 3, 3, 3});
  EXPECT_EQ(box_stride(w, 2), 1);  // no ifmap
  const PeGeometry p = pe_geometry(w, ir::LayerGeometry{}, false);
  EXPECT_EQ(p.kernel, (std::array<std::int64_t, 2>{1, 1}));
  EXPECT_EQ(p.stride, (std::array<std::int64_t, 2>{1, 1}));
}

TEST(LoweringGeometry, VpPoolWindowFromTheBoxesUnlessExact) {
  ir::Workload w;
  w.kind = ir::LayerKind::vp;
  w.workload = box4({0, 0, 0, 0}, {0, 7, 3, 3});
  const ir::Box input = box4({0, 0, 0, 0}, {0, 7, 11, 11});  // 12 rows -> 4: window 3
  ir::LayerGeometry g;
  g.op = ir::LayerOp::pool_max;
  g.kernel = {2, 2};
  g.stride = {2, 2};
  g.pad = {1, 1, 1, 1};
  const VpGeometry inferred = vp_geometry(w, g, false, true, input);
  EXPECT_EQ(inferred.window, 3);
  EXPECT_EQ(inferred.window_stride, 3);
  EXPECT_EQ(inferred.kernel, (std::array<std::int64_t, 2>{3, 3}));
  EXPECT_EQ(inferred.stride, (std::array<std::int64_t, 2>{3, 3}));
  EXPECT_EQ(inferred.pad[0], 1);
  const VpGeometry exact = vp_geometry(w, g, true, true, input);
  EXPECT_EQ(exact.window, 2);
  EXPECT_EQ(exact.window_stride, 2);
  EXPECT_EQ(exact.kernel, (std::array<std::int64_t, 2>{2, 2}));
  // Not pooling: a window of one whatever the boxes say.
  const VpGeometry copy = vp_geometry(w, ir::LayerGeometry{}, false, false, input);
  EXPECT_EQ(copy.window, 1);
  EXPECT_EQ(copy.kernel, (std::array<std::int64_t, 2>{1, 1}));
}

TEST(LoweringGeometry, AGlobalAveragePoolCoversItsWholeInputWithoutPadding) {
  ir::Workload w;
  w.kind = ir::LayerKind::vp;
  w.workload = box4({0, 0, 0, 0}, {0, 63, 0, 0});
  const ir::Box input = box4({0, 0, 0, 0}, {0, 63, 6, 6});
  ir::LayerGeometry g;
  g.op = ir::LayerOp::pool_avg;
  g.ofmap_shape = {1, 64, 1, 1};
  g.ifmap_shape = {1, 64, 7, 7};
  g.pad = {1, 1, 1, 1};
  const VpGeometry v = vp_geometry(w, g, false, true, input);
  EXPECT_EQ(v.kernel, (std::array<std::int64_t, 2>{7, 7}));
  EXPECT_EQ(v.stride, (std::array<std::int64_t, 2>{1, 1}));
  EXPECT_EQ(v.pad, (std::array<std::int32_t, 4>{0, 0, 0, 0}));
  EXPECT_EQ(v.window, 7);  // inferred: the boxes' 7 rows -> 1
  const VpGeometry exact = vp_geometry(w, g, true, true, input);
  EXPECT_EQ(exact.window, 7);
  EXPECT_EQ(exact.window_stride, 1);
}

TEST(LoweringSelect, TheGeometrysOperationWinsElseLayerTypeElseShapes) {
  ir::Workload w;
  w.kind = ir::LayerKind::vp;
  w.layer_type = "vp";
  w.workload = box4({0, 0, 0, 0}, {0, 7, 3, 3});
  const ir::Box same = box4({0, 0, 0, 0}, {0, 7, 3, 3});
  const ir::Box larger = box4({0, 0, 0, 0}, {0, 7, 7, 7});
  const ir::LayerGeometry unknown;
  EXPECT_EQ(select_vp_op(w, unknown, 1, &same), assembler::VpOp::copy);
  EXPECT_EQ(select_vp_op(w, unknown, 2, &same), assembler::VpOp::add);
  EXPECT_EQ(select_vp_op(w, unknown, 1, &larger), assembler::VpOp::pool_max);
  EXPECT_EQ(select_vp_op(w, unknown, 2, &larger), assembler::VpOp::pool_max);
  EXPECT_EQ(select_vp_op(w, unknown, 0, nullptr), assembler::VpOp::copy);
  w.layer_type = "element_wise";
  EXPECT_EQ(select_vp_op(w, unknown, 1, &same), assembler::VpOp::add);
  ir::LayerGeometry avg;
  avg.op = ir::LayerOp::pool_avg;
  EXPECT_EQ(select_vp_op(w, avg, 2, &same), assembler::VpOp::pool_avg);
  ir::Workload dt = w;
  dt.kind = ir::LayerKind::dt;
  dt.layer_type.clear();
  EXPECT_EQ(select_vp_op(dt, unknown, 1, &same), assembler::VpOp::transpose);
}

TEST(LoweringLayout, OffsetsAreDenseNchwInTheLayout) {
  ir::Box layout;
  layout.lo = {0, 0, 0, 0};
  layout.hi = {1, 2, 3, 4};  // 2 x 3 x 4 x 5
  EXPECT_EQ(layout.volume(), 120);
  EXPECT_EQ(layout.offset(0, 0, 0, 0), 0);
  EXPECT_EQ(layout.offset(0, 0, 0, 1), 1);
  EXPECT_EQ(layout.offset(0, 0, 1, 0), 5);
  EXPECT_EQ(layout.offset(0, 1, 0, 0), 20);
  EXPECT_EQ(layout.offset(1, 2, 3, 4), 119);
  const ir::Box b = to_box(box4({0, 2, 0, 0}, {0, 5, 3, 3}));
  EXPECT_EQ(ir::shifted(b, 1, 4).lo[1], 6);
  EXPECT_EQ(ir::shifted(b, 1, 4).hi[1], 9);
  ir::Box rank2;
  rank2.rank = 2;
  rank2.hi = {3, 7, 9, 9};
  const ir::Box r2 = to_box(rank2);
  EXPECT_EQ(r2.hi, (std::array<std::int32_t, 4>{3, 7, 0, 0}));  // unknown dimensions: [0, 0]
}

TEST(LoweringLayout, ConstantWeightsTakeTheLayersWeightShapeOrSplitRS) {
  ir::LayerGeometry g;
  g.kernel = {3, 3};
  // [0, K 16..31, C 0..7, R*S 0..8] without a weight shape: K x C x R x S.
  const ir::Box split = weight_layout(box4({0, 16, 0, 0}, {0, 31, 7, 8}), g, 0);
  EXPECT_EQ(split.lo, (std::array<std::int32_t, 4>{16, 0, 0, 0}));
  EXPECT_EQ(split.hi, (std::array<std::int32_t, 4>{31, 7, 2, 2}));
  // With the layer's weight shape [K, C/G, R, S] = [32, 8, 3, 3]: that shape.
  g.weight_shape = {32, 8, 3, 3};
  const ir::Box shaped = weight_layout(box4({0, 16, 0, 0}, {0, 31, 7, 8}), g, 0);
  EXPECT_EQ(shaped.hi, (std::array<std::int32_t, 4>{31, 7, 2, 2}));
  // A two-dimensional K range with only a byte count: bytes per channel.
  ir::Box k_range;
  k_range.rank = 2;
  k_range.lo = {0, 0, 0, 0};
  k_range.hi = {3, 0, 0, 0};
  const ir::Box bytes = weight_layout(k_range, ir::LayerGeometry{}, 4 * 72);
  EXPECT_EQ(bytes.hi[0] - bytes.lo[0] + 1, 4);
  EXPECT_EQ(bytes.hi[1], 71);
  // Per-sample weights keep their [n, k, c] and R*S from the kernel.
  ir::LayerGeometry ps;
  ps.per_sample_weights = true;
  ir::Box three;
  three.rank = 3;
  three.lo = {0, 0, 0, 0};
  three.hi = {0, 63, 31, 0};
  const ir::Box sample = weight_layout(three, ps, 0);
  EXPECT_EQ(sample.hi, (std::array<std::int32_t, 4>{0, 63, 31, 0}));
}

DramLoad load(ir::TransferId t, std::int64_t prio, std::uint32_t core, std::uint32_t tensor) {
  return DramLoad{t, prio, core, tensor, 0};
}

TEST(LoweringMulticast, EachCoresFirstLoadOfAnEntryReadsItTogether) {
  std::vector<DramLoad> loads = {load(7, 30, 2, 0), load(7, 10, 0, 0), load(7, 20, 1, 4),
                                 load(9, 5, 0, 1)};  // transfer 9: loaded once
  assembler::MulticastStats stats;
  const auto joined = group_loads(loads, true, stats);
  ASSERT_EQ(joined.size(), 3u);
  for (const auto& [l, mc] : joined) {
    EXPECT_EQ(l.transfer, 7);
    EXPECT_EQ(mc.group, 0u);
    EXPECT_EQ(mc.members, 3);
    EXPECT_EQ(mc.part, 0);
  }
  // In order of predicted start.
  EXPECT_EQ(joined[0].first.core, 0u);
  EXPECT_EQ(joined[1].first.core, 1u);
  EXPECT_EQ(joined[2].first.core, 2u);
  EXPECT_EQ(stats.groups, 1);
  EXPECT_EQ(stats.members, 3);
  EXPECT_EQ(stats.reloads, 0);
  EXPECT_EQ(stats.off, 0);
}

TEST(LoweringMulticast, ASecondRoundIsItsOwnGroupAndALoneReloadReadsAlone) {
  // Cores 0 and 1 load transfer 4 twice each (rounds 0 and 1), core 2 once
  // more late: round 0 = {0, 1, 2}, round 1 = {0, 1}. Transfer 5: core 3
  // loads it twice and core 4 once: round 1 is core 3 alone, a reload.
  std::vector<DramLoad> loads = {load(4, 1, 0, 0),  load(4, 2, 1, 0),  load(4, 3, 2, 0),
                                 load(4, 50, 0, 5), load(4, 60, 1, 5), load(5, 1, 3, 0),
                                 load(5, 2, 4, 0),  load(5, 9, 3, 2)};
  assembler::MulticastStats stats;
  const auto joined = group_loads(loads, true, stats);
  ASSERT_EQ(joined.size(), 7u);
  EXPECT_EQ(stats.groups, 3);
  EXPECT_EQ(stats.members, 7);
  EXPECT_EQ(stats.reloads, 1);
  // Transfer 4's rounds are its groups 0 and 1 (parts 0 and 1).
  EXPECT_EQ(joined[3].first.tensor, 5u);
  EXPECT_EQ(joined[3].second.group, 1u);
  EXPECT_EQ(joined[3].second.part, 1);
  EXPECT_EQ(joined[3].second.members, 2);
  EXPECT_EQ(joined[5].first.transfer, 5);
  EXPECT_EQ(joined[5].second.group, 2u);
  EXPECT_EQ(joined[5].second.part, 0);
}

TEST(LoweringMulticast, OffEveryShareableLoadReadsAlone) {
  std::vector<DramLoad> loads = {load(4, 1, 0, 0), load(4, 2, 1, 0), load(4, 3, 2, 0),
                                 load(6, 1, 0, 1)};
  assembler::MulticastStats stats;
  EXPECT_TRUE(group_loads(loads, false, stats).empty());
  EXPECT_EQ(stats.off, 3);  // transfer 6 was never a candidate
  EXPECT_EQ(stats.groups, 0);
}

FlatToken token(std::uint64_t key, ir::TransferId t, std::uint32_t event, std::uint32_t from,
                assembler::TokenKind kind) {
  return FlatToken{key, t, event, from, kind, 0};
}

TEST(LoweringEmit, TokenOrdinalsCountEachTokenKindInGlobalOrder) {
  using assembler::TokenKind;
  // Three data tokens of transfer 3 from core 1, listed in event order but
  // sent (key) in another; one credit of the same transfer; one from core 2.
  std::vector<FlatToken> in = {
      token(30, 3, 10, 1, TokenKind::data), token(10, 3, 11, 1, TokenKind::data),
      token(20, 3, 12, 1, TokenKind::data), token(15, 3, 13, 1, TokenKind::credit),
      token(5, 3, 40, 2, TokenKind::data)};
  number_tokens(in);
  EXPECT_EQ(in[0].ordinal, 3);
  EXPECT_EQ(in[1].ordinal, 1);
  EXPECT_EQ(in[2].ordinal, 2);
  EXPECT_EQ(in[3].ordinal, 1);  // its own kind
  EXPECT_EQ(in[4].ordinal, 1);  // its own sender
}

TEST(LoweringSchedule, TheReadySetHandsOutItsSmallestRank) {
  for (const std::size_t n :
       {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{5000}, std::size_t{300000}}) {
    RankSet s(n);
    EXPECT_TRUE(s.empty());
    std::vector<std::uint32_t> ranks;
    std::mt19937 rng(static_cast<std::uint32_t>(n));
    for (std::uint32_t r = 0; r < n; r += 1 + rng() % 97) ranks.push_back(r);
    ranks.push_back(static_cast<std::uint32_t>(n - 1));
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::vector<std::uint32_t> shuffled = ranks;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    for (std::uint32_t r : shuffled) s.insert(r);
    // Pop half, insert a smaller one again, then drain: always the minimum.
    std::vector<std::uint32_t> popped;
    for (std::size_t k = 0; k < ranks.size() / 2; ++k) popped.push_back(s.pop_min());
    EXPECT_TRUE(std::equal(popped.begin(), popped.end(), ranks.begin()));
    if (!popped.empty()) {
      s.insert(popped.front());
      EXPECT_EQ(s.pop_min(), popped.front());
    }
    std::vector<std::uint32_t> rest;
    while (!s.empty()) rest.push_back(s.pop_min());
    EXPECT_TRUE(std::equal(rest.begin(), rest.end(), ranks.begin() + popped.size()));
    EXPECT_EQ(popped.size() + rest.size(), ranks.size());
  }
}

}  // namespace
