// A study (docs/sweeps.md, "Studies"): sweep inputs that bring the hardware
// their schedule was made for, from the Gemini scheduler's manifest
// columns, converted once (sweep/scheduler_point.h) and applied on the
// input's base before the axes; the results' scheduler columns beside ours;
// the ranking both ways with its rank correlations, worked by hand.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "fixture.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sweep/plan.h"
#include "gemini/sweep/scheduler_point.h"
#include "gemini/sweep/spec.h"
#include "gemini/sweep/study.h"

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

std::string config(const std::string& name) {
  return std::string(GEMINI_SOURCE_DIR) + "/configs/" + name + ".json";
}

const char* kHeader =
    "file,network,batch,xlen,ylen,xcut,ycut,d2d,tech,freq_mhz,nop_gbps,noc_gbps,dram_gbps,"
    "latency_cycles,energy_pj,e_l2,e_core_buffers,e_bus,e_mac,e_noc,e_nop,e_dram,cost_overall\n";

// A manifest in the scheduler's columns for the two 2x1 example IRs.
fs::path write_manifest(const std::string& name, const std::string& spec_row,
                        const std::string& set_row) {
  return test::write_temp(name + ".manifest.csv", std::string(kHeader) + "spec_minimal.json," +
                                                      spec_row + "\nset_minimal.json," + set_row +
                                                      "\n");
}

std::string study_sweep(const fs::path& manifest, const std::string& hw,
                        const std::string& axes = "{}") {
  return R"({"name": "study-test", "hw": ")" + config("gemini-hpca24") +
         R"(", "inputs": [{"ir": ")" + test::data_dir().string() +
         R"(/{spec,set}_minimal.json", "manifest": ")" + manifest.string() +
         R"(", "hardware": "gemini")" + hw + "}], \"axes\": " + axes + "}";
}

std::optional<sweep::Plan> plan_of(const std::string& text, std::vector<std::string>& errors) {
  const fs::path p = test::write_temp("study.sweep.json", text);
  sweep::LoadOptions lo;
  lo.check_hw = [](const std::string& hw, const std::string& origin, ir::ConfigErrors& errs) {
    return sim::parse_hw_config(hw, origin, errs).has_value();
  };
  auto spec = sweep::load_sweep(p.string(), lo, errors);
  if (!spec) return std::nullopt;
  return sweep::expand(*spec, errors);
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += x + "\n";
  return s;
}

// Rows: one die at 12 nm, and two dies over UCIe at 7 nm / 1.3 GHz.
const std::string kOneDie = "net,1,2,1,1,1,XSR,12,1000,16,32,2,1000,2e6,1,1,0,1,1,0,1,10.5";
const std::string kUcie7nm = "net,1,2,1,2,1,UCIe,7,1300,16,32,2,2000,3e6,1,1,0,1,1,2,1,12.25";

}  // namespace

