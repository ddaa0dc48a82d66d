// Pass 6, the schedule (lowerer.h). Contract: one topological order of
// all events, earliest predicted start first (then workload, phase, core,
// event); a DRAM multicast group is one node of the order, its members
// one after another at its last member's rank. Where the dependencies form
// a cycle, the cycle is reported as a chain of events and workloads. Under
// noc.multicast, the sends of one ofmap then move together where the
// order allows (group_sends), marked with their group's size and part.
#include <algorithm>
#include <thread>

#include "gemini/assembler/instr_views.h"
#include "gemini/ir/parallel.h"
#include "lowerer.h"
#include "rank_set.h"

namespace gemini::assembler::lowering {

// One topological order of all events; earliest predicted start first.
std::vector<std::uint32_t> Lowerer::schedule() {
  const std::size_t n = event_count();
  std::vector<std::uint32_t> indeg(n, 0);
  std::vector<RankKey> keys(n);
  const Successors succ = successors(indeg, keys);
  phase("lower/deps");
  // Ranked once, so that the ready queue holds plain ranks: the two halves
  // sorted side by side, then merged (keys are unique, so the order is one).
  {
    const auto mid = keys.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::thread lower_half([&] { std::sort(keys.begin(), mid); });
    std::sort(mid, keys.end());
    lower_half.join();
    std::inplace_merge(keys.begin(), mid, keys.end());
  }
  std::vector<std::uint32_t> by_rank(n), rank(n);
  for (std::uint32_t r = 0; r < n; ++r) {
    by_rank[r] = static_cast<std::uint32_t>(keys[r].core_event);
    rank[by_rank[r]] = r;
  }
  phase("lower/rank");
  std::vector<std::uint32_t> order = topological_order(indeg, rank, by_rank, succ);
  if (order.size() != n) {
    report_cycle(indeg);
  } else if (!send_groups_.empty()) {
    group_sends(order, succ.first, succ.out);
  }
  return order;
}

// Per event, in parallel (by core): its dependencies sorted and unique, its
// in-degree and rank key; then the successors of every event (CSR), each
// core's part built by that core from the edges into its events (no two
// threads write one place).
Successors Lowerer::successors(std::vector<std::uint32_t>& indeg, std::vector<RankKey>& keys) {
  const std::size_t n = event_count();
  const std::size_t cores = events_.size();
  Successors succ;
  succ.first.assign(n + 1, 0);
  // Each core's edges (dependency, event) bucketed by the dependency's
  // core, in event order.
  std::vector<Buckets<std::pair<std::uint32_t, std::uint32_t>>> edges(cores);
  ir::parallel_for(cores, [&](std::size_t c) {
    const std::uint32_t own_first = event_base_[c], own_end = event_base_[c + 1];
    for (std::uint32_t i = own_first; i < own_end; ++i) {
      Event& e = event(static_cast<std::uint32_t>(c), i);
      auto& d = e.deps;
      std::sort(d.begin(), d.end());
      d.erase(std::unique(d.begin(), d.end()), d.end());
      d.erase(std::remove(d.begin(), d.end(), i), d.end());
      indeg[i] = static_cast<std::uint32_t>(d.size());
      // A DRAM load ranks after every other event of its predicted start
      // (a multicast group's members included): the computes, sends and
      // stores it would otherwise overtake feed other cores. Ranking only
      // the re-reads of stored data there, the loads that need nothing but
      // L2 space first, measured slower (docs/isa.md, "DRAM multicast").
      keys[i] = {e.prio * 2 + (e.kind == Kind::load ? 1 : 0),
                 std::uint64_t{e.workload} << 8 | e.phase,
                 std::uint64_t{e.core} << 32 | static_cast<std::uint32_t>(i)};
    }
    auto core_of = [&](std::uint32_t p) {
      return p >= own_first && p < own_end ? static_cast<std::uint32_t>(c) : core_of_event(p);
    };
    edges[c] = bucket<std::pair<std::uint32_t, std::uint32_t>>(cores, [&](const auto& put) {
      for (std::uint32_t i = own_first; i < own_end; ++i)
        for (std::uint32_t p : event(static_cast<std::uint32_t>(c), i).deps)
          put(core_of(p), std::pair{p, i});
    });
  });
  std::vector<std::size_t> out_base(cores + 1, 0);
  for (std::size_t s = 0; s < cores; ++s) {
    std::size_t count = 0;
    for (const auto& from : edges) count += from.of(s).size();
    out_base[s + 1] = out_base[s] + count;
  }
  succ.out.resize(out_base[cores]);
  succ.first[n] = static_cast<std::uint32_t>(succ.out.size());
  ir::parallel_for(cores, [&](std::size_t s) {
    const std::uint32_t b = event_base_[s], events = event_base_[s + 1] - b;
    const auto mine = bucket<std::uint32_t>(events, [&](const auto& put) {
      for (const auto& from : edges)
        for (const auto& [p, i] : from.of(s)) put(p - b, i);
    });
    std::copy(mine.items.begin(), mine.items.end(),
              succ.out.begin() + static_cast<std::ptrdiff_t>(out_base[s]));
    for (std::uint32_t j = 0; j < events; ++j)
      succ.first[b + j] = static_cast<std::uint32_t>(out_base[s] + mine.first[j]);
  });
  return succ;
}

// Kahn's algorithm over the ranks, lowest rank first. A multicast group is
// one node of the order: it becomes ready when all its members'
// dependencies are done (its in-degree is theirs summed), at its last
// member's rank (the read starts when the last member joins, so every
// member's queue takes what ranks before that first), and all its members
// follow one another there. Every queue then meets the groups in one
// global order, so no member waits for a member queued behind another
// group's (docs/isa.md). Shorter than the events where they form a cycle
// (indeg then holds what is left).
std::vector<std::uint32_t> Lowerer::topological_order(std::vector<std::uint32_t>& indeg,
                                                      const std::vector<std::uint32_t>& rank,
                                                      const std::vector<std::uint32_t>& by_rank,
                                                      const Successors& succ) {
  const std::size_t n = indeg.size();
  constexpr std::uint32_t kNoGroup = 0xffffffffu;
  std::vector<std::uint32_t> group_of(mc_events_.empty() ? 0 : n, kNoGroup);
  std::vector<std::uint32_t> group_indeg(mc_events_.size(), 0);
  for (std::uint32_t gi = 0; gi < mc_events_.size(); ++gi) {
    std::vector<std::uint32_t>& ms = mc_events_[gi];
    std::sort(ms.begin(), ms.end(),
              [&](std::uint32_t a, std::uint32_t b) { return rank[a] < rank[b]; });
    for (const std::uint32_t e : ms) {
      group_of[e] = gi;
      group_indeg[gi] += indeg[e];
    }
  }
  auto grouped = [&](std::uint32_t i) { return !group_of.empty() && group_of[i] != kNoGroup; };
  // The event that stands for i's node in the ready set: its group's last.
  auto leader = [&](std::uint32_t i) { return grouped(i) ? mc_events_[group_of[i]].back() : i; };
  RankSet ready(n);
  for (std::uint32_t i = 0; i < n; ++i)
    if (leader(i) == i && (grouped(i) ? group_indeg[group_of[i]] : indeg[i]) == 0)
      ready.insert(rank[i]);
  std::vector<std::uint32_t> order;
  order.reserve(n);
  auto retire = [&](std::uint32_t i) {
    order.push_back(i);
    for (std::uint32_t k = succ.first[i]; k < succ.first[i + 1]; ++k) {
      const std::uint32_t o = succ.out[k];
      --indeg[o];
      if (grouped(o) ? --group_indeg[group_of[o]] == 0 : indeg[o] == 0)
        ready.insert(rank[leader(o)]);
    }
  };
  while (!ready.empty()) {
    const std::uint32_t i = by_rank[ready.pop_min()];
    if (!grouped(i)) {
      retire(i);
      continue;
    }
    for (const std::uint32_t m : mc_events_[group_of[i]]) retire(m);
  }
  return order;
}

// Where the order stops: every event left has a dependency left, so walking
// from one of them to a remaining dependency again and again must come back
// to an event already seen. That loop is reported as the chain of events
// (each waiting for the next), with what each is: the user sees which
// workloads, transfers and L2 reuses close it.
void Lowerer::report_cycle(const std::vector<std::uint32_t>& indeg) {
  const std::size_t n = indeg.size();
  std::uint32_t at = 0;
  while (at < n && indeg[at] == 0) ++at;
  if (at == n) return;
  std::vector<std::int32_t> seen_at(n, -1);
  std::vector<std::uint32_t> path;
  while (seen_at[at] < 0) {
    seen_at[at] = static_cast<std::int32_t>(path.size());
    path.push_back(at);
    std::uint32_t next = at;
    for (std::uint32_t p : event(at).deps)
      if (indeg[p] > 0) {
        next = p;
        break;
      }
    if (next == at) break;  // a multicast member held back by its group
    at = next;
  }
  std::string chain;
  const std::size_t from = seen_at[at] >= 0 ? static_cast<std::size_t>(seen_at[at]) : 0;
  for (std::size_t k = from; k < path.size(); ++k) {
    const Event& e = event(path[k]);
    chain += (k == from ? "" : " waits for ") + std::string(to_string(e.kind)) + " of " +
             who(e.core, e.workload);
  }
  const Event& e = event(path[from]);
  error(who(e.core, e.workload) +
        ": the schedule's dependencies form a cycle through this workload; no program can run "
        "it: " +
        chain + " waits for the first again");
}

// NoC multicast (docs/isa.md): the sends of one ofmap to other cores go as
// one transfer where the order allows it. A group's sends move to its last
// send's place in the order, one after another, each marked with the
// group's size and its part. A send joins only if nothing that depends on
// it comes before that place (its receiver's work waits for the data, and
// the data now leaves with the last send), so the order stays a
// topological order and the programs deadlock-free.
void Lowerer::group_sends(std::vector<std::uint32_t>& order,
                          const std::vector<std::uint32_t>& first,
                          const std::vector<std::uint32_t>& out) {
  const std::size_t n = order.size();
  std::vector<std::uint32_t> pos(n);
  for (std::uint32_t p = 0; p < n; ++p) pos[order[p]] = p;
  constexpr std::uint32_t kNone = 0xffffffffu;
  std::vector<std::uint32_t> joins(n, kNone);  // send -> the group's last send
  std::vector<std::vector<std::uint32_t>> groups;
  for (std::vector<std::uint32_t>& g : send_groups_) {
    std::sort(g.begin(), g.end(), [&](auto a, auto b) { return pos[a] < pos[b]; });
    const std::uint32_t at = pos[g.back()];
    std::vector<std::uint32_t> kept;
    for (std::size_t k = 0; k + 1 < g.size(); ++k) {
      bool ok = true;
      for (std::uint32_t s = first[g[k]]; s < first[g[k] + 1] && ok; ++s) ok = pos[out[s]] > at;
      if (ok) kept.push_back(g[k]);
    }
    if (kept.empty()) continue;
    kept.push_back(g.back());
    for (std::uint32_t e : kept) joins[e] = static_cast<std::uint32_t>(groups.size());
    groups.push_back(std::move(kept));
  }
  if (groups.empty()) return;
  std::vector<std::uint32_t> moved;
  moved.reserve(n);
  for (std::uint32_t e : order) {
    const std::uint32_t g = joins[e];
    if (g == kNone) {
      moved.push_back(e);
    } else if (groups[g].back() == e) {
      moved.insert(moved.end(), groups[g].begin(), groups[g].end());
    }
  }
  order.swap(moved);
  for (const std::vector<std::uint32_t>& g : groups)
    for (std::size_t k = 0; k < g.size(); ++k) {
      const Event& e = event(g[k]);
      Instr& in = ops_[e.core][e.op_end - 1];
      NocSend send = decode<NocSend>(in);
      send.members = static_cast<std::int64_t>(g.size());
      send.part = static_cast<std::int64_t>(k);
      in = encode(send);
      ++mc_stats_.noc_sends;
    }
  mc_stats_.noc_groups += static_cast<std::int64_t>(groups.size());
}

}  // namespace gemini::assembler::lowering
