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
  // The fixture's own check is reported with its catalogue severity, and
  // severity decides `gemini validate`'s exit status: warnings alone leave a
  // file valid (0), an error makes it invalid (1).
  const std::string intended = f.name.substr(0, 4);
  const auto info = std::find_if(ir::all_checks().begin(), ir::all_checks().end(),
                                 [&](const ir::CheckInfo& c) { return intended == c.code; });
  ASSERT_NE(info, ir::all_checks().end()) << intended;
  for (const auto& x : d.items())
    if (intended == x.code()) {
      EXPECT_EQ(x.severity, info->severity) << f.name;
    }
  const test::CliRun run = test::run_gemini("validate " + f.file.string());
  EXPECT_EQ(run.status, d.errors() > 0 ? 1 : 0) << f.name << "\n" << run.out;
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
    if (code[0] == 'H') continue;  // configuration files: test_hw_config.cpp
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
