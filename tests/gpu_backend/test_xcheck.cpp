// gemini xcheck on the small fixtures: every tile operation the functional
// units compute is recomputed by a backend and compared; a sample picks
// exactly N by its seed; a backend that computes one value wrong is caught
// with its place; observing changes no cycle; the CLI's exit statuses.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>

#include "fixture.h"
#include "functional_case.h"
#include "gemini/assembler/assemble_file.h"
#include "gemini/gpu/xcheck.h"
#include "gemini/model/layer_semantics.h"
#include "gemini/sim/simulator.h"

namespace fs = std::filesystem;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

using Prepared = test::FunctionalCase;
Prepared prepare(const char* ir, const char* model) { return test::prepare_functional(ir, model); }
sim::Report simulate(const Prepared& x, sim::TileHook* hook) {
  return test::simulate_functional(x, hook);
}

std::unique_ptr<gpu::Backend> cpu() {
  std::string why;
  auto b = gpu::make_backend("cpu", why);
  EXPECT_TRUE(b) << why;
  return b;
}

TEST(XCheck, EveryTileOperationOfTheFixturesIsBitExactOnTheCpuBackend) {
  for (auto [ir, m] : {std::pair{"set_minimal.json", "set_minimal.model.json"},
                       std::pair{"transpose_minimal.json", "transpose_minimal.model.json"},
                       std::pair{"gpt_decode_q1.json", "gpt_decode_q1.model.json"},
                       std::pair{"resident_weight.json", "resident_weight.model.json"}}) {
    Prepared x = prepare(ir, m);
    ASSERT_TRUE(x.file.program);
    auto b = cpu();
    gpu::XCheck check(*b, *x.file.program, x.semantics->net, {});
    const sim::Report with = simulate(x, &check);
    const gpu::XCheckReport r = check.finish();
    EXPECT_TRUE(r.passed()) << ir << ": " << r.error;
    EXPECT_EQ(r.ops(), r.candidates) << ir;
    EXPECT_GT(r.ops(), 0) << ir;
    // Observing changes nothing the simulation reports.
    const sim::Report without = simulate(x, nullptr);
    EXPECT_EQ(with.total_cycles, without.total_cycles) << ir;
    EXPECT_TRUE(without.functional.passed()) << ir;
  }
  // The kinds the fixtures exercise.
  Prepared x = prepare("set_minimal.json", "set_minimal.model.json");
  auto b = cpu();
  gpu::XCheck check(*b, *x.file.program, x.semantics->net, {});
  simulate(x, &check);
  const gpu::XCheckReport r = check.finish();
  EXPECT_EQ(r.kinds[static_cast<std::size_t>(model::TileKind::conv)].ops, 1);
  EXPECT_EQ(r.kinds[static_cast<std::size_t>(model::TileKind::requantize)].ops, 1);
  EXPECT_EQ(r.kinds[static_cast<std::size_t>(model::TileKind::pool)].ops, 1);
  EXPECT_EQ(r.kinds[static_cast<std::size_t>(model::TileKind::conv)].elements, 16 * 8 * 8);
}

TEST(XCheck, ASampleChecksExactlyNOperationsChosenByTheSeed) {
  Prepared x = prepare("gpt_decode_q1.json", "gpt_decode_q1.model.json");
  ASSERT_TRUE(x.file.program);
  auto b = cpu();
  auto sampled = [&](std::uint64_t seed) {
    gpu::XCheckOptions o;
    o.sample = 4;
    o.seed = seed;
    gpu::XCheck check(*b, *x.file.program, x.semantics->net, o);
    simulate(x, &check);
    return check.finish();
  };
  const gpu::XCheckReport a = sampled(1), again = sampled(1);
  EXPECT_EQ(a.ops(), 4);
  EXPECT_TRUE(a.passed());
  for (std::size_t k = 0; k < gpu::kTileKinds; ++k) EXPECT_EQ(a.kinds[k].ops, again.kinds[k].ops);
  EXPECT_GT(a.candidates, 4);
}

