// A study of a sweep's results (study.h).
#include "gemini/sweep/study.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>

#include "gemini/sim/report_metrics.h"
#include "json_io.h"

namespace gemini::sweep {
namespace json = boost::json;
namespace fs = std::filesystem;

const std::array<StudyMetricInfo, kStudyMetrics> kStudyMetricTable{{
    {"latency", "latency", sim::Unit::microseconds},
    {"energy", "energy", sim::Unit::picojoules},
    {"cost", "cost", sim::Unit::usd},
    {"edp", "EDP", sim::Unit::pj_ns},
    {"cost_edp", "cost x EDP", sim::Unit::usd_pj_ns},
}};

namespace {

// Ranks with ties at their mean (1 = the smallest).
std::vector<double> mean_ranks(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> rank(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    for (std::size_t k = i; k <= j; ++k) rank[order[k]] = (static_cast<double>(i + j) / 2.0) + 1.0;
    i = j + 1;
  }
  return rank;
}

// Ranks as a table shows them: ties share the best (1, 2, 2, 4).
std::vector<int> min_ranks(const std::vector<double>& v) {
  std::vector<int> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    int better = 0;
    for (double x : v) better += x < v[i];
    r[i] = better + 1;
  }
  return r;
}

// A column of results.h's metric_columns by name.
const MetricColumn* column(std::string_view name) {
  for (const MetricColumn& c : metric_columns())
    if (c.name == name) return &c;
  return nullptr;
}
std::optional<double> value(const Row& row, std::string_view name) {
  const MetricColumn* c = column(name);
  if (!c || !row.record) return std::nullopt;
  const json::value v = c->get(*row.record, *row.point);
  return v.is_number() ? std::optional<double>(v.to_number<double>()) : std::nullopt;
}
double value_or_0(const Row& row, std::string_view name) { return value(row, name).value_or(0.0); }

std::optional<double> product(std::optional<double> a, std::optional<double> b) {
  return a && b ? std::optional<double>(*a * *b) : std::nullopt;
}

// The five metrics of a point, ours (`prefix` "") or the scheduler's
// ("scheduler_"): latency, energy, cost, EDP (pJ x ns), cost x EDP.
std::array<std::optional<double>, kStudyMetrics> metrics(const Row& row, const std::string& prefix) {
  const auto t = value(row, prefix + "time_us");
  const auto e = value(row, prefix + "energy_pj");
  const auto c = value(row, prefix + "overall_usd");
  const auto edp = product(e, t ? std::optional<double>(*t * 1000.0) : std::nullopt);
  return {t, e, c, edp, product(c, edp)};
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// "3x3 dies, XSR 16 GB/s" from a point's hardware.
std::string design_of(const Point& p) {
  std::map<std::string, json::value> h(p.hardware.begin(), p.hardware.end());
  for (const auto& [name, v] : p.params) h[name] = v;
  auto get = [&](const char* k) -> const json::value* {
    const auto it = h.find(k);
    return it == h.end() || it->second.is_null() ? nullptr : &it->second;
  };
  const json::value* x = get("chiplets.x_cut");
  const json::value* y = get("chiplets.y_cut");
  if (!x || !y || !x->is_number() || !y->is_number()) return p.input.label;
  const double xc = x->to_number<double>(), yc = y->to_number<double>();
  std::string s = number(xc) + "x" + number(yc);
  if (xc * yc <= 1) return s + " (one die)";
  if (const json::value* i = get("chiplets.interface"); i && i->is_string())
    s += " " + std::string(i->get_string());
  if (const json::value* g = get("chiplets.d2d_gbps"); g && g->is_number())
    s += " " + number(g->to_number<double>()) + " GB/s";
  return s;
}

void rank_group(StudyGroup& g) {
  for (std::size_t m = 0; m < kStudyMetrics; ++m) {
    StudyRanking& r = g.rankings[m];
    r.metric = m;
    std::vector<std::size_t> idx;
    std::vector<double> ours, theirs;
    for (std::size_t i = 0; i < g.points.size(); ++i)
      if (g.points[i].ours[m] && g.points[i].scheduler[m]) {
        idx.push_back(i);
        ours.push_back(*g.points[i].ours[m]);
        theirs.push_back(*g.points[i].scheduler[m]);
      }
    r.points = idx.size();
    if (idx.empty()) continue;
    const std::vector<int> ro = min_ranks(ours), rs = min_ranks(theirs);
    for (std::size_t k = 0; k < idx.size(); ++k) {
      g.points[idx[k]].rank_ours[m] = ro[k];
      g.points[idx[k]].rank_scheduler[m] = rs[k];
    }
    const std::size_t bo =
        static_cast<std::size_t>(std::min_element(ours.begin(), ours.end()) - ours.begin());
    const std::size_t bs =
        static_cast<std::size_t>(std::min_element(theirs.begin(), theirs.end()) - theirs.begin());
    r.best_ours = g.points[idx[bo]].label;
    r.best_scheduler = g.points[idx[bs]].label;
    r.agree = ours[bs] == ours[bo];  // the scheduler's pick is (one of) our best
    if (ours[bo] > 0) r.pick_over_best = ours[bs] / ours[bo];
    r.spearman = spearman_rho(ours, theirs);
    r.kendall = kendall_tau_b(ours, theirs);
  }
}

}  // namespace

std::optional<double> spearman_rho(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.size() < 2) return std::nullopt;
  const std::vector<double> ra = mean_ranks(a), rb = mean_ranks(b);
  const double n = static_cast<double>(a.size());
  const double mean = (n + 1) / 2;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    sab += (ra[i] - mean) * (rb[i] - mean);
    saa += (ra[i] - mean) * (ra[i] - mean);
    sbb += (rb[i] - mean) * (rb[i] - mean);
  }
  if (saa <= 0 || sbb <= 0) return std::nullopt;
  return sab / std::sqrt(saa * sbb);
}