TEST(SchedulerPoint, TheSchedulersUnitsConvertedOnceOnTopOfTheBase) {
  const json::object base = json::parse(test::read_file(config("gemini-hpca24-7nm"))).as_object();
  const std::map<std::string, std::string> row{{"xlen", "6"},
                                               {"ylen", "6"},
                                               {"xcut", "3"},
                                               {"ycut", "3"},
                                               {"d2d", "UCIe"},
                                               {"tech", "7"},
                                               {"freq_mhz", "1300"},
                                               {"nop_gbps", "16"},
                                               {"noc_gbps", "32"},
                                               {"dram_gbps", "36.0"},
                                               {"latency_cycles", "1125632"},
                                               {"energy_pj", "1.2e10"},
                                               {"cost_overall", "32.7124"},
                                               {"e_nop", "6.5e9"}};
  std::string error;
  const auto p = sweep::gemini_hardware_point(row, base, error);
  ASSERT_TRUE(p) << error;
  std::map<std::string, json::value> got(p->params.begin(), p->params.end());
  EXPECT_EQ(got.at("clock.frequency_mhz"), 1300.0);
  EXPECT_DOUBLE_EQ(got.at("noc.link_gbps").as_double(), 41.6);  // 32 bytes per cycle at 1.3 GHz
  EXPECT_DOUBLE_EQ(got.at("chiplets.d2d_gbps").as_double(), 20.8);
  EXPECT_EQ(got.at("chiplets.x_cut"), 3);
  EXPECT_EQ(got.at("chiplets.interface"), "UCIe");
  // The base's XSR lane and PHY parameters are XSR's: removed for UCIe.
  EXPECT_TRUE(got.at("chiplets.lane_mw").is_null());
  EXPECT_TRUE(got.at("chiplets.phy_um2_per_gbps").is_null());
  EXPECT_EQ(got.count("chiplets.d2d_latency_ns"), 0u) << "the section's own, kept";
  // 36 bytes per cycle over 36 cores x 1024 MACs x 2 / 1000: 0.48828125 per TOPS.
  EXPECT_DOUBLE_EQ(got.at("dram.gbps_per_tops").as_double(), 36.0 / (36 * 1024 * 2 / 1000.0));
  EXPECT_TRUE(got.at("dram.port_gbps").is_null());
  EXPECT_DOUBLE_EQ(*p->figures.cycles, 1125632 * 1.3);  // its ns at its clock
  EXPECT_DOUBLE_EQ(*p->figures.time_us, 1125.632);
  EXPECT_DOUBLE_EQ(*p->figures.overall_usd, 32.7124);
  ASSERT_EQ(p->figures.energy_components.size(), 1u);
  EXPECT_EQ(p->figures.energy_components[0].first, "d2d");
  // The same interface as the base keeps its parameters.
  auto xsr = row;
  xsr["d2d"] = "XSR";
  const auto q = sweep::gemini_hardware_point(xsr, base, error);
  ASSERT_TRUE(q);
  for (const auto& [path, v] : q->params) EXPECT_NE(path, "chiplets.lane_mw");
  // A point at another process node than the base is an error naming it.
  auto twelve = row;
  twelve["tech"] = "12";
  EXPECT_FALSE(sweep::gemini_hardware_point(twelve, base, error));
  EXPECT_NE(error.find("column \"tech\": the point is at 12 nm, the base configuration at 7 nm"),
            std::string::npos)
      << error;
  auto bad = row;
  bad["nop_gbps"] = "fast";
  EXPECT_FALSE(sweep::gemini_hardware_point(bad, base, error));
  EXPECT_NE(error.find("column \"nop_gbps\": expected a number > 0, got \"fast\""),
            std::string::npos)
      << error;
}

TEST(SweepStudy, EachInputRunsOnItsOwnHardwarePointAndAxesMultiplyOnTop) {
  const fs::path m = write_manifest("own", kOneDie, kUcie7nm);
  std::vector<std::string> errors;
  // The 7 nm row needs a 7 nm base: the input's own `hw` would give it;
  // on the sweep's 12 nm base it is an error naming the file.
  EXPECT_FALSE(plan_of(study_sweep(m, ""), errors));
  EXPECT_NE(joined(errors).find("/inputs/0/manifest: set_minimal.json: column \"tech\": the point "
                                "is at 7 nm, the base configuration at 12 nm"),
            std::string::npos)
      << joined(errors);
  errors.clear();
  const fs::path m12 = write_manifest(
      "own12", kOneDie, "net,1,2,1,2,1,UCIe,12,1000,16,32,2,2000,3e6,1,1,0,1,1,2,1,12.25");
  auto plan = plan_of(study_sweep(m12, "", R"({"dram.multicast": [false, true]})"), errors);
  ASSERT_TRUE(plan) << joined(errors);
  ASSERT_EQ(plan->points.size(), 4u);
  for (const sweep::Point& p : plan->points) {
    const json::value hw = json::parse(p.hw_json);
    const bool two = p.input.label == "set_minimal";
    EXPECT_EQ(hw.at("chiplets").at("x_cut"), two ? 2 : 1) << p.input.label;
    EXPECT_EQ(hw.at("chiplets").at("interface"), two ? "UCIe" : "XSR");
    EXPECT_EQ(hw.at("dram").at("multicast"), p.params[0].second) << "the axis on top";
    ASSERT_TRUE(p.input.scheduler);
    EXPECT_EQ(p.input.estimate_cycles, two ? 2000 : 1000);  // its latency at its clock
    EXPECT_FALSE(p.hardware.empty());
  }
  // The id covers the hardware point: another D2D bandwidth, another id
  // (the glob's files sorted: set_minimal's two points first).
  ASSERT_EQ(plan->points[0].input.label, "set_minimal");
  const fs::path m32 = write_manifest(
      "own32", kOneDie, "net,1,2,1,2,1,UCIe,12,1000,32,32,2,2000,3e6,1,1,0,1,1,2,1,12.25");
  auto plan32 = plan_of(study_sweep(m32, "", R"({"dram.multicast": [false, true]})"), errors);
  ASSERT_TRUE(plan32) << joined(errors);
  EXPECT_EQ(plan->points[2].id, plan32->points[2].id) << "the one-die point did not change";
  EXPECT_NE(plan->points[0].id, plan32->points[0].id);
  // The input's own base at 7 nm takes the 7 nm row (and is its base: 1.3 GHz).
  const fs::path m7 = write_manifest(
      "own7", "net,1,2,1,1,1,XSR,7,1300,16,32,2,1000,2e6,1,1,0,1,1,0,1,10.5", kUcie7nm);
  plan = plan_of(study_sweep(m7, R"(, "hw": ")" + config("gemini-hpca24-7nm") + "\""), errors);
  ASSERT_TRUE(plan) << joined(errors);
  ASSERT_EQ(plan->points[0].input.label, "set_minimal");  // the UCIe row
  const json::value hw = json::parse(plan->points[0].hw_json);
  EXPECT_EQ(hw.at("clock").at("frequency_mhz"), 1300.0);
  EXPECT_EQ(hw.at("energy").at("noc_pj_per_byte_hop"), 2.24) << "the 7 nm base's energies";
  EXPECT_FALSE(hw.at("chiplets").as_object().contains("lane_mw"));
}

