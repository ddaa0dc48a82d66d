// The layer roofline (roofline.h) on a hand-made three-core model, every
// link load and port load worked out in the comments; and `gemini sim`
// reporting it.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>

#include "fixture.h"
#include "gemini/sim/roofline.h"

namespace gemini::sim {
namespace {

// A 3x1 mesh: layer "a" on core 0 (predicted 50 cycles) sends its 2400-byte
// ofmap (transfer 10) to layer "b" on cores 1 and 2 (30 cycles each), which
// both take the 1600-byte weight of DRAM out entry 20; core 2 stores its
// 800-byte ofmap to DRAM.
ir::Model model() {
  ir::Model m;
  m.xlen = 3;
  m.ylen = 1;
  auto workload = [](std::int32_t id, const char* layer, std::int64_t time) {
    ir::Workload w;
    w.workload_id = id;
    w.layer_name = layer;
    w.time = time;
    return w;
  };
  ir::Workload a = workload(0, "a", 50);
  ir::Ofmap out;
  out.size = 2400;
  out.transfer_id = 10;
  for (std::int32_t c : {1, 2}) {
    ir::Endpoint e;
    e.core_id = c;
    e.workload_id = c;
    out.destination.push_back(e);
  }
  a.ofmap.push_back(out);
  m.cores.push_back(ir::Core{0, {a}, {}});
  for (std::int32_t c : {1, 2}) {
    ir::Workload b = workload(c, "b", 30);
    ir::Ifmap in;
    in.transfer_id = {10};
    b.ifmap.push_back(in);
    ir::Weight wt;
    wt.transfer_id = {20};
    b.weight = wt;
    if (c == 2) {
      ir::Ofmap store;
      store.size = 800;
      store.transfer_id = 30;
      ir::Endpoint dram;
      dram.type = ir::EndpointType::dram;
      store.destination.push_back(dram);
      b.ofmap.push_back(store);
    }
    m.cores.push_back(ir::Core{c, {b}, {}});
  }
  ir::DramOut w;
  w.size = 1600;
  w.transfer_id = 20;
  w.type = ir::DataType::weight;
  m.dram_out.push_back(w);
  return m;
}

// Ports at the west (-1, 0) and east (3, 0) ends of the row; cores 0 and 1
// use the west one, core 2 the east one; 24 bytes per cycle per link, 8 per
// port.
RooflineInput input(bool multicast, bool interleave = true) {
  RooflineInput in;
  in.xlen = 3;
  in.ylen = 1;
  in.link_bytes_per_cycle = 24;
  in.port_bytes_per_cycle = 8;
  in.ports = {{-1, 0}, {3, 0}};
  in.core_port = {0, 0, 1};
  in.interleave = interleave;
  in.noc_multicast = multicast;
  in.dram_multicast = multicast;
  return in;
}

TEST(Roofline, MulticastTreesLoadEachLinkOnce) {
  const auto r = layer_roofline(model(), input(true));
  ASSERT_EQ(r.size(), 2u);
  // "a" receives and stores nothing: its compute.
  EXPECT_EQ(r[0].name, "a");
  EXPECT_EQ(r[0].bound_cycles(), 50);
  EXPECT_STREQ(r[0].limit(), "compute");
  EXPECT_TRUE(r[0].link.empty());
  // "b": transfer 10 down the tree (0,0)->(1,0)->(2,0), 2400 bytes on each
  // link once; the weight read once in two 800-byte stripes, the west one
  // down (-1,0)->(0,0)->(1,0)->(2,0), the east one (3,0)->(2,0)->(1,0); the
  // store in two 400-byte halves, (2,0)->(1,0)->(0,0)->(-1,0) and
  // (2,0)->(3,0). Most loaded: (0,0)->(1,0) with 2400 + 800 = 3200 bytes
  // (as much as (1,0)->(2,0); the first in link order), ceil(3200 / 24) =
  // 134 cycles. DRAM: 800 + 400 bytes on each port, 1200 / 8 = 150 cycles.
  const LayerRoofline& b = r[1];
  EXPECT_EQ(b.compute_cycles, 30);
  EXPECT_EQ(b.link, "(0,0)->(1,0)");
  EXPECT_EQ(b.link_bytes, 3200);
  EXPECT_EQ(b.link_cycles, 134);
  EXPECT_EQ(b.dram_bytes, 2400);
  EXPECT_EQ(b.dram_cycles, 150);
  EXPECT_EQ(b.bound_cycles(), 150);
  EXPECT_STREQ(b.limit(), "dram");
}

TEST(Roofline, WithoutMulticastEveryReceiverLoadsItsRoute) {
  // Transfer 10 twice over (0,0)->(1,0) (4800), each core's own weight
  // read's west stripe over it too (800 + 800): 6400 bytes, ceil(6400 / 24)
  // = 267 cycles. DRAM: 2 x 1600 read + 800 stored over two ports, 2000
  // each: 250 cycles. The links set the bound.
  const LayerRoofline b = layer_roofline(model(), input(false))[1];
  EXPECT_EQ(b.link, "(0,0)->(1,0)");
  EXPECT_EQ(b.link_bytes, 6400);
  EXPECT_EQ(b.link_cycles, 267);
  EXPECT_EQ(b.dram_bytes, 4000);
  EXPECT_EQ(b.dram_cycles, 250);
  EXPECT_STREQ(b.limit(), "links");
}

TEST(Roofline, WithoutInterleaveEachCoreUsesItsOwnPort) {
  // The weight read once in stripes over the members' own ports (west for
  // core 1, east for core 2): as interleaved on this row. The store goes
  // whole to core 2's east port: 800 + 800 = 1600 bytes there, 200 cycles;
  // 800 on the west port.
  const LayerRoofline b = layer_roofline(model(), input(true, false))[1];
  EXPECT_EQ(b.dram_bytes, 2400);
  EXPECT_EQ(b.dram_cycles, 200);
  EXPECT_EQ(b.link_bytes, 3200);
}

TEST(Roofline, NothingWithoutAMeshOrRates) {
  RooflineInput in = input(true);
  in.link_bytes_per_cycle = 0;
  EXPECT_TRUE(layer_roofline(model(), in).empty());
  in = input(true);
  in.ports.clear();
  EXPECT_TRUE(layer_roofline(model(), in).empty());
}

TEST(Roofline, ATransferWithoutProducerCarriesNothing) {
  ir::Model m = model();
  m.dram_out.clear();  // the weight's entry is gone: only transfer 10 and the store
  const LayerRoofline b = layer_roofline(m, input(true))[1];
  EXPECT_EQ(b.dram_bytes, 800);
  EXPECT_EQ(b.link_bytes, 2400);
}

TEST(Roofline, DieToDieLinksCarryTheirOwnRate) {
  // Cut into three dies of one core, DRAM on the IO die, 12 bytes per cycle
  // over a D2D link: every link of "b" is one. (0,0)->(1,0) carries 3200
  // bytes: ceil(3200 / 12) = 267 cycles, above the port's 150: the links
  // set the bound, on a D2D link. Uncut, the same load took 134.
  RooflineInput in = input(true);
  in.x_cut = 3;
  in.io_die = true;
  in.d2d_bytes_per_cycle = 12;
  const LayerRoofline b = layer_roofline(model(), in)[1];
  EXPECT_EQ(b.link, "(0,0)->(1,0)");
  EXPECT_EQ(b.link_bytes, 3200);
  EXPECT_EQ(b.link_cycles, 267);
  EXPECT_TRUE(b.link_d2d);
  EXPECT_STREQ(b.limit(), "links");
  // The port links alone are D2D when the cut leaves the cores one die: the
  // 3200 bytes on (0,0)->(1,0) at 24 per cycle (134), the west port's 800
  // at 12 (67).
  in.x_cut = 1;
  in.y_cut = 1;
  const LayerRoofline uncut = layer_roofline(model(), in)[1];
  EXPECT_EQ(uncut.link_cycles, 134);
  EXPECT_FALSE(uncut.link_d2d);
}

TEST(Roofline, SegmentsFromTheCoresOrderOfLayers) {
  // Every core runs "a" or "b" first: one segment {a, b}; "a" feeds "b"
  // core to core, so it has 2 stages. Its bound: 2 x its largest layer
  // bound (b's 150) = 300, above its summed link (134) and port (150) time.
  std::vector<SegmentRoofline> segs;
  layer_roofline(model(), input(true), &segs);
  ASSERT_EQ(segs.size(), 1u);
  EXPECT_EQ(segs[0].layers, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(segs[0].stages, 2);
  EXPECT_EQ(segs[0].layer_cycles, 150);
  EXPECT_EQ(segs[0].link_cycles, 134);
  EXPECT_EQ(segs[0].dram_cycles, 150);
  EXPECT_EQ(segs[0].bound_cycles(), 300);
  EXPECT_STREQ(segs[0].limit(), "stages");
  // A second segment: "d" (40 cycles, no traffic) after them on every core.
  ir::Model m = model();
  for (ir::Core& c : m.cores) {
    ir::Workload d;
    d.workload_id = 9;
    d.layer_name = "d";
    d.time = 40;
    c.workloads.push_back(d);
  }
  layer_roofline(m, input(true), &segs);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(segs[1].layers, (std::vector<std::string>{"d"}));
  EXPECT_EQ(segs[1].stages, 1);
  EXPECT_EQ(segs[1].bound_cycles(), 40);
  // A layer at two places (core 0 runs "b" after "a", cores 1 and 2 first):
  // the order gives no segments.
  m = model();
  ir::Workload b2 = m.cores[1].workloads[0];
  m.cores[0].workloads.push_back(b2);
  layer_roofline(m, input(true), &segs);
  EXPECT_TRUE(segs.empty());
}

TEST(Roofline, SimReportsEachLayersBoundAndTheirSum) {
  const auto report = test::temp_path("roofline_report.json");
  const test::CliRun run =
      test::run_gemini("sim " + (test::data_dir() / "set_minimal.json").string() +
                       " --hw set-polar --expect-cycles 1000 --report " + report.string());
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("layer roofline (the scheduler's cost rules, layer by layer): "),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("roofline / estimate = "), std::string::npos) << run.out;
  const boost::json::object r = boost::json::parse(test::read_file(report)).as_object();
  std::int64_t sum = 0;
  for (const auto& l : r.at("layers").as_array()) {
    const auto& roof = l.as_object().at("roofline").as_object();
    const std::int64_t bound = roof.at("bound_cycles").as_int64();
    EXPECT_EQ(bound,
              std::max({roof.at("compute_cycles").as_int64(), roof.at("link_cycles").as_int64(),
                        roof.at("dram_cycles").as_int64()}));
    sum += bound;
  }
  EXPECT_GT(sum, 0);
  EXPECT_EQ(r.at("roofline_cycles_sum").as_int64(), sum);
  // Its segments (every core's first layer, and so on), each bound summed.
  ASSERT_TRUE(r.contains("roofline_segments"));
  std::int64_t segments = 0;
  for (const auto& s : r.at("roofline_segments").as_array()) {
    const auto& o = s.as_object();
    EXPECT_EQ(o.at("bound_cycles").as_int64(),
              std::max({o.at("stages").as_int64() * o.at("layer_cycles").as_int64(),
                        o.at("link_cycles").as_int64(), o.at("dram_cycles").as_int64()}));
    segments += o.at("bound_cycles").as_int64();
  }
  EXPECT_EQ(r.at("roofline_segments_cycles_sum").as_int64(), segments);
}

}  // namespace
}  // namespace gemini::sim
