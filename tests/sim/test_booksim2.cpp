// noc.model "booksim2" (sim/src/booksim2_noc.cpp): its configuration mapped
// from ours by one function (booksim2_config.h, checked without BookSim),
// and, where BookSim 2 is built, the network itself against hand-computed
// timings and the mesh model: zero-load latency exactly the mesh's, flit
// quantisation, contention on a shared link, die-to-die latency, its
// parameters checked and BookSim's other keys reached, one network per
// process. Tests that need BookSim 2 skip, saying why, in a build without it.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <string>
#include <vector>

#include "fixture.h"
#include "gemini/sim/booksim2_config.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/noc_traffic.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/simulator.h"

namespace gemini::sim {
namespace {

#define REQUIRE_BOOKSIM2()                                             \
  do {                                                                 \
    std::string why;                                                   \
    if (!booksim2_built(&why)) GTEST_SKIP() << "BookSim 2 is not built: " << why; \
  } while (0)

NocLayout grid(std::int32_t x, std::int32_t y, std::int32_t packet_bytes = 512) {
  NocLayout l;
  l.xlen = x;
  l.ylen = y;
  l.period = 1000;
  l.packet_bytes = packet_bytes;
  return l;
}

TEST(Booksim2Config, MapsRouterCyclesOntoItsClockAndPipeline) {
  // BookSim's fastest hop is 3 of its cycles: router_cycles R takes the
  // smallest ratio m with 3 <= R * m, routing_delay R * m - 3.
  struct Case {
    std::int32_t r, ratio, routing_delay;
    double flit;
  } cases[] = {{1, 3, 0, 8}, {2, 2, 1, 12}, {3, 1, 0, 24}, {4, 1, 1, 24}};
  for (const Case& c : cases) {
    Booksim2Params p;
    p.link_gbps = 24;
    p.router_cycles = c.r;
    Booksim2Setup s;
    std::string error;
    ASSERT_TRUE(booksim2_config(p, grid(4, 4), s, error)) << error;
    EXPECT_EQ(s.clock_ratio, c.ratio) << c.r;
    EXPECT_DOUBLE_EQ(s.flit_bytes, c.flit) << c.r;
    EXPECT_EQ(s.hop_cycles, c.r * c.ratio) << c.r;
    EXPECT_NE(s.text().find("routing_delay = " + std::to_string(c.routing_delay) + ";"),
              std::string::npos)
        << s.text();
  }
  // 512 bytes in flits of 12 (R = 2): 42.67, so 43; deep buffers of 64 such
  // packets per VC; the ports' columns make the mesh 3 + 2 wide.
  Booksim2Params p;
  p.router_cycles = 2;
  NocLayout l = grid(3, 2);
  l.ports = {{-1, 0}, {3, 0}};
  Booksim2Setup s;
  std::string error;
  ASSERT_TRUE(booksim2_config(p, l, s, error)) << error;
  EXPECT_EQ(s.packet_flits, 43);
  EXPECT_EQ(s.k, 5);
  EXPECT_EQ(s.node(-1, 0), 0);
  EXPECT_EQ(s.node(3, 1), 9);
  EXPECT_NE(s.text().find("vc_buf_size = " + std::to_string(64 * 43) + ";"), std::string::npos);
  p.buffer_packets = 2;
  ASSERT_TRUE(booksim2_config(p, l, s, error)) << error;
  EXPECT_NE(s.text().find("vc_buf_size = 86;"), std::string::npos);
}

TEST(Booksim2Config, RefusesWhatBookSimCannotModelNamingTheParameter) {
  Booksim2Params p;
  p.router_cycles = 0;
  Booksim2Setup s;
  std::string error;
  EXPECT_FALSE(booksim2_config(p, grid(2, 2), s, error));
  EXPECT_NE(error.find("\"router_cycles\""), std::string::npos) << error;
  // A chiplet cut whose D2D links run at another rate than the NoC's.
  p.router_cycles = 3;
  NocLayout l = grid(4, 2);
  l.x_cut = 2;
  l.d2d_gbps = 16;
  error.clear();
  EXPECT_FALSE(booksim2_config(p, l, s, error));
  EXPECT_NE(error.find("parameter \"d2d_gbps\" of component \"chiplets\""), std::string::npos)
      << error;
  // The rates as a person writes them (a Gemini 6x6 cut's, which printed
  // 20.800000000000001).
  p.link_gbps = 41.6;
  l.d2d_gbps = 20.8;
  error.clear();
  EXPECT_FALSE(booksim2_config(p, l, s, error));
  EXPECT_NE(error.find("got 20.8 GB/s against 41.6;"), std::string::npos) << error;
  p.link_gbps = 24;
  // At the NoC's rate it is taken; a latency of part of a BookSim cycle is
  // not.
  l.d2d_gbps = 24;
  l.d2d_latency = 1500;
  error.clear();
  EXPECT_FALSE(booksim2_config(p, l, s, error));
  EXPECT_NE(error.find("\"d2d_latency_ns\""), std::string::npos) << error;
  l.d2d_latency = 2000;
  ASSERT_TRUE(booksim2_config(p, l, s, error)) << error;
  EXPECT_EQ(s.d2d_cycles, 2);
  EXPECT_EQ(s.d2d_channels.size(), 4u);  // (1,y) <-> (2,y), both ways, two rows
}

// One packet per trace line, each alone in the network: its latency.
double alone(const char* model, const std::string& extra, std::int32_t x, std::int32_t y,
             const TracePacket& t) {
  TrafficSpec spec;
  spec.xlen = x;
  spec.ylen = y;
  spec.pattern = "trace";
  spec.zero_load = true;
  spec.trace = {t};
  std::string error;
  const auto noc = make_noc_model(
      boost::json::parse(std::string(R"({"model": ")") + model + "\"" + extra + "}").as_object(),
      traffic_layout(spec), error);
  EXPECT_NE(noc, nullptr) << error;
  if (!noc) return -1;
  spec.link_bytes_per_cycle = noc->peak_link_gbps();
  TrafficResult r;
  EXPECT_TRUE(run_traffic(*noc, spec, r, error)) << error;
  return r.mean;
}

TEST(Booksim2Model, ZeroLoadLatencyIsTheMeshsExactly) {
  REQUIRE_BOOKSIM2();
  // 480 bytes are 20 cycles of a 24 GB/s link at 1 GHz: 60, 40, 20 flits at
  // router_cycles 1, 2, 3. Core 0 to core 15 of a 4x4 mesh: 6 hops, so
  // (6 + 1) * R + 20 cycles in both.
  for (const int r : {1, 2, 3}) {
    const std::string extra = R"(, "router_cycles": )" + std::to_string(r);
    const TracePacket t{0, 0, 15, 480};
    EXPECT_DOUBLE_EQ(alone("mesh", extra, 4, 4, t), 7.0 * r + 20) << r;
    EXPECT_DOUBLE_EQ(alone("booksim2", extra, 4, 4, t), 7.0 * r + 20) << r;
  }
}

TEST(Booksim2Model, APartFlitTakesAWholeCycle) {
  REQUIRE_BOOKSIM2();
  // 500 bytes over one hop at router_cycles 1: the mesh serialises them in
  // ceil(500 / 24 ns) = 20.834 cycles, 2 + 20.834 = 22.834; BookSim runs 3
  // cycles per core cycle with flits of 8 bytes: 63 flits, (1 + 1) * 3 + 63
  // = 69 of its cycles, 23 core cycles.
  const TracePacket t{0, 0, 1, 500};
  EXPECT_DOUBLE_EQ(alone("mesh", R"(, "router_cycles": 1)", 2, 1, t), 22.834);
  EXPECT_DOUBLE_EQ(alone("booksim2", R"(, "router_cycles": 1)", 2, 1, t), 23.0);
}

TEST(Booksim2Model, ASharedLinkGoesToThePacketFirstAtItsRouter) {
  REQUIRE_BOOKSIM2();
  // 3x1 mesh, router_cycles 3 (one BookSim cycle per core cycle), 240-byte
  // packets (10 flits of 24 bytes), both at cycle 0 to core 2: A from core
  // 0 (2 hops), B from core 1 (1 hop); the link (1,0)->(2,0) is shared.
  // The mesh serves its links in the order packets are handed over: A
  // first, 3 * 3 + 10 = 19; B's head waits at (1,0) until A's tail has
  // crossed (16), then 16 + 10 + 3 = 29. BookSim's router (1,0) sees B's
  // head first: B uncontended, 2 * 3 + 10 = 16; A's head, buffered at
  // (1,0), takes the link in the cycle after B's tail, so that the
  // ejection link into core 2 carries the 20 flits back to back from B's
  // head (its tail at 16, its head 9 cycles before): A's tail at 16 + 10 =
  // 26.
  TrafficSpec spec;
  spec.xlen = 3;
  spec.ylen = 1;
  spec.pattern = "trace";
  spec.trace = {{0, 0, 2, 240}, {0, 1, 2, 240}};
  for (const char* model : {"mesh", "booksim2"}) {
    std::string error;
    const auto noc = make_noc_model(
        boost::json::parse(std::string(R"({"router_cycles": 3, "model": ")") + model + "\"}")
            .as_object(),
        traffic_layout(spec), error);
    ASSERT_NE(noc, nullptr) << error;
    spec.link_bytes_per_cycle = noc->peak_link_gbps();
    TrafficResult r;
    ASSERT_TRUE(run_traffic(*noc, spec, r, error)) << error;
    const double first = 2 * r.mean - r.max;
    if (std::string(model) == "mesh") {
      EXPECT_DOUBLE_EQ(first, 19);
      EXPECT_DOUBLE_EQ(r.max, 29);
    } else {
      EXPECT_DOUBLE_EQ(first, 16);
      EXPECT_DOUBLE_EQ(r.max, 26);
    }
  }
}

TEST(Booksim2Model, ADieToDieLinkAddsItsLatencyAsInTheMesh) {
  REQUIRE_BOOKSIM2();
  // 2x1 mesh cut in two, router_cycles 3, D2D links of 2 ns at the NoC's
  // rate: core 0 to core 1 crosses one, (1 + 1) * 3 + 10 + 2 = 18 cycles.
  for (const char* model : {"mesh", "booksim2"}) {
    NocLayout l = grid(2, 1, 240);
    l.x_cut = 2;
    l.d2d_gbps = 24;
    l.d2d_latency = 2000;
    std::string error;
    const auto noc = make_noc_model(
        boost::json::parse(std::string(R"({"router_cycles": 3, "model": ")") + model + "\"}")
            .as_object(),
        l, error);
    ASSERT_NE(noc, nullptr) << model << ": " << error;
    TrafficSpec spec;
    spec.xlen = 2;
    spec.ylen = 1;
    spec.pattern = "trace";
    spec.trace = {{0, 0, 1, 240}};
    spec.link_bytes_per_cycle = noc->peak_link_gbps();
    TrafficResult r;
    ASSERT_TRUE(run_traffic(*noc, spec, r, error)) << error;
    EXPECT_DOUBLE_EQ(r.mean, 18) << model;
  }
}

// A simulation's hardware: `model`, router_cycles 1, 24 GB/s, 480-byte
// packets (20 cycles of a link, 60 flits of 8 bytes in BookSim).
ir::HardwareConfig sim_hw(const std::string& model) {
  ir::ConfigErrors errors;
  auto hw = sim::parse_hw_config(R"({"noc": {"model": ")" + model +
                                R"(", "router_cycles": 1, "link_gbps": 24, "packet_bytes": 480}})",
                            "b.json", errors);
  EXPECT_TRUE(hw.has_value()) << (errors.empty() ? "" : ir::config_text(errors.front()));
  return *hw;
}

