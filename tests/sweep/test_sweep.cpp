// gemini sweep (docs/sweeps.md): sweep files and their errors, the grid and
// its ids (the sweep library), and local runs through the real executable:
// a 2 x 3 sweep equals six separate `gemini sim` runs, a rerun reruns only
// what is missing, a bad axis fails before anything runs, a failed point is
// recorded without stopping the sweep, and a Slurm job script is written
// for exactly the points without results (the real cluster: sweep_slurm.sh).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <fstream>
#include <set>

#include "fixture.h"
#include "gemini/sim/booksim2_config.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sweep/plan.h"
#include "gemini/sweep/spec.h"

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

test::CliRun gemini(const std::string& args) { return test::run_gemini(args); }

std::string set_polar_path() { return std::string(GEMINI_SOURCE_DIR) + "/configs/set-polar.json"; }

// A sweep file over the two small example IRs of tests/data.
fs::path write_sweep(const std::string& name, const std::string& axes,
                     const std::string& extra_inputs = "") {
  const std::string text = R"({"name": ")" + name + R"(", "hw": ")" + set_polar_path() +
                           R"(", "inputs": [")" +
                           (test::data_dir() / "spec_minimal.json").string() + R"(", ")" +
                           (test::data_dir() / "set_minimal.json").string() + "\"" + extra_inputs +
                           R"(], "axes": )" + axes + "}";
  return test::write_temp(name + ".sweep.json", text);
}

json::value read_json(const fs::path& p) { return json::parse(test::read_file(p)); }

// A report without its host fields (wall time): what two runs share.
json::value without_host(json::value v) {
  v.as_object().erase("host");
  return v;
}

// Configurations are checked as the gemini executable checks them: the
// simulator's DRAM and NoC parameters too.
std::optional<sweep::Plan> plan_of(const std::string& text, std::vector<std::string>& errors) {
  const fs::path p = test::write_temp("lib.sweep.json", text);
  sweep::LoadOptions lo;
  lo.check_hw = [](const std::string& hw, const std::string& origin, ir::ConfigErrors& errs) {
    return sim::parse_hw_config(hw, origin, errs).has_value();
  };
  auto spec = sweep::load_sweep(p.string(), lo, errors);
  if (!spec) return std::nullopt;
  return sweep::expand(*spec, errors);
}

std::string inputs_json() {
  return R"("inputs": [")" + (test::data_dir() / "spec_minimal.json").string() + "\"]";
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += x + "\n";
  return s;
}

TEST(Sweep, LocalSweepEqualsSeparateSimRuns) {
  const fs::path sweep = write_sweep("two-by-three", R"({"noc.link_gbps": [6, 24, 96]})");
  const fs::path dir = test::temp_path("sweep-2x3");
  test::CliRun r = gemini("sweep run " + sweep.string() + " -o " + dir.string() + " --jobs 2");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("6 points: 6 ok, 0 failed, 0 missing (ran 6, 0 already done)"),
            std::string::npos)
      << r.out;
  const json::value results = read_json(dir / "results.json");
  const json::array& points = results.at("points").as_array();
  ASSERT_EQ(points.size(), 6u);
  std::set<std::string> ids, utilisations;
  for (const json::value& pv : points) {
    const json::object& p = pv.as_object();
    ids.insert(std::string(p.at("id").as_string()));
    EXPECT_EQ(p.at("status").as_string(), "ok");
    // The same point as a separate `gemini sim` with the parameter changed
    // in a copy of the configuration.
    json::value hw = read_json(set_polar_path());
    const double gbps = p.at("params").at("noc.link_gbps").to_number<double>();
    hw.at("noc").as_object()["link_gbps"] = gbps;
    const fs::path hw_file =
        test::write_temp("hw-" + std::to_string(gbps) + ".json", json::serialize(hw));
    const fs::path report = test::temp_path("separate.json");
    test::CliRun s = gemini("sim " + std::string(p.at("input").as_string()) + " -q --power --hw " +
                            hw_file.string() + " --report " + report.string());
    ASSERT_EQ(s.status, 0) << s.out;
    const json::value separate = read_json(report);
    const json::value point =
        read_json(dir / "points" / (std::string(p.at("id").as_string()) + ".json"));
    EXPECT_EQ(without_host(point.at("report")), without_host(separate))
        << "point " << p.at("id").as_string();
    EXPECT_EQ(p.at("metrics").at("total_cycles"), separate.at("total_cycles"));
    EXPECT_EQ(p.at("metrics").at("noc_link_util_max"),
              separate.at("noc").at("link_utilisation_max"));
    utilisations.insert(json::serialize(p.at("metrics").at("noc_link_util_max")));
  }
  EXPECT_EQ(ids.size(), 6u);
  EXPECT_GE(utilisations.size(), 4u) << "the axis changes the NoC of both inputs";
  // The CSV: a header and one row per point, the axis as a column.
  const std::string csv = test::read_file(dir / "results.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
  EXPECT_EQ(csv.rfind("id,input,noc.link_gbps,status,exit_code,total_cycles,time_us,", 0), 0u)
      << csv.substr(0, 200);
}

