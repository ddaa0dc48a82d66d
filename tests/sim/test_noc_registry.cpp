// The NoC models registered by name (sim/src/noc_model.cpp): the table lists
// them, an unknown name is an error naming it, and the registered mesh times
// packets exactly as a MeshNoc built directly.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "gemini/sim/mesh_noc.h"
#include "gemini/sim/noc_model.h"

namespace gemini::sim {
namespace {

TEST(NocRegistry, ListsEveryModelAndBuildsItByName) {
  const std::vector<std::string> names = noc_model_names();
  ASSERT_EQ(names, (std::vector<std::string>{"mesh"}));
  for (const std::string& name : names) EXPECT_EQ(make_noc_model(name, {})->name(), name);
}

TEST(NocRegistry, AnUnknownNameIsAnErrorNamingIt) {
  try {
    make_noc_model("torus", {});
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("\"torus\""), std::string::npos) << e.what();
  }
}

TEST(NocRegistry, TheRegisteredMeshTimesLikeADirectOne) {
  // 3x2 mesh, 1 byte/ns, 500 ps routers, 1-packet buffers: contention and
  // backpressure both matter.
  const NocParams p{3, 2, 1.0, 500, 1};
  MeshNoc direct(p.xlen, p.ylen, p.link_gbps, p.router_ps, p.buffer_packets);
  const auto reg = make_noc_model("mesh", p);
  ASSERT_EQ(reg->port_node(1, true), direct.port_node(1, true));
  for (NocModel* n : {static_cast<NocModel*>(&direct), reg.get()}) n->set_eject_ps_per_byte(4, 2.0);
  const Tick ts[] = {0, 10, 10, 700};
  const std::int32_t srcs[] = {0, 0, 5, direct.port_node(0, false)};
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
