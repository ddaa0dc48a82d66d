// The simulator's part of a hardware configuration (gemini/sim/sim_config.h):
// the `dram` and `noc` components, read with the declarations of the ports,
// the NoC and their registered models; errors name the file, the JSON
// pointer, the component, the model and the parameter.
#include <gtest/gtest.h>

#include <filesystem>

#include "fixture.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/dram_timing.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/sim_config.h"

namespace gemini::sim {
namespace {

// All errors of a configuration's text, one per line ("" when it loads).
std::string errors_of(const std::string& text) {
  ir::ConfigErrors e;
  const bool ok = sim::parse_hw_config(text, "t.json", e).has_value();
  std::string s;
  for (const ir::Diagnostic& x : e) s += ir::config_text(x) + "\n";
  EXPECT_EQ(ok, e.empty()) << s;
  return s;
}

std::optional<DramSetup> dram_of(const std::string& section) {
  ir::ConfigErrors e;
  auto hw = ir::parse_hw_config(R"({"dram": )" + section + "}", "t.json", e);
  return hw ? read_dram_setup(hw->dram.raw, e) : std::nullopt;
}

TEST(SimConfig, DefaultsAreTheSimpleDramAndTheMesh) {
  ir::ConfigErrors e;
  const auto dram = read_dram_setup(ir::HardwareConfig{}.dram.raw, e);
  const auto noc = read_noc_setup(ir::HardwareConfig{}.noc.raw, e);
  ASSERT_TRUE(dram && noc) << (e.empty() ? "" : ir::config_text(e[0]));
  EXPECT_EQ(dram->model, "simple");
  EXPECT_EQ(dram->placement, "west_east");
  EXPECT_FALSE(dram->interleave);
  EXPECT_FALSE(dram->in_order);
  EXPECT_EQ(noc->model, "mesh");
  EXPECT_EQ(noc->packet_bytes, 512);
  EXPECT_EQ(noc->control_bytes, 16);
}

TEST(SimConfig, EveryShippedConfigurationLoads) {
  for (const auto& f :
       std::filesystem::directory_iterator(std::string(GEMINI_SOURCE_DIR) + "/configs")) {
    if (f.path().extension() != ".json") continue;
    ir::ConfigErrors e;
    const bool loads = sim::load_hw_config(f.path().string(), e).has_value();
    // A configuration of Ramulator 2's on a build without it: refused,
    // saying why (dram_ramulator2_absent.cpp).
    if (!ramulator2_built() && !e.empty() &&
        ir::config_text(e[0]).find("Ramulator 2 is not built") != std::string::npos)
      continue;
    EXPECT_TRUE(loads) << (e.empty() ? f.path().string() : ir::config_text(e[0]));
  }
  const auto ddr4 = dram_of(R"({"model": "banked", "interleave": true, "in_order": true})");
  ASSERT_TRUE(ddr4);
  EXPECT_TRUE(ddr4->interleave && ddr4->in_order);
}

TEST(SimConfig, DramPresetsAndTimingOverrides) {
  std::string error;
  const auto hbm = make_dram_model(
      {{"model", "banked"}, {"preset", "hbm2"}, {"timing", {{"cl", 16}}}}, {}, error);
  ASSERT_NE(hbm, nullptr) << error;
  EXPECT_DOUBLE_EQ(hbm->peak_gbps(), 16.0);  // the preset's clock and bursts
  EXPECT_DOUBLE_EQ(dram_preset("ddr4_3200")->peak_gbps(), 25.6);
  EXPECT_DOUBLE_EQ(dram_preset("lpddr5_6400")->peak_gbps(), 12.8);
  EXPECT_EQ(dram_preset("ddr5"), nullptr);
  // simple: the preset's peak is the default bandwidth per port.
  const auto lp = make_dram_model({{"preset", "lpddr5_6400"}}, {}, error);
  ASSERT_NE(lp, nullptr) << error;
  EXPECT_DOUBLE_EQ(lp->peak_gbps(), 12.8);

  EXPECT_NE(errors_of(R"({"dram": {"preset": "ddr5"}})")
                .find("t.json:/dram/preset: parameter \"preset\" of component \"dram\" (DRAM "
                      "model \"simple\"): expected one of ddr4_3200, lpddr5_6400, hbm2, got "
                      "string \"ddr5\""),
            std::string::npos);
  const std::string clash =
      errors_of(R"({"dram": {"model": "banked", "timing": {"trfc": 100, "trefi": 50}}})");
  EXPECT_NE(clash.find("t.json:/dram/timing/trfc: parameter \"trfc\" of component \"dram/timing\" "
                       "(DRAM model \"banked\"): must be below trefi (50)"),
            std::string::npos)
      << clash;
  const std::string unknown = errors_of(R"({"dram": {"model": "banked", "timing": {"tcl": 3}}})");
  EXPECT_NE(unknown.find("t.json:/dram/timing/tcl: parameter \"tcl\" of component \"dram/timing\": "
                         "unknown parameter of DRAM model \"banked\" (it has: tck_ps, cl, cwl,"),
            std::string::npos)
      << unknown;
}

TEST(SimConfig, AParameterOfAnotherModelIsAnErrorNamingTheModel) {
  const std::string simple = errors_of(R"({"dram": {"queue_depth": 8, "commit_window": 64}})");
  EXPECT_NE(simple.find("t.json:/dram/queue_depth: parameter \"queue_depth\" of component "
                        "\"dram\": does not apply to DRAM model \"simple\" (only to banked); it "
                        "has: model, placement, multicast, interleave, in_order, preset, "
                        "port_gbps, gbps_per_tops, latency_ns"),
            std::string::npos)
      << simple;
  EXPECT_NE(simple.find("t.json:/dram/commit_window:"), std::string::npos) << simple;
  const std::string banked = errors_of(R"({"dram": {"model": "banked", "latency_ns": 0}})");
  EXPECT_NE(banked.find("t.json:/dram/latency_ns: parameter \"latency_ns\" of component \"dram\": "
                        "does not apply to DRAM model \"banked\" (only to simple)"),
            std::string::npos)
      << banked;
  const std::string typo = errors_of(R"({"noc": {"link_gbs": 12}})");
  EXPECT_NE(typo.find("t.json:/noc/link_gbs: parameter \"link_gbs\" of component \"noc\": unknown "
                      "parameter of NoC model \"mesh\" (it has: model, packet_bytes, "
                      "control_bytes, multicast, link_gbps, router_cycles, buffer_packets, "
                      "fill_gaps, multicast_copies)"),
            std::string::npos)
      << typo;
}

TEST(SimConfig, BadValuesNameComponentModelAndParameter) {
  EXPECT_NE(errors_of(R"({"noc": {"link_gbps": 0}})")
                .find("t.json:/noc/link_gbps: parameter \"link_gbps\" of component \"noc\" (NoC "
                      "model \"mesh\"): expected a number in [0.001, 1e+06], got integer 0"),
            std::string::npos);
  EXPECT_NE(errors_of(R"({"noc": {"buffer_packets": -1}})")
                .find("\"buffer_packets\" of component \"noc\" (NoC model \"mesh\")"),
            std::string::npos);
  EXPECT_NE(errors_of(R"({"noc": {"model": "torus"}})")
                .find("t.json:/noc/model: parameter \"model\" of component \"noc\": expected one "
                      "of mesh"),
            std::string::npos);
  // An unknown model: only that is reported (its parameters are unknown).
  const std::string dramsim = errors_of(R"({"dram": {"model": "dramsim", "queue_depth": 8}})");
  EXPECT_NE(dramsim.find("t.json:/dram/model: parameter \"model\" of component \"dram\": expected "
                         "one of simple, banked"),
            std::string::npos)
      << dramsim;
  EXPECT_EQ(dramsim.find("queue_depth"), std::string::npos) << dramsim;
  EXPECT_NE(errors_of(R"({"dram": {"placement": "north"}})").find("/dram/placement:"),
            std::string::npos);
  EXPECT_NE(errors_of(R"({"dram": {"in_order": 1}})")
                .find("t.json:/dram/in_order: parameter \"in_order\" of component \"dram\": "
                      "expected true or false, got integer 1"),
            std::string::npos);
  // Every problem at once.
  const std::string two = errors_of(R"({"noc": {"packet_bytes": 0}, "dram": {"latency_ns": -1}})");
  EXPECT_NE(two.find("/noc/packet_bytes"), std::string::npos) << two;
  EXPECT_NE(two.find("/dram/latency_ns"), std::string::npos) << two;
}

TEST(SimConfig, ABandwidthThatComesToNothingOnTheMeshIsAnErrorBeforeTheRun) {
  std::string error;
  EXPECT_EQ(make_dram_model({{"gbps_per_tops", 1e-6}}, DramContext{1e-3, 2}, error), nullptr);
  EXPECT_NE(error.find("the DRAM bandwidth per port comes to 5e-10 GB/s (from dram.gbps_per_tops"),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace gemini::sim
