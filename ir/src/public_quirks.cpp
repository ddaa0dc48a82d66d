// Builder::finish() steps for what the public scheduler writes beyond the
// format (docs/ir-model.md, "Quirks of the public scheduler"): ifmaps it
// gives no source (Q1), and the once-per-file reports of its quirks met on
// many elements.
#include <algorithm>
#include <map>
#include <utility>

#include "builder.h"

namespace gemini::ir::detail {
// Quirk Q1: for a layer that reads network input together with other
// layers' outputs, the public scheduler gives a workload whose box needs
// none of those outputs no source at all: its ifmap has no transfer_id and
// its own L2 tensor has "source": null. What it reads is network input, in
// DRAM. Each such workload gets what the scheduler writes for a layer that
// reads only network input: a DRAM out entry (type fmap, its ifmap box, a
// new transfer id, destination the workload), that id in its ifmap, and a
// DRAM source with it in each snapshot's copy of its tensor.
void Builder::source_unsourced_inputs() {
  struct Added {
    TransferId transfer;
    const Ifmap* ifmap;
  };
  std::map<std::pair<std::int32_t, std::int32_t>, Added> added;  // (core, workload)
  TransferId next = -1;
  std::string first;
  for (Core& c : m_.cores)
    for (Workload& w : c.workloads)
      for (Ifmap& f : w.ifmap) {
        if (f.has_transfer_id || f.box.rank != 4) continue;
        if (next < 0) {
          next = next_transfer_id(m_);
          first = m_.pointer(f.origin);
        }
        DramOut e;
        e.type = DataType::fmap;
        e.layer_name = w.layer_name;
        e.box = f.box;
        e.size = f.box.volume() * f.bitwidth.value_or(1);
        e.transfer_id = next++;
        e.origin = f.origin;
        Endpoint d;
        d.type = EndpointType::core;
        d.core_id = c.core_id;
        d.workload_id = w.workload_id;
        d.layer_name = w.layer_name;
        d.origin = f.origin;
        e.destination.push_back(std::move(d));
        f.transfer_id = {e.transfer_id};
        f.has_transfer_id = true;
        added.emplace(std::pair(c.core_id, w.workload_id), Added{e.transfer_id, &f});
        m_.dram_out.push_back(std::move(e));
      }
  if (added.empty()) return;
  for (Core& c : m_.cores)
    for (Workload& w : c.workloads)
      for (BufferEntry& b : w.buffer) {
        if (b.type != TensorType::ifmap || !b.source.empty() || !b.transfer_id.empty() ||
            !b.workload_id)
          continue;
        auto it = added.find({c.core_id, *b.workload_id});
        if (it == added.end()) continue;
        const Workload* reader = m_.find_workload(c.core_id, *b.workload_id);
        if (!reader || reader->layer_name != b.layer_name) continue;
        Source s;
        s.type = EndpointType::dram;
        s.core_id = kDramCore;
        s.layer_name = "input";
        s.box = it->second.ifmap->box;
        s.size = s.box.volume() * it->second.ifmap->bitwidth.value_or(1);
        s.transfer_id = it->second.transfer;
        s.channel = std::array<std::int32_t, 2>{s.box.lo[1], s.box.hi[1]};
        s.origin = b.origin;
        b.source = {std::move(s)};
        b.has_source = true;
        b.source_null = false;
        b.transfer_id = {it->second.transfer};
        b.has_transfer_id = true;
      }
  const TransferId lo = added.begin()->second.transfer;
  TransferId hi = lo;
  for (const auto& [key, a] : added) hi = std::max(hi, a.transfer);
  d_.report(Check::unsourced_input, first,
            "no transfer_id on the ifmap of " + std::to_string(added.size()) +
                " workload(s), their L2 tensor's \"source\" null: the scheduler's quirk Q1 (a "
                "layer reading network input and other layers' outputs); each is read from DRAM "
                "as network input of its layer, through new DRAM entries (transfer ids " +
                std::to_string(lo) + (hi > lo ? ".." + std::to_string(hi) : "") +
                "; first here)");
}

void Builder::report_tallies() {
  if (no_layer_type_.count > 0) {
    const std::size_t odd = no_layer_type_not_permutation_.count;
    std::string msg = "layer_type is absent on " + std::to_string(no_layer_type_.count) +
                      " workload(s) (the scheduler's quirk Q4: it writes none for transposes); "
                      "taken as \"dt\"";
    if (odd == 0) {
      msg += ": every one's ofmap is a permutation of its ifmap (a transpose)";
    } else {
      msg += "; " + std::to_string(odd) +
             " of them are not transposes by their shapes (first at " +
             no_layer_type_not_permutation_.first + ")";
    }
    d_.report(Check::missing_layer_type, no_layer_type_.first, msg + " (first here)");
  }
  // Null sources left (Q1's were given one above).
  std::size_t nulls = 0;
  std::string first;
  for (const Core& c : m_.cores)
    for (const Workload& w : c.workloads)
      for (const BufferEntry& b : w.buffer)
        if (b.source_null && nulls++ == 0) first = m_.pointer(b.origin, "/source");
  if (nulls > 0)
    d_.report(Check::null_source, first,
              std::to_string(nulls) +
                  " buffer entr" + (nulls == 1 ? "y has" : "ies have") +
                  " \"source\": null: where the tensor comes from is not recorded (first here)");
}

}  // namespace gemini::ir::detail
