// The NoC models registered by name (sim/src/noc_model.cpp): the registry
// lists them, an unknown name is an error naming it, and the registered mesh
// times packets exactly as a MeshNoc built directly.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gemini/sim/booksim2_config.h"
#include "gemini/sim/mesh_noc.h"
#include "gemini/sim/noc_model.h"

namespace gemini::sim {
namespace {

// A 3x2 mesh with a DRAM port at both ends of each row.
NocLayout layout_3x2(Tick period) {
  NocLayout l;
  l.xlen = 3;
  l.ylen = 2;
  l.period = period;
  for (std::int32_t y = 0; y < 2; ++y)
    for (std::int32_t x : {-1, 3}) l.ports.push_back({x, y});
  return l;
}

TEST(NocRegistry, ListsEveryModelAndBuildsItByName) {
  const std::vector<std::string> names = noc_model_names();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names[0], "mesh");
  for (const std::string& name : names) {
    std::string error;
    const auto model = make_noc_model({{"model", name}}, layout_3x2(1000), error);
    if (name == "booksim2" && !booksim2_built()) {  // it says why (test_booksim2.cpp)
      EXPECT_EQ(model, nullptr);
      EXPECT_NE(error.find("built without BookSim 2"), std::string::npos) << error;
      continue;
    }
    ASSERT_NE(model, nullptr) << name << ": " << error;
    EXPECT_EQ(model->name(), name);
  }
}

TEST(NocRegistry, AnUnknownNameIsAnErrorNamingIt) {
  std::string error;
  EXPECT_EQ(make_noc_model({{"model", "torus"}}, layout_3x2(1000), error), nullptr);
  EXPECT_NE(error.find("/noc/model: parameter \"model\" of component \"noc\": expected one of "
                       "mesh"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("got string \"torus\""), std::string::npos) << error;
}

TEST(NocRegistry, TheRegisteredMeshTimesLikeADirectOne) {
  // 3x2 mesh, 1 byte/ns, 500 ps routers (2 cycles of 250 ps), 1-packet
  // buffers: contention and backpressure both matter.
  MeshNoc direct(3, 2, 1.0, 500, 1);
  std::string error;
  const auto reg = make_noc_model({{"link_gbps", 1.0}, {"router_cycles", 2}, {"buffer_packets", 1}},
                                  layout_3x2(250), error);
  ASSERT_NE(reg, nullptr) << error;
  // Port 3 is the east end of row 1.
  ASSERT_EQ(reg->port_node(3), direct.edge_node(1, true));
  ASSERT_EQ(reg->port_node(0), direct.edge_node(0, false));
  for (NocModel* n : {static_cast<NocModel*>(&direct), reg.get()}) n->set_eject_ps_per_byte(4, 2.0);
  const Tick ts[] = {0, 10, 10, 700};
  const std::int32_t srcs[] = {0, 0, 5, direct.edge_node(0, false)};
  const std::int32_t dsts[] = {2, 4, 4, 5};
  for (int i = 0; i < 4; ++i) {
    const NocModel::Timing a = direct.send(ts[i], srcs[i], dsts[i], 64);
    const NocModel::Timing b = reg->send(ts[i], srcs[i], dsts[i], 64);
    EXPECT_EQ(a.injected, b.injected) << i;
    EXPECT_EQ(a.arrived, b.arrived) << i;
    EXPECT_EQ(a.links, b.links) << i;
  }
  const NocModel::MulticastTiming ma = direct.multicast(900, 1, {3, 5}, 32);
  const NocModel::MulticastTiming mb = reg->multicast(900, 1, {3, 5}, 32);
  EXPECT_EQ(ma.injected, mb.injected);
  EXPECT_EQ(ma.arrived, mb.arrived);
  EXPECT_EQ(ma.links, mb.links);
  EXPECT_EQ(direct.packets(), reg->packets());
  EXPECT_EQ(direct.bytes(), reg->bytes());
  EXPECT_EQ(direct.router_link_use().max_busy, reg->router_link_use().max_busy);
}

}  // namespace
}  // namespace gemini::sim
