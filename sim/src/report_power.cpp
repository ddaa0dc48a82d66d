// Power over time in the reports (power.h): the text table, the JSON
// `power` section and the per-window CSV (gemini sim --power-csv).
#include "report_power.h"

#include <cstdio>
#include <ostream>

#include "gemini/sim/report_metrics.h"
#include "json_kv.h"
#include "text_format.h"

namespace gemini::sim {
namespace {

// The scopes in the order every output lists them: package, DRAM, the IO
// die, the dies.
template <class F>
void for_each_scope(const PowerReport& p, F&& f) {
  f(p.package);
  f(p.dram);
  if (p.io_die) f(*p.io_die);
  for (const PowerScope& d : p.dies) f(d);
}

}  // namespace

void print_power(std::ostream& os, const PowerReport& p) {
  os << "\npower over time (" << p.windows << " windows of " << fmt("%g", p.window_ns) << " ns"
     << (p.widened ? ", widened from the " + fmt("%g", p.asked_window_ns) + " ns asked" : "")
     << "; W): peak in its window, average, static\n";
  for_each_scope(p, [&](const PowerScope& s) {
    char name[24];
    std::snprintf(name, sizeof name, "  %-16s", s.name.c_str());
    os << name << fmt("%10.4f", s.peak_w) << " in [" << fmt("%.0f", p.start_ns(s.peak_window))
       << ", " << fmt("%.0f", p.end_ns_of(s.peak_window)) << ") ns, average "
       << fmt("%.4f", s.average_w) << ", static " << fmt("%.4f", s.static_w) << "\n";
  });
}

void write_power_json(ir::JsonWriter& w, const PowerReport& p) {
  const JsonKv kv{w};
  auto scope = [&](const PowerScope& s, bool package) {
    w.begin_object();
    kv("name", std::string_view(s.name));
    if (s.id >= 0) kv("id", s.id);
    if (package) {
      kv(metric::power_peak_w, p);
      kv(metric::power_average_w, p);
    } else {
      kv("peak_w", s.peak_w);
      kv("average_w", s.average_w);
    }
    kv("peak_window_start_ns", p.start_ns(s.peak_window));
    kv("peak_window_end_ns", p.end_ns_of(s.peak_window));
    kv("energy_pj", s.energy_pj);
    kv("static_w", s.static_w);
    w.key("series_w");
    w.begin_array();
    for (std::int64_t k = 0; k < p.windows; ++k) {
      const double ps = (p.end_ns_of(k) - p.start_ns(k)) * 1000.0;
      w.value(ps > 0 ? s.windows[static_cast<std::size_t>(k)].total() / ps : 0.0);
    }
    w.end_array();
    w.end_object();
  };
  w.key("power");
  w.begin_object();
  kv(metric::power_window_ns, p);
  kv("asked_window_ns", p.asked_window_ns);
  kv("widened", p.widened);
  kv("windows", p.windows);
  kv("end_ns", p.end_ns);
  kv(metric::die_power_peak_w, p);
  kv(metric::die_power_average_w, p);
  w.key("package");
  scope(p.package, true);
  w.key("dram");
  scope(p.dram, false);
  if (p.io_die) {
    w.key("io_die");
    scope(*p.io_die, false);
  }
  w.key("dies");
  w.begin_array();
  for (const PowerScope& d : p.dies) scope(d, false);
  w.end_array();
  w.end_object();
}

void write_power_csv(std::ostream& os, const Report& r) {
  os << "window,start_ns,end_ns,scope,id,total_w";
  for (std::size_t c = 0; c < kComponents; ++c)
    os << "," << to_string(static_cast<Component>(c)) << "_w";
  os << "\n";
  if (!r.power) return;
  const PowerReport& p = *r.power;
  auto rows = [&](const PowerScope& s, const char* kind) {
    for (std::int64_t k = 0; k < p.windows; ++k) {
      const double ps = (p.end_ns_of(k) - p.start_ns(k)) * 1000.0;
      const Energy& e = s.windows[static_cast<std::size_t>(k)];
      os << k << "," << fmt("%.3f", p.start_ns(k)) << "," << fmt("%.3f", p.end_ns_of(k)) << ","
         << kind << "," << (s.id >= 0 ? std::to_string(s.id) : std::string()) << ","
         << fmt("%.9g", ps > 0 ? e.total() / ps : 0.0);
      for (double x : e.pj) os << "," << fmt("%.9g", ps > 0 ? x / ps : 0.0);
      os << "\n";
    }
  };
  rows(p.package, "package");
  rows(p.dram, "dram");
  if (p.io_die) rows(*p.io_die, "io_die");
  for (const PowerScope& d : p.dies) rows(d, "die");
  for (const PowerScope& c : p.cores) rows(c, "core");
}

}  // namespace gemini::sim
