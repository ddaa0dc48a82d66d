// Import: the L2 allocator's strategies and guarantees, the full-dialect
// fields filled in for a small public-dialect file (values worked out by
// hand), and failure modes.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "fixture.h"
#include "gemini/ir/import.h"
#include "gemini/ir/l2_allocator.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"
#include "gemini/ir/writer.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

TEST(Allocator, TensorsLiveTogetherNeverShareBytes) {
  // a [0,2] 100 B, b [1,3] 50 B, c [3,4] 100 B: a and c never meet.
  const std::vector<ir::AllocTensor> t{{104, 0, 2}, {56, 1, 3}, {104, 3, 4}};
  for (ir::AllocStrategy s : ir::kAllStrategies) {
    const ir::Allocation a = ir::allocate(t, s, 0, 8);
    EXPECT_TRUE(ir::verify_allocation(t, a, {0, 1 << 20}, 8).empty()) << ir::to_string(s);
    EXPECT_EQ(a.peak, 160) << ir::to_string(s);  // 104 + 56: c reuses a's bytes
  }
  EXPECT_EQ(ir::live_peak(t).bytes, 160);
  EXPECT_EQ(ir::live_peak(t).snapshot, 1u);
}

TEST(Allocator, FirstFitByStartFragmentsWhereSizeOrderDoesNot) {
  // x [0,1] 64 B; y [0,3] 32 B; z [2,3] 96 B. First fit in time order puts y
  // above x, so z (after x dies) cannot use x's 64 bytes: peak 64+32+96=192.
  // Largest first places z at 0, y above it, x in z's bytes: peak 128.
  const std::vector<ir::AllocTensor> t{{64, 0, 1}, {32, 0, 3}, {96, 2, 3}};
  EXPECT_EQ(ir::allocate(t, ir::AllocStrategy::first_fit_by_start, 0, 8).peak, 192);
  EXPECT_EQ(ir::allocate(t, ir::AllocStrategy::size_best_fit, 0, 8).peak, 128);
  EXPECT_EQ(ir::live_peak(t).bytes, 128);
  const ir::Allocation best = ir::allocate_best(t, 0, 8);
  EXPECT_EQ(best.peak, 128);
  EXPECT_NE(best.strategy, ir::AllocStrategy::first_fit_by_start);
}

TEST(Allocator, RingPlacementsAreValid) {
  // Random schedules of 6-12 tensors in a region just above their live peak:
  // every ring placement must be valid (the verifier handles wrapped spans).
  std::mt19937 rng(7);
  int placed = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::vector<ir::AllocTensor> t;
    const int n = 6 + static_cast<int>(rng() % 7);
    for (int i = 0; i < n; ++i) {
      const std::uint32_t first = rng() % 10;
      t.push_back({8 * (1 + static_cast<std::int64_t>(rng() % 16)), first,
                   first + static_cast<std::uint32_t>(rng() % 4)});
    }
    const std::int64_t live = ir::live_peak(t).bytes;
    const std::int64_t base = 1024;  // regions need not start at 0
    const ir::RingRegion r{base, base + live + 8 * static_cast<std::int64_t>(rng() % 3)};
    ir::Allocation ring;
    if (!ir::ring_fit(t, r, 8, ring)) continue;
    ++placed;
    EXPECT_TRUE(ir::verify_allocation(t, ring, r, 8).empty()) << "instance " << iter;
  }
  EXPECT_GT(placed, 100);
}

TEST(Allocator, RingFitFailsWhenTooMuchIsLive) {
  const ir::RingRegion r{0, 100};
  // 60 + 60 bytes live at once in 100 bytes.
  const std::vector<ir::AllocTensor> full{{60, 0, 1}, {60, 1, 2}};
  ir::Allocation no;
  EXPECT_FALSE(ir::ring_fit(full, r, 10, no));
}

TEST(Allocator, VerifierFindsOverlapAndMisalignment) {
  const std::vector<ir::AllocTensor> t{{16, 0, 1}, {16, 1, 2}};
  ir::Allocation a;
  a.address = {0, 8};
  EXPECT_EQ(ir::verify_allocation(t, a, {0, 64}, 8).size(), 1u);  // share [8,16)
  a.address = {0, 20};
  EXPECT_EQ(ir::verify_allocation(t, a, {0, 64}, 8).size(), 1u);  // 20 not aligned
  a.address = {0, 56};                                            // wraps to [0,8): overlap
  EXPECT_EQ(ir::verify_allocation(t, a, {0, 64}, 8).size(), 1u);
  a.address = {0, 16};
  EXPECT_TRUE(ir::verify_allocation(t, a, {0, 64}, 8).empty());
}

