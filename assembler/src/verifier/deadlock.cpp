// V2 (verification.h). Contract: every queue of every core retires in
// order, and an instruction that waits retires once what it waits for has;
// the members of a valid DRAM multicast group (V5) retire only once every
// member's queue has reached its member. Queues advance as far as they
// can; one that stops at a wait is parked on the queue it waits for and
// woken when that queue passes the instruction. What never retires lies on
// or behind a cycle, reported as its chain ("deadlock: a -> b -> ... ->
// a"). (The same fixpoint as Kahn's algorithm over the queue-order and
// wait edges, without building the edge lists.)
#include <unordered_map>

#include "verification.h"

namespace gemini::assembler::verifier {

void Verification::check_deadlock(std::vector<std::string>& problems) {
  // retired[k] counts queue k's retired instructions, so instruction g
  // has retired iff retired[queue_of(g)] >= qpos_[g].
  std::vector<std::uint32_t> retired(n_ * kEngines, 0);
  struct Parked {
    std::uint32_t until;  // the position the queue must pass
    std::uint32_t queue;  // the parked queue
  };
  std::vector<std::vector<Parked>> parked(n_ * kEngines);
  // Per queue: the position (from 1) of the multicast member it has reached.
  std::vector<std::uint32_t> reached(n_ * kEngines, 0);
  std::vector<std::uint32_t> work;
  for (std::size_t k = 0; k < n_ * kEngines; ++k)
    if (!queues_[k / kEngines][k % kEngines].empty()) work.push_back(static_cast<std::uint32_t>(k));
  while (!work.empty()) {
    const std::uint32_t k = work.back();
    work.pop_back();
    const std::size_t c = k / kEngines;
    const std::vector<std::uint32_t>& list = queues_[c][k % kEngines];
    std::uint32_t& done = retired[k];
    while (done < list.size()) {
      const std::uint32_t g = static_cast<std::uint32_t>(base_[c] + list[done]);
      const Wait& w = waits_for_[g];
      if (w.instr != kNone && retired[w.queue] < qpos_[w.instr]) {
        parked[w.queue].push_back({qpos_[w.instr], k});
        break;
      }
      if (!group_of_.empty() && cores_[c]->instrs[list[done]].op == Opcode::dma_in) {
        auto it = group_of_.find(g);
        if (it != group_of_.end() && groups_[it->second].valid) {
          Join& j = groups_[it->second];
          if (reached[k] != done + 1) {  // this queue reaches the member now
            reached[k] = done + 1;
            if (++j.arrived == j.instrs.size())
              for (const std::uint32_t q : j.parked) work.push_back(q);
          }
          if (j.arrived < j.instrs.size()) {
            j.parked.push_back(k);
            break;
          }
        }
      }
      ++done;
    }
    std::vector<Parked>& waiting = parked[k];
    for (std::size_t i = 0; i < waiting.size();) {
      if (waiting[i].until <= done) {
        work.push_back(waiting[i].queue);
        waiting[i] = waiting.back();
        waiting.pop_back();
      } else {
        ++i;
      }
    }
  }
  bool all_retired = true;
  for (std::size_t k = 0; k < n_ * kEngines; ++k)
    all_retired &= retired[k] == queues_[k / kEngines][k % kEngines].size();
  if (!all_retired) report_deadlock(retired, problems);
}

// The cycle behind the first instruction that never retired.
void Verification::report_deadlock(const std::vector<std::uint32_t>& retired,
                                   std::vector<std::string>& problems) const {
  auto queue_of = [&](std::size_t g) {
    const std::size_t c = core_of(g);
    return c * kEngines + static_cast<std::size_t>(cores_[c]->instrs[g - base_[c]].queue);
  };
  auto unfinished = [&](std::size_t g) { return retired[queue_of(g)] < qpos_[g]; };
  std::size_t g = 0;
  while (!unfinished(g)) ++g;
  auto where = [&](std::size_t x) {
    const std::size_t c = core_of(x);
    return name(c, x - base_[c]);
  };
  // Walk back through unfinished predecessors (the previous instruction
  // of the queue first, then the waited-for one) until a node repeats.
  std::vector<std::size_t> path;
  std::unordered_map<std::size_t, std::size_t> seen;
  while (!seen.count(g)) {
    seen[g] = path.size();
    path.push_back(g);
    const std::size_t c = core_of(g);
    const std::uint32_t pos = qpos_[g];
    const auto& list = queues_[c][static_cast<std::size_t>(cores_[c]->instrs[g - base_[c]].queue)];
    if (pos >= 2 && unfinished(base_[c] + list[pos - 2])) {
      g = base_[c] + list[pos - 2];
    } else if (waits_for_[g].instr != kNone && unfinished(waits_for_[g].instr)) {
      g = waits_for_[g].instr;
    } else if (auto it = group_of_.find(static_cast<std::uint32_t>(g)); it != group_of_.end()) {
      // A member waits for the members whose queues have not reached them.
      for (const std::uint32_t m : groups_[it->second].instrs) {
        const std::size_t mc = core_of(m);
        const auto& ml =
            queues_[mc][static_cast<std::size_t>(cores_[mc]->instrs[m - base_[mc]].queue)];
        if (qpos_[m] >= 2 && unfinished(base_[mc] + ml[qpos_[m] - 2])) {
          g = m;
          break;
        }
      }
    }
  }
  std::string chain;
  for (std::size_t k = path.size(); k-- > seen[g];) chain += where(path[k]) + " -> ";
  chain += where(g);
  if (problems.size() < max_) problems.push_back("deadlock: " + chain);
}

}  // namespace gemini::assembler::verifier
