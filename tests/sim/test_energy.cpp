// Energy (sim/include/gemini/sim/energy.h): each component pinned by hand on
// small programs -- the events the run counts and what they cost -- and the
// reports' energy fields adding up to their totals.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <sstream>

#include "fixture.h"
#include "gemini/sim/energy.h"
#include "gemini/sim/report.h"
#include "gemini/sim/report_metrics.h"
#include "gemini/sim/sim_config.h"

namespace gemini::sim {
namespace {

// Costs chosen so that every product is exact in binary floating point.
ir::HardwareConfig energy_hw() {
  ir::HardwareConfig hw;
  hw.dram.raw.json = {{"model", "simple"}, {"port_gbps", 1.0}, {"latency_ns", 0}};
  hw.energy.json = {{"mac_pj", 0.5},
                    {"vp_op_pj", 0.25},
                    {"l2_read_pj_per_byte", 2},
                    {"l2_write_pj_per_byte", 4},
                    {"wl0_read_pj_per_byte", 8},
                    {"wl0_write_pj_per_byte", 16},
                    {"al1_read_pj_per_byte", 1},
                    {"al1_write_pj_per_byte", 3},
                    {"ol1_read_pj_per_byte", 5},
                    {"ol1_write_pj_per_byte", 7},
                    {"ol2_read_pj_per_byte", 9},
                    {"ol2_write_pj_per_byte", 11},
                    {"noc_pj_per_byte_hop", 0.125},
                    {"dram_pj_per_byte", 64},
                    {"static_mw_per_core", 0}};
  return hw;
}

std::int64_t n(const Report& r, Event e) { return r.events[static_cast<std::size_t>(e)]; }

// The components add up to the total, per core and per layer too.
void expect_sums(const Report& r) {
  double sum = 0;
  for (double x : r.energy.pj) sum += x;
  EXPECT_EQ(r.energy.total(), sum);
  double cores = 0, layers = r.unattributed.total();
  for (const CoreReport& c : r.cores) cores += c.energy.total();
  for (const LayerReport& l : r.layers) layers += l.energy.total();
  EXPECT_NEAR(cores, r.energy.total(), 1e-9 * r.energy.total());
  EXPECT_NEAR(layers + r.energy[Component::leakage], r.energy.total(), 1e-9 * r.energy.total());
}

const std::string kDmaIn =
    "dma_in l2=0 bytes=512 dram=0 transfer=1 dst_box=[0,0,0,0]:[0,0,0,0] "
    "src_box=[0,0,0,0]:[0,0,0,0]\n";

TEST(Energy, ADmaOfBBytesOverOneHop) {
  // 1x1 mesh: the west port's router is one link from the core's. The read
  // request (16 bytes) and the data (512) each cross it once: 528 byte-hops;
  // DRAM reads 512 bytes, L2 takes 512.
  const Report r = test::simulate_programs(test::parse_programs({".core 0\n" + kDmaIn + "end\n"}),
                                           1, 1, energy_hw());
  EXPECT_EQ(n(r, Event::noc_byte_hop), 528);
  EXPECT_EQ(n(r, Event::dram_byte), 512);
  EXPECT_EQ(n(r, Event::l2_write), 512);
  EXPECT_EQ(n(r, Event::l2_read), 0);
  EXPECT_EQ(r.energy[Component::noc], 528 * 0.125);
  EXPECT_EQ(r.energy[Component::dram], 512 * 64.0);
  EXPECT_EQ(r.energy[Component::l2], 512 * 4.0);
  EXPECT_EQ(r.energy.total(), 66 + 32768 + 2048);
  EXPECT_EQ(r.edp(), r.energy.total() * static_cast<double>(r.total_cycles));
  expect_sums(r);
}

TEST(Energy, StaticPowerPerCoreOverTheRun) {
  // The DMA above ends at 544001 ps: 2 mW for 544.001 ns.
  ir::HardwareConfig hw = energy_hw();
  hw.energy.json["static_mw_per_core"] = 2;
  const Report r = test::simulate_programs(
      test::parse_programs({".core 0\n" + kDmaIn + "end\n", ".core 1\nend\n"}), 2, 1, hw);
  EXPECT_DOUBLE_EQ(r.energy[Component::leakage], 2 * 2 * 544.001);
  EXPECT_DOUBLE_EQ(r.cores[1].energy.total(), 2 * 544.001);
  expect_sums(r);
}

const std::string kSend =
    "noc_send src=0 dst=0 bytes=512 to=%d transfer=3 src_box=[0,0,0,0]:[0,0,0,0] "
    "dst_box=[0,0,0,0]:[0,0,0,0]";
std::string send_to(int core, const std::string& extra) {
  std::string t = kSend;
  t.replace(t.find("%d"), 2, std::to_string(core));
  return t + extra + "\n";
}
const std::string kRecv = "wait_token q=pe kind=data transfer=3 from=0 count=1\nend\n";

TEST(Energy, ASendOverTwoHopsAndTheReceiversL2) {
  // 3x1 mesh, core 0 to core 2: 512 bytes over 2 links; read from core 0's
  // L2, written into core 2's (spent there, caused by the sender).
  const Report r =
      test::simulate_programs(test::parse_programs({".core 0\n" + send_to(2, "") + "end\n",
                                                    ".core 1\nend\n", ".core 2\n" + kRecv}),
                              3, 1, energy_hw());
  EXPECT_EQ(n(r, Event::noc_byte_hop), 1024);
  EXPECT_EQ(n(r, Event::l2_read), 512);
  EXPECT_EQ(n(r, Event::l2_write), 512);
  EXPECT_EQ(r.cores[0].energy[Component::l2], 512 * 2.0);
  EXPECT_EQ(r.cores[0].energy[Component::noc], 1024 * 0.125);
  EXPECT_EQ(r.cores[2].energy[Component::l2], 512 * 4.0);
  EXPECT_EQ(r.cores[1].energy.total(), 0);
  expect_sums(r);
}

TEST(Energy, AMulticastCrossesEachLinkOfItsTreeOnce) {
  // 0 -> {1, 2} on a 3x1 mesh: the tree has 2 links (1024 byte-hops), not
  // the 1 + 2 of two unicasts (1536); each receiver's L2 takes the bytes.
  const auto mc = test::parse_programs(
      {".core 0\n" + send_to(1, " members=2") + send_to(2, " members=2 part=1") + "end\n",
       ".core 1\n" + kRecv, ".core 2\n" + kRecv});
  const Report m = test::simulate_programs(mc, 3, 1, energy_hw());
  EXPECT_EQ(n(m, Event::noc_byte_hop), 1024);
  EXPECT_EQ(n(m, Event::l2_read), 512);
  EXPECT_EQ(n(m, Event::l2_write), 1024);
  const Report u = test::simulate_programs(
      test::parse_programs({".core 0\n" + send_to(1, "") + send_to(2, "") + "end\n",
                            ".core 1\n" + kRecv, ".core 2\n" + kRecv}),
      3, 1, energy_hw());
  EXPECT_EQ(n(u, Event::noc_byte_hop), 1536);
  EXPECT_EQ(n(u, Event::l2_read), 1024);
  expect_sums(m);
}

TEST(Energy, AMulticastDramReadIsPaidOnce) {
  // 2x1 mesh, both cores load the same 512 bytes as one multicast: read
  // once in two stripes of 256 (one per member's port), each forked along
  // 2 links; the requests cross 1 link each: 2 * 256 * 2 + 2 * 16 = 1056.
  const std::string mc =
      "dma_in l2=0 bytes=512 dram=0 transfer=9 dst_box=[0,0,0,0]:[0,0,0,0] "
      "src_box=[0,0,0,0]:[0,0,0,0] members=2\n";
  const Report r = test::simulate_programs(
      test::parse_programs({".core 0\n" + mc + "end\n", ".core 1\n" + mc + "end\n"}), 2, 1,
      energy_hw());
  EXPECT_EQ(n(r, Event::dram_byte), 512);
  EXPECT_EQ(n(r, Event::noc_byte_hop), 1056);
  EXPECT_EQ(r.cores[0].energy[Component::dram], 256 * 64.0);
  EXPECT_EQ(r.cores[1].energy[Component::dram], 256 * 64.0);
  expect_sums(r);
}

TEST(Energy, APeRunsMacsAndBuffersFollowTheStatedDataflow) {
  // An ofmap tile of 16 channels x 8 x 8 from 32 input channels, 3x3
  // kernel, on the default 8 rows x 8 cols x 16 lanes array:
  //   mac = 64 * 16 * 32 * 9 = 294912
  //   al1 read = 64 * 32 * 9 * ceil(16/8) = 36864, al1 write = ifmap 1024
  //   ol1 write = 64 * 16 * 9 * ceil(32/16) = 18432, read = + 64 * 16
  //   ol2 = ofmap 512 each way; L2 reads the ifmap, writes the ofmap.
  const std::string cfg =
      "pe_cfg loop=KNHW cut=none ci_cut=1 mtc0=1 mtk0=1 om_n=1 om_k=1 om_h=1 om_w=1 am_n=1 "
      "am_c=1 am_h=1 am_w=1 pad_t=0 pad_b=0 pad_l=0 pad_r=0 r=3 s=3 stride_h=1 stride_w=1 wl0=0 "
      "gk=16 gc=32 in_h=10 in_w=10 shift=0 chain=1\n";
  const std::string run =
      "pe_run ifmap=0 ifmap_bytes=1024 weight=0 weight_bytes=0 ofmap=4096 ofmap_bytes=512 "
      "ifmap_box=[0,0,0,0]:[0,31,9,9] ofmap_box=[0,0,0,0]:[0,15,7,7]\n";
  const Report r = test::simulate_programs(
      test::parse_programs({".core 0\n" + cfg + run + "end\n"}), 1, 1, energy_hw());
  EXPECT_EQ(n(r, Event::mac), 294912);
  EXPECT_EQ(n(r, Event::al1_read), 36864);
  EXPECT_EQ(n(r, Event::al1_write), 1024);
  EXPECT_EQ(n(r, Event::ol1_write), 18432);
  EXPECT_EQ(n(r, Event::ol1_read), 18432 + 1024);
  EXPECT_EQ(n(r, Event::ol2_read), 512);
  EXPECT_EQ(n(r, Event::ol2_write), 512);
  EXPECT_EQ(n(r, Event::l2_read), 1024);
  EXPECT_EQ(n(r, Event::l2_write), 512);
  EXPECT_EQ(n(r, Event::wl0_read), 16 * 32 * 9);  // held in WL0 (weight_bytes=0)
  EXPECT_EQ(n(r, Event::wl0_write), 0);
  EXPECT_EQ(r.energy[Component::wl0], 4608 * 8.0);
  EXPECT_EQ(r.energy[Component::mac], 294912 * 0.5);
  EXPECT_EQ(r.energy[Component::core_buffers],
            36864 * 1.0 + 1024 * 3.0 + 19456 * 5.0 + 18432 * 7.0 + 512 * 9.0 + 512 * 11.0);
  EXPECT_EQ(r.energy[Component::l2], 1024 * 2.0 + 512 * 4.0);
  EXPECT_EQ(r.energy[Component::noc], 0);
  expect_sums(r);
  // The same run streaming its 4608 bytes of weights from L2 through WL0.
  std::string streamed = run;
  streamed.replace(streamed.find("weight_bytes=0"), 14, "weight_bytes=4608");
  const Report s = test::simulate_programs(
      test::parse_programs({".core 0\n" + cfg + streamed + "end\n"}), 1, 1, energy_hw());
  EXPECT_EQ(n(s, Event::l2_read), 1024 + 4608);
  EXPECT_EQ(n(s, Event::wl0_write), 4608);
  EXPECT_EQ(n(s, Event::wl0_read), 4608);
}

TEST(Energy, TheStatisticsGroupsHoldTheCounters) {
  const Report r = test::simulate_programs(test::parse_programs({".core 0\n" + kDmaIn + "end\n"}),
                                           1, 1, energy_hw());
  auto value = [&](const std::string& group, const std::string& stat) -> std::int64_t {
    for (const StatSnapshot& s : r.stats)
      if (s.name == group)
        for (const StatValue& v : s.values)
          if (v.name == stat) return v.value;
    ADD_FAILURE() << group << "." << stat << " not registered";
    return -1;
  };
  EXPECT_EQ(value("core_0.l2", "write_bytes"), 512);
  EXPECT_EQ(value("core_0", "dram_bytes"), 512);
  EXPECT_EQ(value("noc", "byte_hops"), 528);
  EXPECT_EQ(value("dram_west0", "bytes_read"), 512);
}

TEST(Energy, EveryReportCarriesTheBreakdown) {
  Report r = test::simulate_programs(test::parse_programs({".core 0\n" + kDmaIn + "end\n"}), 1, 1,
                                     energy_hw());
  r.expect_energy_pj = 2 * r.energy.total();
  std::ostringstream text, json, csv;
  print_report(text, r);
  write_report_json(json, r, false);
  write_workload_csv(csv, r);
  EXPECT_NE(text.str().find("energy: 3.4882e+04 pJ"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("simulated / estimate = 0.500"), std::string::npos);
  EXPECT_NE(json.str().find("\"energy_pj\" : {\n    \"total\" : 34882.0,"), std::string::npos)
      << json.str();
  EXPECT_NE(json.str().find("\"noc_byte_hops\" : 528"), std::string::npos);
  EXPECT_NE(json.str().find("\"stats\" : {"), std::string::npos);
  EXPECT_NE(
      csv.str().find("ratio,energy_pj,mac_pj,core_buffers_pj,l2_pj,wl0_pj,noc_pj,d2d_pj,dram_pj\n"),
      std::string::npos)
      << csv.str();
}

TEST(Energy, TheConfigSectionIsValidatedByName) {
  // ir keeps the section raw; the simulator checks it (sim_config.h).
  std::vector<std::string> errors;
  EXPECT_TRUE(ir::parse_hw_config(R"({"energy": {"mac_pj": -1}})", "x.json", errors));
  EXPECT_TRUE(errors.empty());
  EXPECT_TRUE(parse_hw_config(R"({"energy": {"mac_pj": 0.25}})", "x.json", errors));
  EXPECT_FALSE(parse_hw_config(R"({"energy": {"mac_pj": -1}})", "x.json", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("x.json:/energy/mac_pj: parameter \"mac_pj\" of component \"energy\": "
                           "expected a number in [0, 1e+09], got integer -1"),
            std::string::npos)
      << errors[0];
  errors.clear();
  EXPECT_FALSE(parse_hw_config(R"({"energy": {"mac_j": 1}})", "x.json", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("x.json:/energy/mac_j: parameter \"mac_j\" of component \"energy\": "
                           "unknown parameter of component \"energy\" (known: mac_pj, vp_op_pj,"),
            std::string::npos)
      << errors[0];
}

// docs/architecture.md, "An energy component": a new row of the table
// reaches every output without a change there -- the text summary, the
// JSON report (run, cores, layers; the sweep's pointer), the per-workload
// CSV when attributed, and the listing of its cost.
TEST(Energy, EveryConsumerWalksTheTable) {
  const Report r = test::simulate_programs(
      test::parse_programs({".core 0\n" + kDmaIn + "end\n"}), 1, 1, energy_hw());
  std::ostringstream text, json, csv, params;
  print_report(text, r);
  write_report_json(json, r, false);
  write_workload_csv(csv, r);
  print_params(params);
  const boost::json::value v = boost::json::parse(json.str());
  const std::string header = csv.str().substr(0, csv.str().find('\n'));
  for (std::size_t i = 0; i < kComponents; ++i) {
    const auto c = static_cast<Component>(i);
    const std::string name = to_string(c);
    EXPECT_NE(text.str().find(" " + name + " "), std::string::npos) << name;
    boost::json::error_code ec;
    EXPECT_NE(v.find_pointer(energy_component(c).pointer, ec), nullptr) << name;
    EXPECT_NE(v.find_pointer("/cores/0/energy_pj/" + name, ec), nullptr) << name;
    EXPECT_NE(v.find_pointer("/energy_pj/unattributed/" + name, ec), nullptr) << name;
    EXPECT_EQ(header.find("," + name + "_pj") != std::string::npos,
              kComponentTable[i].attributed)
        << name;
  }
  for (const EventInfo& e : kEventTable)
    if (e.cost.key)
      EXPECT_NE(params.str().find(std::string("  ") + e.cost.key + "  "), std::string::npos)
          << e.cost.key;
}

// The worked example of docs/architecture.md, "An energy component": an
// event row's cost parameter is read from the configuration, checked and
// listed from the row alone; every row's and the static one's.
TEST(Energy, EachTableRowDeclaresItsCost) {
  for (std::size_t i = 0; i <= kEvents; ++i) {
    const CostParam& c = i < kEvents ? kEventTable[i].cost : kStaticCost;
    if (!c.key) continue;  // priced by the chiplets' interface (test_chiplets.cpp)
    const std::string key = c.key;
    std::vector<std::string> errors;
    ir::HardwareConfig hw;
    hw.energy.json = {{key, 3.5}};
    const auto costs = read_energy_costs(hw.energy, errors);
    ASSERT_TRUE(costs) << key;
    EXPECT_EQ(i < kEvents ? costs->pj_per_event[i] : costs->static_mw_per_core, 3.5) << key;
    hw.energy.json = {{key, -0.5}};
    EXPECT_FALSE(read_energy_costs(hw.energy, errors)) << key;
    ASSERT_EQ(errors.size(), 1u) << key;
    EXPECT_NE(errors[0].find("/energy/" + key + ": parameter \"" + key + "\""), std::string::npos)
        << errors[0];
    const auto defaults = read_energy_costs(ir::RawComponent{}, errors);
    ASSERT_TRUE(defaults);
    EXPECT_EQ(i < kEvents ? defaults->pj_per_event[i] : defaults->static_mw_per_core, c.fallback);
  }
  std::ostringstream os;
  print_params(os);
  const std::string list = os.str().substr(os.str().find("energy:\n"));
  EXPECT_NE(list.find("  dram_pj_per_byte  number [0, 1e+09], pJ/byte, default 60: "),
            std::string::npos)
      << list;
  EXPECT_NE(list.find("  static_mw_per_core  number [0, 1e+09], mW, default 0: "),
            std::string::npos);
}

}  // namespace
}  // namespace gemini::sim
