#include "report_energy.h"

#include <cinttypes>
#include <cstdio>
#include <ostream>
#include <utility>
#include <vector>

#include "gemini/sim/report_metrics.h"
#include "text_format.h"

namespace gemini::sim {
namespace {

// "mac 1.2%, core_buffers 20.3%, ..." over the components.
std::string shares(const Energy& e) {
  const double t = e.total();
  std::string out;
  for (std::size_t c = 0; c < kComponents; ++c) {
    if (!out.empty()) out += ", ";
    out += std::string(to_string(static_cast<Component>(c))) + " " +
           fmt("%.1f%%", t > 0 ? 100.0 * e.pj[c] / t : 0.0);
  }
  return out;
}

std::string row(const Energy& e) {
  std::string out = fmt(" %12.4e", e.total());
  for (double x : e.pj) out += fmt(" %12.4e", x);
  return out;
}

std::string heading() {
  std::string out = "        total";
  for (std::size_t c = 0; c < kComponents; ++c) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " %12s", to_string(static_cast<Component>(c)));
    out += buf;
  }
  return out;
}

// The event's name in the report: qualified by its group where that is not
// the core ("l2_read_bytes").
std::string event_key(Event e) {
  const std::string group = group_of(e);
  return group == "core" ? std::string(stat_name(e)) : group + "_" + stat_name(e);
}

}  // namespace

void print_energy_summary(std::ostream& os, const Report& r) {
  const double t = r.energy.total();
  os << "energy: " << fmt("%.4e", t) << " pJ = " << fmt("%.3f", t / 1e6) << " uJ; EDP "
     << fmt("%.4e", r.edp()) << " pJ x cycles\n";
  os << "  " << shares(r.energy) << "\n";
  if (r.expect_energy_pj)
    os << "scheduler energy estimate: " << fmt("%.4e", *r.expect_energy_pj)
       << " pJ; simulated / estimate = "
       << fmt("%.3f", *r.expect_energy_pj > 0 ? t / *r.expect_energy_pj : 0.0) << "\n";
}

void print_energy_tables(std::ostream& os, const Report& r) {
  os << "\nenergy per core (pJ: spent in its units and by the transfers it started; static over "
        "the run):\n";
  os << " core" << heading() << "\n";
  for (const CoreReport& c : r.cores)
    os << fmt("%5.0f", static_cast<double>(c.core_id)) << row(c.energy) << "\n";
  os << "\nenergy per layer (pJ: caused by its workloads, wherever spent; static not "
        "attributed):\n";
  char name[40];
  std::snprintf(name, sizeof name, "%-32s", "layer");
  os << name << heading() << "\n";
  for (const LayerReport& l : r.layers) {
    std::snprintf(name, sizeof name, "%-32s", l.name.c_str());
    os << name << row(l.energy) << "\n";
  }
  if (r.unattributed.total() > 0) {
    std::snprintf(name, sizeof name, "%-32s", "(no workload)");
    os << name << row(r.unattributed) << "\n";
  }
}

void print_stats(std::ostream& os, const Report& r) {
  os << "\nstatistics (each unit's counters, summed over the units of a kind):\n";
  const std::vector<KindStats> kinds = sum_by_kind(r.stats);
  bool dists = false;
  for (const KindStats& k : kinds) {
    std::string line = "  " + k.kind + " (" + std::to_string(k.groups) + "):";
    for (const StatValue& v : k.values) line += " " + v.name + " " + std::to_string(v.value);
    os << line << "\n";
    dists = dists || !k.distributions.empty();
  }
  if (!dists) return;
  os << "\ndistributions (all units of a kind together; p50 and p99 within 6.25% below):\n";
  os << fmt("  %-28s %5s %10s %12s %12s %12s %12s %12s\n", "kind.statistic", "unit", "samples",
            "mean", "min", "p50", "p99", "max");
  for (const KindStats& k : kinds)
    for (const DistValue& d : k.distributions) {
      const Distribution& x = d.dist;
      os << fmt("  %-28s %5s %10" PRId64 " %12.1f %12" PRId64 " %12" PRId64 " %12" PRId64
                " %12" PRId64 "\n",
                (k.kind + "." + d.name).c_str(), to_string(d.unit), x.count(), x.mean(), x.min(),
                x.percentile(0.5), x.percentile(0.99), x.max());
    }
}

