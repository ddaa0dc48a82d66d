// ARK plans: `gemini plan` writes a schedule as a plan file that reads back
// by the format's rules; running it (task by task, on the cpu backend, and
// on cuda where a GPU is present) equals the CPU reference bit for bit;
// structural faults are P001 at their pointer, ops gemini does not run P002
// (the ARK tutorial's own plans among them), incomplete plans P003.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>
#include <sstream>

#include "fixture.h"
#include "gemini/gpu/plan_build.h"
#include "gemini/gpu/plan_exec.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"
#include "gemini/model/network.h"

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

using test::codes;

json::value read_json(const fs::path& p) { return json::parse(test::read_file(p)); }

struct Case {
  model::Network net;
  json::value doc;
  ir::Model ir;
};

Case load(const char* ir_file, const char* model_file) {
  Case c;
  ir::Diagnostics d;
  auto net = model::load_network((test::data_dir() / model_file).string(), d);
  EXPECT_TRUE(net) << codes(d);
  if (net) c.net = std::move(*net);
  c.doc = read_json(test::data_dir() / model_file);
  ir::CheckedFile f =
      ir::load_and_validate((test::data_dir() / ir_file).string(), {}, test::set_polar(), d);
  EXPECT_EQ(d.errors(), 0u) << codes(d);
  c.ir = std::move(f.load.model);
  return c;
}

void expect_equal(const model::Reference& a, const model::Reference& b, const model::Network& net) {
  ASSERT_EQ(a.outputs.size(), b.outputs.size());
  for (std::size_t i = 0; i < a.outputs.size(); ++i) {
    EXPECT_EQ(a.outputs[i].shape, b.outputs[i].shape) << net.ops[i].name;
    EXPECT_TRUE(a.outputs[i].data == b.outputs[i].data) << net.ops[i].name;
    EXPECT_EQ(a.numerics[i].requantised, b.numerics[i].requantised) << net.ops[i].name;
    EXPECT_EQ(a.numerics[i].shift, b.numerics[i].shift) << net.ops[i].name;
  }
  ASSERT_EQ(a.externals.size(), b.externals.size());
  for (std::size_t e = 0; e < a.externals.size(); ++e)
    EXPECT_TRUE(a.externals[e].data == b.externals[e].data);
}

std::unique_ptr<gpu::Backend> backend(const char* name) {
  std::string why;
  return gpu::make_backend(name, why);
}

const std::pair<const char*, const char*> kFixtures[] = {
    {"set_minimal.json", "set_minimal.model.json"},
    {"transpose_minimal.json", "transpose_minimal.model.json"},
    {"gpt_decode_q1.json", "gpt_decode_q1.model.json"},
    {"resident_weight.json", "resident_weight.model.json"}};

TEST(Plan, WrittenPlansReadBackAndHoldOneTaskPerWorkload) {
  for (auto [ir_file, model_file] : kFixtures) {
    Case c = load(ir_file, model_file);
    ir::Diagnostics d;
    auto plan = gpu::build_plan(c.ir, c.net, c.doc, d);
    ASSERT_TRUE(plan) << codes(d);
    const fs::path out = test::temp_path(std::string(ir_file) + ".plan.json");
    std::string error;
    ASSERT_TRUE(gpu::write_plan(*plan, out.string(), error)) << error;
    ir::Diagnostics back;
    auto read = gpu::load_plan(out.string(), back);
    ASSERT_TRUE(read) << codes(back);
    EXPECT_EQ(back.errors() + back.warnings(), 0u) << codes(back);
    EXPECT_EQ(read->num_processors, c.ir.core_count());
    // Every workload is a task, once, with its tile.
    std::size_t workloads = 0;
    for (const ir::Core& core : c.ir.cores) workloads += core.workloads.size();
    std::int64_t scheduled = 0;
    for (const gpu::PlanProcessorGroup& g : read->processor_groups)
      for (const gpu::PlanResourceGroup& rg : g.resource_groups) {
        ASSERT_EQ(rg.processors.count(), 1);
        for (const gpu::PlanTaskGroup& tg : rg.task_groups) {
          const gpu::PlanTaskInfo* info = read->task_info(tg.task_id);
          ASSERT_NE(info, nullptr);
          const gpu::PlanOp& op = info->ops.front();
          for (std::int64_t k = 0; k < tg.tasks.count(); ++k) {
            const auto& lo = op.task_tiles[static_cast<std::size_t>(tg.tasks.at(k))];
            // The core of this resource group runs a workload of that layer with that box.
            const ir::Core* core = c.ir.find_core(static_cast<std::int32_t>(rg.processors.begin));
            ASSERT_NE(core, nullptr);
            bool found = false;
            for (const ir::Workload& w : core->workloads)
              found |= w.layer_name == op.name && w.workload.lo[0] == lo[0] &&
                       w.workload.lo[1] == lo[1] && w.workload.lo[2] == lo[2] &&
                       w.workload.lo[3] == lo[3] && w.workload.extent(1) == (*op.tile)[1];
            EXPECT_TRUE(found) << op.name << " task " << tg.tasks.at(k);
            ++scheduled;
          }
        }
      }
    EXPECT_EQ(scheduled, static_cast<std::int64_t>(workloads)) << ir_file;
    // The ops are the model file's, verbatim, plus a Config.
    for (const gpu::PlanTaskInfo& t : read->task_infos) {
      const json::object& o = t.ops.front().json.as_object();
      EXPECT_TRUE(o.contains("Args") && o.contains("ReadTensors") && o.contains("Config"));
      EXPECT_EQ(o.at("Config").as_object().at("NumTasks").as_int64(), t.ops.front().num_tasks);
    }
  }
}

