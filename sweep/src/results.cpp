#include "gemini/sweep/results.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <utility>

#include "gemini/sim/report_metrics.h"
#include "json_io.h"

namespace gemini::sweep {
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

using R = const PointRecord&;
using P = const Point&;

// The value at a JSON pointer (report_metrics.h); null when absent.
const json::value* at(const json::value& v, std::string_view pointer) {
  json::error_code ec;
  return v.find_pointer(pointer, ec);
}
double num(const json::value* v) { return v && v->is_number() ? v->to_number<double>() : 0.0; }
json::value ratio(double a, double b) { return b > 0 ? json::value(a / b) : json::value(); }

// An ok point's value at `pointer` in its report (null otherwise).
json::value reported(R r, std::string_view pointer) {
  if (!r.ok) return nullptr;
  const json::value* v = at(r.report, pointer);
  return v ? *v : json::value();
}

// A figure the report declares, as its column.
template <class Metric>
MetricColumn column(const Metric& m) {
  return {
      std::string(m.key),         sim::to_string(m.unit),
      std::string(m.description), m.plot,
      std::string(m.group),       [pointer = m.pointer](R r, P) { return reported(r, pointer); }};
}

// A part of the cores' time (sim::CoreShare) summed over the cores, over
// their cycles until each finished.
MetricColumn share_column(std::string_view key, std::string_view pointer,
                          std::string_view description) {
  auto get = [pointer](R r, P) {
    if (!r.ok) return json::value();
    const json::value* cores = at(r.report, sim::metric::kCoresPointer);
    if (!cores || !cores->is_array()) return json::value();
    double part = 0, whole = 0;
    for (const json::value& c : cores->get_array()) {
      whole += num(at(c, sim::metric::core_finish.pointer));
      part += num(at(c, pointer));
    }
    return whole > 0 ? json::value(part / whole) : json::value();
  };
  return {std::string(key),
          sim::to_string(sim::Unit::fraction),
          std::string(description),
          true,
          "core time",
          get};
}
template <class Share>
MetricColumn share_column(const Share& s) {
  return share_column(s.key, s.pointer, s.description);
}

// The scheduler's figure of a study's point (Input::scheduler; null
// without one), for an ok point.
std::optional<double> scheduler(R r, P p, std::optional<double> SchedulerFigures::*figure) {
  if (!r.ok || !p.input.scheduler) return std::nullopt;
  return (*p.input.scheduler).*figure;
}
json::value maybe(std::optional<double> v) { return v ? json::value(*v) : json::value(); }
double our(R r, std::string_view pointer) { return num(at(r.report, pointer)); }

// A study's columns (docs/sweeps.md, "Studies"): the scheduler's figures
// for each point beside ours, and ours over its.
void add_scheduler_columns(std::vector<MetricColumn>& c) {
  namespace m = sim::metric;
  using sim::Unit;
  auto edp = [](R r, P p) -> std::optional<double> {
    const auto e = scheduler(r, p, &SchedulerFigures::energy_pj);
    const auto t = scheduler(r, p, &SchedulerFigures::cycles);
    if (!e || !t) return std::nullopt;
    return *e * *t;
  };
  c.push_back({"scheduler_time_us", sim::to_string(Unit::microseconds),
               "the scheduler's latency for the point (its manifest's, at its clock)", false, "",
               [](R r, P p) { return maybe(scheduler(r, p, &SchedulerFigures::time_us)); }});
  c.push_back({"scheduler_energy_pj", sim::to_string(Unit::picojoules),
               "the scheduler's energy for the point", false, "",
               [](R r, P p) { return maybe(scheduler(r, p, &SchedulerFigures::energy_pj)); }});
  c.push_back({"scheduler_overall_usd", sim::to_string(Unit::usd),
               "the scheduler's cost for the point (cost_overall)", false, "",
               [](R r, P p) { return maybe(scheduler(r, p, &SchedulerFigures::overall_usd)); }});
  c.push_back({"scheduler_edp_pj_cycles", sim::to_string(Unit::pj_cycles),
               "the scheduler's energy x its latency in cycles of its clock", false, "",
               [edp](R r, P p) { return maybe(edp(r, p)); }});
  c.push_back({"scheduler_cost_edp_usd_pj_cycles", sim::to_string(Unit::usd_pj_cycles),
               "the scheduler's cost x its EDP: its objective", false, "", [edp](R r, P p) {
                 const auto usd = scheduler(r, p, &SchedulerFigures::overall_usd);
                 const auto e = edp(r, p);
                 return usd && e ? json::value(*usd * *e) : json::value();
               }});
  for (const auto& [name, column] : kSchedulerEnergyComponents)
    c.push_back({std::string("scheduler_energy_") + name + "_pj",
                 sim::to_string(Unit::picojoules),
                 std::string("the scheduler's energy: its ") + column + " column", false, "",
                 [name = std::string(name)](R r, P p) {
                   if (!r.ok || !p.input.scheduler) return json::value();
                   for (const auto& [n, v] : p.input.scheduler->energy_components)
                     if (n == name) return json::value(v);
                   return json::value();
                 }});
  auto over = [](std::string_view pointer, std::optional<double> SchedulerFigures::*figure) {
    return [pointer, figure](R r, P p) {
      const auto s = scheduler(r, p, figure);
      return s ? ratio(our(r, pointer), *s) : json::value();
    };
  };
  c.push_back({"time_over_scheduler", sim::to_string(Unit::ratio),
               "simulated time / the scheduler's latency", true, "study",
               over(m::time_us.pointer, &SchedulerFigures::time_us)});
  c.push_back({"energy_over_scheduler", sim::to_string(Unit::ratio),
               "simulated energy / the scheduler's", true, "study",
               over(m::energy_pj.pointer, &SchedulerFigures::energy_pj)});
  c.push_back({"overall_usd_over_scheduler", sim::to_string(Unit::ratio),
               "our cost / the scheduler's", true, "study",
               over(m::silicon_overall_usd.pointer, &SchedulerFigures::overall_usd)});
}

// The critical path's cycles of each kind over its whole.
void add_path_columns(std::vector<MetricColumn>& c) {
  namespace m = sim::metric;
  const std::string_view whole = m::critical_path_cycles.pointer;
  const std::string_view object = whole.substr(0, whole.rfind('/') + 1);
  for (const std::string_view kind : m::kPathKindNames)
    c.push_back({"path_" + std::string(kind) + "_share", sim::to_string(sim::Unit::fraction),
                 "the critical path's " + std::string(kind) + " cycles / its cycles", true,
                 "critical path",
                 [pointer = std::string(object) + std::string(kind), whole](R r, P) {
                   return r.ok && at(r.report, whole) ? ratio(our(r, pointer), our(r, whole))
                                                      : json::value();
                 }});
}

std::vector<MetricColumn> make_columns() {
  namespace m = sim::metric;
  using sim::Unit;
  std::vector<MetricColumn> c{
      column(m::total_cycles),
      column(m::time_us),
      {"estimate_cycles", sim::to_string(Unit::cycles),
       "the scheduler's estimate for the whole network (the sweep file's)", false, "",
       [](R r, P p) {
         return r.ok && p.input.estimate_cycles ? json::value(*p.input.estimate_cycles)
                                                : json::value();
       }},
      {"sim_over_estimate", sim::to_string(Unit::ratio),
       "simulated cycles / the scheduler's estimate", true, "",
       [](R r, P p) {
         return r.ok && p.input.estimate_cycles
                    ? ratio(num(at(r.report, m::total_cycles.pointer)),
                            static_cast<double>(*p.input.estimate_cycles))
                    : json::value();
       }},
      column(m::dram_bytes),
      column(m::dram_gbps),
      column(m::dram_peak_gbps),
      {"dram_utilisation", sim::to_string(Unit::fraction), "DRAM bandwidth achieved / peak", true,
       "",
       [](R r, P) {
         return r.ok ? ratio(num(at(r.report, m::dram_gbps.pointer)),
                             num(at(r.report, m::dram_peak_gbps.pointer)))
                     : json::value();
       }},
      column(m::noc_bytes),
      column(m::noc_link_util_max),
      column(m::noc_link_util_mean),
      column(m::d2d_links),
      column(m::d2d_byte_hops),
      column(m::d2d_link_util_max),
      column(m::silicon_total_die_mm2),
      column(m::silicon_overall_usd),
      column(m::cost_edp),
  };
  add_scheduler_columns(c);
  c.push_back(share_column(m::core_busy));
  sim::for_each_metric(sim::kCoreStalls, [&](const auto& s) { c.push_back(share_column(s)); });
  add_path_columns(c);
  c.push_back(column(m::energy_pj));
  c.push_back(column(m::edp));
  for (std::size_t k = 0; k < sim::kComponents; ++k) {
    const sim::EnergyComponentMetric e = sim::energy_component(static_cast<sim::Component>(k));
    c.push_back({e.key, sim::to_string(Unit::picojoules),
                 std::string("energy: ") + sim::kComponentTable[k].description, true, "energy",
                 [pointer = e.pointer](R r, P) { return reported(r, pointer); }});
  }
  // Power over time (sweep points run with --power).
  c.push_back(column(m::power_peak_w));
  c.push_back(column(m::power_average_w));
  c.push_back(column(m::die_power_peak_w));
  c.push_back(column(m::die_power_average_w));
  c.push_back(column(m::power_window_ns));
  // The functional figures of a run that failed (a mismatch) still count.
  c.push_back({"functional_verdict", "", "functional verdict: pass, fail, or empty when not run",
               false, "", [](R r, P) {
                 const json::value* v = at(r.report, m::functional_passed.pointer);
                 return v && v->is_bool() ? json::value(v->get_bool() ? "pass" : "fail")
                                          : json::value();
               }});
  MetricColumn mismatches = column(m::functional_mismatches);
  mismatches.get = [](R r, P) {
    const json::value* v = at(r.report, m::functional_mismatches.pointer);
    return v ? *v : json::value();
  };
  c.push_back(std::move(mismatches));
  c.push_back({"host_seconds", sim::to_string(Unit::seconds),
               "wall time of the point's gemini sim run", true, "",
               [](R r, P) { return json::value(r.host_seconds); }});
  c.push_back({"peak_rss_mb", sim::to_string(Unit::megabytes), "peak resident memory of the run",
               false, "", [](R r, P) { return json::value(r.peak_rss_mb); }});
  return c;
}

}  // namespace

