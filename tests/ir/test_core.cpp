// Small building blocks: boxes, JSON pointers, the dependency graph and the
// summary `gemini info` prints.
#include <gtest/gtest.h>

#include <random>

#include "fixture.h"
#include "gemini/ir/graph.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/summary.h"
#include "gemini/ir/tensor_runs.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

TEST(Box, VolumeContainsOverlaps) {
  ir::Box a{{0, 0, 0, 0}, {0, 7, 7, 7}, 4};
  ir::Box b{{0, 2, 2, 2}, {0, 3, 3, 3}, 4};
  ir::Box c{{0, 7, 7, 7}, {0, 9, 9, 9}, 4};
  ir::Box d{{0, 8, 0, 0}, {0, 9, 1, 1}, 4};
  EXPECT_EQ(a.volume(), 512);
  EXPECT_TRUE(a.contains(b));
  EXPECT_FALSE(b.contains(a));
  EXPECT_TRUE(a.overlaps(c));  // shares the corner element (inclusive bounds)
  EXPECT_FALSE(a.overlaps(d));
  ir::Box k{{0, 0, 0, 0}, {15, 0, 0, 0}, 1};  // scalar K range
  EXPECT_EQ(k.volume(), 16);
  EXPECT_TRUE(k.contains(ir::Box{{4, 9, 9, 9}, {7, 9, 9, 9}, 4}));  // only K is known
  EXPECT_EQ(ir::to_string(a), "[0,0,0,0]...[0,7,7,7]");
}

TEST(Box, OffsetIntersectShiftAndBothNotations) {
  const ir::Box layout{{0, 0, 0, 0}, {1, 2, 3, 4}};  // 2 x 3 x 4 x 5, rank 4 by default
  EXPECT_EQ(layout.volume(), 120);
  EXPECT_EQ(layout.offset(0, 0, 1, 0), 5);
  EXPECT_EQ(layout.offset(1, 2, 3, 4), 119);
  EXPECT_TRUE(layout.holds(1, 2, 3, 4));
  EXPECT_FALSE(layout.holds(1, 3, 3, 4));
  const ir::Box part = ir::intersect(layout, ir::Box{{1, 1, 2, 2}, {5, 5, 5, 5}});
  EXPECT_EQ(part, (ir::Box{{1, 1, 2, 2}, {1, 2, 3, 4}}));
  EXPECT_TRUE(ir::intersect(layout, ir::Box{{0, 3, 0, 0}, {0, 4, 0, 0}}).empty());
  EXPECT_EQ(ir::intersect(layout, ir::Box{{0, 3, 0, 0}, {0, 4, 0, 0}}).volume(), 0);
  const ir::Box moved = ir::shifted(layout, 1, 10);
  EXPECT_EQ(moved.lo[1], 10);
  EXPECT_EQ(moved.hi[1], 12);
  // A shift past the int32 range saturates: the box stays out of range.
  EXPECT_EQ(ir::shifted(layout, 1, std::int64_t{1} << 40).hi[1], INT32_MAX);
  // A volume past int64 saturates.
  const ir::Box huge{{INT32_MIN, INT32_MIN, INT32_MIN, 0}, {INT32_MAX, INT32_MAX, INT32_MAX, 0}};
  EXPECT_EQ(huge.volume(), INT64_MAX);
  EXPECT_EQ(ir::to_string(layout), "[0,0,0,0]...[1,2,3,4]");
  EXPECT_EQ(ir::to_string(layout, ir::BoxStyle::corners), "[0,0,0,0]:[1,2,3,4]");
  ir::Box k{{0, 0, 0, 0}, {15, 0, 0, 0}, 1, true};  // the public dialect's scalar K range
  EXPECT_EQ(ir::to_string(k), "0..15");
  EXPECT_EQ(ir::to_string(k, ir::BoxStyle::corners), "[0,0,0,0]:[15,0,0,0]");
}

TEST(TensorIdentity, WithoutTheStringIsTheStringsEquality) {
  // Small value ranges, so that equal identities come up often.
  std::mt19937 rng(7);
  auto entry = [&] {
    ir::BufferEntry e;
    if (rng() % 3 == 0) e.tensor_id = rng() % 3;
    e.type = static_cast<ir::TensorType>(rng() % 3);
    if (rng() % 4 != 0) e.address = static_cast<std::int64_t>(rng() % 3) - 1;
    for (std::uint32_t k = rng() % 3; k > 0; --k) e.transfer_id.push_back(rng() % 2);
    return e;
  };
  int same = 0;
  for (int i = 0; i < 4000; ++i) {
    const ir::BufferEntry a = entry(), b = entry();
    const bool strings = ir::tensor_identity(a) == ir::tensor_identity(b);
    ASSERT_EQ(ir::same_tensor_identity(a, b), strings)
        << ir::tensor_identity(a) << " vs " << ir::tensor_identity(b);
    if (strings) {
      ++same;
      EXPECT_EQ(ir::tensor_identity_hash(a), ir::tensor_identity_hash(b));
    }
  }
  EXPECT_GT(same, 100);  // the case that matters was exercised
}

