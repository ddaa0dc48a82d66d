// noc.model "router" (sim/src/router_noc.cpp): input-queued routers packet
// by packet, against hand-computed times on small meshes -- zero load (the
// mesh's), head-of-line blocking, credits with one-packet buffers, a
// multicast forked in the routers or sent as copies, the waits named for the
// critical path, routers of 0 cycles -- and the synthetic
// traffic harness's zero load, which must be the mesh's exactly -- and, where
// BookSim 2 is built, its agreement with booksim2 on a small mesh at loads
// up to and past the knee.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json/object.hpp>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gemini/sim/booksim2_config.h"
#include "gemini/sim/mesh_links.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/noc_traffic.h"
#include "gemini/sim/stats.h"

namespace gemini::sim {
namespace {

namespace json = boost::json;

// 1-cycle routers at 1 GHz (1000 ps), 24 GB/s links: 240 bytes take
// 10000 ps of a link.
constexpr std::int64_t kBytes = 240;

// The reports, each no earlier than the time of the call that made it:
// `now`, the last enqueue()'s or advance()'s (noc_model.h).
struct Record final : NocModel::Events {
  Tick now = 0;
  std::map<std::uint64_t, Tick> sent;  // injected
  std::map<std::pair<std::uint64_t, std::size_t>, NocModel::Arrival> got;
  void injected(std::uint64_t tag, Tick t) override {
    EXPECT_GT(t, now) << tag;
    sent[tag] = t;
  }
  void arrived(const NocModel::Arrival& a) override {
    EXPECT_GT(a.t, now) << a.tag;
    got[{a.tag, a.dst}] = a;
  }
  Tick at(std::uint64_t tag, std::size_t dst = 0) const {
    const auto it = got.find({tag, dst});
    return it == got.end() ? -1 : it->second.t;
  }
  const NocModel::Arrival& arrival(std::uint64_t tag, std::size_t dst = 0) {
    return got[{tag, dst}];
  }
};

std::unique_ptr<NocModel> router(std::int32_t xlen, std::int32_t ylen, json::object extra = {}) {
  NocLayout l;
  l.xlen = xlen;
  l.ylen = ylen;
  l.period = 1000;
  json::object noc{{"model", "router"}, {"router_cycles", 1}, {"link_gbps", 24}};
  for (const auto& kv : extra) noc[kv.key()] = kv.value();
  std::string error;
  auto m = make_noc_model(noc, l, error);
  EXPECT_NE(m, nullptr) << error;
  return m;
}

// Runs the network until nothing is in flight, as the simulator does.
void drain(NocModel& m, Record& r) {
  ASSERT_TRUE(m.closed_loop());
  for (int i = 0; i < 100000 && m.next_advance() != kNever; ++i) {
    r.now = m.next_advance();
    m.advance(r.now, r);
  }
  EXPECT_EQ(m.next_advance(), kNever);
}

// The head-of-line case on a 3x2 mesh (noc parameters `extra`), run to its
// end: A (core 0 -> 2), B (core 0 -> core 4 at (1,1)), C (core 1 -> 2),
// handed over at 0 in this order, each owned by its instruction (the
// simulator's), tag + 100.
Record run_abc(json::object extra = {}) {
  auto m = router(3, 2, std::move(extra));
  Record r;
  m->set_events(r);
  for (const char tag : {'A', 'B', 'C'}) {
    m->set_owner(static_cast<std::uint64_t>(tag) + 100);
    m->enqueue(0, static_cast<std::uint64_t>(tag), tag == 'C' ? 1 : 0, {tag == 'B' ? 4 : 2},
               kBytes);
  }
  drain(*m, r);
  return r;
}

TEST(RouterNoc, ZeroLoadIsTheMeshs) {
  // Core 0 (0,0) to core 7 (3,1) of a 4x2 mesh: 4 hops, (4 + 1) x 1000 +
  // 10000; its tail written into the router after 10000.
  auto m = router(4, 2);
  Record r;
  m->set_events(r);
  m->enqueue(0, 1, 0, {7}, kBytes);
  drain(*m, r);
  EXPECT_EQ(r.sent[1], 10000);
  EXPECT_EQ(r.at(1), 15000);
  EXPECT_EQ(r.arrival(1).links, 4);
  EXPECT_EQ(r.arrival(1).waited, 0);
  EXPECT_EQ(m->packets(), 1);
}

TEST(RouterNoc, APacketBlockedAtTheHeadOfItsBufferHoldsBackTheOneBehind) {
  // 3x2 mesh. C (core 1 -> 2) takes the link (1,0)->(2,0) from 1000 to
  // 11000. A (core 0 -> 2) reaches router (1,0) at 2000 and waits for that
  // link until 11000: 11000 + 1000 + 10000 = 22000. B (core 0 -> core 4 at
  // (1,1)), written after A (from 10000), reaches router (1,0) behind A at
  // 12000; its link south is free, but it leaves only when A has (21000):
  // 21000 + 1000 + 10000 = 32000. The mesh, without input buffers, would
  // send it south at 12000.
  Record r = run_abc();
  EXPECT_EQ(r.at('C'), 12000);
  EXPECT_EQ(r.at('A'), 22000);
  EXPECT_EQ(r.at('B'), 32000);
  EXPECT_EQ(r.sent['A'], 10000);
  EXPECT_EQ(r.sent['B'], 20000);
  EXPECT_EQ(r.arrival('B').waited, 32000 - 13000);
  // For the critical path, each packet's longest wait: A's for the link C
  // held, B's in the buffer behind A (at the end of (0,0)->(1,0)).
  const MeshLinks links(3, 2);
  EXPECT_EQ(r.arrival('A').wait_link, links.link(1, 0, MeshLinks::kEast));
  EXPECT_EQ(r.arrival('A').wait_owner, 'C' + 100u);
  EXPECT_EQ(r.arrival('B').wait_link, links.link(0, 0, MeshLinks::kEast));
  EXPECT_EQ(r.arrival('B').wait_owner, 'A' + 100u);
  EXPECT_EQ(r.arrival('C').wait_link, -1);  // it never waited
}

TEST(RouterNoc, RoutersOfZeroCyclesQueueEventsAtTheTimeBeingRun) {
  // The same packets through routers of 0 cycles: a packet's head crosses a
  // router at once, so its next request is queued at the time being run.
  // C and A both want (1,0)->(2,0) at 0; round robin from the west input
  // gives it to C (the injection input): C arrives at 10000; A takes the
  // link at 10000 and arrives at 20000. B, written from 10000, reaches
  // router (1,0) behind A at 10000 and goes south when A has left (20000):
  // 30000. (Once a segmentation fault: the event queue lost the time of an
  // event queued at the time it had just popped.)
  Record r = run_abc({{"router_cycles", 0}});
  EXPECT_EQ(r.at('C'), 10000);
  EXPECT_EQ(r.at('A'), 20000);
  EXPECT_EQ(r.at('B'), 30000);
  EXPECT_EQ(r.sent['B'], 20000);
  EXPECT_EQ(r.arrival('B').waited, 30000 - 10000);  // beyond zero load from its handover
}

TEST(RouterNoc, AOnePacketBufferHoldsTheNextUntilTheOneInItHasLeft) {
  // 3x1 mesh, core 2 takes packets at 6 GB/s (40000 ps for 240 bytes); P1
  // and P2 from core 0 to core 2. Unbounded buffers: P1 arrives at 3000 +
  // 40000; P2 reaches router (2,0) at 13000 and is ejected when P1 has
  // been (43000): 83000. One-packet buffers: P2 is written only when P1 has
  // left the injection buffer (11000, injected 21000), leaves router (1,0)
  // only when P1 has left router (2,0)'s buffer (43000), and is ejected
  // from 44000: 84000.
  for (const int buffer : {0, 1}) {
    auto m = router(3, 1, {{"buffer_packets", buffer}});
    m->set_eject_ps_per_byte(2, 1000.0 / 6);
    Record r;
    m->set_events(r);
    m->enqueue(0, 1, 0, {2}, kBytes);
    m->enqueue(0, 2, 0, {2}, kBytes);
    drain(*m, r);
    EXPECT_EQ(r.at(1), 43000) << buffer;
    EXPECT_EQ(r.at(2), buffer ? 84000 : 83000) << buffer;
    EXPECT_EQ(r.sent[2], buffer ? 21000 : 20000) << buffer;
  }
}

TEST(RouterNoc, APacketStreamingOutWithNoneBehindItStillHoldsItsBuffer) {
  // AOnePacketBuffer's run (unbounded buffers): P1's ejection at router
  // (2,0) is granted at 3000 with no packet behind it in that buffer, and
  // streams until 43000 (core 2 takes 6 GB/s). P2 comes into the buffer
  // at 12000 (granted at router (1,0), where P1 streamed out, none behind,
  // until 12000): it waits behind P1 until 43000, a wait that names the
  // buffer's link (1,0)->(2,0) and P1's instruction. Each packet counts the
  // packets ahead in the buffer it starts towards: P1 none, three times;
  // P2 one (P1) in each of the three, P1 still streaming out of the last
  // two.
  auto m = router(3, 1);
  m->set_eject_ps_per_byte(2, 1000.0 / 6);
  Record r;
  m->set_events(r);
  m->set_owner(101);
  m->enqueue(0, 1, 0, {2}, kBytes);
  m->set_owner(102);
  m->enqueue(0, 2, 0, {2}, kBytes);
  drain(*m, r);
  EXPECT_EQ(r.at(1), 43000);
  EXPECT_EQ(r.at(2), 83000);
  const MeshLinks links(3, 1);
  EXPECT_EQ(r.arrival(2).wait_link, links.link(1, 0, MeshLinks::kEast));
  EXPECT_EQ(r.arrival(2).wait_owner, 101u);
  StatGroup g("noc", "noc");
  m->register_stats(g);
  const StatSnapshot s = g.snapshot();
  const auto q = std::find_if(s.distributions.begin(), s.distributions.end(),
                              [](const DistValue& d) { return d.name == "input_queue"; });
  ASSERT_NE(q, s.distributions.end());
  EXPECT_EQ(q->dist.count(), 6);
  EXPECT_EQ(q->dist.max(), 1);
  EXPECT_DOUBLE_EQ(q->dist.mean(), 0.5);
}

TEST(RouterNoc, AMulticastForksWhereItsRoutesPartOrGoesAsCopies) {
  // Core 0 to cores 2 (2,0) and 4 (1,1) of a 3x2 mesh: one packet to router
  // (1,0), forked east and south there: both at (2 + 1) x 1000 + 10000;
  // three links of bytes. As copies, the second leaves the source after
  // the first's tail: 10000 later, and four links of bytes.
  for (const bool copies : {false, true}) {
    auto m = router(3, 2, {{"multicast_copies", copies}});
    Record r;
    m->set_events(r);
    m->enqueue(0, 9, 0, {2, 4}, kBytes);
    drain(*m, r);
    EXPECT_EQ(r.at(9, 0), 13000) << copies;
    EXPECT_EQ(r.at(9, 1), copies ? 23000 : 13000) << copies;
    EXPECT_EQ(r.sent[9], copies ? 20000 : 10000) << copies;
    std::int64_t bytes = 0;
    for (const NocModel::LinkLoad& l : m->router_link_loads()) bytes += l.bytes;
    EXPECT_EQ(bytes, (copies ? 4 : 3) * kBytes) << copies;
    // The arrivals count the links crossed, each once: the tree's three
    // (the first destination's two, then the fork's south link), or each
    // copy's route (two and two).
    EXPECT_EQ(r.arrival(9, 0).links, 2) << copies;
    EXPECT_EQ(r.arrival(9, 1).links, copies ? 2 : 1) << copies;
  }
}

TEST(RouterNoc, APacketHandedOverWithinItsLookaheadMeetsTheOthersInTime) {
  // Unbounded buffers: advance(now) runs the events before now + 1 router
  // cycle, which no packet handed over at now or later can reach. A (core
  // 0 -> 2 of a 3x1 mesh, at 1000): advance(2001) takes its head through
  // router (0,0) at 2000 and (1,0) at 3000, east until 13000 (its tail);
  // ejected 4000-14000. B (core 1 -> 2) handed over at 2500, inside that
  // window: its head at router (1,0) from 3500 waits for A's east stream,
  // 13000-23000, and for A's ejection: 14000 + 10000.
  auto m = router(3, 1);
  Record r;
  m->set_events(r);
  r.now = 1000;
  m->enqueue(1000, 'A', 0, {2}, kBytes);
  r.now = m->next_advance();
  EXPECT_EQ(r.now, 2001);
  m->advance(r.now, r);
  EXPECT_EQ(m->next_advance(), 4001);  // A's head at router (2,0)
  r.now = 2500;
  m->enqueue(2500, 'B', 1, {2}, kBytes);
  EXPECT_EQ(r.sent['B'], 12500);
  drain(*m, r);
  EXPECT_EQ(r.at('A'), 14000);
  EXPECT_EQ(r.at('B'), 24000);
  EXPECT_EQ(r.arrival('B').waited, 24000 - (2500 + 2 * 1000 + 10000));
}

TEST(RouterNoc, ZeroLoadOfTheTrafficHarnessIsTheMeshs) {
  // Every pair of a 4x4 mesh, one at a time (noc_traffic.h): the same mean
  // and maximum as the mesh model.
  TrafficSpec spec;
  spec.xlen = spec.ylen = 4;
  spec.packet_bytes = 240;
  spec.zero_load = true;
  spec.link_bytes_per_cycle = 24;
  TrafficResult mesh, ours;
  std::string error;
  auto a = make_noc_model({{"router_cycles", 3}, {"link_gbps", 24}}, traffic_layout(spec), error);
  ASSERT_NE(a, nullptr) << error;
  ASSERT_TRUE(run_traffic(*a, spec, mesh, error)) << error;
  auto b = make_noc_model({{"model", "router"}, {"router_cycles", 3}, {"link_gbps", 24}},
                          traffic_layout(spec), error);
  ASSERT_NE(b, nullptr) << error;
  ASSERT_TRUE(run_traffic(*b, spec, ours, error)) << error;
  EXPECT_EQ(ours.measured, 240);
  EXPECT_NEAR(ours.mean, 21.0, 1e-9);  // as NocTraffic.ZeroLoadOverEveryPairOfAPattern
  EXPECT_DOUBLE_EQ(ours.mean, mesh.mean);
  EXPECT_DOUBLE_EQ(ours.max, mesh.max);
}

TEST(RouterNoc, AgreesWithBooksim2OnASmallMeshUpToAndPastTheKnee) {
  std::string why;
  if (!booksim2_built(&why)) GTEST_SKIP() << "BookSim 2 is not built: " << why;
  // 4x4, set-polar's NoC (24 GB/s, 1-cycle routers, 512-byte packets), 40
  // packets per source after 10: uniform saturates near 0.5 and transpose
  // near 0.42 of a link per source (measured: mean latencies within 1%,
  // 57.3 against 57.7 cycles at uniform 0.5, 203.0 against 203.0 at
  // transpose 0.5; the mesh model: 36.1 against 31.7 at uniform 0.3, 400.7
  // at transpose 0.5).
  for (const char* pattern : {"uniform", "transpose"})
    for (const double load : {0.3, 0.5}) {
      TrafficSpec spec;
      spec.xlen = spec.ylen = 4;
      spec.pattern = pattern;
      spec.load = load;
      spec.packets = 40;
      spec.warmup = 10;
      TrafficResult ours, theirs;
      for (const char* model : {"router", "booksim2"}) {
        std::string error;
        auto m = make_noc_model({{"model", model}, {"router_cycles", 1}, {"link_gbps", 24}},
                                traffic_layout(spec), error);
        ASSERT_NE(m, nullptr) << error;
        ASSERT_TRUE(run_traffic(*m, spec, std::string(model) == "router" ? ours : theirs, error))
            << error;
      }
      EXPECT_NEAR(ours.mean, theirs.mean, 0.03 * theirs.mean) << pattern << " at " << load;
      EXPECT_NEAR(ours.accepted, theirs.accepted, 0.03 * theirs.accepted)
          << pattern << " at " << load;
    }
}

}  // namespace
}  // namespace gemini::sim