// The prefetch workload pattern: in every snapshot s a weight w_s and an
// ifmap i_s are loaded (first use s, last use s) and an ofmap o_s is
// written; 3 x 32 bytes live per snapshot.
std::vector<ir::AllocTensor> prefetch_pattern(std::uint32_t snapshots) {
  std::vector<ir::AllocTensor> t;
  for (std::uint32_t s = 0; s < snapshots; ++s) {
    t.push_back({32, s, s, true});   // weight
    t.push_back({32, s, s, true});   // ifmap
    t.push_back({32, s, s, false});  // ofmap
  }
  return t;
}

TEST(Allocator, TightPackingMakesEveryLoadWaitForTheWorkloadBefore) {
  // Every snapshot's 96 bytes fit in the same 96: the tight packing puts
  // snapshot s + 1's tensors on snapshot s's bytes, so each of the 2 loads
  // of snapshots 1..4 waits for the workload before it (8 waits), none of
  // them forced in a buffer of 192 (96 live + 32 incoming <= 192).
  const auto t = prefetch_pattern(5);
  const ir::Allocation tight = ir::allocate_best(t, 0, 8);
  EXPECT_EQ(tight.peak, 96);
  const ir::WarStats w = ir::war_waits(t, tight, {0, 192}, 192);
  EXPECT_EQ(w.loads, 8);
  EXPECT_EQ(w.waits, 8);
  EXPECT_EQ(w.forced, 0);
}

TEST(Allocator, PrefetchPlacementLetsNoLoadWaitWhenTheBufferHasRoom) {
  // The same tensors in 192 bytes: a load's bytes are free of everything
  // live in the snapshot before it, so no load waits. Snapshot 0 takes
  // [0, 96) (never used: lowest offsets), snapshot 1's loads must avoid it
  // and take [96, 160), its ofmap (written by its own compute) the place
  // released longest ago: [160, 192). Snapshot 2's loads then reuse
  // snapshot 0's bytes, released at snapshot 0, not snapshot 1's.
  const auto t = prefetch_pattern(5);
  const ir::RingRegion r{0, 192};
  ir::Allocation a;
  ASSERT_TRUE(ir::prefetch_fit(t, r, 8, a));
  EXPECT_EQ(a.strategy, ir::AllocStrategy::prefetch_ring);
  EXPECT_TRUE(ir::verify_allocation(t, a, r, 8).empty());
  EXPECT_EQ(a.address[0], 0);
  EXPECT_EQ(a.address[1], 32);
  EXPECT_EQ(a.address[2], 64);
  EXPECT_EQ(a.address[3], 96);
  EXPECT_EQ(a.address[4], 128);
  EXPECT_EQ(a.address[5], 160);
  EXPECT_LT(a.address[6], 96);  // snapshot 2's weight: on snapshot 0's bytes
  const ir::WarStats w = ir::war_waits(t, a, r, 192);
  EXPECT_EQ(w.loads, 8);
  EXPECT_EQ(w.waits, 0);
}

TEST(Allocator, WhereTheBufferIsFullTheWaitIsForcedAndCounted) {
  // In 128 bytes, 96 live leave room for one of a snapshot's two 32-byte
  // loads, not both: of snapshots 1..3, one load each waits (3). None is
  // forced by the per-tensor rule (96 live + 32 <= 128). In 96 bytes
  // every load waits, and every wait is forced (96 + 32 > 96).
  const auto t = prefetch_pattern(4);
  ir::Allocation a;
  ASSERT_TRUE(ir::prefetch_fit(t, {0, 128}, 8, a));
  EXPECT_TRUE(ir::verify_allocation(t, a, {0, 128}, 8).empty());
  const ir::WarStats w = ir::war_waits(t, a, {0, 128}, 128);
  EXPECT_EQ(w.loads, 6);
  EXPECT_EQ(w.waits, 3);
  EXPECT_EQ(w.forced, 0);
  ir::Allocation full;
  ASSERT_TRUE(ir::prefetch_fit(t, {0, 96}, 8, full));
  const ir::WarStats f = ir::war_waits(t, full, {0, 96}, 96);
  EXPECT_EQ(f.waits, 6);
  EXPECT_EQ(f.forced, 6);
}