TEST(Booksim2Model, ASimulationsTransfersTakeTheMeshsTimeAtZeroLoad) {
  REQUIRE_BOOKSIM2();
  // A 3x1 mesh: core 0 reads 960 bytes from DRAM (a request to its west
  // port, two data packets back) and sends 480 bytes to core 2, which waits
  // for them; the request and the send leave core 0 one after the other in
  // both models, and every packet is a whole number of flits: the same
  // cycles.
  const assembler::Program p = test::parse_programs(
      {".core 0\n"
       "dma_in l2=0 bytes=960 dram=0 transfer=1 dst_box=[0,0,0,0]:[0,0,0,0] "
       "src_box=[0,0,0,0]:[0,0,0,0]\n"
       "noc_send src=0 dst=0 bytes=480 to=2 transfer=3 src_box=[0,0,0,0]:[0,0,0,0] "
       "dst_box=[0,0,0,0]:[0,0,0,0]\n"
       "end\n",
       ".core 2\nwait_token q=pe kind=data transfer=3 from=0 count=1\nend\n"});
  const Report mesh = test::simulate_programs(p, 3, 1, sim_hw("mesh"));
  const Report bs = test::simulate_programs(p, 3, 1, sim_hw("booksim2"));
  EXPECT_GT(mesh.total_cycles, 40);
  EXPECT_EQ(bs.total_cycles, mesh.total_cycles);
  EXPECT_EQ(bs.cores[0].finish_cycles, mesh.cores[0].finish_cycles);
  EXPECT_EQ(bs.noc_packets, mesh.noc_packets);
  EXPECT_EQ(bs.noc_packets, 4);  // the request, two data packets, the send
}