const std::vector<MetricColumn>& metric_columns() {
  static const std::vector<MetricColumn> columns = make_columns();
  return columns;
}

Tally tally(const std::vector<Row>& rows) {
  Tally t;
  for (const Row& r : rows) {
    if (!r.record)
      ++t.missing;
    else if (r.record->ok)
      ++t.ok;
    else
      ++t.failed;
  }
  return t;
}

std::string describe(const Point& p) {
  std::string s;
  for (const auto& [name, v] : p.params)
    s += (s.empty() ? "" : ", ") + name + "=" + detail::cell(v);
  return s;
}

std::vector<Row> collect(const std::string& dir, const Plan& plan) {
  std::vector<Row> rows;
  rows.reserve(plan.points.size());
  for (const Point& p : plan.points) rows.push_back(Row{&p, read_point(dir, p.id)});
  return rows;
}

namespace {
std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
  return q + "\"";
}
const char* status_of(const Row& r) {
  return !r.record ? "missing" : r.record->ok ? "ok" : "failed";
}

// The statistics of the rows' reports: their sums by kind (the `by_kind`
// part of each report's `stats` section, stat_snapshot.h), one column per
// kind and statistic in the order first met, with its unit and
// description.
struct StatColumn {
  std::string kind, stat, unit, description;
};
struct StatColumns {
  std::vector<StatColumn> names;
  std::vector<std::vector<std::optional<std::int64_t>>> rows;  // per row, per column
  std::string name(std::size_t c) const { return "stats." + names[c].kind + "." + names[c].stat; }
};

