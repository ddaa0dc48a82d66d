#include "gemini/sweep/results.h"

#include <boost/json/serialize.hpp>
#include <filesystem>
#include <sstream>

#include "json_io.h"

namespace gemini::sweep {
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

// The report's value at a path of member names; null when absent.
const json::value* at(const PointRecord& r, std::initializer_list<const char*> path) {
  const json::value* v = &r.report;
  for (const char* k : path) {
    if (!v->is_object()) return nullptr;
    v = v->get_object().if_contains(k);
    if (!v) return nullptr;
  }
  return v;
}
json::value ok_value(const PointRecord& r, std::initializer_list<const char*> path) {
  if (!r.ok) return nullptr;
  const json::value* v = at(r, path);
  return v ? *v : json::value();
}
double num(const json::value* v) { return v && v->is_number() ? v->to_number<double>() : 0.0; }

// Summed over the cores: a stall cause's cycles (or busy cycles) over the
// cores' cycles until each finished.
json::value share(const PointRecord& r, const char* stall) {
  if (!r.ok) return nullptr;
  const json::value* cores = at(r, {"cores"});
  if (!cores || !cores->is_array()) return nullptr;
  double part = 0, whole = 0;
  for (const json::value& c : cores->get_array()) {
    if (!c.is_object()) continue;
    const json::object& o = c.get_object();
    whole += num(o.if_contains("finish_cycles"));
    if (!stall) {
      part += num(o.if_contains("busy_cycles"));
    } else if (const json::value* s = o.if_contains("stall"); s && s->is_object()) {
      part += num(s->get_object().if_contains(stall));
    }
  }
  return whole > 0 ? json::value(part / whole) : json::value();
}

json::value ratio(double a, double b) { return b > 0 ? json::value(a / b) : json::value(); }

}  // namespace

const std::vector<MetricColumn>& metric_columns() {
  using R = const PointRecord&;
  using P = const Point&;
  static const std::vector<MetricColumn> columns{
      {"total_cycles", "cycles", "simulated cycles until the last core finished", true, "",
       [](R r, P) { return ok_value(r, {"total_cycles"}); }},
      {"time_us", "us", "simulated time at the configured clock", true, "",
       [](R r, P) { return ok_value(r, {"time_us"}); }},
      {"estimate_cycles", "cycles",
       "the scheduler's estimate for the whole network (the sweep file's)", false, "",
       [](R r, P p) {
         return r.ok && p.input.estimate_cycles ? json::value(*p.input.estimate_cycles)
                                                : json::value();
       }},
      {"sim_over_estimate", "ratio", "simulated cycles / the scheduler's estimate", true, "",
       [](R r, P p) {
         return r.ok && p.input.estimate_cycles
                    ? ratio(num(at(r, {"total_cycles"})),
                            static_cast<double>(*p.input.estimate_cycles))
                    : json::value();
       }},
      {"dram_bytes", "bytes", "bytes the DRAM ports read and wrote", true, "",
       [](R r, P) {
         return ok_value(r, {"dram", "bytes"});
       }},
      {"dram_gbps", "GB/s", "DRAM bandwidth achieved over the whole run", true, "",
       [](R r, P) {
         return ok_value(r, {"dram", "achieved_gbps"});
       }},
      {"dram_peak_gbps", "GB/s", "DRAM peak bandwidth of the configuration (all ports)", false, "",
       [](R r, P) {
         return ok_value(r, {"dram", "peak_gbps"});
       }},
      {"dram_utilisation", "fraction", "DRAM bandwidth achieved / peak", true, "",
       [](R r, P) {
         return r.ok ? ratio(num(at(r, {"dram", "achieved_gbps"})),
                             num(at(r, {"dram", "peak_gbps"})))
                     : json::value();
       }},
      {"noc_bytes", "bytes", "bytes carried by the NoC", false, "",
       [](R r, P) {
         return ok_value(r, {"noc", "bytes"});
       }},
      {"noc_link_util_max", "fraction", "utilisation of the busiest NoC link", true, "",
       [](R r, P) {
         return ok_value(r, {"noc", "link_utilisation_max"});
       }},
      {"noc_link_util_mean", "fraction", "mean utilisation of the NoC links", true, "",
       [](R r, P) {
         return ok_value(r, {"noc", "link_utilisation_mean"});
       }},
      {"compute_share", "fraction", "cores' busy (compute) cycles / their cycles until finished",
       true, "core time", [](R r, P) { return share(r, nullptr); }},
      {"stall_dram_share", "fraction", "cores' cycles stalled on DRAM / their cycles", true,
       "core time", [](R r, P) { return share(r, "dram"); }},
      {"stall_noc_share", "fraction", "cores' cycles stalled on the NoC / their cycles", true,
       "core time", [](R r, P) { return share(r, "noc"); }},
      {"stall_token_share", "fraction",
       "cores' cycles waiting for another core's data / their cycles", true, "core time",
       [](R r, P) { return share(r, "token"); }},
      {"stall_l2_space_share", "fraction", "cores' cycles waiting for L2 space / their cycles",
       true, "core time", [](R r, P) { return share(r, "l2_space"); }},
      {"stall_other_share", "fraction", "cores' other stalls / their cycles", true, "core time",
       [](R r, P) { return share(r, "other"); }},
      {"functional_verdict", "", "functional verdict: pass, fail, or empty when not run", false, "",
       [](R r, P) {
         const json::value* v = at(r, {"functional", "passed"});
         return v && v->is_bool() ? json::value(v->get_bool() ? "pass" : "fail") : json::value();
       }},
      {"functional_mismatches", "elements", "elements that differ from the reference", false, "",
       [](R r, P) {
         const json::value* v = at(r, {"functional", "mismatches"});
         return v ? *v : json::value();
       }},
      {"host_seconds", "s", "wall time of the point's gemini sim run", true, "",
       [](R r, P) { return json::value(r.host_seconds); }},
      {"peak_rss_mb", "MB", "peak resident memory of the run", false, "",
       [](R r, P) { return json::value(r.peak_rss_mb); }},
  };
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
}  // namespace

