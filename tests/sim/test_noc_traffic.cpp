// The synthetic-traffic harness (sim/include/gemini/sim/noc_traffic.h,
// `gemini noc`) on the mesh model, against hand-computed latencies: zero
// load over every pair of a pattern, two packets sharing a link from a
// trace, offered and accepted throughput below saturation and at it, the
// random permutation pattern, and the trace reader's errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "gemini/sim/noc_model.h"
#include "gemini/sim/noc_traffic.h"

namespace gemini::sim {
namespace {

std::unique_ptr<NocModel> mesh(const TrafficSpec& spec, std::int32_t router_cycles) {
  std::string error;
  auto m = make_noc_model({{"router_cycles", router_cycles}, {"link_gbps", 24}},
                          traffic_layout(spec), error);
  EXPECT_NE(m, nullptr) << error;
  return m;
}

TrafficResult run(TrafficSpec spec, std::int32_t router_cycles) {
  auto m = mesh(spec, router_cycles);
  spec.link_bytes_per_cycle = 24;  // 24 GB/s at 1 GHz
  TrafficResult r;
  std::string error;
  EXPECT_TRUE(run_traffic(*m, spec, r, error)) << error;
  return r;
}

TEST(NocTraffic, ZeroLoadOverEveryPairOfAPattern) {
  TrafficSpec spec;
  spec.xlen = spec.ylen = 4;
  spec.packet_bytes = 240;  // 10 cycles of a link
  spec.zero_load = true;
  // Uniform over the 240 ordered pairs of distinct cores of a 4x4 mesh:
  // each dimension's |dx| sums to 40 over the 16 x 16 pairs, so the mean
  // distance is 2 * 40 * 16 / 240 = 8/3 hops; (8/3 + 1) * 3 + 10 = 21.
  spec.pattern = "uniform";
  TrafficResult r = run(spec, 3);
  EXPECT_EQ(r.measured, 240);
  EXPECT_NEAR(r.mean, 21.0, 1e-9);
  // Transpose: the 12 cores off the diagonal, 2|x - y| hops: |x - y| is 1
  // for 6 of them, 2 for 4, 3 for 2: a mean of 10/3 hops, (10/3 + 1) * 3 +
  // 10 = 23; the farthest, 6 hops, 31.
  spec.pattern = "transpose";
  r = run(spec, 3);
  EXPECT_EQ(r.measured, 12);
  EXPECT_NEAR(r.mean, 23.0, 1e-9);
  EXPECT_DOUBLE_EQ(r.max, 31.0);
  // Nearest neighbour: always 1 hop, 2 * 1 + 10.
  spec.pattern = "neighbor";
  r = run(spec, 1);
  EXPECT_EQ(r.measured, 48);  // 4 corners x 2 + 8 edges x 3 + 4 inner x 4
  EXPECT_DOUBLE_EQ(r.mean, 12.0);
}

TEST(NocTraffic, APermutationSendsEachCoreToOneOtherAndReceivesFromOne) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const std::vector<std::int32_t> to = traffic_permutation(16, seed);
    ASSERT_EQ(to.size(), 16u);
    std::vector<int> received(16, 0);
    for (std::int32_t i = 0; i < 16; ++i) {
      const std::int32_t d = to[static_cast<std::size_t>(i)];
      ASSERT_GE(d, 0);
      ASSERT_LT(d, 16);
      EXPECT_NE(d, i) << "seed " << seed;
      ++received[static_cast<std::size_t>(d)];
    }
    for (const int n : received) EXPECT_EQ(n, 1) << "seed " << seed;
    // One cycle through every core (Sattolo), so following it from 0
    // returns after 16 steps and not before.
    std::int32_t at = 0, steps = 0;
    do {
      at = to[static_cast<std::size_t>(at)];
      ++steps;
    } while (at != 0 && steps <= 16);
    EXPECT_EQ(steps, 16);
    EXPECT_EQ(traffic_permutation(16, seed), to) << "drawn from the seed alone";
  }
  EXPECT_NE(traffic_permutation(16, 1), traffic_permutation(16, 2));
  EXPECT_EQ(traffic_permutation(1, 1), std::vector<std::int32_t>{-1});

