// Hardening (issue 31) on the command line: numbers that are not what they
// say, memory refused before it is taken, outputs that cannot be written,
// unreadable side files, plans that disagree with their model -- each a
// clear message and the documented exit status (1 invalid, 2 unreadable
// or bad usage).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>

#include "fixture.h"
#include "gemini/sim/booksim2_config.h"

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

test::CliRun gemini(const std::string& args) { return test::run_gemini(args); }
std::string data(const std::string& name) { return (test::data_dir() / name).string(); }
bool says(const test::CliRun& r, const std::string& text) {
  return r.out.find(text) != std::string::npos;
}

TEST(HardenCli, SeedMustBeAnUnsignedInteger) {
  const std::string ref = "ref -q --model " + data("spec_minimal.model.json") + " --seed ";
  for (const char* bad : {"-1", "18446744073709551616", "1e23", "\"\"", "0x10", "+3", "1.0"}) {
    const test::CliRun r = gemini(ref + bad);
    EXPECT_EQ(r.status, 2) << bad << ": " << r.out;
    EXPECT_TRUE(says(r, "expected an unsigned integer in [0, 18446744073709551615]"))
        << bad << ": " << r.out;
  }
  const test::CliRun ok = gemini(ref + "18446744073709551615");
  EXPECT_EQ(ok.status, 0) << ok.out;
}

TEST(HardenCli, SampleBoundIsShort) {
  const test::CliRun r = gemini("xcheck " + data("spec_minimal.json") + " --model " +
                                data("spec_minimal.model.json") + " --backend cpu --sample 0");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(says(r,
                   "--sample: expected an unsigned integer in [1, 9223372036854775807], got "
                   "\"0\""))
      << r.out;
  EXPECT_LT(r.out.size(), 400u) << r.out;
}