TEST(Allocator, RepairMovesWaitingLoadsOutOfThePreviousWorkloadsBytes) {
  // The tight packing of the pattern in a 192-byte region, repaired: every
  // load that waited moves to bytes free in the snapshot before it, and
  // the result stays valid.
  const auto t = prefetch_pattern(5);
  const ir::RingRegion r{0, 192};
  ir::Allocation a = ir::allocate_best(t, 0, 8);
  EXPECT_EQ(ir::war_waits(t, a, r, 192).waits, 8);
  EXPECT_GT(ir::prefetch_repair(t, r, 8, a), 0u);
  EXPECT_TRUE(ir::verify_allocation(t, a, r, 8).empty());
  EXPECT_EQ(ir::war_waits(t, a, r, 192).waits, 0);
}

TEST(Allocator, PrefetchPlacementsAreValid) {
  // Random schedules in regions from just above their live peak: every
  // prefetch placement found is valid, and never makes more loads wait
  // than the tight packing in the same region.
  std::mt19937 rng(11);
  int placed = 0;
  for (int iter = 0; iter < 300; ++iter) {
    std::vector<ir::AllocTensor> t;
    const int n = 6 + static_cast<int>(rng() % 10);
    for (int i = 0; i < n; ++i) {
      const std::uint32_t first = rng() % 10;
      t.push_back({8 * (1 + static_cast<std::int64_t>(rng() % 16)), first,
                   first + static_cast<std::uint32_t>(rng() % 4), rng() % 3 != 0});
    }
    const ir::Allocation tight = ir::allocate_best(t, 0, 8);
    const ir::RingRegion r{0, tight.peak + 8 * static_cast<std::int64_t>(rng() % 24)};
    ir::Allocation a;
    if (ir::prefetch_fit(t, r, 8, a)) {
      ++placed;
    } else {
      a = tight;
      ir::prefetch_repair(t, r, 8, a);
    }
    EXPECT_TRUE(ir::verify_allocation(t, a, r, 8).empty()) << "instance " << iter;
  }
  EXPECT_GT(placed, 100);
}

struct Imported {
  ir::Model model;
  ir::ImportReport report;
};

Imported import_set_minimal(const ir::HardwareConfig& hw, ir::ImportOptions o = {}) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "set_minimal.json").string(), d);
  EXPECT_EQ(r.status, ir::LoadStatus::ok);
  ir::Diagnostics di;
  auto rep = ir::import_model(r.model, hw, o, di);
  EXPECT_TRUE(rep);
  return {std::move(r.model), rep ? *rep : ir::ImportReport{}};
}

TEST(Import, FillsTheFullDialect) {
  auto [m, rep] = import_set_minimal(ir::HardwareConfig{});
  EXPECT_EQ(m.dialect, ir::Dialect::full);
  EXPECT_EQ(m.buffersize, 1 << 20);
  ASSERT_EQ(rep.cores.size(), 2u);

  // Core 0: weight (16 K x 27 B = 432 B), the 3x16x16 input aligned to 8
  // channels (8*16*16 = 2048 B) and the 16x8x8 ofmap (1024 B).
  const ir::Workload& conv = m.cores[0].workloads[0];
  const ir::BufferEntry& w = conv.buffer[0];
  const ir::BufferEntry& in = conv.buffer[1];
  EXPECT_EQ(w.size, 432);
  EXPECT_EQ(in.size, 2048);
  // Every strategy reaches the live peak here; ties keep the first strategy
  // (first fit in order of first use), which puts the weight first.
  EXPECT_EQ(w.address, 0);
  EXPECT_EQ(in.address, 432);
  EXPECT_EQ(rep.cores[0].live_peak, 2048 + 432 + 1024);
  EXPECT_EQ(rep.cores[0].alloc_peak, 2048 + 432 + 1024);
  EXPECT_TRUE(w.newly_added.value());
  EXPECT_TRUE(in.cur_wl_ifmap.value());
  EXPECT_FALSE(w.cur_wl_ifmap.has_value());
  EXPECT_EQ(w.align, 8);
  EXPECT_EQ(w.bitwidth, 8);
  EXPECT_EQ(w.tensor_id, 0);
  EXPECT_EQ(in.tensor_id, 1);
  ASSERT_TRUE(conv.ring_buffer_info);
  EXPECT_EQ(*conv.ring_buffer_info, (std::vector<ir::RingRegion>{{0, 1 << 20}}));
  // Both loaded at time 0 on core 0 -> orders 0 and 1 in core-0 first-use
  // order; the pool's input arrives after conv's predicted 2400 cycles -> 2.
  EXPECT_EQ(w.tensor_order, 0);
  EXPECT_EQ(in.tensor_order, 1);
  EXPECT_EQ(m.cores[1].workloads[0].buffer[0].tensor_order, 2);
  EXPECT_FALSE(m.cores[1].workloads[0].buffer[1].tensor_order);  // the ofmap is not loaded

  // WL0: the 432 B weight fits the 4096 B WL0, staged from L2.
  ASSERT_TRUE(conv.wl0_buffer);
  ASSERT_EQ(conv.wl0_buffer->size(), 1u);
  EXPECT_EQ((*conv.wl0_buffer)[0].size, 432);
  EXPECT_EQ((*conv.wl0_buffer)[0].source, ir::Wl0Source::core);
  EXPECT_EQ((*conv.wl0_buffer)[0].tensor_order, 0);
  EXPECT_TRUE(m.cores[1].workloads[0].wl0_buffer->empty());

  // Tiling: 27 B per output channel over 3 input channels -> 3x3 kernel;
  // 16 -> 8 rows -> stride 2; (8-1)*2 + 3 - 16 = 1 row of padding, at the
  // bottom (and right) of this whole-layer tile.
  ASSERT_TRUE(conv.tile_info);
  ASSERT_EQ(conv.tile_info->size(), 1u);
  const ir::Tile& t = conv.tile_info->front();
  EXPECT_EQ(t.mtc0_mtk0, (std::array<std::int32_t, 2>{1, 2}));  // ceil(3/16), ceil(16/8)
  EXPECT_EQ(t.out_mini_tile, (std::array<std::int32_t, 4>{1, 8, 1, 8}));
  EXPECT_EQ(t.act_mini_tile, (std::array<std::int32_t, 4>{1, 3, 3, 17}));  // (8-1)*2+3
  // N 1 x K/rows 2 x H 8 x W/cols 1 x C/lanes 1 x R*S 9
  EXPECT_DOUBLE_EQ(t.single_tile_time_pred, 144.0);
  EXPECT_EQ(conv.tile_padding_tblr, (std::array<std::int32_t, 4>{0, 1, 0, 1}));
  EXPECT_EQ(conv.time, 2400);                       // the scheduler's own prediction is kept
  EXPECT_FALSE(m.cores[1].workloads[0].tile_info);  // vp: no PE tiling

  ir::Diagnostics d;
  ir::validate(m, ir::HardwareConfig{}, d);
  EXPECT_EQ(d.errors(), 0u);
}