const json::object* object_at(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_object() ? &v->get_object() : nullptr;
}

StatColumns stat_columns(const std::vector<Row>& rows) {
  StatColumns out;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  for (const Row& row : rows) {
    auto& values = out.rows.emplace_back();
    if (!row.record || !row.record->ok || !row.record->report.is_object()) continue;
    const json::object* stats = object_at(row.record->report.get_object(), sim::kStatsSection);
    const json::object* kinds = stats ? object_at(*stats, sim::kStatsByKind) : nullptr;
    if (!kinds) continue;
    // One value of column (kind, stat), declared by `decl` (its unit and
    // description) when first met.
    auto put = [&](std::string_view kind, const std::string& stat, const json::object& decl,
                   const std::string& suffix, std::int64_t value) {
      const auto key = std::make_pair(std::string(kind), stat);
      auto [it, fresh] = index.emplace(key, out.names.size());
      if (fresh) {
        auto text = [&](const char* member) {
          const json::value* x = decl.if_contains(member);
          return x && x->is_string() ? std::string(x->get_string()) : std::string();
        };
        out.names.push_back({key.first, key.second, text("unit"), text("description") + suffix});
      }
      if (values.size() <= it->second) values.resize(it->second + 1);
      values[it->second] = value;
    };
    for (const auto& kind : *kinds) {
      const json::object* k = kind.value().is_object() ? &kind.value().get_object() : nullptr;
      const json::object* list = k ? object_at(*k, "stats") : nullptr;
      if (list)
        for (const auto& stat : *list) {
          const json::object* v = stat.value().is_object() ? &stat.value().get_object() : nullptr;
          const json::value* value = v ? v->if_contains("value") : nullptr;
          if (value && value->is_int64()) put(kind.key(), stat.key(), *v, "", value->get_int64());
        }
      // A distribution (distribution.h): its mean, median and 99th
      // percentile, a column each ("<name>.mean", ...).
      const json::object* dists = k ? object_at(*k, sim::kStatsDistributions) : nullptr;
      if (dists)
        for (const auto& d : *dists) {
          const json::object* v = d.value().is_object() ? &d.value().get_object() : nullptr;
          if (!v) continue;
          for (const char* field : {"mean", "p50", "p99"}) {
            const json::value* x = v->if_contains(field);
            if (!x || !x->is_number()) continue;
            put(kind.key(), std::string(d.key()) + "." + field, *v,
                std::string(" (its ") + field + ")", std::llround(x->to_number<double>()));
          }
        }
    }
  }
  return out;
}