std::optional<double> kendall_tau_b(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.size() < 2) return std::nullopt;
  double concordant = 0, discordant = 0, ties_a = 0, ties_b = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      const double da = a[i] - a[j], db = b[i] - b[j];
      if (da == 0 && db == 0) continue;
      if (da == 0) {
        ++ties_a;
      } else if (db == 0) {
        ++ties_b;
      } else if ((da > 0) == (db > 0)) {
        ++concordant;
      } else {
        ++discordant;
      }
    }
  const double denom =
      std::sqrt((concordant + discordant + ties_a) * (concordant + discordant + ties_b));
  if (denom <= 0) return std::nullopt;
  return (concordant - discordant) / denom;
}

std::optional<Study> make_study(const Plan& plan, const std::vector<Row>& rows) {
  Study s;
  s.sweep = plan.name;
  bool any = false;
  std::map<std::string, std::size_t> group_of;
  for (const Row& row : rows) {
    const Point& p = *row.point;
    if (!p.input.scheduler) continue;
    any = true;
    if (!row.record || !row.record->ok) {
      ++s.left_out;
      continue;
    }
    const std::string axes = describe(p);
    auto [it, fresh] = group_of.emplace(axes, s.groups.size());
    if (fresh) s.groups.push_back(StudyGroup{axes, {}, {}});
    StudyPoint sp;
    sp.id = p.id;
    sp.label = p.input.label;
    sp.design = design_of(p);
    sp.ours = metrics(row, "");
    sp.scheduler = metrics(row, "scheduler_");
    for (std::size_t k = 0; k < sp.path.size(); ++k)
      sp.path[k] = value_or_0(row, "path_" + std::string(sim::metric::kPathKindNames[k]) + "_share");
    const double total = value_or_0(row, "energy_pj");
    if (total > 0) {
      sp.noc_share = value_or_0(row, "energy_noc_pj") / total;
      sp.d2d_share = value_or_0(row, "energy_d2d_pj") / total;
      sp.dram_share = value_or_0(row, "energy_dram_pj") / total;
    }
    sp.d2d_link_util_max = value(row, "d2d_link_util_max");
    sp.power_peak_w = value(row, "power_peak_w");
    sp.power_average_w = value(row, "power_average_w");
    sp.die_power_peak_w = value(row, "die_power_peak_w");
    s.groups[it->second].points.push_back(std::move(sp));
  }
  if (!any) return std::nullopt;
  for (StudyGroup& g : s.groups) rank_group(g);
  return s;
}

