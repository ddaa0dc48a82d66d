// Power over time (sim/include/gemini/sim/power.h), worked by hand on small
// programs: a MAC burst of known energy over its known time gives a known
// peak in its window; the package's windows add up to the run's energy;
// static power (leakage, SerDes lanes) is the constant it is, split over
// the dies the way the header says; a window too short for the run is
// widened and said so; the CSV, JSON and trace carry it only when asked.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <algorithm>
#include <sstream>

#include "fixture.h"
#include "gemini/sim/power.h"
#include "gemini/sim/report.h"
#include "gemini/sim/report_metrics.h"
#include "gemini/sim/simulator.h"

namespace fs = std::filesystem;

namespace gemini::sim {
namespace {

// Only the MACs cost energy: 0.5 pJ each.
ir::HardwareConfig mac_only_hw() {
  ir::HardwareConfig hw;
  hw.dram.raw.json = {{"model", "simple"}, {"port_gbps", 1.0}, {"latency_ns", 0}};
  hw.energy.json = {{"mac_pj", 0.5}, {"vp_op_pj", 0}, {"l2_read_pj_per_byte", 0},
                    {"l2_write_pj_per_byte", 0}, {"wl0_read_pj_per_byte", 0},
                    {"wl0_write_pj_per_byte", 0}, {"al1_read_pj_per_byte", 0},
                    {"al1_write_pj_per_byte", 0}, {"ol1_read_pj_per_byte", 0},
                    {"ol1_write_pj_per_byte", 0}, {"ol2_read_pj_per_byte", 0},
                    {"ol2_write_pj_per_byte", 0}, {"noc_pj_per_byte_hop", 0},
                    {"dram_pj_per_byte", 0}, {"static_mw_per_core", 0}};
  return hw;
}

// One pe_run of 64 x 16 output elements from 32 channels, 3x3 kernel:
// 294,912 MACs = 147,456 pJ. On the default 8 x 8 x 16 array it takes
// ceil(64/8) x ceil(16/8) x ceil(32/16) x 9 = 288 cycles + 16 of pipeline;
// after its pe_cfg (4 cycles) it runs from 4 to 308 ns at 1 GHz, and the
// core is done at 308 ns.
const std::string kBurst =
    "pe_cfg loop=KNHW cut=none ci_cut=1 mtc0=1 mtk0=1 om_n=1 om_k=1 om_h=1 om_w=1 am_n=1 "
    "am_c=1 am_h=1 am_w=1 pad_t=0 pad_b=0 pad_l=0 pad_r=0 r=3 s=3 stride_h=1 stride_w=1 wl0=0 "
    "gk=16 gc=32 in_h=10 in_w=10 shift=0 chain=1\n"
    "pe_run ifmap=0 ifmap_bytes=1024 weight=0 weight_bytes=0 ofmap=4096 ofmap_bytes=512 "
    "ifmap_box=[0,0,0,0]:[0,31,9,9] ofmap_box=[0,0,0,0]:[0,15,7,7]\n";
constexpr double kBurstPj = 294912 * 0.5;
constexpr double kBurstPs = 304000;  // 4 to 308 ns

SimOptions with_power(double window_ns) {
  SimOptions o;
  o.power.enabled = true;
  o.power.window_ns = window_ns;
  return o;
}

Report burst(const ir::HardwareConfig& hw, double window_ns, std::int32_t cores = 1) {
  std::vector<std::string> programs{".core 0\n" + kBurst + "end\n"};
  for (std::int32_t c = 1; c < cores; ++c) programs.push_back(".core " + std::to_string(c) + "\nend\n");
  return test::simulate_programs(test::parse_programs(programs), cores, 1, hw,
                                 with_power(window_ns));
}

double window_pj(const PowerScope& s, std::size_t w) { return s.windows.at(w).total(); }

}  // namespace

TEST(Power, AMacBurstSpreadOverItsTimeGivesItsPeakInItsWindows) {
  const Report r = burst(mac_only_hw(), 100);
  ASSERT_TRUE(r.power);
  const PowerReport& p = *r.power;
  EXPECT_EQ(r.total_cycles, 308);
  EXPECT_EQ(p.window_ns, 100);
  ASSERT_EQ(p.windows, 4);  // [0,100) [100,200) [200,300) [300,308)
  EXPECT_DOUBLE_EQ(p.end_ns, 308);
  const PowerScope& core = p.cores.at(0);
  // 96, 100, 100 and 8 ns of the burst's 304.
  EXPECT_NEAR(window_pj(core, 0), kBurstPj * 96 / 304, 1e-6);
  EXPECT_NEAR(window_pj(core, 1), kBurstPj * 100 / 304, 1e-6);
  EXPECT_NEAR(window_pj(core, 3), kBurstPj * 8 / 304, 1e-6);
  EXPECT_EQ(core.windows[1].pj[static_cast<std::size_t>(Component::mac)], window_pj(core, 1));
  // Peak: the burst's own power, 147456 pJ / 304000 ps = 0.48505 W, in a
  // window the burst fills (the last one is 8 ns long, all burst too).
  EXPECT_NEAR(p.package.peak_w, kBurstPj / kBurstPs, 1e-12);
  EXPECT_GE(p.package.peak_window, 1);
  // Average: its energy over the whole run (308 ns).
  EXPECT_NEAR(p.package.average_w, kBurstPj / 308000, 1e-12);
  EXPECT_NEAR(p.package.energy_pj, r.energy.total(), 1e-9 * r.energy.total());
  // One die, the core's; no DRAM energy.
  ASSERT_EQ(p.dies.size(), 1u);
  EXPECT_NEAR(p.dies[0].peak_w, p.package.peak_w, 1e-12);
  EXPECT_EQ(p.dram.energy_pj, 0);
  EXPECT_FALSE(p.io_die);
  // One window longer than the run: the run's average is its peak.
  const Report one = burst(mac_only_hw(), 1000);
  ASSERT_EQ(one.power->windows, 1);
  EXPECT_NEAR(one.power->package.peak_w, kBurstPj / 308000, 1e-12);
}

TEST(Power, StaticPowerIsAConstantInEveryWindow) {
  // 2 mW of leakage per core, two cores: 4 mW on top of the burst in every
  // window, the package's energy still the report's.
  ir::HardwareConfig hw = mac_only_hw();
  hw.energy.json["static_mw_per_core"] = 2;
  const Report r = burst(hw, 100, 2);
  const PowerReport& p = *r.power;
  EXPECT_DOUBLE_EQ(p.package.static_w, 0.004);
  EXPECT_NEAR(p.package.peak_w, kBurstPj / kBurstPs + 0.004, 1e-12);
  EXPECT_NEAR(p.package.average_w, kBurstPj / 308000 + 0.004, 1e-12);
  EXPECT_NEAR(p.package.energy_pj, r.energy.total(), 1e-9 * r.energy.total());
  // The idle core: its leakage alone, 2 mW in every window.
  const PowerScope& idle = p.cores.at(1);
  EXPECT_DOUBLE_EQ(idle.peak_w, 0.002);
  EXPECT_NEAR(window_pj(idle, 3), 0.002 * 8000, 1e-9);
  EXPECT_EQ(idle.windows[0].pj[static_cast<std::size_t>(Component::mac)], 0);
}

TEST(Power, TheSerdesLanesAreSplitOverTheDiesTheyJoin) {
  // A 2x1 mesh cut into two dies with DRAM on the IO die: 6 directional
  // D2D links (chiplets.h), each of ceil(16 x 8 / 112) = 2 XSR lanes of
  // 97.44 mW: 0.19488 W a link, half to each end. Die 0 has the ends of
  // (-1,0)<->(0,0) and (0,0)<->(1,0): 4 halves = 0.38976 W; die 1 the same;
  // the IO die its 4 halves of the port links; the package all 6 links.
  ir::HardwareConfig hw = mac_only_hw();
  hw.dram.raw.json["placement"] = "io_die";
  hw.chiplets.json = {{"x_cut", 2}, {"y_cut", 1}, {"d2d_gbps", 16}, {"interface", "XSR"}};
  const Report r = burst(hw, 100, 2);
  const PowerReport& p = *r.power;
  ASSERT_EQ(p.dies.size(), 2u);
  ASSERT_TRUE(p.io_die);
  EXPECT_NEAR(p.dies[0].static_w, 0.38976, 1e-12);
  EXPECT_NEAR(p.dies[1].static_w, 0.38976, 1e-12);
  EXPECT_NEAR(p.io_die->static_w, 0.38976, 1e-12);
  EXPECT_NEAR(p.package.static_w, r.chiplets->static_mw / 1000, 1e-12);
  EXPECT_NEAR(p.package.static_w, 6 * 0.19488, 1e-12);
  // The lanes are the d2d component; the burst is die 0's alone.
  EXPECT_NEAR(p.dies[0].peak_w, kBurstPj / kBurstPs + 0.38976, 1e-12);
  EXPECT_NEAR(p.dies[1].peak_w, 0.38976, 1e-12);
  EXPECT_EQ(p.hottest_die(), &p.dies[0]);
  EXPECT_NEAR(p.package.energy_pj, r.energy.total(), 1e-9 * r.energy.total());
  EXPECT_NEAR(p.package.windows[3].pj[static_cast<std::size_t>(Component::d2d)],
              6 * 0.19488 * 8000, 1e-6);
}

TEST(Power, DramBytesAreSpentWhenThePortMovesThem) {
  // A 512-byte read at a 1 GB/s port: the bytes reach the core at 544 ns
  // (tests/sim/test_energy.cpp), the port moving them from the request's
  // arrival; their 512 x 64 pJ are in the window of the port's delivery,
  // not in the first (where the request reached the port).
  ir::HardwareConfig hw = mac_only_hw();
  hw.energy.json["dram_pj_per_byte"] = 64;
  const Report r = test::simulate_programs(
      test::parse_programs({".core 0\ndma_in l2=0 bytes=512 dram=0 transfer=1 "
                            "dst_box=[0,0,0,0]:[0,0,0,0] src_box=[0,0,0,0]:[0,0,0,0]\nend\n"}),
      1, 1, hw, with_power(100));
  const PowerReport& p = *r.power;
  EXPECT_DOUBLE_EQ(p.dram.energy_pj, 512 * 64.0);
  EXPECT_EQ(window_pj(p.dram, 0), 0);
  EXPECT_EQ(window_pj(p.dram, 5), 512 * 64.0);  // [500, 544): the delivery
  EXPECT_EQ(p.dram.peak_window, 5);
  EXPECT_EQ(p.dies[0].energy_pj, 0) << "DRAM is no die's";
}

TEST(Power, TheDefaultWindowCutsTheRunIntoAtMost200) {
  // 10 ns x 2^k: 10 ns cuts 308 ns into 31 windows.
  const Report r = burst(mac_only_hw(), 0);
  EXPECT_EQ(r.power->window_ns, 10);
  EXPECT_EQ(r.power->windows, 31);
  EXPECT_FALSE(r.power->widened);
  EXPECT_NEAR(r.power->package.peak_w, kBurstPj / kBurstPs, 1e-12);
}

TEST(Power, AWindowTooShortForTheRunIsWidenedAndSaidSo) {
  // 4 cores x 1-ps windows over 308 ns would pass kMaxPowerCells (2^20):
  // 262,144 windows a core at most, so the window doubles to 2 ps.
  const Report r = burst(mac_only_hw(), 0.001, 4);
  const PowerReport& p = *r.power;
  EXPECT_TRUE(p.widened);
  EXPECT_DOUBLE_EQ(p.window_ns, 0.002);
  EXPECT_EQ(p.windows, 154000);
  EXPECT_NEAR(p.package.energy_pj, r.energy.total(), 1e-9 * r.energy.total());
  EXPECT_NEAR(p.package.peak_w, kBurstPj / kBurstPs, 1e-9);
}

TEST(Power, OnlyARunThatAsksHasIt) {
  const auto programs = test::parse_programs({".core 0\n" + kBurst + "end\n"});
  const Report off = test::simulate_programs(programs, 1, 1, mac_only_hw());
  EXPECT_FALSE(off.power);
  std::ostringstream text, json_off, csv;
  print_report(text, off);
  EXPECT_EQ(text.str().find("power over time"), std::string::npos);
  write_report_json(json_off, off, false);
  EXPECT_FALSE(boost::json::parse(json_off.str()).as_object().contains("power"));
  // With it: the text table, the JSON section, the CSV and the trace.
  const fs::path trace = test::temp_path("power.trace.json");
  SimOptions o = with_power(100);
  o.trace_path = trace.string();
  const Report on = test::simulate_programs(programs, 1, 1, mac_only_hw(), o);
  std::ostringstream text_on, json_on;
  print_report(text_on, on);
  EXPECT_NE(text_on.str().find("power over time (4 windows of 100 ns"), std::string::npos)
      << text_on.str();
  write_report_json(json_on, on, false);
  const boost::json::value j = boost::json::parse(json_on.str());
  EXPECT_EQ(j.at_pointer("/power/windows"), 4);
  EXPECT_NEAR(j.at_pointer("/power/package/peak_w").as_double(), kBurstPj / kBurstPs, 1e-12);
  EXPECT_EQ(j.at_pointer("/power/package/series_w").as_array().size(), 4u);
  // The figures the sweep reads, each at its declared pointer.
  auto at = [&](const auto& m) {
    const boost::json::value& v = j.at_pointer(m.pointer);
    EXPECT_DOUBLE_EQ(v.to_number<double>(), m.read(*on.power)) << m.key;
  };
  at(metric::power_peak_w);
  at(metric::power_average_w);
  at(metric::die_power_peak_w);
  at(metric::die_power_average_w);
  at(metric::power_window_ns);
  write_power_csv(csv, on);
  const std::string c = csv.str();
  EXPECT_EQ(c.rfind("window,start_ns,end_ns,scope,id,total_w,mac_w,", 0), 0u) << c;
  // 4 windows x (package, dram, die 0, core 0) and the header.
  EXPECT_EQ(std::count(c.begin(), c.end(), '\n'), 17);
  EXPECT_NE(c.find("\n3,300.000,308.000,core,0,"), std::string::npos) << c;
  const boost::json::value t = boost::json::parse(test::read_file(trace));
  std::size_t counters = 0;
  for (const boost::json::value& e : t.at("traceEvents").as_array())
    counters += e.at("ph") == "C";
  // (package, dram, die 0, core 0) x (4 windows + the end's 0).
  EXPECT_EQ(counters, 4u * 5);
}

}  // namespace gemini::sim