// The cpu backend, but one value of every conv tile off by one.
class OffByOne final : public gpu::Backend {
 public:
  explicit OffByOne(std::unique_ptr<gpu::Backend> b) : b_(std::move(b)) {}
  const char* name() const override { return "off-by-one"; }
  std::string device() const override { return b_->device(); }
  void* allocate(std::size_t n) override { return b_->allocate(n); }
  void release(void* p) override { b_->release(p); }
  bool upload(void* d, const void* s, std::size_t n) override { return b_->upload(d, s, n); }
  bool download(void* d, const void* s, std::size_t n) override { return b_->download(d, s, n); }
  bool generate(std::int8_t* d, std::int64_t n, std::uint64_t base, std::uint64_t f) override {
    return b_->generate(d, n, base, f);
  }
  bool run(const model::TileOp* ops, std::size_t count, const std::int64_t* offsets,
           std::int32_t* out) override {
    if (!b_->run(ops, count, offsets, out)) return false;
    for (std::size_t i = 0; i < count; ++i)
      if (ops[i].kind == model::TileKind::conv) out[offsets[i] + 5] += 1;
    return true;
  }
  double last_run_seconds() const override { return b_->last_run_seconds(); }
  bool copy(void* d, const void* s, std::size_t n) override { return b_->copy(d, s, n); }
  bool finish_layer(const std::int32_t* v, std::int64_t n, bool rq, std::int32_t& shift,
                    std::int8_t* out) override {
    return b_->finish_layer(v, n, rq, shift, out);
  }

 private:
  std::unique_ptr<gpu::Backend> b_;
};

TEST(XCheck, AWrongValueIsCaughtWithItsPlace) {
  Prepared x = prepare("set_minimal.json", "set_minimal.model.json");
  ASSERT_TRUE(x.file.program);
  OffByOne bad(cpu());
  gpu::XCheck check(bad, *x.file.program, x.semantics->net, {});
  simulate(x, &check);
  const gpu::XCheckReport r = check.finish();
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.mismatching_ops(), 1);
  ASSERT_TRUE(r.first);
  EXPECT_EQ(r.first->kind, model::TileKind::conv);
  EXPECT_EQ(r.first->layer, "conv1");
  EXPECT_EQ(r.first->backend, r.first->simulator + 1);
  // Element 5 of the conv tile [0,0,0,0]..[0,15,7,7]: [0, 0, 0, 5].
  EXPECT_EQ(r.first->c, 0);
  EXPECT_EQ(r.first->w, 5);
  EXPECT_EQ(r.kinds[0].max_abs_diff, 1);
  EXPECT_GE(r.first->site.workload, 0);
}

using test::CliRun;
CliRun gemini(const std::string& args) { return test::run_gemini(args); }

TEST(XCheckCli, PassesOnTheCpuAndSaysWhyCudaCannotRun) {
  const std::string args = (test::data_dir() / "set_minimal.json").string() + " --model " +
                           (test::data_dir() / "set_minimal.model.json").string();
  CliRun r = gemini("xcheck " + args + " --backend cpu");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("3 of the program's 3 tile operations checked"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("xcheck: PASS (bit-exact)"), std::string::npos) << r.out;
  CliRun j = gemini("xcheck " + args + " --backend cpu --json --sample 2");
  EXPECT_EQ(j.status, 0) << j.out;
  EXPECT_NE(j.out.find("\"checked\":2"), std::string::npos) << j.out;
  std::string why;
  const bool gpu = gpu::make_backend("cuda", why) != nullptr;
  CliRun c = gemini("xcheck " + args);
  if (gpu) {
    EXPECT_EQ(c.status, 0) << c.out;
  } else {
    EXPECT_EQ(c.status, 2) << c.out;
    EXPECT_NE(c.out.find("the cuda backend cannot run here"), std::string::npos) << c.out;
  }
  EXPECT_EQ(gemini("xcheck " + (test::data_dir() / "set_minimal.json").string()).status, 2)
      << "--model is required";
}

}  // namespace