TEST(Sweep, ANocModelAxisRunsBooksim2) {
  std::string why;
  if (!sim::booksim2_built(&why)) GTEST_SKIP() << "BookSim 2 is not built: " << why;
  // noc.model as an axis: booksim2 keeps the mesh's link rate, router
  // cycles and buffers (its parameters too), and its points carry the NoC's
  // link statistics and its own counters as the mesh's do.
  const fs::path sweep = write_sweep("models", R"({"noc.model": ["mesh", "booksim2"]})");
  const fs::path dir = test::temp_path("sweep-models");
  test::CliRun r = gemini("sweep run " + sweep.string() + " -o " + dir.string() + " --jobs 1");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("4 points: 4 ok, 0 failed"), std::string::npos) << r.out;
  const json::value results = read_json(dir / "results.json");
  int booksim = 0;
  for (const json::value& pv : results.at("points").as_array()) {
    const json::object& p = pv.as_object();
    const json::value point =
        read_json(dir / "points" / (std::string(p.at("id").as_string()) + ".json"));
    EXPECT_GT(p.at("metrics").at("noc_link_util_max").to_number<double>(), 0);
    if (p.at("params").at("noc.model").as_string() != "booksim2") continue;
    ++booksim;
    EXPECT_GT(point.at("report")
                  .at("stats")
                  .at("groups")
                  .at("noc")
                  .at("stats")
                  .at("flits")
                  .at("value")
                  .to_number<double>(),
              0);
    // The latency distribution of its packets (noc_module.h), as for every
    // NoC model: samples, and its percentiles in order.
    const json::value& lat = point.at("report")
                                 .at("stats")
                                 .at("by_kind")
                                 .at("noc")
                                 .at("distributions")
                                 .at("packet_latency");
    EXPECT_GT(lat.at("count").to_number<double>(), 0);
    EXPECT_LE(lat.at("min").to_number<double>(), lat.at("p50").to_number<double>());
    EXPECT_LE(lat.at("p50").to_number<double>(), lat.at("p99").to_number<double>());
    EXPECT_LE(lat.at("p99").to_number<double>(), lat.at("max").to_number<double>());
  }
  EXPECT_EQ(booksim, 2);
  const std::string csv = test::read_file(dir / "results.csv");
  EXPECT_NE(csv.find("stats.noc.flits"), std::string::npos);
  EXPECT_NE(csv.find("stats.noc.packet_latency.p99"), std::string::npos);
}

