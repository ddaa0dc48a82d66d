// Room in a full-dialect file's L2 allocation (ir::CoreRoom, l2_room.h):
// the tensors as the file places them, with their lifetimes (an early
// write included), what stands in a place's way, and the lowest free place
// of a ring region (wrap-around included). Values worked out by hand.
#include <gtest/gtest.h>

#include "gemini/ir/l2_room.h"
#include "gemini/ir/tensor_runs.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

ir::BufferEntry entry(ir::TensorType type, const std::string& layer, std::int64_t id,
                      std::int64_t addr, std::int64_t size) {
  ir::BufferEntry e;
  e.type = type;
  e.layer_name = layer;
  e.tensor_id = id;
  e.address = addr;
  e.size = size;
  return e;
}

ir::Workload workload(std::int32_t id, const std::string& layer,
                      std::vector<ir::BufferEntry> buffer) {
  ir::Workload w;
  w.workload_id = id;
  w.layer_name = layer;
  w.ring_buffer_info = std::vector<ir::RingRegion>{{0, 64}};
  w.buffer = std::move(buffer);
  return w;
}

// Core 0, one 64-byte ring, three snapshots:
//   0: a [0, 16) (tensor 0, snapshots 0-1), w0's ofmap [16, 24)
//   1: a, b [32, 48) (tensor 2, snapshots 1-2)
//   2: b, c [48, 56) (tensor 3)
ir::Core three_snapshots() {
  using T = ir::TensorType;
  ir::Core c;
  c.core_id = 0;
  c.workloads.push_back(
      workload(0, "L0", {entry(T::ifmap, "L0", 0, 0, 16), entry(T::ofmap, "L0", 1, 16, 8)}));
  c.workloads.push_back(
      workload(1, "L1", {entry(T::ifmap, "L0", 0, 0, 16), entry(T::ifmap, "L1", 2, 32, 16)}));
  c.workloads.push_back(
      workload(2, "L2", {entry(T::ifmap, "L1", 2, 32, 16), entry(T::ofmap, "L2", 3, 48, 8)}));
  return c;
}

TEST(CoreRoom, TensorsAreTheFilesRunsWithTheirListings) {
  const ir::Core c = three_snapshots();
  const ir::CoreRoom room(c, 64);
  ASSERT_EQ(room.tensors().size(), 4u);
  const ir::CoreRoom::Tensor& a = room.tensors()[0];
  EXPECT_EQ(a.addr, 0);
  EXPECT_EQ(a.bytes, 16);
  EXPECT_EQ(a.first, 0u);
  EXPECT_EQ(a.last, 1u);
  EXPECT_EQ(a.from, 0u);
  EXPECT_EQ(a.region.end, 64);
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> listed{{0, 0}, {1, 0}};
  EXPECT_EQ(a.listings, listed);
  EXPECT_EQ(room.tensors()[2].first, 1u);
  EXPECT_EQ(room.tensors()[2].last, 2u);
}

TEST(CoreRoom, AClashNamesATensorLiveAtTheSameTimeAndWhere) {
  const ir::Core c = three_snapshots();
  const ir::CoreRoom room(c, 64);
  const ir::RingRegion ring{0, 64};
  // [8, 40) over snapshots 1-2 meets a (snapshot 1) first.
  auto k = room.clash(8, 32, ring, 1, 2, std::nullopt);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->tensor, 0u);
  EXPECT_EQ(k->snapshot, 1u);
  // Only snapshot 2: a is gone, b [32, 48) is in the way.
  k = room.clash(8, 32, ring, 2, 2, std::nullopt);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->tensor, 2u);
  EXPECT_EQ(k->snapshot, 2u);
  // A tensor is never in its own way; w0's ofmap [16, 24) is dead by 1.
  EXPECT_FALSE(room.clash(16, 16, ring, 1, 1, 2u));
  // Wrapping past the ring's end: [56, 72) is [56, 64) and [0, 8).
  k = room.clash(56, 16, ring, 1, 1, std::nullopt);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->tensor, 0u);
}

TEST(CoreRoom, TheLowestFreePlaceMayWrapAndMayBeNone) {
  const ir::Core c = three_snapshots();
  const ir::CoreRoom room(c, 64);
  const ir::RingRegion ring{0, 64};
  // Snapshot 1 holds [0, 16) and [32, 48): 16 bytes fit at 16, 24 do not
  // fit below 48, and from 48 they would wrap onto a.
  EXPECT_EQ(room.lowest_free(16, ring, 1, 1, 8, std::nullopt), 16);
  EXPECT_EQ(room.lowest_free(24, ring, 1, 1, 8, std::nullopt), std::nullopt);
  // Snapshot 2 holds [32, 56): 24 bytes at 0; 40 bytes from 56 on, wrapping
  // to [0, 32).
  EXPECT_EQ(room.lowest_free(24, ring, 2, 2, 8, std::nullopt), 0);
  EXPECT_EQ(room.lowest_free(40, ring, 2, 2, 8, std::nullopt), 56);
  // Over snapshots 1-2, for b itself (not in its own way): a [0, 16) and
  // c [48, 56) leave [16, 48) and [56, 64).
  EXPECT_EQ(room.lowest_free(32, ring, 1, 2, 8, 2u), 16);
  EXPECT_EQ(room.lowest_free(40, ring, 1, 2, 8, 2u), std::nullopt);
  // Never more than the region.
  EXPECT_EQ(room.lowest_free(65, ring, 0, 0, 8, std::nullopt), std::nullopt);
  // What snapshot 1 holds besides b.
  EXPECT_EQ(room.live_bytes(1, ring, 2u), 16);
}

TEST(CoreRoom, AResultWrittenASnapshotEarlyTakesItsTensorsBytesFromThen) {
  // Workload 0 has no ofmap entry: its result (transfer 5) goes straight
  // into tensor 1, which receives it from core 0 and is first listed in
  // snapshot 1. So tensor 1's bytes are taken from snapshot 0 on.
  using T = ir::TensorType;
  ir::Core c;
  c.core_id = 0;
  ir::Workload w0 = workload(0, "P", {entry(T::ifmap, "P", 0, 0, 8)});
  ir::Ofmap o;
  o.transfer_id = 5;
  w0.ofmap.push_back(o);
  ir::BufferEntry r = entry(T::ifmap, "Q", 1, 8, 8);
  ir::Source s;
  s.type = ir::EndpointType::core;
  s.core_id = 0;
  s.transfer_id = 5;
  r.source.push_back(s);
  c.workloads.push_back(std::move(w0));
  c.workloads.push_back(workload(1, "Q", {r}));
  EXPECT_FALSE(ir::has_own_ofmap_entry(c.workloads[0]));
  EXPECT_TRUE(ir::snapshot_receives_result(c, 1, c.workloads[0]));
  EXPECT_FALSE(ir::snapshot_receives_result(c, 0, c.workloads[0]));
  const ir::CoreRoom room(c, 64);
  ASSERT_EQ(room.tensors().size(), 2u);
  EXPECT_EQ(room.tensors()[1].first, 1u);
  EXPECT_EQ(room.tensors()[1].from, 0u);
  // So it stands in the way of anything placed in snapshot 0.
  const auto k = room.clash(8, 8, {0, 64}, 0, 0, std::nullopt);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->tensor, 1u);
}

}  // namespace
