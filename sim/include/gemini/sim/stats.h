#pragma once
// Statistics groups: one per unit (a core's engines, its L2, its WL0, the
// NoC, each DRAM port). A unit keeps its statistics as plain integer
// counters, incremented directly on the hot path (`++n`, `n += bytes`), and
// registers each one once, by name, in its group when it is built; nothing
// looks a name up while the simulation runs. At the end the System takes a
// snapshot of every group into the Report, and the JSON (`stats`) and text
// reports walk the snapshots: a new statistic is a counter and one add()
// line in its unit's file.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gemini::sim {

// A group's values at the end of a run. `kind` names the unit type ("core",
// "l2", "wl0", "noc", "dram"); `name` the instance ("core_3.l2").
struct StatSnapshot {
  std::string kind, name;
  std::vector<std::pair<std::string, std::int64_t>> values;  // in registration order
};

class StatGroup {
 public:
  StatGroup(std::string kind, std::string name) : kind_(std::move(kind)), name_(std::move(name)) {}
  // Registers `counter` (which must outlive the group's snapshots) as `stat`.
  void add(std::string stat, const std::int64_t* counter) {
    stats_.emplace_back(std::move(stat), counter);
  }
  const std::string& name() const { return name_; }
  StatSnapshot snapshot() const {
    StatSnapshot s{kind_, name_, {}};
    s.values.reserve(stats_.size());
    for (const auto& [stat, counter] : stats_) s.values.emplace_back(stat, *counter);
    return s;
  }

 private:
  std::string kind_, name_;
  std::vector<std::pair<std::string, const std::int64_t*>> stats_;
};

}  // namespace gemini::sim
