#pragma once
// Statistics as every report reads them (stats.h declares and counts them):
// each unit's group at the end of a run -- its kind ("core", "l2", "wl0",
// "noc", "dram", or an observer's own), its instance name ("core_3.l2")
// and its counters, each with its unit and description -- and
// sum_by_kind(), the one summation of a kind's groups by statistic name,
// which the text report prints and the JSON report writes (its
// `stats/by_kind`, read by the sweep's `stats.<kind>.<stat>` columns and
// by Python). Header-only, on the standard library: the sweep includes it.
//
// Beside its counters a group may keep distributions (distribution.h: a
// latency's, a queue's occupancy): sum_by_kind merges a kind's by name, so
// its percentiles are those of all its units' samples together.
//
// A kind's groups need not list the same statistics: a DRAM model
// registers its own counters beside the ports' common ones, so the sums
// go by name, in the order first met, and a statistic no group of the run
// declares is absent (not zero).

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gemini/sim/distribution.h"
#include "gemini/sim/unit.h"

namespace gemini::sim {

// One statistic's value at the end of a run, with its declaration.
struct StatValue {
  std::string name;
  std::int64_t value = 0;
  Unit unit = Unit::count;
  const char* description = "";  // static text (a literal, a table's)
};

// One distribution at the end of a run, with its declaration.
struct DistValue {
  std::string name;
  Distribution dist;
  Unit unit = Unit::count;
  const char* description = "";  // static text
};

// A group's values at the end of a run, in registration order.
struct StatSnapshot {
  std::string kind, name;
  std::vector<StatValue> values;
  std::vector<DistValue> distributions = {};
  // The statistic `stat`, or nullptr when the group does not declare it.
  const StatValue* find(std::string_view stat) const {
    for (const StatValue& v : values)
      if (v.name == stat) return &v;
    return nullptr;
  }
  std::int64_t value_or(std::string_view stat, std::int64_t fallback) const {
    const StatValue* v = find(stat);
    return v ? v->value : fallback;
  }
};

// A kind's statistics summed over its groups.
struct KindStats {
  std::string kind;
  std::int64_t groups = 0;        // units of the kind
  std::vector<StatValue> values;  // summed by name, in the order first met
  std::vector<DistValue> distributions = {};  // merged by name, in the order first met
};

// Every kind's statistics summed over its groups by name; kinds in the
// order first met.
inline std::vector<KindStats> sum_by_kind(const std::vector<StatSnapshot>& groups) {
  std::vector<KindStats> out;
  for (const StatSnapshot& g : groups) {
    KindStats* k = nullptr;
    for (KindStats& x : out)
      if (x.kind == g.kind) k = &x;
    if (!k) k = &out.emplace_back(KindStats{g.kind, 0, {}, {}});
    ++k->groups;
    // A kind's groups mostly list the same statistics in the same order:
    // look from the one after the last found first.
    std::size_t next = 0;
    for (const StatValue& v : g.values) {
      const std::size_t n = k->values.size();
      std::size_t found = n;
      for (std::size_t j = 0; j < n && found == n; ++j)
        if (k->values[(next + j) % n].name == v.name) found = (next + j) % n;
      if (found == n) k->values.push_back({v.name, 0, v.unit, v.description});
      k->values[found].value += v.value;
      next = found + 1;
    }
    for (const DistValue& d : g.distributions) {
      auto it = std::find_if(k->distributions.begin(), k->distributions.end(),
                             [&](const DistValue& x) { return x.name == d.name; });
      if (it == k->distributions.end())
        k->distributions.push_back(d);
      else
        it->dist.merge(d.dist);
    }
  }
  return out;
}

// The JSON report's statistics section: `groups` (every unit's group by
// instance name: {"kind": ..., "stats": {name: {"value": v, "unit": u}}})
// and `by_kind` (sum_by_kind: {kind: {"groups": n, "stats": {name:
// {"value": v, "unit": u, "description": d}}}}); a group or kind with
// distributions has `distributions` beside `stats`: {name: {"unit": u,
// "count", "mean", "min", "p50", "p99", "max"}}, a kind's with its
// "description" and "buckets": [[lower bound, samples], ...] too.
inline constexpr std::string_view kStatsSection = "stats";
inline constexpr std::string_view kStatsGroups = "groups";
inline constexpr std::string_view kStatsByKind = "by_kind";
inline constexpr std::string_view kStatsDistributions = "distributions";

}  // namespace gemini::sim
