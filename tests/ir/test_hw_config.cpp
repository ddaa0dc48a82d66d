// Hardware configuration: defaults, the shipped configs, and errors that name
// the component and the parameter.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>
#include <set>
#include <string>

#include "fixture.h"
#include "gemini/ir/config_override.h"
#include "gemini/ir/diagnostics.h"
#include "gemini/ir/hw_config.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

std::optional<ir::HardwareConfig> parse(const std::string& s, ir::ConfigErrors& e) {
  return ir::parse_hw_config(s, "t.json", e);
}

TEST(HwConfig, EmptyObjectGivesDefaults) {
  ir::ConfigErrors e;
  auto hw = parse("{}", e);
  ASSERT_TRUE(hw) << (e.empty() ? "" : ir::config_text(e[0]));
  EXPECT_EQ(hw->l2.size_bytes, 1 << 20);
  EXPECT_EQ(hw->wl0.size_bytes, 4096);
  EXPECT_DOUBLE_EQ(hw->clock.frequency_mhz, 1000.0);
  EXPECT_EQ(hw->regions_for(65536), (std::vector<ir::RingRegion>{{0, 65536}}));
}

TEST(HwConfig, ShippedSetPolarConfigLoads) {
  ir::ConfigErrors e;
  auto hw = ir::load_hw_config(std::string(GEMINI_SOURCE_DIR) + "/configs/set-polar.json", e);
  ASSERT_TRUE(hw) << (e.empty() ? "" : ir::config_text(e[0]));
  EXPECT_EQ(hw->name, "set-polar");
  EXPECT_EQ(hw->l2.size_bytes, 1 << 20);
  EXPECT_DOUBLE_EQ(hw->clock.frequency_mhz, 1000.0);
  EXPECT_EQ(hw->wl0.size_bytes, 4096);
  EXPECT_EQ(hw->pe.macs_per_cycle(), 1024);  // the polar core: 8 x 8 x 16
}

TEST(HwConfig, PeComponent) {
  ir::ConfigErrors e;
  auto hw = parse(R"({"pe": {"rows": 16, "cols": 4, "lanes": 32}})", e);
  ASSERT_TRUE(hw) << (e.empty() ? "" : ir::config_text(e[0]));
  EXPECT_EQ(hw->pe.rows, 16);
  EXPECT_EQ(hw->pe.macs_per_cycle(), 16 * 4 * 32);
  EXPECT_FALSE(parse(R"({"pe": {"rows": 0}})", e));
}

TEST(HwConfig, UnknownParameterNamesComponentAndParameter) {
  ir::ConfigErrors e;
  EXPECT_FALSE(parse(R"({"l2": {"sise_bytes": 5}})", e));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(ir::config_text(e[0]).find(
                "t.json:/l2/sise_bytes: parameter \"sise_bytes\" of component \"l2\": "
                "unknown parameter"),
            std::string::npos)
      << ir::config_text(e[0]);
}

TEST(HwConfig, ProblemsAreH001DiagnosticsWithFileAndPointer) {
  // The structure every output takes them from (the terminal text, the
  // CLI's --diagnostics-json, Python's InputError): code H001, an error,
  // the configuration's file and the JSON pointer of the value.
  ir::ConfigErrors e;
  EXPECT_FALSE(parse(R"({"l2": {"size_bytes": -1}, "gpu": {}})", e));
  ASSERT_EQ(e.size(), 2u);
  std::set<std::string> pointers;
  for (const ir::Diagnostic& d : e) {
    EXPECT_STREQ(d.code(), "H001");
    EXPECT_EQ(d.severity, ir::Severity::error);
    EXPECT_EQ(d.file, "t.json");
    EXPECT_EQ(ir::config_text(d).rfind("t.json:" + d.pointer + ": ", 0), 0u) << ir::config_text(d);
    const boost::json::object j = ir::diagnostic_json(d);
    EXPECT_EQ(j.at("code").as_string(), "H001");
    EXPECT_EQ(j.at("file").as_string(), "t.json");
    EXPECT_EQ(j.at("pointer").as_string(), d.pointer);
    pointers.insert(d.pointer);
  }
  EXPECT_EQ(pointers, (std::set<std::string>{"/l2/size_bytes", "/gpu"}));
  // Unreadable JSON: a line and column instead of a pointer.
  ir::ConfigErrors syntax;
  EXPECT_FALSE(parse("{\"l2\": ", syntax));
  ASSERT_EQ(syntax.size(), 1u);
  EXPECT_STREQ(syntax[0].code(), "H001");
  EXPECT_TRUE(syntax[0].line.has_value()) << ir::config_text(syntax[0]);
}