TEST(Booksim2Model, AMulticastGoesAsItsUnicasts) {
  REQUIRE_BOOKSIM2();
  // 480 bytes from core 0 to cores 1 and 2 of a 3x1 mesh as a NoC multicast
  // (members=2), handed to the NoC when the last member issues, at cycle 1.
  // The mesh forks it along the XY tree: core 1's ejection from 3 to 23,
  // core 2's from 4 to 24. BookSim has no multicast: a copy to core 1, 1 +
  // (1 + 1) * 1 + 20 = 23, then, its head leaving after the first copy's
  // tail (cycle 21), a copy to core 2: 21 + (2 + 1) * 1 + 20 = 44.
  const std::string send =
      "noc_send src=0 dst=0 bytes=480 to=%d transfer=3 src_box=[0,0,0,0]:[0,0,0,0] "
      "dst_box=[0,0,0,0]:[0,0,0,0]";
  auto to = [&](int core, const std::string& extra) {
    std::string t = send;
    t.replace(t.find("%d"), 2, std::to_string(core));
    return t + extra + "\n";
  };
  const std::string recv = "wait_token q=pe kind=data transfer=3 from=0 count=1\nend\n";
  const assembler::Program p = test::parse_programs(
      {".core 0\n" + to(1, " members=2") + to(2, " members=2 part=1") + "end\n",
       ".core 1\n" + recv, ".core 2\n" + recv});
  const Report mesh = test::simulate_programs(p, 3, 1, sim_hw("mesh"));
  EXPECT_EQ(mesh.cores[1].finish_cycles, 23);
  EXPECT_EQ(mesh.cores[2].finish_cycles, 24);
  const Report bs = test::simulate_programs(p, 3, 1, sim_hw("booksim2"));
  EXPECT_EQ(bs.cores[1].finish_cycles, 23);
  EXPECT_EQ(bs.cores[2].finish_cycles, 44);
  EXPECT_EQ(bs.noc_packets, 1);  // one packet handed over, sent as two copies
  // The mesh sends it so with multicast_copies (to compare the two).
  ir::ConfigErrors errors;
  const auto copies = sim::parse_hw_config(
      R"({"noc": {"router_cycles": 1, "link_gbps": 24, "packet_bytes": 480, )"
      R"("multicast_copies": true}})",
      "c.json", errors);
  ASSERT_TRUE(copies.has_value());
  const Report mc = test::simulate_programs(p, 3, 1, *copies);
  EXPECT_EQ(mc.cores[1].finish_cycles, 23);
  EXPECT_EQ(mc.cores[2].finish_cycles, 44);
  EXPECT_EQ(mc.noc_packets, 1);
}

