// Cycle-exact tests of the simulator's timing units, driven directly (no
// SystemC): DRAM models, the mesh NoC and the on-core formulas. Expected
// values are worked out in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

#include "dram_drive.h"
#include "gemini/sim/compute_timing.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/mesh_noc.h"

namespace gemini::sim {
namespace {

// DDR4-3200, refresh off unless a test wants it.
boost::json::object banked_ddr4() {
  return {{"model", "banked"}, {"preset", "ddr4_3200"}, {"timing", {{"trefi", 0}}}};
}

TEST(DramBanked, ClosedBankReadIsTrcdPlusClPlusBurst) {
  // DDR4-3200: tRCD 22 + CL 22 + tBURST 4 = 48 clocks of 625 ps = 30000 ps.
  auto m = dram(banked_ddr4());
  Recorder r;
  m->enqueue({1, false, 0, 64, 0, 0});
  drain(*m, r);
  EXPECT_EQ(r.done_at(1), 30000);
  EXPECT_EQ(stat(*m, "row_misses"), 1);
}

TEST(DramBanked, SecondBurstOfARowHits) {
  // Row:bank:column, so that both bursts are in one row. Burst 1 as above
  // ends at 48. Burst 2 is a row hit in the same bank group: its column
  // command may issue tCCD_L 8 after the first's, at 30, data at 30 + 22 =
  // 52, done at 56 clocks = 35000 ps.
  boost::json::object o = banked_ddr4();
  o["address_mapping"] = "RoBaRaCoCh";
  auto m = dram(o);
  Recorder r;
  m->enqueue({1, false, 0, 128, 0, 0});
  drain(*m, r);
  EXPECT_EQ(r.done_at(1), 35000);
  EXPECT_EQ(stat(*m, "row_hits"), 1);
}

TEST(DramBanked, RowConflictPrechargesAfterTras) {
  // Same bank (0), row 1 = address row_bytes * banks = 131072. The first
  // burst activates at 0; precharge waits for tRAS 52, activate at 52 + tRP
  // 22 = 74, column at 74 + 22 = 96, data at 118, done at 122 clocks.
  auto m = dram(banked_ddr4());
  Recorder r;
  m->enqueue({1, false, 0, 64, 0, 0});
  m->enqueue({2, false, 131072, 64, 0, 0});
  drain(*m, r);
  EXPECT_EQ(r.done_at(2), 122 * 625);
  EXPECT_EQ(stat(*m, "row_conflicts"), 1);
}

TEST(DramBanked, FrFcfsServesAYoungerRowHitFirst) {
  // Request 1 opens bank 0 row 0. Then 2 (row 1 of bank 0, older) and 3
  // (row 0 of bank 0, younger) are both waiting: 3 hits the open row and goes
  // first.
  auto m = dram(banked_ddr4());
  Recorder r;
  m->enqueue({1, false, 0, 64, 0, 0});
  m->enqueue({2, false, 131072, 64, 0, 0});
  m->enqueue({3, false, 64, 64, 0, 0});
  drain(*m, r);
  ASSERT_EQ(r.order.size(), 3u);
  EXPECT_EQ(r.order[0], 1u);
  EXPECT_EQ(r.order[1], 3u);
  EXPECT_EQ(r.order[2], 2u);
}

double achieved_fraction(DramModel& m, Recorder& r, std::int64_t bytes) {
  drain(m, r);
  Tick end = 0;
  for (const auto& [tag, v] : r.seen) end = std::max(end, v.back().second);
  return (static_cast<double>(bytes) / (static_cast<double>(end) / 1000.0)) / m.peak_gbps();
}

TEST(DramBanked, SequentialStreamReachesNinetyPercentOfPeak) {
  // 4 MiB in 64 KiB requests, refresh on: row hits except one activate per
  // 8 KiB row (overlapped with the previous bank's data), minus tRFC/tREFI.
  auto m = dram({{"model", "banked"}, {"preset", "ddr4_3200"}});
  Recorder r;
  const std::int64_t total = 4 << 20, req = 64 << 10;
  for (std::int64_t a = 0; a < total; a += req)
    m->enqueue(
        {static_cast<std::uint64_t>(a / req), false, static_cast<std::uint64_t>(a), req, 0, 0});
  const double f = achieved_fraction(*m, r, total);
  EXPECT_GE(f, 0.90) << "sequential stream at " << f * 100 << "% of peak";
  EXPECT_GT(stat(*m, "refreshes"), 0);
}

TEST(DramBanked, RowMissPatternIsMuchSlowerThanSequential) {
  // Every 64-byte request goes to bank 0 in a new row: tRAS + tRP per burst.
  auto seq = dram(banked_ddr4());
  auto miss = dram(banked_ddr4());
  Recorder rs, rm;
  const int n = 2048;
  for (int i = 0; i < n; ++i) {
    seq->enqueue(
        {static_cast<std::uint64_t>(i), false, static_cast<std::uint64_t>(i) * 64, 64, 0, 0});
    miss->enqueue(
        {static_cast<std::uint64_t>(i), false, static_cast<std::uint64_t>(i) * 131072, 64, 0, 0});
  }
  const double fs = achieved_fraction(*seq, rs, n * 64);
  const double fm = achieved_fraction(*miss, rm, n * 64);
  EXPECT_GE(fs, 0.90);
  EXPECT_LT(fm, 0.25 * fs) << "row-miss " << fm << " vs sequential " << fs;
  EXPECT_EQ(stat(*miss, "row_hits"), 0);
}

TEST(DramBanked, ProgressPerChunkEndsWithTheWholeRequest) {
  // 216 bytes with 512-byte chunks: one report, of all 216 bytes (4 bursts,
  // MOP4CLXOR: one in each bank group, activates tRRD_S 4 apart, the last
  // read at 12 + 22 = 34, its last beat at 34 + 22 + 4 = 60 clocks). 1200 bytes with 512-byte
  // chunks: a report once 512 bytes are done, once 1024 are, and at 1200 (the
  // bytes done by then: bursts are served first ready, not in address
  // order, so a report may count a later burst too).
  auto m = dram(banked_ddr4());
  Recorder r;
  m->enqueue({1, false, 0, 216, 0, 512});
  drain(*m, r);
  ASSERT_EQ(r.seen.at(1).size(), 1u);
  EXPECT_EQ(r.seen.at(1)[0].first, 216);
  EXPECT_EQ(r.seen.at(1)[0].second, 60 * 625);
  auto m2 = dram(banked_ddr4());
  Recorder r2;
  m2->enqueue({2, false, 0, 1200, 0, 512});
  drain(*m2, r2);
  const auto& v = r2.seen.at(2);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_GE(v[0].first, 512);
  EXPECT_LT(v[0].first, 1024);
  EXPECT_GE(v[1].first, 1024);
  EXPECT_LT(v[1].first, 1200);
  EXPECT_EQ(v[2].first, 1200);
}

TEST(DramBanked, RequestIsNotServedBeforeItArrives) {
  // Arrival at 100 clocks (62500 ps): done at 100 + 48 = 148 clocks.
  auto m = dram(banked_ddr4());
  Recorder r;
  m->enqueue({1, false, 0, 64, 62500, 0});
  drain(*m, r);
  EXPECT_EQ(r.done_at(1), 148 * 625);
}

TEST(DramSimple, BandwidthAndLatency) {
  // 1000 bytes at 4 GB/s = 250 ns after the arrival (100 ps), plus 50 ns.
  auto m = dram({{"model", "simple"}, {"port_gbps", 4.0}, {"latency_ns", 50}});
  Recorder r;
  m->enqueue({1, false, 0, 1000, 100, 0});
  m->enqueue({2, true, 0, 1000, 0, 0});  // first come, first served: after 1
  drain(*m, r);
  EXPECT_EQ(r.done_at(1), 100 + 250000 + 50000);
  EXPECT_EQ(r.done_at(2), 100 + 500000 + 50000);
}

TEST(DramSimple, ReadProgressEveryChunk) {
  auto m = dram({{"port_gbps", 1.0}, {"latency_ns", 0}});  // 1 byte per ns
  Recorder r;
  m->enqueue({1, false, 0, 1200, 0, 512});
  drain(*m, r);
  const auto& v = r.seen.at(1);
  ASSERT_EQ(v.size(), 3u);
  using P = std::pair<std::int64_t, Tick>;
  EXPECT_EQ(v[0], (P{512, 512000}));
  EXPECT_EQ(v[1], (P{1024, 1024000}));
  EXPECT_EQ(v[2], (P{1200, 1200000}));
}

TEST(MeshNoc, ZeroLoadLatency) {
  // 3x1 mesh, 24 GB/s, 1000 ps routers; 512 bytes from core 0 to core 2:
  // ser = ceil(512 * 1000 / 24) = 21334 ps; 2 hops -> 3 routers:
  // arrival = 3 * 1000 + 21334 = 24334 ps; the source is free after ser.
  MeshNoc noc(3, 1, 24.0, 1000);
  const auto t = noc.send(0, 0, 2, 512);
  EXPECT_EQ(t.arrived, 24334);
  EXPECT_EQ(t.injected, 21334);
  EXPECT_EQ(noc.hops(0, 2), 2);
}

TEST(MeshNoc, XyRoutingGoesXFirst) {
  // 2x2 mesh: core 0 (0,0) -> core 3 (1,1) crosses east then south; a packet
  // from core 1 (1,0) to core 3 (1,1) then waits for that south link.
  MeshNoc noc(2, 2, 1.0, 0);  // 1 byte per ns, no router delay
  noc.send(0, 0, 3, 100);     // south link of (1,0) busy over [0, 100000)
  const auto t = noc.send(0, 1, 3, 100);
  EXPECT_EQ(t.arrived, 200000);
}

TEST(MeshNoc, DramPortsSitAtTheRowEnds) {
  MeshNoc noc(4, 2, 24.0, 1000);
  EXPECT_EQ(noc.pos(noc.edge_node(1, false)).x, -1);
  EXPECT_EQ(noc.pos(noc.edge_node(1, true)).x, 4);
  EXPECT_EQ(noc.hops(noc.edge_node(1, false), 4), 1);  // core 4 = (0, 1)
}

TEST(MeshNoc, MulticastCrossesEachTreeLinkOnce) {
  // 3x3 mesh, 1 byte per ns, no router delay. From the west port of row 1
  // to cores 4 (1,1), 2 (2,0) and 8 (2,2): the XY tree runs east along row
  // 1 and forks at (2,1) north and south. Cut through, every receiver has
  // the tail after one serialisation (100 ns); as three unicasts the
  // shared links would carry the data three times (the last at 300 ns).
  MeshNoc noc(3, 3, 1.0, 0);
  const std::int32_t port = noc.edge_node(1, false);
  const auto m = noc.multicast(0, port, {4, 2, 8}, 100);
  EXPECT_EQ(m.injected, 100000);
  EXPECT_EQ(m.arrived, (std::vector<Tick>{100000, 100000, 100000}));
  EXPECT_EQ(noc.router_link_use().max_busy, 100000);  // no link twice
  // A unicast over the shared row waits for the multicast once.
  EXPECT_EQ(noc.send(0, port, 4, 100).arrived, 200000);

  MeshNoc uni(3, 3, 1.0, 0);
  Tick last = 0;
  for (const std::int32_t d : {4, 2, 8}) last = std::max(last, uni.send(0, port, d, 100).arrived);
  EXPECT_EQ(last, 300000);
  EXPECT_EQ(uni.router_link_use().max_busy, 300000);
}

TEST(MeshNoc, MulticastHeadsFollowTheirBranch) {
  // 3x1 mesh, 1000 ps routers: to core 0 (1 hop) and core 2 (3 hops) from
  // the west port; each arrives as its own unicast would at zero load.
  MeshNoc noc(3, 1, 24.0, 1000);
  const std::int32_t port = noc.edge_node(0, false);
  const auto m = noc.multicast(0, port, {2, 0}, 512);
  MeshNoc a(3, 1, 24.0, 1000), b(3, 1, 24.0, 1000);
  EXPECT_EQ(m.arrived[0], a.send(0, port, 2, 512).arrived);
  EXPECT_EQ(m.arrived[1], b.send(0, port, 0, 512).arrived);
}

// Two flows injecting back to back, in time order, as the NoC module does.
std::pair<Tick, Tick> two_flows(bool both, int packets) {
  MeshNoc noc(3, 1, 24.0, 1000);
  Tick next[2] = {0, 0}, done[2] = {0, 0};
  int left[2] = {packets, both ? packets : 0};
  const std::int32_t src[2] = {0, 1};
  while (left[0] > 0 || left[1] > 0) {
    const int f = left[1] == 0 || (left[0] > 0 && next[0] <= next[1]) ? 0 : 1;
    const auto t = noc.send(next[f], src[f], 2, 512);
    next[f] = t.injected;
    done[f] = t.arrived;
    --left[f];
  }
  return {done[0], done[1]};
}

TEST(MeshNoc, FillGapsLetsAPacketTakeALinksIdleTimeBeforeAnEarlierReservation) {
  // 3x1 mesh, 1 byte per ns, 10 ns routers. A: 2 bytes from core 0 to 2
  // at 0: the link (1,0)->(2,0) from 20 to 22 ns, core 2's ejection from
  // 30 to 32. B: 2 bytes from core 1 to 2 at 1 ns, its header at (1,0) at
  // 11. Sent in that order, the link serves A first: B from 22 to 24, its
  // ejection 32 to 34. With fill_gaps B takes the link while it is idle,
  // 11 to 13 (its tail has come in at 3 + 10), and the ejection 21 to 23:
  // it ends before A's reservations, which keep their times. A 12-byte B
  // would need the link until 23 (its tail in at 13 + 10): it does not fit
  // before A's 20 and goes after it in both modes, 22 to 34, its ejection 32
  // to 44.
  for (const bool gaps : {false, true}) {
    MeshNoc noc(3, 1, 1.0, 10000, 0, gaps);
    noc.set_owner(1);
    const auto a = noc.send(0, 0, 2, 2);
    noc.set_owner(2);
    const auto b = noc.send(1000, 1, 2, 2);
    EXPECT_EQ(a.arrived, 32000) << gaps;
    EXPECT_EQ(b.arrived, gaps ? 23000 : 34000) << gaps;
    EXPECT_EQ(b.waited, gaps ? 0 : 11000) << gaps;
    MeshNoc big(3, 1, 1.0, 10000, 0, gaps);
    EXPECT_EQ(big.send(0, 0, 2, 2).arrived, 32000);
    EXPECT_EQ(big.send(1000, 1, 2, 12).arrived, 44000) << gaps;
  }
  // A finite buffer is entered in the order packets are sent: refused.
  std::string error;
  EXPECT_EQ(make_noc_model({{"fill_gaps", true}, {"buffer_packets", 2}}, NocLayout{}, error),
            nullptr);
  EXPECT_NE(error.find("\"fill_gaps\""), std::string::npos) << error;
}

TEST(MeshNoc, FillGapsKeepsTheReservationsAMulticastsLaterCopiesPassed) {
  // 3x1 mesh, 1 byte per ns, 10 ns routers, fill_gaps, multicasts as their
  // unicasts. A: 20 bytes from core 0 to 1 at 0: core 0's injection link
  // 0 to 20 ns, the link (0,0)->(1,0) 10 to 30, core 1's ejection 20 to 40.
  // M: 2 bytes from core 0 to {1, 2} at 0, as two copies, each after the
  // last: the first injected 20 to 22, the second, sent when the first has
  // left (22), 22 to 24.
  // Y: 2 bytes from core 0 to 1 at 1 ns: the injection link is taken until
  // 24 (no gap of 2 ns before), so it goes 24 to 26, (0,0)->(1,0) 34 to 36
  // (after M's copies, 30 to 32 and 32 to 34), core 1's ejection 44 to 46
  // (after M's first copy, 40 to 42). The second copy, sent at 22, must
  // not make the reservations before 22 look past: Y went out at 1 to 3 ns,
  // through A's reservation, when it did.
  MeshNoc noc(3, 1, 1.0, 10000, 0, true);
  noc.set_multicast_copies(true);
  noc.set_owner(1);
  EXPECT_EQ(noc.send(0, 0, 1, 20).arrived, 40000);
  noc.set_owner(2);
  const auto m = noc.multicast(0, 0, {1, 2}, 2);
  EXPECT_EQ(m.injected, 24000);
  EXPECT_EQ(m.arrived[0], 42000);
  EXPECT_EQ(m.arrived[1], 54000);
  noc.set_owner(3);
  const auto y = noc.send(1000, 0, 1, 2);
  EXPECT_EQ(y.injected, 26000);
  EXPECT_EQ(y.arrived, 46000);
  // No link is busy for longer than the 54 ns the run took.
  EXPECT_LE(noc.router_link_use().max_busy, 54000);
}

TEST(MeshNoc, TwoFlowsSharingALinkEachGetHalf) {
  // Flows 0->2 and 1->2 share the link (1,0)->(2,0) and core 2's ejection.
  const int n = 200;
  const auto alone = two_flows(false, n);
  const auto shared = two_flows(true, n);
  const double ser = 21334;
  EXPECT_NEAR(static_cast<double>(alone.first) / (n * ser), 1.0, 0.02);
  // Each flow's throughput is half the link: it finishes after ~2n packets.
  EXPECT_NEAR(static_cast<double>(shared.first) / (2 * n * ser), 1.0, 0.02);
  EXPECT_NEAR(static_cast<double>(shared.second) / (2 * n * ser), 1.0, 0.02);
}

// A 3x1 mesh at 1 byte per ns, no router delay. Core 1 sends 1000 bytes to
// core 2 at 0 (link (1,0)->(2,0) and core 2's ejection busy until 1000 ns);
// core 0 then sends three 100-byte packets to core 2, each when the source
// may, and at 300 ns one 100-byte packet to core 1 (the next router).
struct HolCase {
  std::vector<Tick> arrived;  // the three packets to core 2
  Tick source_free = 0;       // when core 0 could inject after the three
  Tick to_core1 = 0;          // arrival of the packet to core 1
};
HolCase head_of_line(std::int32_t buffer_packets) {
  MeshNoc noc(3, 1, 1.0, 0, buffer_packets);
  noc.send(0, 1, 2, 1000);
  HolCase c;
  Tick t = 0;
  for (int i = 0; i < 3; ++i) {
    const auto s = noc.send(t, 0, 2, 100);
    c.arrived.push_back(s.arrived);
    t = s.injected;
  }
  c.source_free = t;
  c.to_core1 = noc.send(std::max<Tick>(t, 300000), 0, 1, 100).arrived;
  return c;
}

TEST(MeshNoc, UnboundedBuffersNeverStallTheSource) {
  // The three packets queue at router 1 for the busy link and leave it back
  // to back at 1000, 1100, 1200 ns; the source is free after 300 ns and its
  // packet to core 1 passes them: 300 + 100 = 400 ns.
  const HolCase c = head_of_line(0);
  EXPECT_EQ(c.arrived, (std::vector<Tick>{1100000, 1200000, 1300000}));
  EXPECT_EQ(c.source_free, 300000);
  EXPECT_EQ(c.to_core1, 400000);
}

TEST(MeshNoc, FiniteBuffersPushBackToTheSource) {
  // One packet per input buffer. Packet 1 waits in router 1's west buffer
  // until 1000 ns; packet 2 waits in router 0's injection buffer until
  // packet 1 has left (1100), crosses to router 1 at 1100-1200; packet 3
  // cannot enter the injection buffer before packet 2 has left it (1200).
  // The arrivals at core 2 are unchanged, but the source is blocked until
  // 1300 ns and its packet to core 1 is stuck behind them (head-of-line
  // blocking): it starts at 1300 and arrives at 1400 ns, not 400.
  const HolCase c = head_of_line(1);
  EXPECT_EQ(c.arrived, (std::vector<Tick>{1100000, 1200000, 1300000}));
  EXPECT_EQ(c.source_free, 1300000);
  EXPECT_EQ(c.to_core1, 1400000);
  // Two packets per buffer: packets 1 and 2 both fit at router 1, packet 3
  // waits in the injection buffer (until packet 1 has left router 1, 1100)
  // and a slot is still free there, so the source is never blocked; but the
  // packet to core 1 queues behind packet 3 in that buffer and follows it
  // over (0,0)->(1,0) at 1200: it arrives at 1300 ns.
  const HolCase two = head_of_line(2);
  EXPECT_EQ(two.arrived, c.arrived);
  EXPECT_EQ(two.source_free, 300000);
  EXPECT_EQ(two.to_core1, 1300000);
}

TEST(MeshNoc, AMulticastForkHoldsItsBufferUntilItsLastBranch) {
  // 3x1 mesh, 1 byte per ns, one packet per buffer. Core 2 sends 1000
  // bytes to core 1 (core 1's ejection busy until 1000 ns). A 100-byte multicast from core 0
  // to cores 1 and 2 forks at router 1: the branch east leaves at once, the
  // branch into core 1 waits until 1000 ns, so router 1's west buffer frees
  // at 1100 and the next packet from core 0 to core 2 crosses (0,0)->(1,0)
  // only then: it arrives at 1200 ns (unbounded: 200 ns).
  for (const std::int32_t b : {0, 1}) {
    MeshNoc noc(3, 1, 1.0, 0, b);
    noc.send(0, 2, 1, 1000);
    const auto m = noc.multicast(0, 0, {1, 2}, 100);
    EXPECT_EQ(m.arrived, (std::vector<Tick>{1100000, 100000}));
    EXPECT_EQ(noc.send(m.injected, 0, 2, 100).arrived, b == 0 ? 200000 : 1200000) << b;
  }
}

TEST(MeshNoc, AStreamsRememberedTreeTimesItsPacketsAsMulticastDoes) {
  // Two 4x4 meshes with one-packet buffers and cut into 2x2 dies, sent the
  // same packets in the same order: one with multicast() (each packet's
  // tree looked up), one with multicast_stream() and a memo per stream,
  // into one MulticastTiming reused for destination sets of every size.
  // Three long streams from the ports interleave with 12000 one-packet
  // multicasts to distinct destination sets, more than the mesh's tree
  // cache holds, so the streams' trees are replaced while they run.
  MeshNoc a(4, 4, 24.0, 1000, 1), b(4, 4, 24.0, 1000, 1);
  for (MeshNoc* m : {&a, &b}) m->set_chiplets(2, 2, false, 16.0, 2000);
  const std::vector<std::vector<std::int32_t>> streams = {{5, 1, 14}, {3}, {15, 0, 6, 9}};
  std::vector<NocModel::MulticastMemo> memos(streams.size());
  auto same = [](const NocModel::MulticastTiming& x, const NocModel::MulticastTiming& y) {
    EXPECT_EQ(x.injected, y.injected);
    EXPECT_EQ(x.arrived, y.arrived);
    EXPECT_EQ(x.links, y.links);
    EXPECT_EQ(x.d2d_links, y.d2d_links);
    EXPECT_EQ(x.last, y.last);
    EXPECT_EQ(x.waited, y.waited);
    EXPECT_EQ(x.wait_link, y.wait_link);
    EXPECT_EQ(x.wait_owner, y.wait_owner);
  };
  NocModel::MulticastTiming out;
  Tick t = 0;
  for (std::uint32_t i = 1; i <= 12000; ++i) {
    std::vector<std::int32_t> dsts;  // the cores of the bits of i, in a rotated order
    for (std::int32_t k = 0; k < 16; ++k)
      if ((i >> ((k + i) % 16)) & 1) dsts.push_back((k + i) % 16);
    const std::int32_t src = a.edge_node(static_cast<std::int32_t>(i % 4), i % 2 == 0);
    for (MeshNoc* m : {&a, &b}) m->set_owner(i);
    NocModel::MulticastMemo fresh;
    b.multicast_stream(t, src, dsts, 64, fresh, out);
    same(a.multicast(t, src, dsts, 64), out);
    const std::size_t s = i % streams.size();
    const std::int32_t from = a.edge_node(static_cast<std::int32_t>(s), false);
    for (MeshNoc* m : {&a, &b}) m->set_owner(100000 + s);
    b.multicast_stream(t, from, streams[s], 512, memos[s], out);
    same(a.multicast(t, from, streams[s], 512), out);
    t += 20000;
  }
  EXPECT_EQ(a.router_link_use().max_busy, b.router_link_use().max_busy);
}

TEST(MeshNoc, AMulticastToOneDestinationTimesAsASend) {
  // Twin 4x4 meshes with one-packet buffers, cut into 2x2 dies: the same
  // packets, one mesh sending each one-destination packet as a multicast,
  // the other as a send, among multicasts to two destinations.
  MeshNoc a(4, 4, 24.0, 1000, 1), b(4, 4, 24.0, 1000, 1);
  for (MeshNoc* m : {&a, &b}) m->set_chiplets(2, 2, false, 16.0, 2000);
  Tick t = 0;
  for (std::int32_t i = 0; i < 400; ++i) {
    const std::int32_t src = i % 3 == 0 ? a.edge_node(i % 4, i % 2 == 0) : (i * 7) % 16;
    const std::int32_t dst = (i * 5 + 3) % 16 == src ? (src + 1) % 16 : (i * 5 + 3) % 16;
    for (MeshNoc* m : {&a, &b}) m->set_owner(static_cast<std::uint64_t>(i));
    const NocModel::MulticastTiming x = a.multicast(t, src, {dst}, 512);
    const NocModel::Timing y = b.send(t, src, dst, 512);
    EXPECT_EQ(x.arrived, std::vector<Tick>{y.arrived});
    EXPECT_EQ(x.last, y.arrived);
    EXPECT_EQ(x.injected, y.injected);
    EXPECT_EQ(x.links, y.links);
    EXPECT_EQ(x.d2d_links, y.d2d_links);
    EXPECT_EQ(x.waited, y.waited);
    EXPECT_EQ(x.wait_link, y.wait_link);
    EXPECT_EQ(x.wait_owner, y.wait_owner);
    const std::vector<std::int32_t> two = {(dst + 5) % 16, (dst + 10) % 16};
    if (two[0] != src && two[1] != src) {
      EXPECT_EQ(a.multicast(t, src, two, 256).arrived, b.multicast(t, src, two, 256).arrived);
    }
    t += 3000;
  }
  EXPECT_EQ(a.router_link_use().max_busy, b.router_link_use().max_busy);
  EXPECT_EQ(a.d2d_link_use().max_busy, b.d2d_link_use().max_busy);
}

TEST(Tick, CeilTickIsStdCeil) {
  // Around zero, integers and halves, the last halves a double holds, large.
  std::vector<double> xs = {0.0, -0.0, 1e-12, -1e-12, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0};
  for (const double x : {1e9 - 1, 4503599627370495.5, 9.0e15, -9.0e15, 1e18, -1e18})
    xs.push_back(x);
  for (std::int64_t b = 0; b < 5000; b += 7)  // packets at the rates the models use
    for (const double r : {1000.0 / 24, 1000.0 / 16, 1000.0 / 3, 41.666666666666664})
      xs.push_back(static_cast<double>(b) * r - 1e-9);
  for (const double x : xs) EXPECT_EQ(ceil_tick(x), static_cast<Tick>(std::ceil(x))) << x;
}

TEST(ComputeTiming, PeRunFormula) {
  // ofmap 1x16x8x8 from 32 channels, 3x3 kernel, 8x8x16 array:
  // ceil(64 / 8) * ceil(16 / 8) * ceil(32 / 16) * 9 = 8 * 2 * 2 * 9 = 288;
  // L2: ceil((1024 + 512) / 64) = 24; weights 4608 / 64 = 72; + 16 pipeline.
  ir::HardwareConfig hw;
  PeTile t{1, 16, 8, 8, 32, 3, 3, 1024, 4608, 512};
  EXPECT_EQ(pe_compute_cycles(hw.pe, t), 288);
  EXPECT_EQ(pe_run_cycles(hw, t, 64.0), 304);
  t.weight_bytes = 64 * 400;  // weight streaming dominates: 400 + 16
  EXPECT_EQ(pe_run_cycles(hw, t, 64.0), 416);
}

TEST(ComputeTiming, L2BankConflicts) {
  // 16 banks of 16 bytes, 64-byte ports: G = 4 groups. One stream: 64 B per
  // cycle; two: 64 * 4 * (1 - (3/4)^2) / 2 = 56; never more than a port.
  ir::L2Config l2;
  EXPECT_DOUBLE_EQ(l2_port_rate(l2, 1), 64.0);
  EXPECT_DOUBLE_EQ(l2_port_rate(l2, 2), 56.0);
  EXPECT_LT(l2_port_rate(l2, 4), l2_port_rate(l2, 3));
}

TEST(ComputeTiming, VpAndWl0) {
  ir::HardwareConfig hw;
  // 4096 element operations on 64 lanes = 64 cycles; L2 8192 bytes / 64 = 128.
  EXPECT_EQ(vp_run_cycles(hw.vp, 4096, 1024, 64.0), 64 + 8);
  EXPECT_EQ(vp_run_cycles(hw.vp, 4096, 8192, 64.0), 128 + 8);
  // WL0 fill of 4096 bytes at min(64, 56) = 56 B/cycle: ceil(73.14) + 2.
  EXPECT_EQ(wl0_fill_cycles(hw, 4096, 56.0), 74 + 2);
}

}  // namespace
}  // namespace gemini::sim