TEST(Sweep, ADramModelAxisRunsRamulator2) {
  if (!sim::ramulator2_built()) GTEST_SKIP() << "Ramulator 2 is not built into this gemini";
  // dram.model as an axis on set-polar-lpddr5: ramulator2 takes banked's
  // preset (the same channel), and its points carry its own counters in
  // their DRAM groups and the sweep's statistics columns.
  const std::string text = R"({"name": "dram-models", "hw": ")" + std::string(GEMINI_SOURCE_DIR) +
                           R"(/configs/set-polar-lpddr5.json", "inputs": [")" +
                           (test::data_dir() / "set_minimal.json").string() +
                           R"("], "axes": {"dram.model": ["banked", "ramulator2"]}})";
  const fs::path sweep = test::write_temp("dram-models.sweep.json", text);
  const fs::path dir = test::temp_path("sweep-dram-models");
  test::CliRun r = gemini("sweep run " + sweep.string() + " -o " + dir.string() + " --jobs 1");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("2 points: 2 ok, 0 failed"), std::string::npos) << r.out;
  const json::value results = read_json(dir / "results.json");
  int ramulator = 0;
  for (const json::value& pv : results.at("points").as_array()) {
    const json::object& p = pv.as_object();
    if (p.at("params").at("dram.model").as_string() != "ramulator2") continue;
    ++ramulator;
    const json::value point =
        read_json(dir / "points" / (std::string(p.at("id").as_string()) + ".json"));
    double clocks = 0;
    for (const auto& g : point.at("report").at("stats").at("groups").as_object())
      if (g.value().at("kind").as_string() == "dram")
        clocks += g.value().at("stats").at("clocks").at("value").to_number<double>();
    EXPECT_GT(clocks, 0);
    // Its requests' latency distribution (dram_module.h), as every DRAM
    // model's.
    const json::value& lat = point.at("report")
                                 .at("stats")
                                 .at("by_kind")
                                 .at("dram")
                                 .at("distributions")
                                 .at("read_latency");
    EXPECT_GT(lat.at("count").to_number<double>(), 0);
    EXPECT_GT(lat.at("p50").to_number<double>(), 0);
  }
  EXPECT_EQ(ramulator, 1);
  const std::string csv = test::read_file(dir / "results.csv");
  EXPECT_NE(csv.find("stats.dram.clocks"), std::string::npos);
  EXPECT_NE(csv.find("stats.dram.read_latency.p99"), std::string::npos);
  EXPECT_NE(csv.find("stats.dram.queue_occupancy.mean"), std::string::npos);
}