TEST(Import, OutputReloadsAndRewritesByteForByte) {
  auto [m, rep] = import_set_minimal(ir::HardwareConfig{});
  std::ostringstream a;
  ir::write_full(m, a);
  const auto p = test::write_temp("imported.json", a.str());
  ir::Diagnostics d;
  auto r = ir::load_file(p.string(), d);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  EXPECT_EQ(d.errors(), 0u);
  std::ostringstream b;
  ir::write_full(r.model, b);
  EXPECT_EQ(a.str(), b.str());
}

TEST(Import, GrowsL2WhenTheScheduleDoesNotFit) {
  ir::HardwareConfig hw;
  hw.l2.size_bytes = 2048;  // core 0 needs 3504 bytes live at once
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "set_minimal.json").string(), d);
  ir::Diagnostics di;
  auto rep = ir::import_model(r.model, hw, {}, di);
  ASSERT_TRUE(rep);
  EXPECT_FALSE(rep->fits);
  EXPECT_EQ(rep->buffersize, 4096);  // 3504 rounded up to KiB
  ASSERT_TRUE(di.has(ir::Check::l2_grown));
  EXPECT_EQ(di.items()[0].pointer, "/1/0");
  EXPECT_NE(di.items()[0].message.find("core 0 holds 3504 bytes live before workload 0"),
            std::string::npos)
      << di.items()[0].message;
  ir::Diagnostics dv;
  ir::validate(r.model, hw, dv);
  EXPECT_EQ(dv.errors(), 0u);
}

TEST(Import, ExplicitBuffersizeThatDoesNotFitIsAnError) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "set_minimal.json").string(), d);
  ir::ImportOptions o;
  o.buffersize = 2048;
  ir::Diagnostics di;
  EXPECT_FALSE(ir::import_model(r.model, ir::HardwareConfig{}, o, di));
  EXPECT_TRUE(di.has(ir::Check::l2_does_not_fit));
  EXPECT_EQ(di.errors(), 1u);  // core 0 needs 3504 bytes; core 1 (1024 + 256) fits
}

TEST(Import, FullDialectInputIsLeftAlone) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "spec_minimal.json").string(), d);
  const ir::Model before =
      ir::load_file((test::data_dir() / "spec_minimal.json").string(), d).model;
  ir::Diagnostics di;
  auto rep = ir::import_model(r.model, ir::HardwareConfig{}, {}, di);
  ASSERT_TRUE(rep);
  EXPECT_TRUE(r.model == before);
}

}  // namespace
