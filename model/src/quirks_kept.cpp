// The scheduler's quirks put back into a corrected, allocated schedule
// (semantics.h, keep_quirks): what `gemini import --as-scheduler` writes.
#include <cstddef>

#include "gemini/model/semantics.h"

namespace gemini::model {

bool keep_quirks(ir::Model& allocated, const ir::Model& original) {
  if (allocated.cores.size() != original.cores.size()) return false;
  for (std::size_t c = 0; c < allocated.cores.size(); ++c) {
    const auto& was = original.cores[c].workloads;
    const auto& now = allocated.cores[c].workloads;
    if (was.size() != now.size()) return false;
    for (std::size_t i = 0; i < was.size(); ++i)
      if (was[i].buffer.size() > now[i].buffer.size() ||
          was[i].ifmap.size() != now[i].ifmap.size() ||
          was[i].ofmap.size() != now[i].ofmap.size() ||
          was[i].weight.has_value() != now[i].weight.has_value())
        return false;
  }
  // The DRAM entries as the scheduler listed them (Q1's network input, Q3's
  // sizes); the corrections only add, drop and resize them.
  allocated.dram_out = original.dram_out;
  for (std::size_t c = 0; c < allocated.cores.size(); ++c)
    for (std::size_t i = 0; i < allocated.cores[c].workloads.size(); ++i) {
      ir::Workload& w = allocated.cores[c].workloads[i];
      const ir::Workload& o = original.cores[c].workloads[i];
      w.kind = o.kind;  // Q4
      w.layer_type = o.layer_type;
      for (std::size_t k = 0; k < w.ifmap.size(); ++k) {
        w.ifmap[k].transfer_id = o.ifmap[k].transfer_id;
        w.ifmap[k].has_transfer_id = o.ifmap[k].has_transfer_id;
      }
      if (w.weight) w.weight->transfer_id = o.weight->transfer_id;
      for (std::size_t k = 0; k < w.ofmap.size(); ++k)
        w.ofmap[k].destination = o.ofmap[k].destination;
      // Each listed tensor's sources (Q1, Q2, Q3's sizes); its allocation stays.
      for (std::size_t k = 0; k < w.buffer.size(); ++k) {
        ir::BufferEntry& e = w.buffer[k];
        if (k < o.buffer.size()) {
          const ir::BufferEntry& x = o.buffer[k];
          e.source = x.source;
          e.has_source = x.has_source;
          e.source_null = x.source_null;
          e.transfer_id = x.transfer_id;
        } else if (e.type == ir::TensorType::weight) {
          // A weight tensor the IR lacked (Q2): listed as the scheduler
          // lists the others, without sources.
          e.source.clear();
          e.has_source = true;
          e.source_null = true;
          e.transfer_id.clear();
        }
        e.has_transfer_id = true;  // required in the full dialect, if empty
      }
    }
  return true;
}

}  // namespace gemini::model