TEST(Sweep, RerunAfterDeletingOnePointRerunsThatPointOnly) {
  const fs::path sweep = write_sweep("rerun", R"({"noc.link_gbps": [12, 24, 48]})");
  const fs::path dir = test::temp_path("sweep-rerun");
  ASSERT_EQ(gemini("sweep run " + sweep.string() + " -o " + dir.string()).status, 0);
  std::map<std::string, std::string> before;
  std::map<std::string, fs::file_time_type> times;
  for (const auto& e : fs::directory_iterator(dir / "points")) {
    before[e.path().filename().string()] = test::read_file(e.path());
    times[e.path().filename().string()] = fs::last_write_time(e.path());
  }
  ASSERT_EQ(before.size(), 6u);
  const std::string victim = std::next(before.begin(), 2)->first;
  fs::remove(dir / "points" / victim);
  test::CliRun r = gemini("sweep run " + sweep.string() + " -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("(ran 1, 5 already done)"), std::string::npos) << r.out;
  for (const auto& [name, text] : before) {
    ASSERT_TRUE(fs::exists(dir / "points" / name)) << name;
    if (name == victim) continue;
    EXPECT_EQ(fs::last_write_time(dir / "points" / name), times[name]) << name << " was rerun";
    EXPECT_EQ(test::read_file(dir / "points" / name), text);
  }
  // The rerun point's report equals the first one's.
  const json::value again = read_json(dir / "points" / victim);
  EXPECT_EQ(without_host(again.at("report")),
            without_host(json::parse(before[victim]).at("report")));
  // Nothing missing: nothing runs; --force reruns all.
  r = gemini("sweep run " + sweep.string() + " -o " + dir.string());
  EXPECT_NE(r.out.find("(ran 0, 6 already done)"), std::string::npos) << r.out;
  r = gemini("sweep run " + sweep.string() + " -o " + dir.string() + " --force");
  EXPECT_NE(r.out.find("(ran 6, 0 already done)"), std::string::npos) << r.out;
  // An extended sweep runs only its new points.
  const fs::path extended = write_sweep("rerun", R"({"noc.link_gbps": [12, 24, 48, 96]})");
  r = gemini("sweep run " + extended.string() + " -o " + dir.string());
  EXPECT_NE(r.out.find("8 points: 8 ok, 0 failed, 0 missing (ran 2, 6 already done)"),
            std::string::npos)
      << r.out;
}

TEST(Sweep, BadAxisPathFailsBeforeAnyRun) {
  const fs::path sweep = write_sweep("bad-path", R"({"dram.bandwidth_gbps": [1, 2]})");
  const fs::path dir = test::temp_path("sweep-bad-path");
  test::CliRun r = gemini("sweep run " + sweep.string() + " -o " + dir.string());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find(sweep.string() + ":/axes/dram.bandwidth_gbps/0: axis "
                                        "\"dram.bandwidth_gbps\", value 1: "
                                        "parameter \"bandwidth_gbps\" of component \"dram\": "
                                        "unknown parameter"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("nothing was run"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "points")) << "no point may run";
  EXPECT_FALSE(fs::exists(dir / "plan.json"));
}

TEST(Sweep, ValuesTheConfigurationRejectsAreErrorsNamingAxisAndValue) {
  const fs::path sweep = write_sweep(
      "bad-values", R"({"dram.model": ["simple", "dramsim"], "noc.buffer_packets": [0, -1],
                        "dram.multicast": [1]})");
  test::CliRun r = gemini("sweep run " + sweep.string() + " -o " + test::temp_path("bv").string());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("axis \"dram.model\", value \"dramsim\": parameter \"model\" "
                       "of component \"dram\": expected one of simple, banked"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("axis \"noc.buffer_packets\", value -1:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("axis \"dram.multicast\", value 1: parameter "
                       "\"multicast\" of component \"dram\": expected true or false"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("value \"simple\""), std::string::npos) << "a good value is no error";
}

TEST(Sweep, FailedPointIsRecordedAndTheSweepGoesOn) {
  const fs::path broken = test::write_temp("broken_IR.json", R"({"0": {"not": "a schedule"}})");
  const fs::path sweep = write_sweep("with-failure", R"({"noc.link_gbps": [24, 48]})",
                                     ", \"" + broken.string() + "\"");
  const fs::path dir = test::temp_path("sweep-failed");
  test::CliRun r = gemini("sweep run " + sweep.string() + " -o " + dir.string() + " --jobs 2");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("6 points: 4 ok, 2 failed, 0 missing"), std::string::npos) << r.out;
  const json::value results = read_json(dir / "results.json");
  int failed = 0;
  for (const json::value& p : results.at("points").as_array()) {
    if (p.at("label") != "broken_IR") {
      EXPECT_EQ(p.at("status"), "ok");
      continue;
    }
    ++failed;
    EXPECT_EQ(p.at("status"), "failed");
    EXPECT_EQ(p.at("exit_code"), 1) << json::serialize(p);
    EXPECT_NE(std::string(p.at("message").as_string()).find("not simulated"), std::string::npos)
        << json::serialize(p);
    EXPECT_TRUE(p.at("metrics").at("total_cycles").is_null());
    // The whole output of the run is kept.
    EXPECT_TRUE(fs::exists(dir / "logs" / (std::string(p.at("id").as_string()) + ".log")));
  }
  EXPECT_EQ(failed, 2);
  // A rerun keeps recorded failures unless asked.
  r = gemini("sweep run " + sweep.string() + " -o " + dir.string());
  EXPECT_NE(r.out.find("(ran 0, 6 already done)"), std::string::npos) << r.out;
  r = gemini("sweep run " + sweep.string() + " -o " + dir.string() + " --retry-failed");
  EXPECT_NE(r.out.find("(ran 2, 4 already done)"), std::string::npos) << r.out;
}