TEST(Booksim2Model, ItsParametersAreCheckedAndBookSimsOtherKeysReached) {
  REQUIRE_BOOKSIM2();
  auto build = [](const std::string& json, std::string& error) {
    return make_noc_model(boost::json::parse(json).as_object(), grid(2, 2), error);
  };
  std::string error;
  EXPECT_EQ(build(R"({"model": "booksim2", "num_vcs": 0})", error), nullptr);
  EXPECT_NE(error.find("parameter \"num_vcs\" of component \"noc\" (NoC model \"booksim2\"): "
                       "expected an integer in [1, 64]"),
            std::string::npos)
      << error;
  EXPECT_EQ(build(R"({"model": "booksim2", "vc_allocator": "best"})", error), nullptr);
  EXPECT_NE(error.find("\"vc_allocator\""), std::string::npos) << error;
  EXPECT_EQ(build(R"({"model": "booksim2", "booksim": {"no_such_key": 1}})", error), nullptr);
  EXPECT_NE(error.find("/noc/booksim/no_such_key: parameter \"no_such_key\" of component "
                       "\"noc/booksim\" (NoC model \"booksim2\"): BookSim 2 has no key"),
            std::string::npos)
      << error;
  EXPECT_EQ(build(R"({"model": "booksim2", "booksim": {"injection_rate": 0.5}})", error),
            nullptr);
  EXPECT_NE(error.find("has no effect on the network gemini drives"), std::string::npos) << error;
  EXPECT_EQ(build(R"({"model": "booksim2", "booksim": {"num_vcs": 2}})", error), nullptr);
  EXPECT_NE(error.find("set by gemini, not noc.booksim: noc.num_vcs"), std::string::npos) << error;
  // A value BookSim itself would stop the process on: refused by gemini.
  EXPECT_EQ(build(R"({"model": "booksim2", "booksim": {"buffer_policy": "bogus"}})", error),
            nullptr);
  EXPECT_NE(error.find("expected one of private, shared"), std::string::npos) << error;
  // Keys together that only BookSim can judge: its message, from the child
  // that built the network first.
  EXPECT_EQ(build(R"({"model": "booksim2", "num_vcs": 8, "booksim": {"noq": 1}})", error),
            nullptr);
  EXPECT_NE(error.find("BookSim 2 rejected the configuration: Error in booksim2/router_0_0 : NOQ "
                       "requires lookahead routing to be enabled."),
            std::string::npos)
      << error;
  // Another key reaches BookSim's configuration.
  error.clear();
  const auto ok = build(R"({"model": "booksim2", "booksim": {"vc_busy_when_full": 1}})", error);
  ASSERT_NE(ok, nullptr) << error;
  EXPECT_NE(ok->config_text().find("vc_busy_when_full = 1;"), std::string::npos);
}

TEST(Booksim2Model, OneNetworkPerProcessAtATime) {
  REQUIRE_BOOKSIM2();
  std::string error;
  const boost::json::object noc{{"model", "booksim2"}};
  auto first = make_noc_model(noc, grid(2, 2), error);
  ASSERT_NE(first, nullptr) << error;
  EXPECT_EQ(make_noc_model(noc, grid(2, 2), error), nullptr);
  EXPECT_NE(error.find("one network can exist in a process at a time"), std::string::npos)
      << error;
  first.reset();
  EXPECT_NE(make_noc_model(noc, grid(2, 2), error), nullptr) << error;
}

TEST(Booksim2Model, ABuildWithoutBookSimSaysWhy) {
  std::string why;
  if (booksim2_built(&why)) GTEST_SKIP() << "BookSim 2 is built here";
  std::string error;
  EXPECT_EQ(make_noc_model({{"model", "booksim2"}}, grid(2, 2), error), nullptr);
  EXPECT_NE(error.find("this gemini was built without BookSim 2 (" + why + ")"), std::string::npos)
      << error;
}

}  // namespace
}  // namespace gemini::sim
