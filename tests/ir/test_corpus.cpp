// The real corpus (../shared/ir-corpus/set, or $GEMINI_CORPUS): every file
// validates with no error, and survives the full-dialect round trip.
// Skipped, saying why, when the corpus is not there.
#include <gtest/gtest.h>

#include "fixture.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/summary.h"
#include "gemini/ir/validator.h"
#include "gemini/ir/writer.h"

namespace fs = std::filesystem;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

class Corpus : public ::testing::TestWithParam<std::string> {
 protected:
  fs::path path() const {
    if (GetParam() == test::kCorpusAbsent) return {};
    return test::corpus_dir() / GetParam();
  }
};

TEST_P(Corpus, ValidatesWithoutErrors) {
  if (path().empty()) GTEST_SKIP() << test::corpus_absent_message();
  ir::Diagnostics d(50);
  auto r = ir::load_file(path().string(), d);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  ir::validate(r.model, ir::HardwareConfig{}, d);
  std::string listing;
  for (const auto& x : d.items())
    if (x.severity == ir::Severity::error)
      listing += std::string(x.code()) + " " + x.pointer + ": " + x.message + "\n";
  EXPECT_EQ(d.errors(), 0u) << listing;
  EXPECT_EQ(r.model.dialect, ir::Dialect::set);
  const ir::Summary s = ir::summarize(r.model);
  EXPECT_GT(s.workloads, 0u);
  EXPECT_TRUE(s.acyclic);
  EXPECT_GT(s.longest_path_time, 0);
  EXPECT_GE(s.longest_path_time, s.max_core_time > 0 ? 1 : 0);
}

TEST_P(Corpus, RoundTripsThroughTheFullDialect) {
  if (path().empty()) GTEST_SKIP() << test::corpus_absent_message();
  if (GetParam().find("8x8") != std::string::npos)
    GTEST_SKIP() << "the 76 MB file is covered by the validation test; round trip skipped to "
                    "keep the suite short";
  ir::Diagnostics d;
  auto a = ir::load_file(path().string(), d);
  ASSERT_EQ(a.status, ir::LoadStatus::ok);
  std::string err;
  const fs::path out = test::temp_path(GetParam() + ".full.json");
  ASSERT_TRUE(ir::write_full_file(a.model, out.string(), err)) << err;
  ir::Diagnostics d2;
  auto b = ir::load_file(out.string(), d2);
  ASSERT_EQ(b.status, ir::LoadStatus::ok);
  EXPECT_TRUE(a.model == b.model);
  fs::remove(out);
}

INSTANTIATE_TEST_SUITE_P(Set, Corpus, ::testing::ValuesIn(test::corpus_names()),
                         [](const auto& info) { return test::param_name(info.param); });

}  // namespace