TEST(Sweep, SlurmScriptCoversThePointsWithoutResults) {
  const fs::path sweep = write_sweep("slurm-script", R"({"noc.link_gbps": [12, 24, 48]})");
  const fs::path dir = test::temp_path("sweep-slurm-script");
  test::CliRun r = gemini("sweep slurm " + sweep.string() + " -o " + dir.string() +
                          " --partition debug --time 10:00 --array-max 2");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string script = test::read_file(dir / "slurm" / "job-1.sh");
  EXPECT_NE(script.find("#SBATCH --array=0-5%2\n"), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --partition=debug\n"), std::string::npos) << script;
  EXPECT_NE(script.find("#SBATCH --time=10:00\n"), std::string::npos) << script;
  EXPECT_NE(script.find("exec '" + fs::canonical(GEMINI_BIN).string() + "' sweep point '" +
                        fs::absolute(dir).string() + "' \"$id\""),
            std::string::npos)
      << script;
  // Run two tasks by hand, as the nodes would; collect lists the other four.
  const std::string ids = test::read_file(dir / "slurm" / "job-1.ids");
  ASSERT_EQ(std::count(ids.begin(), ids.end(), '\n'), 6);
  const std::string first = ids.substr(0, 16), second = ids.substr(17, 16);
  EXPECT_EQ(gemini("sweep point " + dir.string() + " " + first).status, 0);
  EXPECT_EQ(gemini("sweep point " + dir.string() + " " + second).status, 0);
  r = gemini("sweep collect " + dir.string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("6 points: 2 ok, 0 failed, 4 missing"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n') >= 4, true);
  // The resubmission covers the four missing points only.
  r = gemini("sweep slurm " + sweep.string() + " -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string ids2 = test::read_file(dir / "slurm" / "job-2.ids");
  EXPECT_EQ(std::count(ids2.begin(), ids2.end(), '\n'), 4);
  EXPECT_EQ(ids2.find(first), std::string::npos);
  EXPECT_NE(test::read_file(dir / "slurm" / "job-2.sh").find("--array=0-3\n"), std::string::npos);
  EXPECT_EQ(gemini("sweep point " + dir.string() + " 0123456789abcdef").status, 2);
}

TEST(Sweep, HwByNameFindsTheInstalledConfiguration) {
  const std::string in = (test::data_dir() / "spec_minimal.json").string();
  test::CliRun by_name = gemini("sim " + in + " --hw set-polar");
  test::CliRun by_path = gemini("sim " + in + " --hw " + set_polar_path());
  ASSERT_EQ(by_name.status, 0) << by_name.out;
  EXPECT_EQ(by_name.out, by_path.out);
  test::CliRun bad = gemini("sim " + in + " --hw set-polaris");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.out.find("no such file, nor an installed configuration ("), std::string::npos)
      << bad.out;
  EXPECT_NE(bad.out.find("set-polar-ddr4"), std::string::npos) << "lists the installed ones";
}

TEST(SweepSpec, RangesZipGroupsAndTheGrid) {
  std::vector<std::string> errors;
  // No base configuration: each DRAM model takes only its own parameters.
  auto plan = plan_of(R"({"hw": {}, )" + inputs_json() +
                          R"(, "axes": {"noc.buffer_packets": {"from": 1, "to": 8, "times": 2},
                 "zip": {"dram.model": ["simple", "banked"], "dram.preset": ["ddr4_3200", "hbm2"]},
                 "clock.frequency_mhz": {"from": 500, "to": 1000, "count": 3},
                 "noc.link_gbps": {"from": 0.5, "to": 1.0, "step": 0.25}}})",
                      errors);
  ASSERT_TRUE(plan) << joined(errors);
  ASSERT_EQ(plan->points.size(), 4u * 2 * 3 * 3);
  const sweep::Point& p = plan->points[0];
  ASSERT_EQ(p.params.size(), 5u);
  EXPECT_EQ(p.params[0].second, 1);
  EXPECT_EQ(plan->points[3 * 3 * 2 * 3].params[0].second, 8);  // 1, 2, 4, 8: slowest
  EXPECT_EQ(plan->points[1].params[4].second, 0.75);           // the last axis fastest
  std::set<std::string> pairs, ids;
  for (const sweep::Point& q : plan->points) {
    pairs.insert(json::serialize(q.params[1].second) + json::serialize(q.params[2].second));
    ids.insert(q.id);
  }
  EXPECT_EQ(pairs, (std::set<std::string>{R"("simple""ddr4_3200")", R"("banked""hbm2")"}));
  EXPECT_EQ(ids.size(), plan->points.size());
  EXPECT_EQ(plan->points[4].params[3].second, 750);  // count: 500, 750, 1000
}