TEST(HwConfig, UnknownComponent) {
  ir::ConfigErrors e;
  EXPECT_FALSE(parse(R"({"gpu": {}})", e));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(ir::config_text(e[0]).find("unknown component \"gpu\""), std::string::npos)
      << ir::config_text(e[0]);
}

TEST(HwConfig, WrongTypeAndRange) {
  ir::ConfigErrors e;
  EXPECT_FALSE(parse(R"({"l2": {"size_bytes": "1M"}, "wl0": {"size_bytes": 0}})", e));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_NE(ir::config_text(e[0]).find("/l2/size_bytes"), std::string::npos);
  EXPECT_NE(ir::config_text(e[0]).find("got string \"1M\""), std::string::npos)
      << ir::config_text(e[0]);
  EXPECT_NE(ir::config_text(e[1]).find("/wl0/size_bytes"), std::string::npos)
      << ir::config_text(e[1]);
}

TEST(HwConfig, RingRegionsMustFitL2) {
  ir::ConfigErrors e;
  EXPECT_FALSE(parse(R"({"l2": {"size_bytes": 1024, "ring_regions": [[0, 2048]]}})", e));
  ASSERT_FALSE(e.empty());
  EXPECT_NE(ir::config_text(e[0]).find("runs past size_bytes"), std::string::npos)
      << ir::config_text(e[0]);
  e.clear();
  auto hw = parse(R"({"l2": {"size_bytes": 2048, "ring_regions": [[0, 1024], [1024, 2048]]}})", e);
  ASSERT_TRUE(hw);
  EXPECT_EQ(hw->regions_for(2048).size(), 2u);
}

TEST(HwConfig, SimulatorComponents) {
  ir::ConfigErrors e;
  auto hw =
      parse(R"({"vp": {"lanes": 32}, "core": {"dispatch_per_cycle": 2}, "l2": {"banks": 8}})", e);
  ASSERT_TRUE(hw) << (e.empty() ? "" : ir::config_text(e[0]));
  EXPECT_EQ(hw->vp.lanes, 32);
  EXPECT_EQ(hw->core.dispatch_per_cycle, 2);
  EXPECT_EQ(hw->l2.banks, 8);
  EXPECT_FALSE(parse(R"({"core": {"dispatch_per_cycle": 0}})", e));
}

// The dram and noc components are the simulator's (tests/sim/test_sim_config.cpp):
// ir reads their multicast flags and keeps the rest as written, with where it is.
TEST(HwConfig, DramAndNocAreKeptRawForTheSimulator) {
  ir::ConfigErrors e;
  auto hw = parse(R"({"noc": {"link_gbps": 12.5, "multicast": true},
                      "dram": {"model": "banked", "queue_depth": 8}})",
                  e);
  ASSERT_TRUE(hw) << (e.empty() ? "" : ir::config_text(e[0]));
  EXPECT_TRUE(hw->noc.multicast);
  EXPECT_FALSE(hw->dram.multicast);
  EXPECT_EQ(hw->noc.raw.json.at("link_gbps").as_double(), 12.5);
  EXPECT_EQ(hw->dram.raw.json.at("queue_depth").as_int64(), 8);
  EXPECT_EQ(hw->dram.raw.origin, "t.json");
  EXPECT_EQ(hw->dram.raw.pointer, "/dram");
  EXPECT_EQ(hw->noc.raw.pointer, "/noc");
  EXPECT_TRUE(parse("{}", e)->dram.raw.json.empty());
  // Their type is still checked here, and so is the lowering's flag.
  EXPECT_FALSE(parse(R"({"dram": [1]})", e));
  EXPECT_FALSE(parse(R"({"noc": {"multicast": "yes"}})", e));
}

