// The DRAM models registered by name (sim/src/dram_model.cpp): every
// registered name is one the `dram` section accepts, and builds a model that
// answers to it.
#include <gtest/gtest.h>

#include "gemini/sim/dram_model.h"

namespace gemini::sim {
namespace {

TEST(DramRegistry, EveryRegisteredModelBuildsByItsName) {
  const std::vector<std::string> names = dram_model_names();
  // The built-in models first; models registered elsewhere (the test-only
  // "toy" of test_toy_dram_model.cpp) after them.
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(names[0], "simple");
  EXPECT_EQ(names[1], "banked");
  EXPECT_EQ(names[2], "ramulator2");
  for (const std::string& name : names) {
    if (name == "ramulator2" && !ramulator2_built()) continue;  // (the next test)
    std::string error;
    const auto model = make_dram_model({{"model", name}}, DramContext{8.0, 4}, error);
    ASSERT_NE(model, nullptr) << name << ": " << error;
    EXPECT_EQ(model->name(), name);
  }
}

TEST(DramRegistry, Ramulator2MissingSaysWhy) {
  if (ramulator2_built()) GTEST_SKIP() << "Ramulator 2 is built into this gemini";
  std::string error;
  EXPECT_EQ(make_dram_model({{"model", "ramulator2"}}, DramContext{8.0, 4}, error), nullptr);
  EXPECT_NE(error.find("/dram/model: parameter \"model\" of component \"dram\" (DRAM model "
                       "\"ramulator2\"): Ramulator 2 is not built into this gemini: "),
            std::string::npos)
      << error;
}

TEST(DramRegistry, EveryModelDescribesItselfAndItsParameters) {
  for (const DramModelInfo& m : dram_models()) {
    EXPECT_FALSE(m.description.empty()) << m.name;
    for (const ParamInfo& p : dram_params()) {
      if (p.model == m.name) {
        EXPECT_FALSE(p.description.empty()) << m.name << "." << p.name;
      }
    }
  }
}

}  // namespace
}  // namespace gemini::sim