bool write_results(const std::string& dir, const Plan& plan, const std::vector<Row>& rows,
                   std::string& error) {
  const auto& metrics = metric_columns();
  std::ostringstream csv;
  csv << "id,input";
  for (const std::string& a : plan.axes) csv << "," << csv_cell(a);
  csv << ",status,exit_code";
  for (const MetricColumn& m : metrics) csv << "," << m.name;
  csv << ",message\n";
  json::array points;
  for (const Row& row : rows) {
    const Point& p = *row.point;
    csv << p.id << "," << csv_cell(p.input.label);
    for (const auto& [name, v] : p.params) csv << "," << csv_cell(detail::cell(v));
    csv << "," << status_of(row) << ",";
    if (row.record && row.record->exit_code >= 0) csv << row.record->exit_code;
    json::object x = identity(p);
    x["status"] = status_of(row);
    x["exit_code"] = row.record && row.record->exit_code >= 0 ? json::value(row.record->exit_code)
                                                              : json::value();
    x["message"] = row.record ? row.record->message : std::string();
    json::object values;
    for (const MetricColumn& m : metrics) {
      const json::value v = row.record ? m.get(*row.record, p) : json::value();
      csv << "," << csv_cell(detail::cell(v));
      values[m.name] = v;
    }
    x["metrics"] = std::move(values);
    csv << "," << csv_cell(row.record ? row.record->message : std::string()) << "\n";
    points.emplace_back(std::move(x));
  }
  json::object o;
  o["sweep"] = plan.name;
  o["description"] = plan.description;
  o["axes"] = detail::strings(plan.axes);
  json::array columns;
  for (const MetricColumn& m : metrics) {
    json::object c;
    c["name"] = m.name;
    c["unit"] = m.unit;
    c["meaning"] = m.meaning;
    c["plot"] = m.plot;
    c["group"] = m.group;
    columns.emplace_back(std::move(c));
  }
  o["columns"] = std::move(columns);
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