TEST(Plan, RunningAPlanOnTheCpuEqualsTheReferenceBitForBit) {
  auto cpu = backend("cpu");
  ASSERT_TRUE(cpu);
  for (auto [ir_file, model_file] : kFixtures) {
    Case c = load(ir_file, model_file);
    const model::Reference want = model::compute_reference(c.net, 3);
    ir::Diagnostics d;
    auto plan = gpu::build_plan(c.ir, c.net, c.doc, d);
    ASSERT_TRUE(plan);
    gpu::PlanRunStats st;
    auto got = gpu::run_plan(*plan, c.net, 3, *cpu, d, &st);
    ASSERT_TRUE(got) << codes(d);
    expect_equal(*got, want, c.net);
    std::size_t workloads = 0;
    for (const ir::Core& core : c.ir.cores) workloads += core.workloads.size();
    EXPECT_EQ(st.tasks, static_cast<std::int64_t>(workloads));
    // One task per layer, too.
    auto whole = gpu::run_plan(gpu::whole_layer_plan(c.net, c.doc), c.net, 3, *cpu, d);
    ASSERT_TRUE(whole) << codes(d);
    expect_equal(*whole, want, c.net);
  }
}

TEST(Plan, RunningAPlanOnCudaEqualsTheReferenceBitForBit) {
  auto cuda = backend("cuda");
  if (!cuda) {
    std::string why;
    gpu::make_backend("cuda", why);
    GTEST_SKIP() << "no GPU run: " << why;
  }
  for (auto [ir_file, model_file] : kFixtures) {
    Case c = load(ir_file, model_file);
    ir::Diagnostics d;
    auto plan = gpu::build_plan(c.ir, c.net, c.doc, d);
    ASSERT_TRUE(plan);
    auto got = gpu::run_plan(*plan, c.net, 3, *cuda, d);
    ASSERT_TRUE(got) << codes(d);
    expect_equal(*got, model::compute_reference(c.net, 3), c.net);
  }
}

// A written plan, changed, then read: P001 at the pointer.
void expect_p001(const std::function<void(json::object&)>& change, const std::string& pointer,
                 const std::string& words) {
  Case c = load("set_minimal.json", "set_minimal.model.json");
  ir::Diagnostics d;
  auto plan = gpu::build_plan(c.ir, c.net, c.doc, d);
  ASSERT_TRUE(plan);
  json::value doc = gpu::plan_json(*plan);
  change(doc.as_object());
  ir::Diagnostics e;
  EXPECT_FALSE(gpu::parse_plan(doc, e));
  bool found = false;
  for (const auto& x : e.items())
    found |= x.check == ir::Check::plan_file && x.pointer == pointer &&
             x.message.find(words) != std::string::npos;
  EXPECT_TRUE(found) << pointer << " / " << words << "\n" << codes(e);
}