namespace {

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}
std::string opt(const std::optional<double>& v, int digits) {
  return v ? fixed(*v, digits) : std::string("--");
}
// Values in a unit that reads well: energy in uJ, EDP in uJ x us, ...
double shown(std::size_t m, double v) {
  switch (m) {
    case 1:
      return v / 1e6;  // pJ -> uJ
    case 3:
      return v / 1e9;  // pJ x ns -> uJ x us
    case 4:
      return v / 1e9;  // USD x pJ x ns -> USD x uJ x us
    default:
      return v;
  }
}
constexpr const char* kShownUnit[kStudyMetrics] = {"us", "uJ", "USD", "uJ x us", "USD x uJ x us"};

}  // namespace

void print_study(std::ostream& os, const Study& s) {
  for (const StudyGroup& g : s.groups) {
    os << "study " << s.sweep << (g.axes.empty() ? "" : " (" + g.axes + ")") << ": "
       << g.points.size() << " design points, ours / the scheduler's\n\n";
    os << "| point | design |";
    for (std::size_t m = 0; m < kStudyMetrics; ++m)
      os << " " << kStudyMetricTable[m].title << " (" << kShownUnit[m] << ") |";
    os << "\n|---|---|";
    for (std::size_t m = 0; m < kStudyMetrics; ++m) os << "---|";
    os << "\n";
    for (const StudyPoint& p : g.points) {
      os << "| " << p.label << " | " << p.design << " |";
      for (std::size_t m = 0; m < kStudyMetrics; ++m) {
        const int digits = m == 2 ? 2 : 1;
        os << " " << (p.ours[m] ? fixed(shown(m, *p.ours[m]), digits) : "--") << " / "
           << (p.scheduler[m] ? fixed(shown(m, *p.scheduler[m]), digits) : "--");
        if (p.ours[m] && p.scheduler[m] && *p.scheduler[m] > 0)
          os << " (" << fixed(*p.ours[m] / *p.scheduler[m], 2) << ")";
        os << " |";
      }
      os << "\n";
    }
    os << "\nranks (1 = best), ours / the scheduler's:\n\n| point |";
    for (const StudyMetricInfo& m : kStudyMetricTable) os << " " << m.title << " |";
    os << "\n|---|";
    for (std::size_t m = 0; m < kStudyMetrics; ++m) os << "---|";
    os << "\n";
    for (const StudyPoint& p : g.points) {
      os << "| " << p.design << " |";
      for (std::size_t m = 0; m < kStudyMetrics; ++m)
        os << " " << (p.rank_ours[m] ? std::to_string(p.rank_ours[m]) : "--") << " / "
           << (p.rank_scheduler[m] ? std::to_string(p.rank_scheduler[m]) : "--") << " |";
      os << "\n";
    }
    os << "\n| ranked by | points | Spearman rho | Kendall tau-b | best, simulated | best, "
          "scheduler | same best | its pick, simulated / the best simulated |\n"
          "|---|---|---|---|---|---|---|---|\n";
    for (const StudyRanking& r : g.rankings) {
      auto design = [&](const std::string& label) {
        for (const StudyPoint& p : g.points)
          if (p.label == label) return p.design;
        return label;
      };
      os << "| " << kStudyMetricTable[r.metric].title << " | " << r.points << " | "
         << opt(r.spearman, 3) << " | " << opt(r.kendall, 3) << " | " << design(r.best_ours)
         << " | " << design(r.best_scheduler) << " | " << (r.agree ? "yes" : "no") << " | "
         << opt(r.pick_over_best, 3) << " |\n";
    }
    os << "\nwhy (simulated): the critical path's cycles by kind, the energy's shares, the "
          "power (W: the package's peak and average, the hottest die's peak)\n\n"
          "| point | path compute | dram | noc | token | other | energy NoC | D2D | DRAM | "
          "busiest D2D link | power peak | average | hottest die |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const StudyPoint& p : g.points) {
      os << "| " << p.design << " |";
      for (double x : p.path) os << " " << fixed(100 * x, 1) << "% |";
      os << " " << fixed(100 * p.noc_share, 1) << "% | " << fixed(100 * p.d2d_share, 1) << "% | "
         << fixed(100 * p.dram_share, 1) << "% | "
         << (p.d2d_link_util_max ? fixed(100 * *p.d2d_link_util_max, 1) + "%" : "--") << " | "
         << opt(p.power_peak_w, 2) << " | " << opt(p.power_average_w, 2) << " | "
         << opt(p.die_power_peak_w, 2) << " |\n";
    }
    os << "\n";
  }
  if (s.left_out)
    os << s.left_out << " point(s) of the study have no result (failed or missing): not ranked\n";
}