namespace {
void energy_fields(ir::JsonWriter& w, const Energy& e) {
  w.key("total");
  w.value(e.total());
  for (std::size_t c = 0; c < kComponents; ++c) {
    w.key(to_string(static_cast<Component>(c)));
    w.value(e.pj[c]);
  }
}
}  // namespace

void write_energy(ir::JsonWriter& w, const Energy& e) {
  w.begin_object();
  energy_fields(w, e);
  w.end_object();
}

void write_energy_json(ir::JsonWriter& w, const Report& r) {
  w.key("energy_pj");
  w.begin_object();
  energy_fields(w, r.energy);
  w.key(metric::edp.json_key());
  w.value(metric::edp.read(r));
  w.key("unattributed");
  write_energy(w, r.unattributed);
  w.key("events");
  w.begin_object();
  for (std::size_t k = 0; k < kEvents; ++k) {
    w.key(event_key(static_cast<Event>(k)));
    w.value(r.events[k]);
  }
  w.end_object();
  if (r.expect_energy_pj) {
    w.key("expect_pj");
    w.value(*r.expect_energy_pj);
    w.key("simulated_over_expected");
    w.value(*r.expect_energy_pj > 0 ? r.energy.total() / *r.expect_energy_pj : 0.0);
  }
  w.end_object();
}

namespace {
// A group's or kind's distributions (stat_snapshot.h, kStatsSection);
// `full` (a kind's): with the description and the buckets.
void write_distributions_json(ir::JsonWriter& w, const std::vector<DistValue>& ds, bool full) {
  if (ds.empty()) return;
  w.key(kStatsDistributions);
  w.begin_object();
  for (const DistValue& d : ds) {
    const Distribution& x = d.dist;
    w.key(d.name);
    w.begin_object();
    w.key("unit");
    w.value(std::string_view(to_string(d.unit)));
    if (full) {
      w.key("description");
      w.value(std::string_view(d.description));
    }
    w.key("count");
    w.value(x.count());
    w.key("mean");
    w.value(x.mean());
    w.key("min");
    w.value(x.min());
    w.key("p50");
    w.value(x.percentile(0.5));
    w.key("p99");
    w.value(x.percentile(0.99));
    w.key("max");
    w.value(x.max());
    if (full) {
      w.key("buckets");
      w.begin_array();
      for (const auto& [lo, n] : x.buckets()) {
        w.begin_array();
        w.value(lo);
        w.value(n);
        w.end_array();
      }
      w.end_array();
    }
    w.end_object();
  }
  w.end_object();
}

}  // namespace

void write_stats_json(ir::JsonWriter& w, const Report& r) {
  auto stat = [&w](const StatValue& v, bool described) {
    w.key(v.name);
    w.begin_object();
    w.key("value");
    w.value(v.value);
    w.key("unit");
    w.value(std::string_view(to_string(v.unit)));
    if (described) {
      w.key("description");
      w.value(std::string_view(v.description));
    }
    w.end_object();
  };
  w.key(kStatsSection);
  w.begin_object();
  w.key(kStatsByKind);
  w.begin_object();
  for (const KindStats& k : sum_by_kind(r.stats)) {
    w.key(k.kind);
    w.begin_object();
    w.key("groups");
    w.value(k.groups);
    w.key("stats");
    w.begin_object();
    for (const StatValue& v : k.values) stat(v, true);
    w.end_object();
    write_distributions_json(w, k.distributions, true);
    w.end_object();
  }
  w.end_object();
  w.key(kStatsGroups);
  w.begin_object();
  for (const StatSnapshot& s : r.stats) {
    w.key(s.name);
    w.begin_object();
    w.key("kind");
    w.value(std::string_view(s.kind));
    w.key("stats");
    w.begin_object();
    for (const StatValue& v : s.values) stat(v, false);
    w.end_object();
    write_distributions_json(w, s.distributions, false);
    w.end_object();
  }
  w.end_object();
  w.end_object();
}

std::string energy_csv_header() {
  std::string out = ",energy_pj";
  for (const ComponentInfo& c : kComponentTable)
    if (c.attributed) out += std::string(",") + c.name + "_pj";
  return out;
}

std::string energy_csv(const Energy& e) {
  std::string out = fmt(",%.3f", e.total());
  for (std::size_t c = 0; c < kComponents; ++c)
    if (kComponentTable[c].attributed) out += fmt(",%.3f", e.pj[c]);
  return out;
}

}  // namespace gemini::sim
