// Builder::finish() steps for what the public scheduler writes beyond the
// format (docs/ir-model.md, "Quirks of the public scheduler"): ifmaps it
// gives no source (Q1), and the once-per-file reports of its quirks met on
// many elements.
#include <algorithm>
#include <map>
#include <utility>

#include "builder.h"
#include "gemini/ir/checked_int.h"

namespace gemini::ir::detail {
// Quirk Q1: for a layer that reads network input together with other
// layers' outputs, the public scheduler places the producers at channel 0
// of the input, not after the network-input channels, and lists no network
// input at all. So a workload's L2 input tensor has sources that leave
// channels of its box uncovered (which never happens otherwise: in every
// corpus file each non-elementwise input tensor is tiled exactly), or, where
// its box meets none of the producers so placed, no source at all: its ifmap
// has no transfer_id and its tensor "source": null. What is missing is
// network input, in DRAM. Each uncovered channel range gets what the
// scheduler writes for network input: a DRAM out entry (type fmap, the
// tensor's box at those channels, a new transfer id, destination the
// workload), that id in the workload's ifmap, and a DRAM source "input" with
// it in every snapshot's copy of the tensor. (The producers stay where the
// IR puts them; the layer semantics, --model, rebuild such inputs whole.)
void Builder::source_unsourced_inputs() {
  TransferId next = -1, lo = -1;
  std::size_t whole = 0, partial = 0;
  std::string first;
  for (Core& c : m_.cores) {
    // The copies of each workload's own input tensor in the core's snapshots.
    std::map<std::int32_t, std::vector<BufferEntry*>> copies;
    for (Workload& x : c.workloads)
      for (BufferEntry& b : x.buffer)
        if (b.type == TensorType::ifmap && b.workload_id && b.box.rank == 4)
          copies[*b.workload_id].push_back(&b);
    for (Workload& w : c.workloads) {
      if (w.ifmap.size() != 1 || w.layer_type == "element_wise") continue;
      Ifmap& f = w.ifmap.front();
      if (f.box.rank != 4) continue;
      std::vector<BufferEntry*> mine;
      if (auto it = copies.find(w.workload_id); it != copies.end())
        for (BufferEntry* b : it->second)
          if (b->layer_name == w.layer_name) mine.push_back(b);
      const BufferEntry* canonical = mine.empty() ? nullptr : mine.front();
      if (f.has_transfer_id && (!canonical || canonical->source.empty())) continue;
      const Box box = canonical ? canonical->box : f.box;
      // Channels of the box no source covers.
      std::vector<bool> covered(static_cast<std::size_t>(box.extent(1)), false);
      bool known = true;
      if (canonical)
        for (const Source& s : canonical->source) {
          if (!s.channel) {
            known = false;
            break;
          }
          for (std::int32_t ch = std::max((*s.channel)[0], box.lo[1]);
               ch <= std::min((*s.channel)[1], box.hi[1]); ++ch)
            covered[static_cast<std::size_t>(ch - box.lo[1])] = true;
        }
      if (!known) continue;
      std::vector<std::pair<std::int32_t, std::int32_t>> missing;
      for (std::int32_t ch = box.lo[1]; ch <= box.hi[1]; ++ch) {
        if (covered[static_cast<std::size_t>(ch - box.lo[1])]) continue;
        if (!missing.empty() && missing.back().second == ch - 1) {
          missing.back().second = ch;
        } else {
          missing.emplace_back(ch, ch);
        }
      }
      if (missing.empty()) continue;
      if (next < 0) {
        lo = next = next_transfer_id(m_);
        first = m_.pointer(f.origin);
      }
      ++(canonical && !canonical->source.empty() ? partial : whole);
      const std::vector<Source> before = canonical ? canonical->source : std::vector<Source>{};
      const std::int64_t bytes = f.bitwidth.value_or(1);
      if (!f.has_transfer_id) f.transfer_id.clear();
      for (const auto& [a, b] : missing) {
        DramOut e;
        e.type = DataType::fmap;
        e.layer_name = w.layer_name;
        e.box = box;
        e.box.lo[1] = a;
        e.box.hi[1] = b;
        CheckedI64 size(e.box.volume());
        size *= bytes;
        e.size = size.value_or(INT64_MAX);
        e.transfer_id = next++;
        e.origin = f.origin;
        Endpoint d;
        d.type = EndpointType::core;
        d.core_id = c.core_id;
        d.workload_id = w.workload_id;
        d.layer_name = w.layer_name;
        d.origin = f.origin;
        e.destination.push_back(std::move(d));
        f.transfer_id.push_back(e.transfer_id);
        Source s;
        s.type = EndpointType::dram;
        s.core_id = kDramCore;
        s.layer_name = "input";
        s.box = e.box;
        s.size = e.size;
        s.transfer_id = e.transfer_id;
        s.channel = std::array<std::int32_t, 2>{a, b};
        for (BufferEntry* copy : mine) {
          if (copy->box != box || (copy != canonical && copy->source != before)) continue;
          s.origin = copy->origin;
          copy->source.push_back(s);
          copy->transfer_id.push_back(s.transfer_id);
          copy->has_source = copy->has_transfer_id = true;
          copy->source_null = false;
        }
        m_.dram_out.push_back(std::move(e));
      }
      f.has_transfer_id = true;
    }
  }
  if (next < 0) return;
  d_.report(Check::unsourced_input, first,
            "the input of " + std::to_string(whole + partial) +
                " workload(s) is not all sourced (" + std::to_string(whole) +
                " with no transfer_id and \"source\": null, " + std::to_string(partial) +
                " whose sources leave channels of the tensor uncovered): the scheduler's quirk "
                "Q1, a layer reading network input and other layers' outputs (it places the "
                "producers at channel 0 and lists no network input). The missing channels are "
                "read from DRAM as network input of the layer, through new DRAM entries "
                "(transfer ids " +
                std::to_string(lo) + (next - 1 > lo ? ".." + std::to_string(next - 1) : "") +
                "); the producers stay at the channels the IR gives unless --model rebuilds "
                "these inputs from the layer semantics (first here)");
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
      msg += "; " + std::to_string(odd) + " of them are not transposes by their shapes (first at " +
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
              std::to_string(nulls) + " buffer entr" + (nulls == 1 ? "y has" : "ies have") +
                  " \"source\": null: where the tensor comes from is not recorded (first here)");
}

}  // namespace gemini::ir::detail
