// The DRAM models registered by name (sim/src/dram_model.cpp): every
// registered name is one the hardware configuration accepts, and builds a
// model that answers to it.
#include <gtest/gtest.h>

#include "gemini/ir/hw_config.h"
#include "gemini/sim/dram_model.h"

namespace gemini::sim {
namespace {

TEST(DramRegistry, EveryRegisteredModelBuildsByItsName) {
  const std::vector<std::string> names = dram_model_names();
  ASSERT_EQ(names, (std::vector<std::string>{"simple", "banked"}));
  for (const std::string& name : names) {
    std::vector<std::string> errors;
    const auto hw =
        ir::parse_hw_config(R"({"dram": {"model": ")" + name + R"("}})", "x.json", errors);
    ASSERT_TRUE(hw) << name << ": " << (errors.empty() ? "" : errors[0]);
    const auto model = make_dram_model(hw->dram, 4.0);
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(model->name(), name);
  }
}

}  // namespace
}  // namespace gemini::sim