TEST(SweepStudy, ProblemsNameTheInputAndTheManifest) {
  const fs::path m = write_manifest("bad", kOneDie, kOneDie);
  const std::string dir = test::data_dir().string();
  struct Case {
    std::string inputs, want;
  };
  const Case cases[] = {
      {R"([{"ir": ")" + dir + R"(/spec_minimal.json", "hardware": "gemini"}])",
       "/inputs/0/hardware: the hardware points come from a manifest: give \"manifest\""},
      {R"([{"ir": ")" + dir + R"(/spec_minimal.json", "manifest": ")" + m.string() +
           R"(", "hardware": "set"}])",
       "/inputs/0/hardware: expected \"gemini\""},
      {R"([{"ir": ")" + dir + R"(/early_write.json", "manifest": ")" + m.string() +
           R"(", "hardware": "gemini"}])",
       "/inputs/0/manifest: the manifest has no row for early_write.json"},
      {R"([{"ir": ")" + dir + R"(/spec_minimal.json", "hw": 3}])",
       "/inputs/0/hw: expected a configuration name, a file or an object"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> errors;
    EXPECT_FALSE(plan_of(
        R"({"hw": ")" + config("gemini-hpca24") + R"(", "inputs": )" + c.inputs + "}", errors));
    EXPECT_NE(joined(errors).find(c.want), std::string::npos) << c.inputs << "\n" << joined(errors);
  }
}