TEST(HardenCli, UnreadableModelExitsTwoAsAnUnreadableIrDoes) {
  const std::string missing = test::temp_path("no_such.model.json").string();
  for (const std::string& args :
       {"ref --model " + missing, "validate --model " + missing + " " + data("spec_minimal.json"),
        "sim " + data("spec_minimal.json") + " --model " + missing}) {
    const test::CliRun r = gemini(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.out;
    EXPECT_TRUE(says(r, missing + ": cannot read the model file")) << r.out;
  }
  EXPECT_EQ(gemini("validate " + missing).status, 2);
}

TEST(HardenCli, OutputInAMissingDirectoryExitsTwoBeforeTheRun) {
  const std::string dir = test::temp_path("no_such_dir").string();
  for (const char* opt : {"--trace", "--report", "--csv"}) {
    const test::CliRun r =
        gemini("sim -q " + data("spec_minimal.json") + " " + opt + " " + dir + "/out.json");
    EXPECT_EQ(r.status, 2) << opt << ": " << r.out;
    EXPECT_TRUE(
        says(r, "cannot write " + dir + "/out.json: its directory " + dir + " does not exist"))
        << r.out;
  }
}

TEST(HardenCli, AsmSaysWhichDirectoriesItCreated) {
  const fs::path out = test::temp_path("asm_created") / "a" / "b";
  const test::CliRun r = gemini("asm " + data("spec_minimal.json") + " -o " + out.string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(says(r, "; created directory " + out.parent_path().parent_path().string() + ", " +
                          out.parent_path().string() + ", " + out.string()))
      << r.out;
  const test::CliRun again = gemini("asm " + data("spec_minimal.json") + " -o " + out.string());
  EXPECT_FALSE(says(again, "created directory")) << again.out;
}

TEST(HardenCli, FunctionalSimulationMemoryIsRefusedBeforeItIsTaken) {
  // An L2 of 1 TiB per core (as `import --buffersize 1T` writes it).
  json::value ir = json::parse(test::read_file(test::data_dir() / "spec_minimal.json"));
  ir.as_object()["buffersize"] = std::int64_t{1} << 40;
  const fs::path p = test::write_temp("tib_l2.json", json::serialize(ir));
  const test::CliRun r = gemini("sim -q " + p.string() + " --model " +
                                data("spec_minimal.model.json") + " --functional");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(says(r, "the functional simulation needs 2.0 TiB (")) << r.out;
  EXPECT_TRUE(says(r, "2 cores x (1.0 TiB of L2 + 4.0 KiB of WL0)")) << r.out;
  EXPECT_TRUE(says(r, "--memory-limit sets another limit")) << r.out;
}

TEST(HardenCli, MemoryLimitOption) {
  const std::string ref = "ref -q --model " + data("spec_minimal.model.json");
  const test::CliRun small = gemini(ref + " --memory-limit 1K");
  EXPECT_EQ(small.status, 1) << small.out;
  EXPECT_TRUE(says(small, "computing the reference needs 6.7 KiB")) << small.out;
  EXPECT_TRUE(says(small, "more than the --memory-limit of 1.0 KiB")) << small.out;
  EXPECT_EQ(gemini(ref + " --memory-limit 1G").status, 0);
  const test::CliRun bad = gemini(ref + " --memory-limit lots");
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_TRUE(says(bad, "expected a size such as 16G")) << bad.out;
  const test::CliRun sim = gemini("sim -q " + data("spec_minimal.json") + " --model " +
                                  data("spec_minimal.model.json") + " --memory-limit 1K");
  EXPECT_EQ(sim.status, 1) << sim.out;
  EXPECT_TRUE(says(sim, "computing the reference needs")) << sim.out;
}

TEST(HardenCli, PlanArgsAreCheckedAgainstTheModel) {
  const fs::path plan = test::temp_path("args.plan.json");
  const std::string model = data("spec_minimal.model.json");
  const test::CliRun made =
      gemini("plan " + data("spec_minimal.json") + " --model " + model + " -o " + plan.string());
  ASSERT_EQ(made.status, 0) << made.out;
  json::value p = json::parse(test::read_file(plan));
  bool changed = false;
  std::string at;
  json::array& infos = p.at("TaskInfos").as_array();
  for (std::size_t i = 0; i < infos.size() && !changed; ++i) {
    json::array& ops = infos[i].at("Ops").as_array();
    for (std::size_t j = 0; j < ops.size() && !changed; ++j)
      if (ops[j].at("Name") == "Conv_0") {
        ops[j].at("Args").at("StrideHW").as_object()["DIMS"] = json::array{1, 1};
        at = "/TaskInfos/" + std::to_string(i) + "/Ops/" + std::to_string(j) + "/Args/StrideHW";
        changed = true;
      }
  }
  ASSERT_TRUE(changed);
  const fs::path bad = test::write_temp("args_bad.plan.json", json::serialize(p));
  const test::CliRun r =
      gemini("ref -q --model " + model + " --plan " + bad.string() + " --backend cpu");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(says(r, bad.string() + ":" + at +
                          ": P002: error: op Conv_0: StrideHW is [1,1] "
                          "here, [2,2] in the model"))
      << r.out;
  EXPECT_EQ(
      gemini("ref -q --model " + model + " --plan " + plan.string() + " --backend cpu").status, 0);
}

TEST(HardenCli, NocSetValuesAreNamedByTheOptionThatGaveThem) {
  // A --set value the NoC model refuses: named by the option, never by an
  // empty file name, in words and in --diagnostics-json.
  const std::string run = "noc --mesh 2x2 --loads 0.05 --packets 4 --warmup 0 ";
  const fs::path djson = test::temp_path("noc_set.diagnostics.json");
  test::CliRun r = gemini("--diagnostics-json " + djson.string() + " " + run + "--set link_gbps=0");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(says(r,
                   "--set noc.link_gbps: parameter \"link_gbps\" of component \"noc\" (NoC "
                   "model \"mesh\"): expected a number in"))
      << r.out;
  EXPECT_FALSE(says(r, ":/noc/link_gbps")) << r.out;
  const json::array d = json::parse(test::read_file(djson)).at("diagnostics").as_array();
  ASSERT_EQ(d.size(), 1u) << d;
  EXPECT_EQ(d[0].at("file"), "--set noc.link_gbps");
  EXPECT_EQ(d[0].at("given"), true);
  EXPECT_EQ(d[0].at("pointer"), "/noc/link_gbps");
  EXPECT_EQ(d[0].at("code"), "H001");
  // Over a configuration file: still the option's, not the file's ...
  r = gemini(run + "--hw set-polar --set link_gbps=0");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(says(r, "--set noc.link_gbps: parameter \"link_gbps\"")) << r.out;
  EXPECT_FALSE(says(r, "set-polar.json")) << r.out;
  // ... while the file's own value keeps the file's place.
  const fs::path hw = test::write_temp("noc_set_hw.json", R"({"noc": {"link_gbps": 0}})");
  r = gemini(run + "--hw " + hw.string() + " --set router_cycles=2");
  EXPECT_EQ(r.status, 2) << r.out;  // --hw itself is unreadable
  EXPECT_TRUE(says(r, hw.string() + ":/noc/link_gbps: parameter \"link_gbps\"")) << r.out;
  EXPECT_FALSE(says(r, "--set")) << r.out;
  // --model gives noc.model.
  r = gemini(run + "--model no_such_model");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(says(r, "--model noc.model: ")) << r.out;
  // A value inside a value given whole: the parameter inside it.
  if (!sim::booksim2_built()) GTEST_SKIP() << "BookSim 2 is not built: the nested --set";
  r = gemini(run + "--model booksim2 --set num_vcs=0");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(says(r, "--set noc.num_vcs: parameter \"num_vcs\" of component \"noc\"")) << r.out;
  r = gemini(run + "--model booksim2 --set 'booksim={\"num_vcs\":2}'");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(says(r, "--set noc.booksim.num_vcs: ")) << r.out;
}

}  // namespace
