// The report's declarations against real reports: every figure that
// report_metrics.h declares (what the sweep reads) is at its JSON pointer
// with the value its `read` gives, every energy component and every core's
// time by cause too; every statistics group's kind is the one the sweep
// derives from its name, and every statistic describes itself; the
// statistics table of docs/timing-model.md is the one the units declare.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <type_traits>

#include "fixture.h"
#include "functional_case.h"
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

TEST(ReportMetrics, EveryStatisticDescribesItselfUnderItsKind) {
  const Reported& r = reported();
  ASSERT_FALSE(r.report.stats.empty());
  for (const sim::StatSnapshot& s : r.report.stats) {
    EXPECT_EQ(sim::stat_kind_of(s.name), s.kind) << s.name;
    std::set<std::string> names;
    for (const sim::StatValue& v : s.values) {
      EXPECT_TRUE(names.insert(v.name).second) << s.name << "." << v.name << " twice";
      EXPECT_NE(std::string(v.description), "") << s.name << "." << v.name;
      expect_at(r.json, "/" + std::string(sim::kStatsSection) + "/" + s.name + "/" + v.name,
                v.value);
    }
  }
}

// The statistics table: one row per unit kind and statistic, as declared.
std::string statistics_table(const sim::Report& r) {
  std::string out = "| unit | statistic | counted in | what it counts |\n|---|---|---|---|\n";
  std::set<std::string> kinds;
  for (const sim::StatSnapshot& s : r.stats) {
    if (!kinds.insert(s.kind).second) continue;
    for (const sim::StatValue& v : s.values)
      out += "| " + s.kind + " | `" + v.name + "` | " + sim::to_string(v.unit) + " | " +
             v.description + " |\n";
  }
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
  const std::string want = statistics_table(reported().report);
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