TEST(SweepSpec, ASwitchedModelTakesOnlyItsOwnParametersAndNullRemovesOne) {
  // set-polar's DRAM is simple with gbps_per_tops and latency_ns: banked has
  // neither, so switching the model alone is an error naming the model...
  const std::string head = R"({"hw": ")" + set_polar_path() + R"(", )" + inputs_json();
  std::vector<std::string> errors;
  EXPECT_FALSE(plan_of(head + R"(, "axes": {"dram.model": ["simple", "banked"]}})", errors));
  // (the value is the base file's: named at its place there)
  EXPECT_NE(joined(errors).find("axis \"dram.model\", value \"banked\": " + set_polar_path() +
                                ":/dram/gbps_per_tops: parameter \"gbps_per_tops\" of component "
                                "\"dram\": does not apply to DRAM model \"banked\" (only to "
                                "simple)"),
            std::string::npos)
      << joined(errors);
  // ... and null removes them in the banked point.
  errors.clear();
  auto plan = plan_of(head + R"(, "axes": {"zip": {"dram.model": ["simple", "banked"],
                                    "dram.gbps_per_tops": [0.5, null],
                                    "dram.latency_ns": [0, null]}}})",
                      errors);
  ASSERT_TRUE(plan) << joined(errors);
  ASSERT_EQ(plan->points.size(), 2u);
  const json::value banked = json::parse(plan->points[1].hw_json);
  EXPECT_EQ(banked.at("dram").at("model"), "banked");
  EXPECT_FALSE(banked.at("dram").as_object().contains("gbps_per_tops"));
  EXPECT_EQ(banked.at("dram").at("interleave"), true);  // the base's, kept
}

TEST(SweepSpec, IdsAreStableAndFollowWhatDeterminesTheResult) {
  std::vector<std::string> errors;
  const std::string head = R"({"hw": ")" + set_polar_path() + R"(", )" + inputs_json();
  auto a = plan_of(head + R"(, "axes": {"noc.link_gbps": [12, 24]}})", errors);
  auto b = plan_of(head + R"(, "axes": {"noc.link_gbps": [24, 48]}})", errors);
  auto c = plan_of(head + R"(, "axes": {"noc.link_gbps": [12, 24]}, "name": "other"})", errors);
  ASSERT_TRUE(a && b && c) << joined(errors);
  EXPECT_EQ(a->points[1].id, b->points[0].id);  // the same point in another sweep
  EXPECT_NE(a->points[0].id, a->points[1].id);
  EXPECT_EQ(a->points[0].id, c->points[0].id);  // the sweep's name is no parameter
  EXPECT_EQ(a->points[0].id.size(), 16u);
  // A different base configuration changes every id.
  auto d = plan_of(R"({"hw": {}, )" + inputs_json() + R"(, "axes": {"noc.link_gbps": [12, 24]}})",
                   errors);
  ASSERT_TRUE(d) << joined(errors);
  EXPECT_NE(a->points[0].id, d->points[0].id);
}