// The parameters the inputs' hardware points set (Plan's Point::hardware;
// not those they remove), in the order first met, but those an axis sets too (its column shows
// the value the point ran with): one column each, after the axes.
std::vector<std::string> hardware_columns(const Plan& plan) {
  std::vector<std::string> out;
  for (const Point& p : plan.points)
    for (const auto& [path, v] : p.hardware)
      if (!v.is_null() && std::find(out.begin(), out.end(), path) == out.end() &&
          std::find(plan.axes.begin(), plan.axes.end(), path) == plan.axes.end())
        out.push_back(path);
  return out;
}

// results.json's `columns`: every metric's, then every statistic's.
json::array column_list(const std::vector<MetricColumn>& metrics, const StatColumns& stats) {
  json::array columns;
  auto add = [&](const std::string& name, const std::string& unit, const std::string& meaning,
                 bool plot, const std::string& group) {
    json::object c;
    c["name"] = name;
    c["unit"] = unit;
    c["meaning"] = meaning;
    c["plot"] = plot;
    c["group"] = group;
    columns.emplace_back(std::move(c));
  };
  for (const MetricColumn& m : metrics) add(m.name, m.unit, m.meaning, m.plot, m.group);
  for (std::size_t c = 0; c < stats.names.size(); ++c)
    add(stats.name(c), stats.names[c].unit,
        stats.names[c].description + " (statistic " + stats.names[c].stat + " of the " +
            stats.names[c].kind + " units, summed over them)",
        false, "");
  return columns;
}
}  // namespace