TEST(Plan, StructuralFaultsAreP001AtTheirPointer) {
  auto tg = [](json::object& o) -> json::object& {
    return o["ProcessorGroups"]
        .as_array()[0]
        .as_object()["ResourceGroups"]
        .as_array()[0]
        .as_object()["TaskGroups"]
        .as_array()[0]
        .as_object();
  };
  auto rg = [](json::object& o) -> json::object& {
    return o["ProcessorGroups"]
        .as_array()[0]
        .as_object()["ResourceGroups"]
        .as_array()[0]
        .as_object();
  };
  const std::string tgp = "/ProcessorGroups/0/ResourceGroups/0/TaskGroups/0";
  const std::string rgp = "/ProcessorGroups/0/ResourceGroups/0";
  expect_p001([](json::object& o) { o.erase("TaskInfos"); }, "",
              "missing required key \"TaskInfos\"");
  expect_p001([&](json::object& o) { tg(o)["TaskId"] = 99; }, tgp + "/TaskId",
              "no TaskInfo has Id 99");
  expect_p001(
      [&](json::object& o) {
        tg(o)["TaskRange"] = json::array{0, 2};
      },
      tgp + "/TaskRange", "outside [0, NumTasks = 1)");
  expect_p001(
      [&](json::object& o) {
        tg(o)["TaskRange"] = json::array{0, 1, 0};
      },
      tgp + "/TaskRange/2", "step must be positive");
  expect_p001([&](json::object& o) { tg(o)["Granularity"] = 0; }, tgp + "/Granularity",
              "expected an integer >= 1, got integer 0");
  expect_p001(
      [&](json::object& o) {
        rg(o)["WarpRange"] = json::array{0, 2};
      },
      rgp + "/WarpRange", "NumWarpsPerProcessor");
  expect_p001(
      [&](json::object& o) {
        rg(o)["ProcessorRange"] = json::array{1, 2};
      },
      rgp + "/ProcessorRange", "not one of its processor group's");
  expect_p001(
      [&](json::object& o) {
        rg(o)["SramRange"] = json::array{0, 8, 2};
      },
      rgp + "/SramRange", "step 1");
  expect_p001([](json::object& o) { o["NumProcessors"] = 0; }, "/NumProcessors",
              "expected an integer >= 1, got integer 0");
  expect_p001(
      [](json::object& o) {
        auto& ops = o["TaskInfos"].as_array()[0].as_object()["Ops"].as_array();
        json::value second = ops[0];
        second.as_object()["Config"].as_object()["NumTasks"] = 7;
        ops.push_back(second);
      },
      "/TaskInfos/0/Ops/1/Config/NumTasks", "share NumTasks");
}

TEST(Plan, IncompletePlansAreP003) {
  auto cpu = backend("cpu");
  Case c = load("gpt_decode_q1.json", "gpt_decode_q1.model.json");
  ir::Diagnostics d;
  auto plan = gpu::build_plan(c.ir, c.net, c.doc, d);
  ASSERT_TRUE(plan);
  // blk_K (two workloads, one per core): drop one core's task group.
  gpu::Plan missing = *plan;
  for (gpu::PlanProcessorGroup& g : missing.processor_groups)
    for (gpu::PlanResourceGroup& rg : g.resource_groups)
      for (gpu::PlanTaskGroup& tg : rg.task_groups)
        if (missing.task_info(tg.task_id)->ops[0].name == "blk_K" && rg.processors.begin == 1)
          tg.tasks = {0, 0, 1};
  ir::Diagnostics e;
  EXPECT_FALSE(gpu::run_plan(missing, c.net, 1, *cpu, e));
  EXPECT_NE(codes(e).find("P003"), std::string::npos) << codes(e);
  EXPECT_NE(codes(e).find("the tasks of blk_K leave 4 of its 8 outputs uncomputed"),
            std::string::npos)
      << codes(e);
  // A consumer in its producer's processor group.
  gpu::Plan merged = *plan;
  auto& groups = merged.processor_groups;
  ASSERT_GE(groups.size(), 2u);
  for (auto& rg : groups[1].resource_groups) groups[0].resource_groups.push_back(rg);
  groups.erase(groups.begin() + 1);
  ir::Diagnostics f;
  EXPECT_FALSE(gpu::run_plan(merged, c.net, 1, *cpu, f));
  EXPECT_NE(codes(f).find("before all of its tasks ran"), std::string::npos) << codes(f);
  // A layer with no task at all.
  gpu::Plan none = *plan;
  none.processor_groups.pop_back();
  ir::Diagnostics g;
  EXPECT_FALSE(gpu::run_plan(none, c.net, 1, *cpu, g));
  EXPECT_NE(codes(g).find("has no task in the plan"), std::string::npos) << codes(g);
}

TEST(Plan, TheArkTutorialPlansLoadAndSayWhichOpsGeminiDoesNotRun) {
  const fs::path dir = test::data_dir() / ".." / ".." / ".." / "shared" / "examples" / "ark";
  if (!fs::exists(dir)) GTEST_SKIP() << "../shared/examples/ark not found";
  Case c = load("set_minimal.json", "set_minimal.model.json");
  auto cpu = backend("cpu");
  int plans = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.find("plan") == std::string::npos || e.path().extension() != ".json") continue;
    ++plans;
    ir::Diagnostics d;
    auto plan = gpu::load_plan(e.path().string(), d);
    ASSERT_TRUE(plan) << e.path() << "\n" << codes(d);
    EXPECT_FALSE(gpu::run_plan(*plan, c.net, 1, *cpu, d));
    EXPECT_GE(d.errors(), plan->task_infos.size()) << e.path();
    for (const auto& x : d.items()) {
      EXPECT_EQ(x.check, ir::Check::plan_unsupported) << x.message;
      EXPECT_EQ(x.pointer.rfind("/TaskInfos/", 0), 0u) << x.pointer;
    }
  }
  EXPECT_EQ(plans, 7);
}

}  // namespace
