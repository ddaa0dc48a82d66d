// V5 across cores (verification.h). Contract: the dma_ins of a multicast
// group -- (transfer, part) -- are one on each of `members` distinct cores
// and agree on `members`; a group that does not is reported (on the core
// of its first member) and marked invalid, so that V2 does not join it.
// Fills groups_ and group_of_ for V2.
#include "verification.h"

namespace gemini::assembler::verifier {

void Verification::check_multicast_groups() {
  boost::unordered_flat_map<std::uint64_t, std::uint32_t> by_key;
  for (std::size_t c = 0; c < n_; ++c)
    for (const std::uint32_t g : joins_[c]) {
      const Instr& in = instr_at(g);
      const std::uint64_t key = static_cast<std::uint64_t>(in.value(*sl_.di_transfer)) << 16 |
                                static_cast<std::uint64_t>(in.value(*sl_.di_part));
      auto [it, fresh] = by_key.try_emplace(key, static_cast<std::uint32_t>(groups_.size()));
      if (fresh) groups_.emplace_back();
      groups_[it->second].instrs.push_back(g);
      group_of_[g] = it->second;
    }
  for (Join& j : groups_) {
    const Instr& first = instr_at(j.instrs.front());
    const std::int64_t members = first.value(*sl_.di_members);
    std::string cores_list;
    bool twice = false;
    for (std::size_t k = 0; k < j.instrs.size(); ++k) {
      const std::size_t c = core_of(j.instrs[k]);
      twice |= k > 0 && core_of(j.instrs[k - 1]) == c;
      cores_list += (k ? ", " : "") + std::to_string(cores_[c]->core_id);
      if (instr_at(j.instrs[k]).value(*sl_.di_members) != members) j.valid = false;
    }
    if (twice || !j.valid || static_cast<std::int64_t>(j.instrs.size()) != members) {
      j.valid = false;
      mc_found_.add(core_of(j.instrs.front()),
                    "multicast of transfer " + std::to_string(first.value(*sl_.di_transfer)) +
                        " part " + std::to_string(first.value(*sl_.di_part)) +
                        ": members=" + std::to_string(members) + " but its dma_ins are on cores " +
                        cores_list + (twice ? " (a core twice)" : ""));
    }
  }
}

}  // namespace gemini::assembler::verifier
