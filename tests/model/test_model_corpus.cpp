// The corpus's layer-semantics models (../shared/ir-corpus/set/models): each
// loads and checks, and its seeded reference neither saturates nor
// collapses on any layer (docs/numerics.md, "The shift rule"). Skipped,
// saying why, without the corpus.
#include <gtest/gtest.h>

#include <algorithm>

#include "fixture.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"
#include "gemini/model/stats.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

class CorpusModel : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusModel, LoadsAndEveryLayerNeitherSaturatesNorCollapses) {
  if (GetParam() == test::kCorpusAbsent) GTEST_SKIP() << test::corpus_absent_message();
  const auto path = test::corpus_dir() / "models" / GetParam();
  ir::Diagnostics d;
  auto net = model::load_network(path.string(), d);
  ASSERT_TRUE(net) << GetParam() << ": " << (d.items().empty() ? "" : d.items()[0].message);
  EXPECT_EQ(d.errors() + d.warnings(), 0u);
  EXPECT_EQ(net->order.size(), net->ops.size());
  EXPECT_GE(net->externals.size(), 1u);
  const model::Reference r = model::compute_reference(*net, 1);
  for (std::int32_t i : net->order) {
    const model::Op& op = net->ops[static_cast<std::size_t>(i)];
    const auto& out = r.outputs[static_cast<std::size_t>(i)].data;
    const model::ValueStats s = model::value_stats(out);
    // docs/numerics.md, "The shift rule": under 2% saturated (one value
    // allowed on layers of fewer than 50 outputs) and at least 64 distinct
    // values -- or half the outputs, on layers of fewer than 128.
    const auto n = static_cast<std::int64_t>(out.size());
    EXPECT_TRUE(s.saturated_fraction() < 0.02 || s.saturated_fraction() * n <= 1.0)
        << op.name << " saturates";
    EXPECT_GE(s.distinct, std::min<std::int64_t>(64, (n + 1) / 2)) << op.name << " collapses";
  }
}

INSTANTIATE_TEST_SUITE_P(Set, CorpusModel, ::testing::ValuesIn(test::corpus_model_names()),
                         [](const auto& info) { return test::param_name(info.param); });

}  // namespace
