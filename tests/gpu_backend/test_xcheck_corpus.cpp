// gemini xcheck on the real corpus: every tile operation the functional PE
// and VP compute on every corpus file with a model -- each pe_run's sums,
// each chain's requantisation, each vp_run -- recomputed by the cpu
// backend (the per-element definitions, tile_element) from the same
// inputs, bit for bit; and by the cuda backend (its tensor-core and dp4a
// kernels) where a GPU is present. Skipped, saying why, without the corpus
// or the GPU.
#include <gtest/gtest.h>

#include <sstream>

#include "fixture.h"
#include "gemini/assembler/assemble_file.h"
#include "gemini/gpu/xcheck.h"
#include "gemini/model/layer_semantics.h"
#include "gemini/sim/simulator.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

class XCheckCorpus : public ::testing::TestWithParam<std::string> {};

void check_corpus_file(const std::string& name, const std::string& backend_name) {
  std::string why;
  auto backend = gpu::make_backend(backend_name, why);
  if (!backend) GTEST_SKIP() << "no GPU run: " << why;
  const auto model_path = test::corpus_model(name);
  if (model_path.empty()) GTEST_SKIP() << name << " has no model file in models/";
  ir::Diagnostics d(20);
  auto s = model::LayerSemantics::load(model_path.string(), 1, d);
  ASSERT_TRUE(s);
  assembler::AssembleOptions ao;
  ao.lower.geometry = &s->geometry;
  ao.semantics = [&s](ir::Model& m, ir::Diagnostics& dd) { return s->apply(m, dd); };
  const ir::HardwareConfig& hw = test::set_polar();
  auto f = assembler::assemble_file((test::corpus_dir() / name).string(), hw, {}, d, {}, {}, ao);
  ASSERT_TRUE(f.program);
  gpu::XCheck check(*backend, *f.program, s->net, {});
  sim::SimOptions o;
  o.xlen = f.model.xlen;
  o.ylen = f.model.ylen;
  o.network = &s->net;
  o.reference = &s->ref;
  o.tiles = &check;
  sim::Report r;
  std::string error;
  ASSERT_TRUE(sim::simulate(*f.program, hw, sim::workload_table(f.model), o, r, error)) << error;
  const gpu::XCheckReport x = check.finish();
  std::ostringstream os;
  gpu::print_xcheck(os, x);
  EXPECT_TRUE(x.passed()) << os.str();
  EXPECT_EQ(x.ops(), x.candidates) << os.str();
  EXPECT_GT(x.kinds[static_cast<std::size_t>(model::TileKind::conv)].ops, 0);
}

TEST_P(XCheckCorpus, EveryTileOperationIsBitExactOnTheCpuBackend) {
  if (GetParam() == test::kCorpusAbsent) GTEST_SKIP() << test::corpus_absent_message();
  check_corpus_file(GetParam(), "cpu");
}

TEST_P(XCheckCorpus, EveryTileOperationIsBitExactOnTheCudaBackend) {
  if (GetParam() == test::kCorpusAbsent) GTEST_SKIP() << test::corpus_absent_message();
  check_corpus_file(GetParam(), "cuda");
}

INSTANTIATE_TEST_SUITE_P(Set, XCheckCorpus, ::testing::ValuesIn(test::corpus_names()),
                         [](const auto& info) { return test::param_name(info.param); });

}  // namespace