  // Its zero load: each of the 16 pairs once, (hops + 1) * 3 + 10 cycles
  // (router 3 cycles, 240 bytes = 10 cycles of a link), hops the XY
  // distance of each pair.
  TrafficSpec spec;
  spec.xlen = spec.ylen = 4;
  spec.packet_bytes = 240;
  spec.zero_load = true;
  spec.pattern = "permutation";
  spec.seed = 2;
  const std::vector<std::int32_t> to = traffic_permutation(16, 2);
  double sum = 0;
  for (std::int32_t i = 0; i < 16; ++i) {
    const std::int32_t d = to[static_cast<std::size_t>(i)];
    sum += (std::abs(d % 4 - i % 4) + std::abs(d / 4 - i / 4) + 1) * 3 + 10;
  }
  const TrafficResult r = run(spec, 3);
  EXPECT_EQ(r.measured, 16);
  EXPECT_NEAR(r.mean, sum / 16, 1e-9);
}

TEST(NocTraffic, TwoPacketsOfATraceShareALink) {
  // 3x1 mesh, router 3 cycles, 240 bytes (10 cycles): A (core 0 -> 2) is
  // handed over first and crosses uncontended, 3 * 3 + 10 = 19; B (core 1
  // -> 2) waits for the link (1,0)->(2,0) until A's tail has crossed it at
  // 16, then 16 + 10 and the ejection link 3 later: 29.
  TrafficSpec spec;
  spec.xlen = 3;
  spec.ylen = 1;
  spec.pattern = "trace";
  std::istringstream csv("cycle,src,dst,bytes\n0,0,2,240\n0,1,2,240\n");
  std::string error;
  ASSERT_TRUE(read_traffic_trace(csv, "t.csv", spec.trace, error)) << error;
  ASSERT_EQ(spec.trace.size(), 2u);
  const TrafficResult r = run(spec, 3);
  EXPECT_EQ(r.measured, 2);
  EXPECT_DOUBLE_EQ(r.mean, (19.0 + 29.0) / 2);
  EXPECT_DOUBLE_EQ(r.max, 29.0);
  EXPECT_EQ(r.busiest, "(1,0)->(2,0)");  // 20 cycles of 29
  EXPECT_NEAR(r.link_max, 20.0 / 29.0, 1e-9);
}

TEST(NocTraffic, AcceptedFollowsOfferedUntilSaturation) {
  TrafficSpec spec;
  spec.xlen = spec.ylen = 4;
  spec.packet_bytes = 240;
  spec.packets = 400;
  spec.warmup = 100;
  // Well below saturation what is offered is accepted.
  spec.load = 0.2;
  TrafficResult r = run(spec, 1);
  EXPECT_NEAR(r.offered, 0.2, 0.02);
  EXPECT_NEAR(r.accepted, r.offered, 0.02);
  EXPECT_EQ(r.sources, 16);
  // Every core sending to the hotspot: its one ejection link takes a link's
  // worth, 1/15 of a link per source at most, whatever is offered.
  spec.pattern = "hotspot";
  spec.hotspot_fraction = 1.0;
  spec.load = 0.5;
  spec.packets = 100;
  r = run(spec, 1);
  EXPECT_EQ(r.sources, 16);  // the hotspot itself sends uniformly
  EXPECT_LT(r.accepted, 0.2);
  EXPECT_GT(r.mean, 100.0);  // queues grow
}

TEST(NocTraffic, ATraceLineThatDoesNotReadIsAnErrorNamingIt) {
  std::vector<TracePacket> t;
  std::string error;
  std::istringstream bad("0,1,2,64\n5,1,two,64\n");
  EXPECT_FALSE(read_traffic_trace(bad, "t.csv", t, error));
  EXPECT_NE(error.find("t.csv:2: expected \"cycle,source core,destination core,bytes\""),
            std::string::npos)
      << error;
  TrafficSpec spec;
  spec.xlen = spec.ylen = 2;
  spec.pattern = "trace";
  spec.trace = {{0, 0, 7, 64}};
  auto m = mesh(spec, 1);
  TrafficResult r;
  EXPECT_FALSE(run_traffic(*m, spec, r, error));
  EXPECT_NE(error.find("from core 0 to 7 does not fit the mesh"), std::string::npos) << error;
  spec.pattern = "transpose";
  spec.xlen = 3;
  EXPECT_FALSE(run_traffic(*m, spec, r, error));
  EXPECT_NE(error.find("needs a square mesh"), std::string::npos) << error;
}

}  // namespace
}  // namespace gemini::sim
