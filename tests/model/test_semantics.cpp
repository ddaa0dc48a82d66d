// Schedules against their layer semantics: one test per fixture of
// tests/data/semantics (an IR from tests/data with a JSON patch, a model
// with optional text substitutions -- every occurrence -- and the codes
// validate --model must report, the intended one at the pinned pointer),
// and the quirk corrections.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <set>

#include "fixture.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"
#include "gemini/model/network.h"
#include "gemini/model/semantics.h"

namespace fs = std::filesystem;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

std::vector<fs::path> fixtures() { return test::json_files(test::data_dir() / "semantics"); }

class SemanticsFixture : public ::testing::TestWithParam<fs::path> {};

TEST_P(SemanticsFixture, ReportsExactlyTheDocumentedCodes) {
  const test::CheckFixture f = test::materialise(GetParam());
  const boost::json::value spec = boost::json::parse(test::read_file(GetParam()));
  std::string text = test::read_file(test::data_dir() / std::string(spec.at("model").as_string()));
  if (const auto* subs = spec.as_object().if_contains("model_text"))
    for (const boost::json::value& s : subs->as_array()) {
      const std::string find(s.at("find").as_string()), repl(s.at("replace").as_string());
      std::size_t at = text.find(find);
      ASSERT_NE(at, std::string::npos) << f.name << ": model text not found: " << find;
      for (; at != std::string::npos; at = text.find(find, at + repl.size()))
        text.replace(at, find.size(), repl);
    }
  ir::Diagnostics d(10000);
  auto net = model::parse_network(text, "model.json", d);
  if (net) {
    const ir::CheckedFile c = ir::load_and_validate(f.file.string(), {}, ir::HardwareConfig{}, d);
    ASSERT_EQ(c.load.status, ir::LoadStatus::ok) << f.name;
    ASSERT_TRUE(c.semantic_checks_ran) << f.name;
    ir::Model m = c.load.model;
    model::correct_quirks(m, *net, d);
    model::check_semantics(m, *net, d);
  }
  test::expect_fixture_codes(f, d);
}

INSTANTIATE_TEST_SUITE_P(Semantics, SemanticsFixture, ::testing::ValuesIn(fixtures()),
                         [](const auto& info) { return info.param.stem().string(); });

TEST(SemanticsCatalogue, EveryModelCheckHasAFixture) {
  std::set<std::string> covered;
  for (const auto& p : fixtures()) covered.insert(p.stem().string().substr(0, 4));
  for (const ir::CheckInfo& c : ir::all_checks()) {
    if (c.code[0] == 'M') {
      EXPECT_TRUE(covered.count(c.code)) << c.code << " has no fixture";
    }
  }
}

TEST(Quirks, TheMinimalFilesNeedNoCorrection) {
  for (const char* base : {"set_minimal", "spec_minimal"}) {
    ir::Diagnostics d;
    auto net =
        model::load_network((test::data_dir() / (std::string(base) + ".model.json")).string(), d);
    ASSERT_TRUE(net);
    auto r = ir::load_file((test::data_dir() / (std::string(base) + ".json")).string(), d);
    ir::Model m = r.model;
    const model::QuirkCounts q = model::correct_quirks(m, *net, d);
    EXPECT_EQ(q.total(), 0) << base;
    EXPECT_FALSE(q.structure_changed);
    EXPECT_TRUE(m == r.model);
    model::check_semantics(m, *net, d);
    EXPECT_EQ(d.errors() + d.warnings(), 0u)
        << base << ": " << (d.items().empty() ? "" : d.items()[0].message);
  }
}

}  // namespace
