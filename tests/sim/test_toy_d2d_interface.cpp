// A worked example of adding a D2D interface (docs/architecture.md, "How to
// add"): this file is the whole interface, added to the registry by name
// with its parameters, and its line in tests/CMakeLists.txt is the only
// other change. "toy" prices 5 pJ per byte per D2D link crossed and has a
// PHY of 1234 um^2 per GB/s, its own defaults (the built-ins default to the
// Gemini scheduler's figures; a new interface has none there). The tests:
// it is listed with its defaults, a configuration that selects it
// simulates a cut mesh with its energy, and its PHY area reaches the
// silicon model.
#include <gtest/gtest.h>

#include <sstream>

#include "fixture.h"
#include "gemini/sim/chiplets.h"
#include "gemini/sim/report.h"
#include "gemini/sim/sim_config.h"

namespace gemini::sim {
namespace {

D2dInterface configure(ParamReader& r) {
  D2dInterface d;
  d.pj_per_byte = read_pj_per_byte(r, 5.0, "a test's");
  d.phy_um2_per_gbps = read_phy_um2_per_gbps(r, 1234.0, "a test's");
  return d;
}

const bool kToyAdded =
    (d2d_interfaces().add({"toy", "a test's interface: 5 pJ per byte and link", configure}), true);

TEST(ToyD2dInterface, IsListedWithItsOwnDefaults) {
  ASSERT_TRUE(kToyAdded);
  std::ostringstream os;
  print_params(os);  // reads every interface's parameters: no default may be missing
  const std::string list = os.str();
  const std::size_t at = list.find("chiplets, D2D interface \"toy\": a test's interface");
  ASSERT_NE(at, std::string::npos) << list;
  EXPECT_NE(list.find("  pj_per_byte  number [0, 1e+06], pJ/byte, default 5: ", at),
            std::string::npos)
      << list.substr(at);
  EXPECT_NE(list.find("  phy_um2_per_gbps  number [0, 1e+09], um^2/(GB/s), default 1234: ", at),
            std::string::npos)
      << list.substr(at);
}

// A 2x1 mesh cut into two dies, DRAM on the IO die (test_chiplets.cpp's).
ir::HardwareConfig two_dies() {
  ir::HardwareConfig hw;
  hw.dram.raw.json = {
      {"model", "simple"}, {"port_gbps", 1.0}, {"latency_ns", 0}, {"placement", "io_die"}};
  hw.noc.raw.json = {{"link_gbps", 32}, {"router_cycles", 1}};
  hw.chiplets.json = {{"x_cut", 2}, {"y_cut", 1}, {"d2d_gbps", 16}, {"interface", "toy"}};
  return hw;
}

TEST(ToyD2dInterface, AConfigurationSelectingItPricesTheD2dBytes) {
  std::vector<std::string> errors;
  const auto setup = read_chiplet_setup(two_dies().chiplets, errors);
  ASSERT_TRUE(setup) << (errors.empty() ? "" : errors[0]);
  EXPECT_EQ(setup->interface.name, "toy");
  EXPECT_EQ(setup->interface.pj_per_byte, 5.0);
  EXPECT_EQ(setup->interface.phy_um2_per_gbps, 1234.0);
  // Core 0 reads 512 bytes at the west port over the IO die's D2D link:
  // the request (16 bytes) and the data, 528 D2D byte-hops at 5 pJ.
  ir::HardwareConfig hw = two_dies();
  hw.silicon.json = {{"process_nm", 12}};
  const Report r = test::simulate_programs(
      test::parse_programs({".core 0\ndma_in l2=0 bytes=512 dram=0 transfer=1 "
                            "dst_box=[0,0,0,0]:[0,0,0,0] src_box=[0,0,0,0]:[0,0,0,0]\nend\n",
                            ".core 1\nend\n"}),
      2, 1, hw);
  ASSERT_TRUE(r.chiplets);
  EXPECT_EQ(r.chiplets->interface, "toy");
  EXPECT_EQ(r.events[static_cast<std::size_t>(Event::d2d_byte_hop)], 528);
  EXPECT_DOUBLE_EQ(r.energy[Component::d2d], 528 * 5.0);
  // Its PHY area is on the dies: the same cut with a 10x larger PHY has
  // larger dies.
  ASSERT_TRUE(r.silicon);
  ir::HardwareConfig big = hw;
  big.chiplets.json["phy_um2_per_gbps"] = 12340.0;
  const Report b = test::simulate_programs(
      test::parse_programs({".core 0\nend\n", ".core 1\nend\n"}), 2, 1, big);
  ASSERT_TRUE(b.silicon);
  EXPECT_GT(b.silicon->compute_die_mm2, r.silicon->compute_die_mm2);
}

}  // namespace
}  // namespace gemini::sim
