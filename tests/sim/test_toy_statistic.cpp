// The worked example of docs/architecture.md, "A report statistic": a toy
// statistic -- the convolution tiles the functional PE computed -- declared
// once, by an observer that lives in this test file only, reaches the text
// report, the JSON `stats` section and the sweep's results (a
// `stats.toy.conv_tiles` column in results.csv and results.json) without a
// line of report or sweep code knowing it. A unit's own statistic is the
// same add() line in its unit's register_stats or a model's add_stats
// (core_module.cpp, dram_model.cpp, mesh_noc.h); an observer's group joins through
// SimOptions::stat_groups.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <filesystem>
#include <sstream>

#include "fixture.h"
#include "functional_case.h"
#include "gemini/sim/report.h"
#include "gemini/sim/simulator.h"
#include "gemini/sweep/results.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file
namespace json = boost::json;

namespace {

// The toy unit: a plain counter, incremented directly, declared once.
class ToyTileCounter : public sim::TileHook {
 public:
  ToyTileCounter() {
    stats_.add("conv_tiles", &conv_tiles_, sim::Unit::count,
               "convolution tiles the functional PE computed");
  }
  bool wants(const sim::TileSite&, model::TileKind kind) override {
    conv_tiles_ += kind == model::TileKind::conv;
    return false;
  }
  void seen(const model::TileOp&, const sim::TileSite&, const void*, double) override {}
  const sim::StatGroup& stats() const { return stats_; }
  std::int64_t conv_tiles() const { return conv_tiles_; }

 private:
  std::int64_t conv_tiles_ = 0;
  sim::StatGroup stats_{"toy", "toy"};
};

TEST(ToyStatistic, OneDeclarationReachesTheReportsAndTheSweep) {
  const test::FunctionalCase x =
      test::prepare_functional("spec_minimal.json", "spec_minimal.model.json");
  ASSERT_TRUE(x.file.program);
  ToyTileCounter toy;
  sim::SimOptions o;
  o.xlen = x.file.model.xlen;
  o.ylen = x.file.model.ylen;
  o.network = &x.semantics->net;
  o.reference = &x.semantics->ref;
  o.tiles = &toy;
  o.stat_groups = {&toy.stats()};
  sim::Report r;
  std::string error;
  ASSERT_TRUE(sim::simulate(*x.file.program, test::set_polar(), sim::workload_table(x.file.model),
                            o, r, error))
      << error;
  const std::int64_t n = toy.conv_tiles();
  ASSERT_GT(n, 0);

  std::ostringstream text, report;
  sim::print_report(text, r);
  EXPECT_NE(text.str().find("\n  toy (1): conv_tiles " + std::to_string(n) + "\n"),
            std::string::npos)
      << text.str();
  sim::write_report_json(report, r, true);
  const json::value parsed = json::parse(report.str());
  EXPECT_EQ(parsed.at_pointer("/stats/groups/toy/kind"), json::value("toy"));
  EXPECT_EQ(parsed.at_pointer("/stats/groups/toy/stats/conv_tiles/value"), json::value(n));
  EXPECT_EQ(parsed.at_pointer("/stats/groups/toy/stats/conv_tiles/unit"), json::value("count"));
  EXPECT_EQ(parsed.at_pointer("/stats/by_kind/toy/stats/conv_tiles/value"), json::value(n));

  // The sweep's results of one point whose record holds that report.
  sweep::Plan plan;
  plan.name = "toy";
  sweep::Point p;
  p.id = "0123456789abcdef";
  p.input.label = "spec_minimal";
  plan.points.push_back(p);
  sweep::PointRecord record;
  record.id = p.id;
  record.ok = true;
  record.exit_code = 0;
  record.report = parsed;
  const std::vector<sweep::Row> rows{{&plan.points[0], record}};
  const std::filesystem::path dir = test::temp_path("toy-statistic-sweep");
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(sweep::write_results(dir.string(), plan, rows, error)) << error;
  std::istringstream csv(test::read_file(dir / "results.csv"));
  std::string header, row;
  std::getline(csv, header);
  std::getline(csv, row);
  auto cells = [](const std::string& line) {
    std::vector<std::string> out(1);
    for (char c : line)
      if (c == ',')
        out.emplace_back();
      else
        out.back().push_back(c);
    return out;
  };
  const std::vector<std::string> names = cells(header), values = cells(row);
  const auto at = std::find(names.begin(), names.end(), "stats.toy.conv_tiles");
  ASSERT_NE(at, names.end()) << header;
  EXPECT_EQ(values.at(static_cast<std::size_t>(at - names.begin())), std::to_string(n));
  const json::value results = json::parse(test::read_file(dir / "results.json"));
  EXPECT_EQ(results.at_pointer("/points/0/metrics/stats.toy.conv_tiles"), json::value(n));
  // Its unit and description travel with it.
  bool described = false;
  for (const json::value& c : results.at("columns").as_array())
    if (c.at("name") == "stats.toy.conv_tiles") {
      EXPECT_EQ(c.at("unit"), "count");
      EXPECT_NE(std::string(c.at("meaning").as_string()).find("conv_tiles"), std::string::npos);
      described = true;
    }
  EXPECT_TRUE(described);
}

}  // namespace
