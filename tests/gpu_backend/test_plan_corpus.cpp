// ARK plans of the real corpus: for every corpus network, a real schedule
// (the first corpus file of that network) written as a plan and run task by
// task on the cpu backend equals the CPU reference bit for bit -- every
// layer's outputs and shifts; on the cuda backend where a GPU is present,
// that plan and the whole network one task per layer (the layers resident
// on the device). Skipped, saying why, without the corpus or the GPU.
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

void expect_reference(const model::Reference& got, const model::Reference& want,
                      const model::Network& net) {
  for (std::size_t i = 0; i < net.ops.size(); ++i) {
    EXPECT_TRUE(got.outputs[i].data == want.outputs[i].data) << net.ops[i].name;
    EXPECT_EQ(got.numerics[i].shift, want.numerics[i].shift) << net.ops[i].name;
  }
}

void check_network(const std::string& name, const std::string& backend_name) {
  std::string why;
  auto backend = gpu::make_backend(backend_name, why);
  if (!backend) GTEST_SKIP() << "no GPU run: " << why;
  // The network's first schedule in the corpus.
  std::string schedule;
  for (const auto& f : test::corpus_files())
    if (test::corpus_model(f.filename().string()).filename() == name) {
      schedule = f.string();
      break;
    }
  if (schedule.empty()) GTEST_SKIP() << "no corpus schedule of " << name;
  const auto model_path = test::corpus_dir() / "models" / name;
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
  gpu::PlanRunStats st;
  auto got = gpu::run_plan(*plan, *net, 1, *backend, d, &st);
  ASSERT_TRUE(got) << d.items().front().message;
  const model::Reference want = model::compute_reference(*net, 1);
  expect_reference(*got, want, *net);
  std::size_t workloads = 0;
  for (const ir::Core& c : f.load.model.cores) workloads += c.workloads.size();
  EXPECT_EQ(st.tasks, static_cast<std::int64_t>(workloads));
  if (backend_name == "cuda") {  // one task per layer: the layers stay on the device
    auto whole = gpu::run_plan(gpu::whole_layer_plan(*net, doc), *net, 1, *backend, d);
    ASSERT_TRUE(whole) << d.items().front().message;
    expect_reference(*whole, want, *net);
  }
}

TEST_P(PlanCorpus, AScheduleRunAsAPlanEqualsTheReference) {
  if (GetParam() == test::kCorpusAbsent) GTEST_SKIP() << test::corpus_absent_message();
  check_network(GetParam(), "cpu");
}

TEST_P(PlanCorpus, AScheduleAndTheWholeNetworkOnCudaEqualTheReference) {
  if (GetParam() == test::kCorpusAbsent) GTEST_SKIP() << test::corpus_absent_message();
  check_network(GetParam(), "cuda");
}

INSTANTIATE_TEST_SUITE_P(Set, PlanCorpus, ::testing::ValuesIn(test::corpus_model_names()),
                         [](const auto& info) { return test::param_name(info.param); });

}  // namespace