TEST(HwConfig, ShippedDdr4ConfigLoads) {
  ir::ConfigErrors e;
  auto hw = ir::load_hw_config(std::string(GEMINI_SOURCE_DIR) + "/configs/set-polar-ddr4.json", e);
  ASSERT_TRUE(hw) << (e.empty() ? "" : ir::config_text(e[0]));
  EXPECT_EQ(hw->dram.raw.json.at("model").as_string(), "banked");
  const auto& polar = test::set_polar();
  EXPECT_TRUE(polar.dram.multicast);
  EXPECT_TRUE(polar.noc.multicast);
  EXPECT_TRUE(hw->dram.multicast);
}

TEST(HwConfig, DramMulticastIsAFlagOffByDefault) {
  ir::ConfigErrors e;
  auto hw = ir::parse_hw_config("{}", "t.json", e);
  ASSERT_TRUE(hw);
  EXPECT_FALSE(hw->dram.multicast);
  hw = ir::parse_hw_config(R"({"dram": {"multicast": true}})", "t.json", e);
  ASSERT_TRUE(hw);
  EXPECT_TRUE(hw->dram.multicast);
  auto unicast =
      ir::load_hw_config(std::string(GEMINI_SOURCE_DIR) + "/configs/set-polar-unicast.json", e);
  ASSERT_TRUE(unicast) << (e.empty() ? "" : ir::config_text(e[0]));
  EXPECT_FALSE(unicast->dram.multicast);
  e.clear();
  EXPECT_FALSE(ir::parse_hw_config(R"({"dram": {"multicast": 1}})", "t.json", e));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(ir::config_text(e[0]).find("multicast"), std::string::npos) << ir::config_text(e[0]);
  EXPECT_NE(ir::config_text(e[0]).find("expected true or false"), std::string::npos)
      << ir::config_text(e[0]);
}

TEST(HwConfig, DmaInFlightAndL2WriteSharingDefaultToTheSimpleModel) {
  ir::ConfigErrors e;
  auto hw = ir::parse_hw_config("{}", "t.json", e);
  ASSERT_TRUE(hw);
  EXPECT_EQ(hw->core.dma_in_flight, 1);
  EXPECT_EQ(hw->core.noc_in_flight, 1);
  EXPECT_FALSE(hw->l2.noc_writes_share_ports);
  hw = ir::parse_hw_config(
      R"({"core": {"dma_in_flight": 4, "noc_in_flight": 3}, "l2": {"noc_writes_share_ports": true}})",
      "t.json", e);
  ASSERT_TRUE(hw);
  EXPECT_EQ(hw->core.dma_in_flight, 4);
  EXPECT_EQ(hw->core.noc_in_flight, 3);
  EXPECT_TRUE(hw->l2.noc_writes_share_ports);
  auto polar = ir::load_hw_config(std::string(GEMINI_SOURCE_DIR) + "/configs/set-polar.json", e);
  ASSERT_TRUE(polar) << (e.empty() ? "" : ir::config_text(e[0]));
  EXPECT_EQ(polar->core.dma_in_flight, 4);
  e.clear();
  EXPECT_FALSE(ir::parse_hw_config(R"({"core": {"dma_in_flight": 0}})", "t.json", e));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(ir::config_text(e[0]).find("\"dma_in_flight\" of component \"core\""),
            std::string::npos)
      << ir::config_text(e[0]);
  e.clear();
  EXPECT_FALSE(ir::parse_hw_config(R"({"core": {"noc_in_flight": 65}})", "t.json", e));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(ir::config_text(e[0]).find("\"noc_in_flight\" of component \"core\""),
            std::string::npos)
      << ir::config_text(e[0]);
}

