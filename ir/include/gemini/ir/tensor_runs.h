#pragma once
// Runs of one tensor across a core's L2 snapshots. Contract: a core's
// snapshots (its workloads' `buffer` lists, in order) name tensors by
// entries; the same tensor, by the caller's identity, in consecutive
// snapshots is one run, and an entry listed again in the same snapshot (one
// entry per workload reading it) belongs to the run of its first listing.
// A tensor that leaves a snapshot and comes back later is a new run. The
// identity is a hash and an equality over `const BufferEntry*`: the full
// dialect's (TensorIdentityHash/Eq, model.h) or the public dialect's
// (import.cpp).
#include <boost/unordered/unordered_flat_map.hpp>
#include <cstdint>
#include <optional>
#include <vector>

#include "gemini/ir/model.h"

namespace gemini::ir {

struct TensorRun {
  std::uint32_t first = 0, last = 0;   // the snapshots it spans
  const BufferEntry* entry = nullptr;  // its first listing
};

struct TensorRuns {
  std::vector<TensorRun> runs;  // in order of first listing
  // The run of every entry of every snapshot, in order; snapshot s's entries
  // start at first_entry[s].
  std::vector<std::uint32_t> entry_run, first_entry;
  std::uint32_t run_of(std::size_t snapshot, std::size_t entry) const {
    return entry_run[first_entry[snapshot] + entry];
  }
};

template <class Hash, class Eq>
TensorRuns tensor_runs(const std::vector<Workload>& snapshots) {
  TensorRuns r;
  boost::unordered_flat_map<const BufferEntry*, std::uint32_t, Hash, Eq> prev, cur;
  for (std::uint32_t s = 0; s < snapshots.size(); ++s) {
    cur.clear();
    r.first_entry.push_back(static_cast<std::uint32_t>(r.entry_run.size()));
    for (const BufferEntry& e : snapshots[s].buffer) {
      if (auto same = cur.find(&e); same != cur.end()) {  // listed again for another reader
        r.entry_run.push_back(same->second);
        continue;
      }
      std::uint32_t id = 0;
      if (auto it = prev.find(&e); it != prev.end()) {
        id = it->second;
        r.runs[id].last = s;
      } else {
        id = static_cast<std::uint32_t>(r.runs.size());
        r.runs.push_back({s, s, &e});
      }
      cur.emplace(&e, id);
      r.entry_run.push_back(id);
    }
    std::swap(prev, cur);
  }
  return r;
}

// Whether a workload's snapshot holds an L2 tensor for its own result: an
// ofmap entry of its layer.
bool has_own_ofmap_entry(const Workload& w);

// Where workload i of core c writes its result when its snapshot has no
// ofmap entry of its own (the spec allows writing straight into the
// same-core tensor that receives it): the first run, in order of first
// listing, live in snapshot i or i + 1 that receives one of its ofmaps'
// transfers from core c, trying its ofmaps in order. That run's bytes are
// taken from snapshot i on. nullopt when there is none -- then the result
// has no tensor to go to (the validator's B010). The lowering, the import
// and the validator all follow this rule.
std::optional<std::uint32_t> result_run(const Core& c, std::uint32_t i, const TensorRuns& runs);
// The same question without runs (either dialect's identity): whether an
// entry of core c's snapshot s receives one of w's ofmaps from core c.
// result_run finds a run exactly when snapshot i or i + 1 answers true.
bool snapshot_receives_result(const Core& c, std::size_t s, const Workload& w);

}  // namespace gemini::ir
