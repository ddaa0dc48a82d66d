// ARK plans of the real corpus: for every corpus network, a real schedule
// (the first corpus file of that network) written as a plan and run task by
// task on the cpu backend equals the CPU reference bit for bit -- every
// layer's outputs and shifts. Skipped, saying why, without the corpus.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "fixture.h"
#include "gemini/gpu/plan_build.h"
#include "gemini/gpu/plan_exec.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"
#include "gemini/model/semantics.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

class PlanCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(PlanCorpus, AScheduleRunAsAPlanEqualsTheReference) {
  if (GetParam() == test::kCorpusAbsent) GTEST_SKIP() << test::corpus_absent_message();
  // The network's first schedule in the corpus.
  std::string schedule;
  for (const auto& f : test::corpus_files())
    if (test::corpus_model(f.filename().string()).filename() == GetParam()) {
      schedule = f.string();
      break;
    }
  if (schedule.empty()) GTEST_SKIP() << "no corpus schedule of " << GetParam();
  const auto model_path = test::corpus_dir() / "models" / GetParam();
  ir::Diagnostics d(20);
  auto net = model::load_network(model_path.string(), d);
  ASSERT_TRUE(net);
  const boost::json::value doc = boost::json::parse(test::read_file(model_path));
  ir::CheckedFile f = ir::load_and_validate(schedule, {}, test::set_polar(), d);
  ASSERT_EQ(d.errors(), 0u);
  model::correct_quirks(f.load.model, *net, d);
  auto plan = gpu::build_plan(f.load.model, *net, doc, d);
  ASSERT_TRUE(plan);
  // The plan file's own structure, as written.
  ASSERT_TRUE(gpu::parse_plan(gpu::plan_json(*plan), d));
  std::string why;
  auto cpu = gpu::make_backend("cpu", why);
  ASSERT_TRUE(cpu) << why;
  gpu::PlanRunStats st;
  auto got = gpu::run_plan(*plan, *net, 1, *cpu, d, &st);
  ASSERT_TRUE(got) << d.items().front().message;
  const model::Reference want = model::compute_reference(*net, 1);
  for (std::size_t i = 0; i < net->ops.size(); ++i) {
    EXPECT_TRUE(got->outputs[i].data == want.outputs[i].data) << net->ops[i].name;
    EXPECT_EQ(got->numerics[i].shift, want.numerics[i].shift) << net->ops[i].name;
  }
  std::size_t workloads = 0;
  for (const ir::Core& c : f.load.model.cores) workloads += c.workloads.size();
  EXPECT_EQ(st.tasks, static_cast<std::int64_t>(workloads));
}

INSTANTIATE_TEST_SUITE_P(Set, PlanCorpus, ::testing::ValuesIn(test::corpus_model_names()),
                         [](const auto& info) { return test::param_name(info.param); });

}  // namespace
