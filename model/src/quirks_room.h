#pragma once
// Internal to the quirk corrections (quirks.cpp): what a correction needs
// of a schedule's L2 once it changed what a tensor holds or where a result
// goes. Contract: after the Q1/Q2 corrections,
//  - make_operand_room: a full-dialect input tensor whose corrected sources
//    are an elementwise layer's operands, one slab each (ir::operand_slabs),
//    and which its entry's size cannot hold, gets the bytes: in place where
//    they are free while it is live, else at the lowest place of its ring
//    region free of every tensor live at the same time (ir::CoreRoom); every
//    listing of the tensor changes together. Where no place is free, M011
//    names the entry, its operands and what its bytes would overlap.
//  - hold_sent_ofmaps: a workload whose result no longer reaches a tensor
//    of its own core (it wrote straight into a same-core tensor the IR's
//    wrong sources named, and the data now goes elsewhere) keeps it in an L2
//    ofmap tensor of its own, from which it is sent: in the public dialect
//    an entry the import allocates, in the full dialect one placed where its
//    snapshot has room (M011 where it has none).
// Both count what they did (First) for one M009 warning each.

#include <cstdint>
#include <string>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/model.h"

namespace gemini::model::detail {

// A count and the place of the first.
struct First {
  std::int64_t count = 0;
  std::string where;
  void add(const std::string& at, std::int64_t n = 1) {
    if (count == 0) where = at;
    count += n;
  }
};

void make_operand_room(ir::Model& m, const ir::HardwareConfig& hw, ir::Diagnostics& d,
                       First& grown);
void hold_sent_ofmaps(ir::Model& m, const ir::HardwareConfig& hw, ir::Diagnostics& d, First& held);

}  // namespace gemini::model::detail
