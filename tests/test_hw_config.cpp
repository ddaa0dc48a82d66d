// Hardware configuration: defaults, the shipped configs, and errors that name
// the component and the parameter.
#include <gtest/gtest.h>

#include "fixture.h"
#include "gemini/ir/hw_config.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

std::optional<ir::HardwareConfig> parse(const std::string& s, std::vector<std::string>& e) {
  return ir::parse_hw_config(s, "t.json", e);
}

TEST(HwConfig, EmptyObjectGivesDefaults) {
  std::vector<std::string> e;
  auto hw = parse("{}", e);
  ASSERT_TRUE(hw) << (e.empty() ? "" : e[0]);
  EXPECT_EQ(hw->l2.size_bytes, 1 << 20);
  EXPECT_EQ(hw->wl0.size_bytes, 4096);
  EXPECT_DOUBLE_EQ(hw->clock.frequency_mhz, 1000.0);
  EXPECT_EQ(hw->regions_for(65536), (std::vector<ir::RingRegion>{{0, 65536}}));
}

TEST(HwConfig, ShippedSetPolarConfigLoads) {
  std::vector<std::string> e;
  auto hw = ir::load_hw_config(std::string(GEMINI_SOURCE_DIR) + "/configs/set-polar.json", e);
  ASSERT_TRUE(hw) << (e.empty() ? "" : e[0]);
  EXPECT_EQ(hw->name, "set-polar");
  EXPECT_EQ(hw->l2.size_bytes, 1 << 20);
  EXPECT_DOUBLE_EQ(hw->clock.frequency_mhz, 1000.0);
  EXPECT_EQ(hw->wl0.size_bytes, 4096);
  EXPECT_EQ(hw->pe.macs_per_cycle(), 1024);  // the polar core: 8 x 8 x 16
}

TEST(HwConfig, PeComponent) {
  std::vector<std::string> e;
  auto hw = parse(R"({"pe": {"rows": 16, "cols": 4, "lanes": 32}})", e);
  ASSERT_TRUE(hw) << (e.empty() ? "" : e[0]);
  EXPECT_EQ(hw->pe.rows, 16);
  EXPECT_EQ(hw->pe.macs_per_cycle(), 16 * 4 * 32);
  EXPECT_FALSE(parse(R"({"pe": {"rows": 0}})", e));
}

TEST(HwConfig, UnknownParameterNamesComponentAndParameter) {
  std::vector<std::string> e;
  EXPECT_FALSE(parse(R"({"l2": {"sise_bytes": 5}})", e));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].find("t.json:/l2/sise_bytes: parameter \"sise_bytes\" of component \"l2\": "
                      "unknown parameter"),
            std::string::npos)
      << e[0];
}

TEST(HwConfig, UnknownComponent) {
  std::vector<std::string> e;
  EXPECT_FALSE(parse(R"({"gpu": {}})", e));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].find("unknown component \"gpu\""), std::string::npos) << e[0];
}

TEST(HwConfig, WrongTypeAndRange) {
  std::vector<std::string> e;
  EXPECT_FALSE(parse(R"({"l2": {"size_bytes": "1M"}, "wl0": {"size_bytes": 0}})", e));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_NE(e[0].find("/l2/size_bytes"), std::string::npos);
  EXPECT_NE(e[0].find("got string \"1M\""), std::string::npos) << e[0];
  EXPECT_NE(e[1].find("/wl0/size_bytes"), std::string::npos) << e[1];
}

TEST(HwConfig, RingRegionsMustFitL2) {
  std::vector<std::string> e;
  EXPECT_FALSE(parse(R"({"l2": {"size_bytes": 1024, "ring_regions": [[0, 2048]]}})", e));
  ASSERT_FALSE(e.empty());
  EXPECT_NE(e[0].find("runs past size_bytes"), std::string::npos) << e[0];
  e.clear();
  auto hw = parse(R"({"l2": {"size_bytes": 2048, "ring_regions": [[0, 1024], [1024, 2048]]}})", e);
  ASSERT_TRUE(hw);
  EXPECT_EQ(hw->regions_for(2048).size(), 2u);
}

TEST(HwConfig, NotJson) {
  std::vector<std::string> e;
  EXPECT_FALSE(parse("{", e));
  EXPECT_FALSE(ir::load_hw_config("/nonexistent.json", e));
}

}  // namespace