TEST(HwConfig, AValueGivenOverTheFileIsNamedByHowItWasGiven) {
  // Two bad values: l2.size_bytes given on top of the file (as `--set`,
  // an axis or Python's set= give one), wl0.size_bytes the file's own.
  ir::ConfigErrors e;
  EXPECT_FALSE(parse(R"({"l2": {"size_bytes": 0}, "wl0": {"size_bytes": 0}})", e));
  ASSERT_EQ(e.size(), 2u);
  ASSERT_EQ(e[0].pointer, "/l2/size_bytes");
  const std::string file_text = ir::config_text(e[1]);
  const std::string file_json = boost::json::serialize(ir::diagnostic_json(e[1]));
  // A sibling whose name merely begins the same is no value under it.
  ir::attribute_overrides(e, {{"/l2/size_bytes", "--set ", ""}, {"/wl0/size", "--set ", ""}});
  EXPECT_EQ(ir::config_text(e[0]).rfind("--set l2.size_bytes: parameter \"size_bytes\" of "
                                        "component \"l2\": expected an integer",
                                        0),
            0u)
      << ir::config_text(e[0]);
  EXPECT_TRUE(e[0].given);
  EXPECT_EQ(e[0].pointer, "/l2/size_bytes");  // still where it is in the configuration
  const boost::json::object j = ir::diagnostic_json(e[0]);
  EXPECT_EQ(j.at("file").as_string(), "--set l2.size_bytes");
  EXPECT_EQ(j.at("pointer").as_string(), "/l2/size_bytes");
  EXPECT_EQ(j.at("given"), true);
  EXPECT_EQ(j.at("code").as_string(), "H001");
  // The file's own value: exactly as before, in words and in JSON.
  EXPECT_FALSE(e[1].given);
  EXPECT_EQ(ir::config_text(e[1]), file_text);
  EXPECT_EQ(boost::json::serialize(ir::diagnostic_json(e[1])), file_json);
  EXPECT_EQ(file_text.rfind("t.json:/wl0/size_bytes: ", 0), 0u) << file_text;
}

TEST(HwConfig, AnErrorInsideAGivenValueNamesItsOwnPathAndTheLastGivenWins) {
  ir::ConfigErrors e;
  EXPECT_FALSE(parse(R"({"l2": {"size_bytes": 0}})", e));
  ASSERT_EQ(e.size(), 1u);
  // The whole component given (l2={...}), then its parameter: the later
  // one set the value the configuration holds.
  ir::ConfigErrors later = e;
  ir::attribute_overrides(later, {{"/l2", "set[\"", "\"]"}, {"/l2/size_bytes", "axis \"", "\""}});
  EXPECT_EQ(later[0].file, "axis \"l2.size_bytes\"");
  ir::attribute_overrides(e, {{"/l2/size_bytes", "axis \"", "\""}, {"/l2", "set[\"", "\"]"}});
  EXPECT_EQ(e[0].file, "set[\"l2.size_bytes\"]");
  EXPECT_EQ(ir::config_text(e[0]).rfind("set[\"l2.size_bytes\"]: parameter \"size_bytes\"", 0), 0u)
      << ir::config_text(e[0]);
  // A syntax error is the text's as a whole: never an override's.
  ir::ConfigErrors syntax;
  EXPECT_FALSE(parse("{\"l2\": ", syntax));
  ASSERT_EQ(syntax.size(), 1u);
  ir::attribute_overrides(syntax, {{"", "--set ", ""}});
  EXPECT_FALSE(syntax[0].given);
  EXPECT_EQ(syntax[0].file, "t.json");
}

TEST(HwConfig, ParameterPathsAndPointers) {
  EXPECT_EQ(ir::path_pointer("noc.num_vcs"), "/noc/num_vcs");
  EXPECT_EQ(ir::path_pointer("noc.a/b~c"), "/noc/a~1b~0c");
  EXPECT_EQ(ir::dotted_path("/noc/a~1b~0c"), "noc.a/b~c");
  EXPECT_EQ(ir::dotted_path("/noc/booksim/input_speedup"), "noc.booksim.input_speedup");
  EXPECT_EQ(ir::dotted_path(ir::path_pointer("dram.timing.cl")), "dram.timing.cl");
}

TEST(HwConfig, NotJson) {
  ir::ConfigErrors e;
  EXPECT_FALSE(parse("{", e));
  EXPECT_FALSE(ir::load_hw_config("/nonexistent.json", e));
}

}  // namespace
