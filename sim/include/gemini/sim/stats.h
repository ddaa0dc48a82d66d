#pragma once
// Statistics groups: one per unit (a core's engines, its L2, its WL0, the
// NoC, each DRAM port). A unit keeps its statistics as plain integer
// counters, incremented directly on the hot path (`++n`, `n += bytes`), and
// declares each one once, when it is built, in its group: name, counter,
// unit and description (`g.add("bytes_read", &s.bytes_read, Unit::bytes,
// "bytes read at this port")`); nothing looks a name up while the
// simulation runs. At the end the System takes a snapshot of every group
// into the Report (stat_snapshot.h), and every form of the report walks
// the snapshots: the text report's statistics and the JSON `stats`
// section's `by_kind` (both through sum_by_kind), the JSON's `groups` (per
// instance, each counter with its unit), the sweep's `stats.<kind>.<stat>`
// columns and Python (from `by_kind`), and the statistics table of
// docs/timing-model.md. A new statistic is a counter and one add() line in
// its unit's file; a distribution (distribution.h: a latency's, a queue's
// occupancy, sampled with Distribution::add) likewise, with
// add_distribution(); a group outside the model's units (an observer's)
// joins through SimOptions::stat_groups.
//
// A group never reads a counter whose owner is gone: a unit whose counters
// may be destroyed before its group (a NoC or DRAM model: its module owns
// the group, a test may not) holds a StatOwner and ties the group to it with
// owned_by(); snapshot() of a group whose owner has been destroyed is an
// internal error that names the group, not a read of freed memory. (A unit
// that owns both its counters and its group, a core, needs no tie.)

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gemini/sim/stat_snapshot.h"
#include "gemini/sim/unit.h"

namespace gemini::sim {

// The lifetime of a unit's counters, for the groups that point at them. A
// copy is a new owner (the counters of a copy are the copy's).
class StatOwner {
 public:
  StatOwner() = default;
  StatOwner(const StatOwner&) : StatOwner() {}
  StatOwner& operator=(const StatOwner&) { return *this; }
  std::weak_ptr<const char> token() const { return alive_; }

 private:
  std::shared_ptr<const char> alive_ = std::make_shared<const char>('\0');
};

class StatGroup {
 public:
  StatGroup(std::string kind, std::string name) : kind_(std::move(kind)), name_(std::move(name)) {}
  // Declares `counter` (which must outlive the group's snapshots) as `stat`,
  // counted in `unit`; `description` (static text) says what it counts.
  void add(std::string stat, const std::int64_t* counter, Unit unit, const char* description) {
    stats_.push_back({std::move(stat), counter, unit, description});
  }
  // Declares `d` (which must outlive the group's snapshots) as `stat`, its
  // samples in `unit`.
  void add_distribution(std::string stat, const Distribution* d, Unit unit,
                        const char* description) {
    dists_.push_back({std::move(stat), d, unit, description});
  }
  // The counters added from now on belong to `owner` (see above).
  void owned_by(const StatOwner& owner) { owners_.push_back({owner.token(), stats_.size()}); }
  const std::string& kind() const { return kind_; }
  const std::string& name() const { return name_; }
  StatSnapshot snapshot() const {
    for (const Owner& o : owners_)
      if (o.alive.expired()) {
        std::fprintf(stderr,
                     "gemini: internal error: statistics group %s/%s: the owner of its "
                     "counters (from \"%s\" on) was destroyed before the group's snapshot\n",
                     kind_.c_str(), name_.c_str(),
                     o.first < stats_.size() ? stats_[o.first].name.c_str() : "");
        std::abort();
      }
    StatSnapshot s{kind_, name_, {}, {}};
    s.values.reserve(stats_.size());
    for (const Entry& e : stats_) s.values.push_back({e.name, *e.counter, e.unit, e.description});
    for (const DistEntry& e : dists_)
      s.distributions.push_back({e.name, *e.dist, e.unit, e.description});
    return s;
  }

 private:
  struct Entry {
    std::string name;
    const std::int64_t* counter;
    Unit unit;
    const char* description;
  };
  struct DistEntry {
    std::string name;
    const Distribution* dist;
    Unit unit;
    const char* description;
  };
  struct Owner {
    std::weak_ptr<const char> alive;
    std::size_t first;  // its first counter in stats_
  };
  std::string kind_, name_;
  std::vector<Entry> stats_;
  std::vector<DistEntry> dists_;
  std::vector<Owner> owners_;
};

}  // namespace gemini::sim
