#pragma once
// DRAM multicast grouping (docs/isa.md, "DRAM multicast"), internal to the
// assembler. Contract: given every load of a DRAM out entry -- (transfer,
// predicted start, core, tensor, source index) -- decide which loads read
// the entry together. Per entry, in order of predicted start, the first
// load of every core is round 0, a core's second load of the entry (it
// left the core's L2 and is needed again) round 1, and so on; each round
// of two or more loads is one group, read once. A round of one reads on
// its own (a reload), as does every load of a shared entry when multicast
// is off. An entry loaded once is no multicast candidate at all.

#include <cstdint>
#include <utility>
#include <vector>

#include "gemini/assembler/lowering.h"
#include "gemini/ir/model.h"

namespace gemini::assembler::lowering {

// A load of a DRAM out entry into core `core`'s tensor `tensor`, from its
// buffer entry's source `source`.
struct DramLoad {
  ir::TransferId transfer;
  std::int64_t prio;  // its workload's earliest predicted start
  std::uint32_t core, tensor, source;
  std::uint32_t round = 0;  // the core's how-many-th load of the entry (group_loads sets it)
};

// A multicast load: its group (numbered from stats.groups as given), the
// group's size and its part of the group (the entry's how-many-th group).
struct McLoad {
  std::uint32_t group;
  std::uint16_t members, part;
};

// The loads that join a group, with their group, in group order; `loads`
// is reordered. Counts groups, members, reloads and (multicast off) loads
// read on their own into `stats`.
std::vector<std::pair<DramLoad, McLoad>> group_loads(std::vector<DramLoad>& loads, bool multicast,
                                                     MulticastStats& stats);

}  // namespace gemini::assembler::lowering
