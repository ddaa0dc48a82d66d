// Chiplets (sim/include/gemini/sim/chiplets.h, docs/chiplets.md): the mesh
// cut into dies joined by die-to-die links. Pinned by hand: a packet's time
// over one and two D2D links, the links a cut makes, the D2D energy per
// byte (USR) and the SerDes lanes' power over a run (XSR), the section's
// errors, and a 1 x 1 cut changing nothing.
#include <gtest/gtest.h>

#include "fixture.h"
#include "gemini/sim/chiplets.h"
#include "gemini/sim/mesh_noc.h"
#include "gemini/sim/report.h"
#include "gemini/sim/sim_config.h"

namespace gemini::sim {
namespace {

// 4x4 mesh, on-chip links of 32 GB/s (31.25 ps per byte: a 512-byte packet
// serialises in 16000 ps), 1000 ps per router, cut into 2 x 2 dies with D2D
// links of 16 GB/s (32000 ps per packet) and 5000 ps of flight.
MeshNoc cut_mesh() {
  MeshNoc m(4, 4, 32.0, 1000);
  m.set_chiplets(2, 2, false, 16.0, 5000);
  return m;
}

TEST(Chiplets, APacketOverOneDieBoundary) {
  MeshNoc m = cut_mesh();
  // (0,0) -> (3,0): inject [0, 16000]; (0,0)->(1,0) from its header at
  // 1000 until max(1000 + 16000, tail 16000 + 1000) = 17000; the D2D link
  // (1,0)->(2,0) from 2000 for 32000: its tail is out at 34000 and over
  // the link 5000 later, 39000; its header reaches (2,0) at 2000 + 1000 +
  // 5000 = 8000. Then (2,0)->(3,0) from 8000 until the tail passes at
  // 39000 + 1000 = 40000, and the ejection until 41000.
  const NocModel::Timing t = m.send(0, 0, 3, 512);
  EXPECT_EQ(t.arrived, 41000);
  EXPECT_EQ(t.links, 3);
  EXPECT_EQ(t.d2d_links, 1);
  // The same packet on one die: (h + 1) * router + ser = 4000 + 16000.
  MeshNoc one(4, 4, 32.0, 1000);
  EXPECT_EQ(one.send(0, 0, 3, 512).arrived, 20000);
  EXPECT_EQ(one.send(0, 0, 3, 512).d2d_links, 0);
}

TEST(Chiplets, APacketOverTwoDieBoundaries) {
  MeshNoc m = cut_mesh();
  // (0,0) -> (3,3), X first: as above to (3,0), whose link south starts at
  // its header, 9000, and ends when the tail passes, 41000; the D2D link
  // (3,1)->(3,2) from 10000 until max(10000 + 32000, 41000 + 1000) =
  // 42000, the tail over it at 47000, the header at (3,2) at 16000; then
  // (3,2)->(3,3) until 48000 and the ejection until 49000.
  const NocModel::Timing t = m.send(0, 0, 15, 512);
  EXPECT_EQ(t.arrived, 49000);
  EXPECT_EQ(t.links, 6);
  EXPECT_EQ(t.d2d_links, 2);
  // Energy: 512 bytes x 2 D2D links, 512 x 4 on-chip.
  std::int64_t d2d = 0;
  for (const auto& l : m.d2d_link_loads()) d2d += l.bytes;
  EXPECT_EQ(d2d, 2 * 512);
  EXPECT_EQ(m.d2d_link_use().links, 16);  // 4 rows x 1 cut x 2 + 4 columns x 1 cut x 2
}

TEST(Chiplets, AMulticastCrossesEachD2dLinkOfItsTreeOnce) {
  MeshNoc m = cut_mesh();
  // (0,0) to (2,0) and (3,0): one tree along row 0, over the D2D link
  // (1,0)->(2,0) once.
  const NocModel::MulticastTiming t = m.multicast(0, 0, {2, 3}, 512);
  EXPECT_EQ(t.links, 3);
  EXPECT_EQ(t.d2d_links, 1);
  EXPECT_EQ(t.arrived[1], 41000);  // as the unicast above
}

TEST(Chiplets, TheIoDieLinksAreD2dLinksOnACutMesh) {
  // Ports at the west and east end of each of the 4 rows; with io_die
  // every port's link into the mesh (both directions) is a D2D link too.
  MeshNoc m(4, 4, 32.0, 1000);
  std::vector<NodePos> ports;
  for (std::int32_t y = 0; y < 4; ++y) {
    ports.push_back({-1, y});
    ports.push_back({4, y});
  }
  m.place_ports(ports);
  m.set_chiplets(2, 2, true, 16.0, 0);
  EXPECT_EQ(m.d2d_link_use().links, 16 + 16);
  EXPECT_EQ(m.send(0, m.port_node(0), 0, 64).d2d_links, 1);  // west port of row 0 -> (0,0)
  MeshNoc no_io(4, 4, 32.0, 1000);
  no_io.place_ports(ports);
  no_io.set_chiplets(2, 2, false, 16.0, 0);
  EXPECT_EQ(no_io.send(0, no_io.port_node(0), 0, 64).d2d_links, 0);
}

// A 2x1 mesh cut into two dies, DRAM on the IO die: links (-1,0)<->(0,0),
// (0,0)<->(1,0) and (1,0)<->(2,0), 6 directional D2D links.
ir::HardwareConfig two_dies(const std::string& interface) {
  ir::HardwareConfig hw;
  hw.dram.raw.json = {
      {"model", "simple"}, {"port_gbps", 1.0}, {"latency_ns", 0}, {"placement", "io_die"}};
  hw.noc.raw.json = {{"link_gbps", 32}, {"router_cycles", 1}};
  hw.chiplets.json = {{"x_cut", 2}, {"y_cut", 1}, {"d2d_gbps", 16}, {"interface", interface}};
  return hw;
}

const std::string kDmaIn =
    "dma_in l2=0 bytes=512 dram=0 transfer=1 dst_box=[0,0,0,0]:[0,0,0,0] "
    "src_box=[0,0,0,0]:[0,0,0,0]\n";

TEST(Chiplets, UsrPricesEachByteOverEachD2dLink) {
  // Core 0 reads 512 bytes at the west port: the request (16 bytes) and
  // the data cross the IO die's D2D link once each: 528 D2D byte-hops at
  // the USR default 2.4 pJ/bit = 19.2 pJ/byte, and no on-chip hop.
  const Report r = test::simulate_programs(
      test::parse_programs({".core 0\n" + kDmaIn + "end\n", ".core 1\nend\n"}), 2, 1,
      two_dies("USR"));
  ASSERT_TRUE(r.chiplets);
  EXPECT_EQ(r.chiplets->links, 6);
  EXPECT_EQ(r.chiplets->lanes_per_link, 0);
  EXPECT_EQ(r.events[static_cast<std::size_t>(Event::d2d_byte_hop)], 528);
  EXPECT_EQ(r.events[static_cast<std::size_t>(Event::noc_byte_hop)], 0);
  EXPECT_DOUBLE_EQ(r.energy[Component::d2d], 528 * 19.2);
  EXPECT_DOUBLE_EQ(r.energy[Component::noc], 0);
  double layers = r.unattributed.total();
  for (const LayerReport& l : r.layers) layers += l.energy.total();
  EXPECT_NEAR(layers, r.energy.total(), 1e-9 * r.energy.total());
}

TEST(Chiplets, XsrLanesBurnTheirPowerForTheWholeRun) {
  // 16 GB/s = 128 Gbit/s a direction needs ceil(128 / 112) = 2 lanes of
  // 112 Gbit/s; 6 links x 2 lanes x 97.44 mW = 1169.28 mW, for the whole
  // run whatever crosses, no workload's (unattributed).
  const Report r = test::simulate_programs(
      test::parse_programs({".core 0\n" + kDmaIn + "end\n", ".core 1\nend\n"}), 2, 1,
      two_dies("XSR"));
  ASSERT_TRUE(r.chiplets);
  EXPECT_EQ(r.chiplets->lanes_per_link, 2);
  EXPECT_DOUBLE_EQ(r.chiplets->static_mw, 1169.28);
  const double ns = static_cast<double>(r.total_cycles);         // 1 GHz
  EXPECT_NEAR(r.energy[Component::d2d], 1169.28 * ns, 1169.28);  // within one cycle
  EXPECT_DOUBLE_EQ(r.unattributed[Component::d2d], r.energy[Component::d2d]);
}

TEST(Chiplets, OneDieChangesNothing) {
  ir::HardwareConfig hw = two_dies("XSR");
  hw.chiplets.json["x_cut"] = 1;
  const auto programs = test::parse_programs({".core 0\n" + kDmaIn + "end\n", ".core 1\nend\n"});
  const Report one = test::simulate_programs(programs, 2, 1, hw);
  hw.chiplets.json = {};
  const Report none = test::simulate_programs(programs, 2, 1, hw);
  EXPECT_FALSE(one.chiplets);
  EXPECT_EQ(one.total_cycles, none.total_cycles);
  EXPECT_EQ(one.energy.total(), none.energy.total());
  EXPECT_EQ(one.energy[Component::d2d], 0);
}

TEST(Chiplets, BadSectionsAreErrorsNamingTheParameter) {
  ir::ConfigErrors errors;
  ir::HardwareConfig hw;
  hw.chiplets = {{{"x_cut", 0}}, "hw.json", "/chiplets"};
  EXPECT_FALSE(read_chiplet_setup(hw.chiplets, errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(ir::config_text(errors[0]).find("hw.json:/chiplets/x_cut: parameter \"x_cut\""),
            std::string::npos)
      << ir::config_text(errors[0]);
  errors.clear();
  hw.chiplets.json = {{"interface", "USR"}, {"lane_mw", 90}};
  EXPECT_FALSE(read_chiplet_setup(hw.chiplets, errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(ir::config_text(errors[0]).find("lane_mw"), std::string::npos)
      << ir::config_text(errors[0]);
  EXPECT_NE(ir::config_text(errors[0]).find("XSR"), std::string::npos)
      << ir::config_text(errors[0]);  // the interface that has it
  errors.clear();
  hw.chiplets.json = {{"interface", "PCIe"}};
  EXPECT_FALSE(read_chiplet_setup(hw.chiplets, errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(ir::config_text(errors[0]).find("XSR, USR, UCIe"), std::string::npos)
      << ir::config_text(errors[0]);
  // A cut that does not divide the mesh.
  hw.chiplets.json = {{"x_cut", 3}};
  const auto s = read_chiplet_setup(hw.chiplets, errors);
  ASSERT_TRUE(s);
  std::string error;
  EXPECT_FALSE(check_cut(*s, 4, 4, error));
  EXPECT_EQ(error, "chiplets.x_cut = 3 does not divide the mesh's 4 columns into equal dies");
}

}  // namespace
}  // namespace gemini::sim