TEST(SweepStudy, RankCorrelationsWorkedByHand) {
  // One swap in four: rho = 1 - 6 x 2 / (4 x 15) = 0.8; tau = (5 - 1) / 6.
  EXPECT_NEAR(*sweep::spearman_rho({1, 2, 3, 4}, {1, 3, 2, 4}), 0.8, 1e-12);
  EXPECT_NEAR(*sweep::kendall_tau_b({1, 2, 3, 4}, {1, 3, 2, 4}), 4.0 / 6.0, 1e-12);
  EXPECT_NEAR(*sweep::spearman_rho({4, 3, 2, 1}, {1, 2, 3, 4}), -1.0, 1e-12);
  // A tie: mean ranks 1.5, 1.5, 3 against 1, 2, 3: rho = 1.5 / sqrt(1.5 x 2);
  // tau-b = (2 - 0) / sqrt((2 + 1) x 2).
  EXPECT_NEAR(*sweep::spearman_rho({1, 1, 2}, {1, 2, 3}), 1.5 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(*sweep::kendall_tau_b({1, 1, 2}, {1, 2, 3}), 2 / std::sqrt(6.0), 1e-12);
  EXPECT_FALSE(sweep::spearman_rho({1}, {1}));
  EXPECT_FALSE(sweep::kendall_tau_b({2, 2}, {1, 3})) << "a constant list has no order";
}

TEST(SweepStudy, ResultsPutTheSchedulersFiguresBesideOursAndRankBothWays) {
  const fs::path m = write_manifest(
      "run", kOneDie, "net,1,2,1,2,1,UCIe,12,1000,16,32,2,2000,3e6,1,1,0,1,1,2,1,12.25");
  const fs::path sweep = test::write_temp("run.sweep.json", study_sweep(m, ""));
  const fs::path dir = test::temp_path("sweep-study");
  test::CliRun r = test::run_gemini("sweep run " + sweep.string() + " -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const json::value results = json::parse(test::read_file(dir / "results.json"));
  const json::array& points = results.at("points").as_array();
  ASSERT_EQ(points.size(), 2u);
  for (const json::value& pv : points) {
    const json::object& p = pv.as_object();
    const json::object& mx = p.at("metrics").as_object();
    const bool two = p.at("label") == "set_minimal";
    EXPECT_EQ(mx.at("scheduler_time_us").as_double(), two ? 2.0 : 1.0);
    EXPECT_EQ(mx.at("scheduler_energy_pj").as_double(), two ? 3e6 : 2e6);
    EXPECT_DOUBLE_EQ(mx.at("time_over_scheduler").as_double(),
                     mx.at("time_us").as_double() / mx.at("scheduler_time_us").as_double());
    EXPECT_DOUBLE_EQ(mx.at("scheduler_edp_pj_cycles").as_double(), two ? 3e6 * 2000 : 2e6 * 1000);
    EXPECT_EQ(mx.at("scheduler_energy_d2d_pj").as_double(), two ? 2.0 : 0.0);
    EXPECT_EQ(p.at("hardware").at("chiplets.interface"), two ? "UCIe" : "XSR");
    EXPECT_TRUE(mx.at("path_compute_share").is_number());
    // The reports say it ran on that hardware.
    const json::value rec = json::parse(
        test::read_file(dir / "points" / (std::string(p.at("id").as_string()) + ".json")));
    if (two) EXPECT_EQ(rec.at("report").at("chiplets").at("interface"), "UCIe");
  }
  const std::string csv = test::read_file(dir / "results.csv");
  EXPECT_NE(csv.find("id,input,clock.frequency_mhz,noc.link_gbps,chiplets.x_cut,"),
            std::string::npos)
      << csv.substr(0, 300);
  // The study: both figures per point, the ranks, the correlations.
  const json::value study = json::parse(test::read_file(dir / "study.json"));
  const json::object& g = study.at("groups").as_array()[0].as_object();
  ASSERT_EQ(g.at("points").as_array().size(), 2u);
  for (const json::value& ranking : g.at("rankings").as_array()) {
    EXPECT_EQ(ranking.at("points"), 2u);
    EXPECT_TRUE(ranking.at("agree").is_bool());
  }
  for (const json::value& pv : g.at("points").as_array())
    EXPECT_EQ(pv.at("scheduler").at("latency").as_double(),
              pv.at("label") == "set_minimal" ? 2.0 : 1.0);
  r = test::run_gemini("sweep study " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("| ranked by | points | Spearman rho | Kendall tau-b |"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2x1 UCIe 16 GB/s"), std::string::npos) << r.out;
  // Not a study: said so.
  const fs::path plain = test::write_temp(
      "plain.sweep.json", R"({"hw": ")" + config("set-polar") + R"(", "inputs": [")" +
                              (test::data_dir() / "spec_minimal.json").string() + "\"]}");
  const fs::path pdir = test::temp_path("sweep-plain");
  ASSERT_EQ(test::run_gemini("sweep run " + plain.string() + " -o " + pdir.string()).status, 0);
  EXPECT_FALSE(fs::exists(pdir / "study.json"));
  EXPECT_EQ(test::run_gemini("sweep study " + pdir.string()).status, 1);
}