json::object study_json(const Study& s) {
  auto opt_json = [](const std::optional<double>& v) { return v ? json::value(*v) : json::value(); };
  json::object o;
  o["sweep"] = s.sweep;
  json::array metrics;
  for (const StudyMetricInfo& m : kStudyMetricTable) {
    json::object x;
    x["key"] = m.key;
    x["title"] = m.title;
    x["unit"] = sim::to_string(m.unit);
    metrics.emplace_back(std::move(x));
  }
  o["metrics"] = std::move(metrics);
  o["left_out"] = s.left_out;
  json::array groups;
  for (const StudyGroup& g : s.groups) {
    json::object go;
    go["axes"] = g.axes;
    json::array points;
    for (const StudyPoint& p : g.points) {
      json::object x;
      x["id"] = p.id;
      x["label"] = p.label;
      x["design"] = p.design;
      json::object ours, theirs, ro, rs;
      for (std::size_t m = 0; m < kStudyMetrics; ++m) {
        ours[kStudyMetricTable[m].key] = opt_json(p.ours[m]);
        theirs[kStudyMetricTable[m].key] = opt_json(p.scheduler[m]);
        ro[kStudyMetricTable[m].key] = p.rank_ours[m];
        rs[kStudyMetricTable[m].key] = p.rank_scheduler[m];
      }
      x["ours"] = std::move(ours);
      x["scheduler"] = std::move(theirs);
      x["rank_ours"] = std::move(ro);
      x["rank_scheduler"] = std::move(rs);
      json::object path;
      for (std::size_t k = 0; k < p.path.size(); ++k) path[sim::metric::kPathKindNames[k]] = p.path[k];
      x["critical_path_shares"] = std::move(path);
      json::object shares;
      shares["noc"] = p.noc_share;
      shares["d2d"] = p.d2d_share;
      shares["dram"] = p.dram_share;
      x["energy_shares"] = std::move(shares);
      x["d2d_link_util_max"] = opt_json(p.d2d_link_util_max);
      json::object power;
      power["peak_w"] = opt_json(p.power_peak_w);
      power["average_w"] = opt_json(p.power_average_w);
      power["die_peak_w"] = opt_json(p.die_power_peak_w);
      x["power"] = std::move(power);
      points.emplace_back(std::move(x));
    }
    go["points"] = std::move(points);
    json::array rankings;
    for (const StudyRanking& r : g.rankings) {
      json::object x;
      x["metric"] = kStudyMetricTable[r.metric].key;
      x["points"] = r.points;
      x["spearman"] = opt_json(r.spearman);
      x["kendall_tau_b"] = opt_json(r.kendall);
      x["best_ours"] = r.best_ours;
      x["best_scheduler"] = r.best_scheduler;
      x["agree"] = r.agree;
      x["pick_over_best"] = opt_json(r.pick_over_best);
      rankings.emplace_back(std::move(x));
    }
    go["rankings"] = std::move(rankings);
    groups.emplace_back(std::move(go));
  }
  o["groups"] = std::move(groups);
  return o;
}

bool write_study(const std::string& dir, const Study& s, std::string& error) {
  std::ostringstream md;
  print_study(md, s);
  return detail::write_atomic((fs::path(dir) / "study.json").string(),
                              detail::pretty(study_json(s)), error) &&
         detail::write_atomic((fs::path(dir) / "study.md").string(), md.str(), error);
}

}  // namespace gemini::sweep
