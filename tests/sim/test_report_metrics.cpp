// The report's declarations against real reports: every figure that
// report_metrics.h declares (what the sweep reads) is at its JSON pointer
// with the value its `read` gives, every energy component and every core's
// time by cause too; every statistics group carries its kind and every
// statistic its unit and description, and the sums by kind are the groups'
// summed by name; the statistics table of docs/timing-model.md is the one
// the units and every registered DRAM and NoC model declare.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>

#include "fixture.h"
#include "functional_case.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/report.h"
#include "gemini/sim/report_metrics.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file
namespace json = boost::json;

namespace {

// A functional run of a small fixture (so the functional figures exist too)
// and its JSON report.
struct Reported {
  sim::Report report;
  json::value json;
};
const Reported& reported() {
  static const Reported r = [] {
    Reported out;
    const test::FunctionalCase x =
        test::prepare_functional("spec_minimal.json", "spec_minimal.model.json");
    out.report = test::simulate_functional(x);
    std::ostringstream os;
    sim::write_report_json(os, out.report, true);
    out.json = json::parse(os.str());
    return out;
  }();
  return r;
}

// The value at `pointer` is `want`.
template <class T>
void expect_at(const json::value& v, std::string_view pointer, T want) {
  json::error_code ec;
  const json::value* got = v.find_pointer(pointer, ec);
  ASSERT_NE(got, nullptr) << pointer << " is not in the report";
  if constexpr (std::is_same_v<T, bool>) {
    EXPECT_EQ(got->as_bool(), want) << pointer;
  } else if constexpr (std::is_integral_v<T>) {
    EXPECT_EQ(got->as_int64(), std::int64_t{want}) << pointer;
  } else {
    EXPECT_DOUBLE_EQ(got->to_number<double>(), want) << pointer;
  }
}

TEST(ReportMetrics, EveryDeclaredFigureIsAtItsPointer) {
  const Reported& r = reported();
  ASSERT_TRUE(r.report.functional.enabled);
  std::set<std::string> keys;
  sim::for_each_metric(sim::kReportMetrics, [&](const auto& m) {
    EXPECT_TRUE(keys.insert(std::string(m.key)).second) << m.key << " declared twice";
    EXPECT_FALSE(m.description.empty()) << m.key;
    expect_at(r.json, m.pointer, m.read(r.report));
  });
  for (std::size_t c = 0; c < sim::kComponents; ++c) {
    const sim::EnergyComponentMetric e = sim::energy_component(static_cast<sim::Component>(c));
    EXPECT_TRUE(keys.insert(e.key).second) << e.key;
    expect_at(r.json, e.pointer, r.report.energy.pj[c]);
  }
}

TEST(ReportMetrics, TheCriticalPathsKindsAreNamedAsDeclared) {
  const Reported& r = reported();
  ASSERT_TRUE(r.report.critical_path.traced);
  expect_at(r.json, sim::metric::critical_path_cycles.pointer,
            sim::metric::critical_path_cycles.read(r.report));
  const std::string_view whole = sim::metric::critical_path_cycles.pointer;
  const std::string object(whole.substr(0, whole.rfind('/') + 1));
  for (std::size_t k = 0; k < sim::kPathKinds; ++k) {
    EXPECT_EQ(std::string_view(sim::to_string(static_cast<sim::PathKind>(k))),
              sim::metric::kPathKindNames[k]);
    expect_at(r.json, object + std::string(sim::metric::kPathKindNames[k]),
              r.report.critical_path.cycles[k]);
  }
}

TEST(ReportMetrics, EveryCoresTimeIsAtItsPointer) {
  const Reported& r = reported();
  const json::array& cores = r.json.at_pointer(sim::metric::kCoresPointer).as_array();
  ASSERT_EQ(cores.size(), r.report.cores.size());
  ASSERT_FALSE(cores.empty());
  for (std::size_t i = 0; i < cores.size(); ++i) {
    const sim::CoreReport& c = r.report.cores[i];
    expect_at(cores[i], sim::metric::core_finish.pointer, sim::metric::core_finish.read(c));
    expect_at(cores[i], sim::metric::core_busy.pointer, sim::metric::core_busy.read(c));
    std::int64_t stalls = 0;
    sim::for_each_metric(sim::kCoreStalls, [&](const auto& m) {
      expect_at(cores[i], m.pointer, m.read(c));
      stalls += m.read(c);
    });
    EXPECT_EQ(stalls, c.stall());  // every cause is declared
  }
}

// A string at `pointer`.
void expect_text_at(const json::value& v, std::string_view pointer, std::string_view want) {
  json::error_code ec;
  const json::value* got = v.find_pointer(pointer, ec);
  ASSERT_NE(got, nullptr) << pointer << " is not in the report";
  ASSERT_TRUE(got->is_string()) << pointer;
  EXPECT_EQ(std::string_view(got->get_string()), want) << pointer;
}

TEST(ReportMetrics, EveryStatisticCarriesItsKindAndUnit) {
  const Reported& r = reported();
  ASSERT_FALSE(r.report.stats.empty());
  const std::string groups = "/" + std::string(sim::kStatsSection) + "/" +
                             std::string(sim::kStatsGroups) + "/";
  for (const sim::StatSnapshot& s : r.report.stats) {
    EXPECT_NE(s.kind, "") << s.name;
    expect_text_at(r.json, groups + s.name + "/kind", s.kind);
    std::set<std::string> names;
    for (const sim::StatValue& v : s.values) {
      EXPECT_TRUE(names.insert(v.name).second) << s.name << "." << v.name << " twice";
      EXPECT_NE(std::string(v.description), "") << s.name << "." << v.name;
      const std::string at = groups + s.name + "/stats/" + v.name;
      expect_at(r.json, at + "/value", v.value);
      expect_text_at(r.json, at + "/unit", sim::to_string(v.unit));
    }
  }
}

TEST(ReportMetrics, TheSumsByKindAreTheGroupsSummedByName) {
  // Two groups of a kind that list different statistics (a DRAM model's
  // own beside the common ones) and one of another kind.
  const auto value = [](const char* name, std::int64_t v) {
    return sim::StatValue{name, v, sim::Unit::bytes, "d"};
  };
  const std::vector<sim::StatSnapshot> groups = {
      {"dram", "dram_west0", {value("bytes_read", 1), value("row_hits", 5)}},
      {"noc", "noc", {value("bytes", 7)}},
      {"dram", "dram_east0", {value("row_hits", 2), value("bytes_read", 3), value("refreshes", 4)}},
  };
  const std::vector<sim::KindStats> sums = sim::sum_by_kind(groups);
  ASSERT_EQ(sums.size(), 2u);
  EXPECT_EQ(sums[0].kind, "dram");
  EXPECT_EQ(sums[0].groups, 2);
  ASSERT_EQ(sums[0].values.size(), 3u);
  EXPECT_EQ(sums[0].values[0].name, "bytes_read");
  EXPECT_EQ(sums[0].values[0].value, 4);
  EXPECT_EQ(sums[0].values[1].name, "row_hits");
  EXPECT_EQ(sums[0].values[1].value, 7);
  EXPECT_EQ(sums[0].values[2].name, "refreshes");
  EXPECT_EQ(sums[0].values[2].value, 4);
  EXPECT_EQ(sums[0].values[2].unit, sim::Unit::bytes);
  EXPECT_EQ(sums[1].kind, "noc");
  EXPECT_EQ(sums[1].groups, 1);

  // The report's by_kind is the same summation of its groups.
  const Reported& r = reported();
  const std::string by_kind = "/" + std::string(sim::kStatsSection) + "/" +
                              std::string(sim::kStatsByKind) + "/";
  for (const sim::KindStats& k : sim::sum_by_kind(r.report.stats)) {
    expect_at(r.json, by_kind + k.kind + "/groups", k.groups);
    for (const sim::StatValue& v : k.values) {
      expect_at(r.json, by_kind + k.kind + "/stats/" + v.name + "/value", v.value);
      expect_text_at(r.json, by_kind + k.kind + "/stats/" + v.name + "/unit",
                     sim::to_string(v.unit));
    }
  }
}

// The statistics table: one row per unit kind, model and statistic, as
// declared. The NoC's and the DRAM ports' counters are their models': each
// built-in model is built and registers its own; a statistic every model
// has is "every model"'s. A model this build cannot build (an optional
// dependency left out) keeps the rows `doc` has for it.
std::string table_row(const std::string& kind, const std::string& model, const sim::StatValue& v) {
  return "| " + kind + " | " + model + " | `" + v.name + "` | " + sim::to_string(v.unit) + " | " +
         v.description + " |\n";
}

template <class Build>
std::string model_rows(const std::string& kind, const std::vector<std::string>& models,
                       Build build, const std::string& doc) {
  std::vector<std::pair<std::string, sim::StatSnapshot>> built;  // by model
  std::string kept;  // the doc's rows of models this build lacks
  for (const std::string& m : models) {
    if (std::optional<sim::StatSnapshot> snap = build(m, kind)) {
      built.emplace_back(m, std::move(*snap));
      continue;
    }
    const std::string head = "| " + kind + " | " + m + " | ";
    for (std::size_t at = doc.find(head); at != std::string::npos; at = doc.find(head, at + 1))
      kept += doc.substr(at, doc.find('\n', at) + 1 - at);
  }
  std::string out;
  auto everywhere = [&](const std::string& stat) {
    for (const auto& b : built)
      if (!b.second.find(stat)) return false;
    return built.size() > 1;
  };
  std::set<std::string> done;
  for (const auto& [model, snap] : built)
    for (const sim::StatValue& v : snap.values) {
      const bool all = everywhere(v.name);
      if (all && !done.insert(v.name).second) continue;
      out += table_row(kind, all ? "every model" : model, v);
    }
  return out + kept;
}

std::string statistics_table(const sim::Report& r, const std::string& doc) {
  std::string out =
      "| unit | model | statistic | counted in | what it counts |\n|---|---|---|---|---|\n";
  std::set<std::string> kinds;
  for (const sim::StatSnapshot& s : r.stats) {
    if (s.kind == "noc" || s.kind == "dram" || !kinds.insert(s.kind).second) continue;
    for (const sim::StatValue& v : s.values) out += table_row(s.kind, "", v);
  }
  out += model_rows(
      "noc", sim::noc_model_names(true),
      [](const std::string& m, const std::string& kind) {
        std::string error;
        sim::NocLayout layout;
        layout.xlen = layout.ylen = 2;
        layout.ports = {{-1, 0}, {2, 0}};
        const auto model = sim::make_noc_model({{"model", m}}, layout, error);
        if (!model) return std::optional<sim::StatSnapshot>();
        // Snapshotted while the model, whose counters the group reads, lives.
        sim::StatGroup g(kind, kind);
        model->register_stats(g);
        return std::optional<sim::StatSnapshot>(g.snapshot());
      },
      doc);
  out += model_rows(
      "dram", sim::dram_model_names(true),
      [](const std::string& m, const std::string& kind) {
        std::string error;
        sim::DramContext ctx;
        ctx.mesh_tops = 4;
        ctx.ports = 2;
        const auto model = sim::make_dram_model({{"model", m}}, ctx, error);
        if (!model) return std::optional<sim::StatSnapshot>();
        // Snapshotted while the model, whose counters the group reads, lives.
        sim::StatGroup g(kind, kind);
        model->register_stats(g);
        return std::optional<sim::StatSnapshot>(g.snapshot());
      },
      doc);
  return out;
}

TEST(ReportMetrics, TheDocsListEveryStatistic) {
  const std::string begin = "<!-- statistics table: tests/sim/test_report_metrics.cpp -->\n";
  const std::string end = "<!-- end of the statistics table -->\n";
  const std::filesystem::path doc =
      std::filesystem::path(GEMINI_SOURCE_DIR) / "docs" / "timing-model.md";
  std::string text = test::read_file(doc);
  const std::size_t from = text.find(begin), to = text.find(end);
  ASSERT_NE(from, std::string::npos) << doc << " has no statistics table";
  ASSERT_NE(to, std::string::npos) << doc << " has no end to its statistics table";
  const std::string want = statistics_table(reported().report, text);
  const std::string got = text.substr(from + begin.size(), to - from - begin.size());
  if (got != want && std::getenv("GEMINI_UPDATE_DOCS")) {
    text.replace(from + begin.size(), got.size(), want);
    std::ofstream(doc) << text;
    return;
  }
  EXPECT_EQ(got, want) << doc
                       << " is out of date: its table should read as above "
                          "(GEMINI_UPDATE_DOCS=1 rewrites it)";
}

}  // namespace
