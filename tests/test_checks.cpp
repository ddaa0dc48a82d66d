// One test per check fixture of tests/data/checks: the fixture must produce
// exactly the listed check codes (the intended one and any cascade it
// documents), with the intended one at the pinned JSON pointer.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "fixture.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"

namespace fs = std::filesystem;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

std::vector<fs::path> fixtures() { return test::json_files(test::data_dir() / "checks"); }

class CheckFixtureTest : public ::testing::TestWithParam<fs::path> {};

TEST_P(CheckFixtureTest, ReportsExactlyTheDocumentedCodes) {
  const test::CheckFixture f = test::materialise(GetParam());
  ir::Diagnostics d(10000);
  const ir::CheckedFile c = ir::load_and_validate(f.file.string(), {}, ir::HardwareConfig{}, d);
  ASSERT_EQ(c.load.status, ir::LoadStatus::ok) << f.name;

  test::expect_fixture_codes(f, d);
  // Severity decides the exit status: warnings alone leave a file valid.
  const bool only_warnings = std::all_of(d.items().begin(), d.items().end(), [](const auto& x) {
    return x.severity == ir::Severity::warning;
  });
  EXPECT_EQ(d.errors() == 0, only_warnings);
}

INSTANTIATE_TEST_SUITE_P(Checks, CheckFixtureTest, ::testing::ValuesIn(fixtures()),
                         [](const auto& info) { return info.param.stem().string(); });

TEST(CheckCatalogue, EveryCheckHasAFixture) {
  std::set<std::string> covered;
  for (const auto& p : fixtures()) covered.insert(p.stem().string().substr(0, 4));
  for (const ir::CheckInfo& c : ir::all_checks()) {
    const std::string code = c.code;
    if (code[0] == 'L') continue;  // byte-level problems: test_bad_input.cpp
    if (code[0] == 'A') continue;  // import's own diagnostics: test_import.cpp
    if (code[0] == 'M') continue;  // against a model: tests/data/semantics, test_semantics.cpp
    if (code[0] == 'P') continue;  // plan files: test_plan.cpp
    EXPECT_TRUE(covered.count(code)) << code << " (" << c.name << ") has no fixture";
  }
}

TEST(CheckCatalogue, CodesAreUniqueAndDocumented) {
  std::set<std::string> codes;
  const std::string doc = test::read_file(fs::path(GEMINI_SOURCE_DIR) / "docs" / "validation.md");
  for (const ir::CheckInfo& c : ir::all_checks()) {
    EXPECT_TRUE(codes.insert(c.code).second) << c.code;
    EXPECT_NE(doc.find(std::string("### ") + c.code), std::string::npos)
        << c.code << " is missing from docs/validation.md";
  }
}

TEST(SpecFixture, MinimalFullDialectFileIsValid) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "spec_minimal.json").string(), d);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  ir::validate(r.model, ir::HardwareConfig{}, d);
  EXPECT_EQ(d.errors() + d.warnings(), 0u);
  EXPECT_EQ(r.model.dialect, ir::Dialect::full);
}

}  // namespace