bool write_results(const std::string& dir, const Plan& plan, const std::vector<Row>& rows,
                   std::string& error) {
  const auto& metrics = metric_columns();
  const StatColumns stats = stat_columns(rows);
  const std::vector<std::string> hardware = hardware_columns(plan);
  std::ostringstream csv;
  csv << "id,input";
  for (const std::string& a : plan.axes) csv << "," << csv_cell(a);
  for (const std::string& h : hardware) csv << "," << csv_cell(h);
  csv << ",status,exit_code";
  for (const MetricColumn& m : metrics) csv << "," << m.name;
  for (std::size_t c = 0; c < stats.names.size(); ++c) csv << "," << stats.name(c);
  csv << ",message\n";
  json::array points;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    const Point& p = *row.point;
    csv << p.id << "," << csv_cell(p.input.label);
    for (const auto& [name, v] : p.params) csv << "," << csv_cell(detail::cell(v));
    json::object point_hw;
    for (const auto& [path, v] : p.hardware) point_hw[path] = v;
    for (const std::string& h : hardware) {
      const json::value* v = point_hw.if_contains(h);
      csv << "," << csv_cell(v ? detail::cell(*v) : std::string());
    }
    csv << "," << status_of(row) << ",";
    if (row.record && row.record->exit_code >= 0) csv << row.record->exit_code;
    json::object x = identity(p);
    x["status"] = status_of(row);
    x["exit_code"] = row.record && row.record->exit_code >= 0 ? json::value(row.record->exit_code)
                                                              : json::value();
    x["message"] = row.record ? row.record->message : std::string();
    if (!p.hardware.empty()) x["hardware"] = std::move(point_hw);
    if (p.input.scheduler) x["scheduler"] = scheduler_json(*p.input.scheduler);
    json::object values;
    for (const MetricColumn& m : metrics) {
      const json::value v = row.record ? m.get(*row.record, p) : json::value();
      csv << "," << csv_cell(detail::cell(v));
      values[m.name] = v;
    }
    for (std::size_t c = 0; c < stats.names.size(); ++c) {
      const auto& mine = stats.rows[i];
      const json::value v = c < mine.size() && mine[c] ? json::value(*mine[c]) : json::value();
      csv << "," << detail::cell(v);
      values[stats.name(c)] = v;
    }
    x["metrics"] = std::move(values);
    csv << "," << csv_cell(row.record ? row.record->message : std::string()) << "\n";
    points.emplace_back(std::move(x));
  }
  json::object o;
  o["sweep"] = plan.name;
  o["description"] = plan.description;
  o["axes"] = detail::strings(plan.axes);
  o["hardware"] = detail::strings(hardware);
  o["columns"] = column_list(metrics, stats);
  const Tally t = tally(rows);
  json::object summary;
  summary["points"] = rows.size();
  summary["ok"] = t.ok;
  summary["failed"] = t.failed;
  summary["missing"] = t.missing;
  o["summary"] = std::move(summary);
  o["points"] = std::move(points);
  return detail::write_atomic((fs::path(dir) / "results.csv").string(), csv.str(), error) &&
         detail::write_atomic((fs::path(dir) / "results.json").string(), detail::pretty(o), error);
}

}  // namespace gemini::sweep