TEST(SweepSpec, ProblemsAreReportedWithTheirPointers) {
  struct Case {
    std::string text, want;
  };
  const std::string in = inputs_json();
  const Case cases[] = {
      {R"({"inputs": []})", ":/inputs: expected a non-empty list of inputs"},
      {R"({"inputs": ["/nonexistent/*.json"]})",
       ":/inputs/0: \"/nonexistent/*.json\" matches no file"},
      {"{" + in + R"(, "axes": {"noc.link_gbps": []}})",
       ":/axes/noc.link_gbps: axis \"noc.link_gbps\": expected at least one value"},
      {"{" + in + R"(, "axes": {"noc.link_gbps": {"from": 1, "to": 4}}})",
       "a range needs exactly one of \"step\", \"times\", \"count\""},
      {"{" + in + R"(, "axes": {"zip": {"noc.link_gbps": [1, 2], "dram.multicast": [true]}}})",
       ":/axes/zip: the axes of a zip group need as many values each"},
      {"{" + in + R"(, "axes": {"functional": [true]}})",
       "a functional run needs each input's model file; these have none: spec_minimal"},
      {"{" + in + R"(, "axes": {"seed": [-1]}})",
       "axis \"seed\", value -1: expected an integer >= 0"},
      {"{" + in + R"(, "axes": {"hw": ["no-such-config"]}})",
       ":/axes/hw/0: no hardware configuration \"no-such-config\""},
      {"{" + in + R"(, "axes": {"l2.size_bytes.x": [1]}})",
       "\"l2.size_bytes\" is 1048576 in the configuration, not a component"},
      {"{" + in + R"(, "hw": "${GEMINI_NO_SUCH_VARIABLE}"})",
       ":/hw: environment variable GEMINI_NO_SUCH_VARIABLE is not set"},
      {"{" + in + R"(, "axis": {}})", ":/axis: unknown member \"axis\""},
  };
  for (const Case& c : cases) {
    std::vector<std::string> errors;
    std::string text = c.text;
    if (text.find("\"hw\"") == std::string::npos)
      text.insert(1, R"("hw": ")" + set_polar_path() + R"(", )");
    auto plan = plan_of(text, errors);
    EXPECT_FALSE(plan) << c.text;
    EXPECT_NE(joined(errors).find(c.want), std::string::npos) << c.text << "\n" << joined(errors);
  }
  // Values that pass alone but clash in a point are named with the point.
  std::vector<std::string> errors;
  auto plan = plan_of(
      R"({"hw": {"dram": {"model": "banked", "timing": {"trfc": 50}}}, )" + in +
          R"(, "axes": {"dram.timing.trefi": [300, 10000], "dram.timing.trfc": [50, 500]}})",
      errors);
  EXPECT_FALSE(plan);
  EXPECT_NE(
      joined(errors).find("point (spec_minimal, dram.timing.trefi=300, dram.timing.trfc=500): "
                          "axis \"dram.timing.trfc\": parameter \"trfc\" of component "
                          "\"dram/timing\" (DRAM model \"banked\"): must be below trefi (300)"),
      std::string::npos)
      << joined(errors);
}

TEST(SweepSpec, ARefusedAxisValueIsNamedByItsAxisNeverByAnEmptyFile) {
  // The configuration an axis builds is no file: its value's problem is
  // the axis's, alone (at the value's place in the sweep file) and in a
  // point; a problem of the base's own value keeps the base's file.
  const std::string head = R"({"hw": ")" + set_polar_path() + R"(", )" + inputs_json();
  std::vector<std::string> errors;
  EXPECT_FALSE(plan_of(head + R"(, "axes": {"noc.link_gbps": [12, 0]}})", errors));
  ASSERT_EQ(errors.size(), 1u) << joined(errors);
  EXPECT_NE(errors[0].find(":/axes/noc.link_gbps/1: axis \"noc.link_gbps\", value 0: parameter "
                           "\"link_gbps\" of component \"noc\" (NoC model \"mesh\"): expected a "
                           "number in"),
            std::string::npos)
      << errors[0];
  EXPECT_EQ(errors[0].find(": /noc/link_gbps"), std::string::npos) << errors[0];
  EXPECT_EQ(errors[0].find(": :"), std::string::npos) << errors[0];
  // A value of an axis given whole, wrong inside: the parameter inside it.
  errors.clear();
  EXPECT_FALSE(plan_of(head + R"(, "axes": {"l2": [{"size_bytes": 0}]}})", errors));
  ASSERT_EQ(errors.size(), 1u) << joined(errors);
  EXPECT_NE(errors[0].find("axis \"l2.size_bytes\", value {\"size_bytes\":0}: parameter "
                           "\"size_bytes\" of component \"l2\""),
            std::string::npos)
      << errors[0];
  // In a point (a zip group's values, each good alone): the axis again.
  errors.clear();
  EXPECT_FALSE(
      plan_of(R"({"hw": {"dram": {"model": "banked", "timing": {"trfc": 50}}}, )" + inputs_json() +
                  R"(, "axes": {"zip": {"dram.timing.trefi": [300], "dram.timing.trfc": [500]}}})",
              errors));
  EXPECT_NE(joined(errors).find("point (spec_minimal, dram.timing.trefi=300, "
                                "dram.timing.trfc=500): axis \"dram.timing.trfc\": parameter "
                                "\"trfc\""),
            std::string::npos)
      << joined(errors);
}

}  // namespace
