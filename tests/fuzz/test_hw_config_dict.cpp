// The hw_config harness's dictionary (tests/fuzz/hw_config.dict) against what
// gemini declares, so that it cannot drift: every parameter of every
// component and model (`gemini sim --list-params`), every value a string
// parameter chooses from, every model's name, every key of the shipped
// configurations and the harness's seeds, and, in a build with BookSim 2,
// every key BookSim 2 declares (the noc.booksim pass-through). A missing
// entry fails, naming it: add it to the dictionary.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gemini/sim/chiplets.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/energy.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/silicon.h"

#ifdef GEMINI_HAVE_BOOKSIM2
#include "booksim_config.hpp"
#endif

namespace {

namespace fs = std::filesystem;
using gemini::sim::ParamInfo;

// The dictionary's entries, decoded: libFuzzer's `"text"` or `name="text"`,
// with \\, \" and \xNN escapes.
std::set<std::string> read_dictionary(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path << " cannot be read";
  std::set<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t open = line.find('"');
    if (line.empty() || line[0] == '#' || open == std::string::npos) continue;
    std::string text;
    std::size_t i = open + 1;
    for (; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] != '\\' || i + 1 >= line.size()) {
        text += line[i];
      } else if (line[i + 1] == 'x' && i + 3 < line.size()) {
        text += static_cast<char>(std::stoi(line.substr(i + 2, 2), nullptr, 16));
        i += 3;
      } else {
        text += line[++i];
      }
    }
    EXPECT_LT(i, line.size()) << path << ": an entry without its closing quote: " << line;
    out.insert(text);
  }
  return out;
}

class HwConfigDict : public ::testing::Test {
 protected:
  void SetUp() override {
    dict_ = read_dictionary(std::string(GEMINI_SOURCE_DIR) + "/tests/fuzz/hw_config.dict");
    ASSERT_GT(dict_.size(), 100u);
  }
  // `word` as a JSON string: a key, a model's name, a choice.
  void expect_key(const std::string& word, const std::string& what) const {
    EXPECT_TRUE(dict_.count("\"" + word + "\"")) << "tests/fuzz/hw_config.dict lacks \"\\\""
                                                 << word << "\\\"\" (" << what << ")";
  }
  // Each parameter's name (a nested one's every part: "timing.cl") and,
  // for a string chosen from a list, each choice.
  void expect_params(const std::string& component, const std::vector<ParamInfo>& params) const {
    expect_key(component, "a component");
    for (const ParamInfo& p : params) {
      const std::string what = component + " parameter " + p.name +
                               (p.model.empty() ? "" : " of model " + p.model);
      std::stringstream parts(p.name);
      for (std::string part; std::getline(parts, part, '.');) expect_key(part, what);
      if (p.type != "string" || p.range.empty()) continue;
      std::stringstream choices(p.range);
      for (std::string c; std::getline(choices, c, ',');) {
        if (c.starts_with(' ')) c.erase(0, 1);
        expect_key(c, "a choice of " + what);
      }
    }
  }
  // Every key of every object in `v`, at any depth.
  void expect_keys_of(const boost::json::value& v, const std::string& file) const {
    if (const boost::json::object* o = v.if_object()) {
      for (const auto& kv : *o) {
        expect_key(std::string(kv.key()), "a key of " + file);
        expect_keys_of(kv.value(), file);
      }
    } else if (const boost::json::array* a = v.if_array()) {
      for (const boost::json::value& e : *a) expect_keys_of(e, file);
    }
  }
  std::set<std::string> dict_;
};

TEST_F(HwConfigDict, HasEveryDeclaredParameterAndChoice) {
  expect_params("dram", gemini::sim::dram_params());
  expect_params("noc", gemini::sim::noc_params());
  expect_params("energy", gemini::sim::energy_params());
  expect_params("chiplets", gemini::sim::chiplet_params());
  expect_params("silicon", gemini::sim::silicon_params());
  // Some parameters are declared at all: the listing is not empty.
  EXPECT_GT(gemini::sim::dram_params().size(), 20u);
}

TEST_F(HwConfigDict, HasEveryModel) {
  for (const auto& m : gemini::sim::dram_models()) expect_key(m.name, "a DRAM model");
  for (const auto& m : gemini::sim::noc_models()) expect_key(m.name, "a NoC model");
  for (const std::string& m : gemini::sim::d2d_interfaces().names(true))
    expect_key(m, "a D2D interface");
}

TEST_F(HwConfigDict, HasEveryKeyOfTheShippedConfigurationsAndSeeds) {
  std::vector<fs::path> files;
  for (const char* dir : {"configs", "tests/data/fuzz/seeds/hw_config"})
    for (const auto& e : fs::directory_iterator(fs::path(GEMINI_SOURCE_DIR) / dir))
      if (e.path().extension() == ".json") files.push_back(e.path());
  ASSERT_GT(files.size(), 8u);
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    expect_keys_of(boost::json::parse(ss.str()), f.filename().string());
  }
}

#ifdef GEMINI_HAVE_BOOKSIM2
// noc.booksim passes any key BookSim 2 declares (its defaults' maps).
TEST_F(HwConfigDict, HasEveryBookSimKey) {
  const BookSimConfig c;
  std::size_t n = 0;
  for (const auto& kv : c.GetIntMap()) expect_key(kv.first, "BookSim 2's integer key"), ++n;
  for (const auto& kv : c.GetFloatMap()) expect_key(kv.first, "BookSim 2's number key"), ++n;
  for (const auto& kv : c.GetStrMap()) expect_key(kv.first, "BookSim 2's string key"), ++n;
  EXPECT_GT(n, 100u);
}
#endif

}  // namespace