TEST(TensorRuns, ConsecutiveSnapshotsAndRepeatedListings) {
  auto entry = [](std::int64_t id) {
    ir::BufferEntry e;
    e.tensor_id = id;
    return e;
  };
  std::vector<ir::Workload> s(4);
  s[0].buffer = {entry(1), entry(2)};
  s[1].buffer = {entry(2), entry(3), entry(2)};  // 2 listed again for another reader
  s[2].buffer = {entry(3)};
  s[3].buffer = {entry(1), entry(2)};  // both left and came back: new runs
  const ir::TensorRuns r = ir::tensor_runs<ir::TensorIdentityHash, ir::TensorIdentityEq>(s);
  ASSERT_EQ(r.runs.size(), 5u);
  auto span = [&](std::uint32_t i) { return std::pair(r.runs[i].first, r.runs[i].last); };
  EXPECT_EQ(span(0), std::pair(0u, 0u));        // 1
  EXPECT_EQ(span(1), std::pair(0u, 1u));        // 2
  EXPECT_EQ(span(2), std::pair(1u, 2u));        // 3
  EXPECT_EQ(span(3), std::pair(3u, 3u));        // 1 again
  EXPECT_EQ(span(4), std::pair(3u, 3u));        // 2 again
  EXPECT_EQ(r.runs[1].entry, &s[0].buffer[1]);  // the first listing
  EXPECT_EQ(r.entry_run, (std::vector<std::uint32_t>{0, 1, 1, 2, 1, 2, 3, 4}));
  EXPECT_EQ(r.first_entry, (std::vector<std::uint32_t>{0, 2, 5, 6}));
  EXPECT_EQ(r.run_of(1, 2), 1u);
  EXPECT_EQ(r.run_of(3, 1), 4u);
}

TEST(PathTable, PointersEscapeAndNest) {
  ir::PathTable t;
  const ir::Loc core = t.key(ir::kRootLoc, "7");
  const ir::Loc wl = t.index(core, 12);
  const ir::Loc buf = t.key(wl, "buffer");
  const ir::Loc e = t.index(buf, 3);
  EXPECT_EQ(t.pointer(e, "/address"), "/7/12/buffer/3/address");
  EXPECT_EQ(t.pointer(t.key(ir::kRootLoc, "a/b~c")), "/a~1b~0c");
  EXPECT_EQ(t.pointer(ir::kRootLoc), "");
}

TEST(Graph, LongestPathAndOrder) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "spec_minimal.json").string(), d);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  const ir::TransferIndex ix(r.model);
  const ir::DependencyGraph g(r.model, ix);
  EXPECT_EQ(g.size(), 4u);
  EXPECT_FALSE(g.find_cycle());
  EXPECT_EQ(g.topological_order().size(), 4u);
  // conv wl0 (1200) -> conv wl1 (1200) -> pool (300) -> add (100), the add
  // reading the pool's output back through DRAM.
  const auto p = g.longest_path();
  EXPECT_EQ(p.total_time, 2800);
  ASSERT_EQ(p.nodes.size(), 4u);
  EXPECT_EQ(g.describe(p.nodes.front()), "core 0 workload 0 (Conv_0)");
  EXPECT_EQ(g.describe(p.nodes.back()), "core 1 workload 1 (Add_0)");
  ASSERT_TRUE(ix.producers(3));
  EXPECT_FALSE(ix.producers(3)->front().from_dram);
  EXPECT_TRUE(ix.producers(2)->front().from_dram);
  EXPECT_EQ(ix.producers(99), nullptr);
}

TEST(Summary, FiguresOfTheSpecFixture) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "spec_minimal.json").string(), d);
  const ir::Summary s = ir::summarize(r.model);
  EXPECT_EQ(s.workloads, 4u);
  EXPECT_EQ(s.workloads_by_kind.at("pe"), 2u);
  EXPECT_EQ(s.workloads_by_kind.at("vp"), 2u);
  EXPECT_EQ(s.layers, 3u);
  EXPECT_EQ(s.dram_read_weight.bytes, 432);
  EXPECT_EQ(s.dram_read_fmap.bytes, 768 + 256);
  EXPECT_EQ(s.dram_written.tensors, 4u);
  EXPECT_EQ(s.dram_written.bytes, 512 + 512 + 256 + 256);
  EXPECT_EQ(s.core_to_core.tensors, 2u);
  EXPECT_EQ(s.core_to_core.bytes, 1024);
  EXPECT_EQ(s.time_by_core.at(0), 2400);
  EXPECT_EQ(s.time_by_core.at(1), 400);
  EXPECT_EQ(s.longest_path_time, 2800);
}

}  // namespace
