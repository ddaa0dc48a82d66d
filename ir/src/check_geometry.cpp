// Geometry checks (G001-G006): received boxes inside sent boxes, no two
// workloads of a layer computing the same ofmap element, sizes that can hold
// their boxes.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "gemini/ir/checked_int.h"
#include "gemini/ir/graph.h"
#include "gemini/ir/layer_geometry.h"
#include "gemini/ir/validator.h"

namespace gemini::ir::checks {
namespace {

struct SizeRule {
  bool weight = false;
  std::optional<std::int32_t> bitwidth, align;
  // An elementwise input holding its operands separately: one slab of the
  // box per operand (ir::operand_slabs), each slab's producers.
  std::vector<std::vector<std::string>> slabs{};
  std::int64_t operands() const { return std::max<std::int64_t>(1, std::ssize(slabs)); }
};

std::string slab_list(const std::vector<std::vector<std::string>>& slabs) {
  std::string s;
  for (const auto& g : slabs) {
    if (!s.empty()) s.append("; ");
    for (std::size_t i = 0; i < g.size(); ++i) s.append(i ? " + " : "").append(g[i]);
  }
  return s;
}

// G003 / G004 for one sized tensor.
void check_size(const Model& m, const HardwareConfig& hw, const Origin& o, const char* key,
                std::int64_t size, const Box& box, const SizeRule& rule, Diagnostics& d) {
  const std::int64_t bw = rule.bitwidth.value_or(hw.l2.bitwidth);
  // The lowering lays operand slab k at address + k x the box's bytes: the
  // entry holds them all, or its last slabs lie over whatever follows it.
  CheckedI64 least(aligned_bytes(box, 1, bw));  // saturates, as the rest
  least *= rule.operands();
  const std::int64_t min_bytes = least.value_or(INT64_MAX);
  if (size < min_bytes) {
    d.report(Check::size_too_small, m.pointer(o, key),
             "size " + std::to_string(size) + " bytes cannot hold box " + to_string(box) + " (" +
                 std::to_string(box.volume()) + " elements x " + std::to_string(bw) + " bits" +
                 (rule.slabs.size() > 1 ? " x " + std::to_string(rule.slabs.size()) +
                                              " operand slabs (" + slab_list(rule.slabs) + ")"
                                        : std::string()) +
                 " = " + std::to_string(min_bytes) + " bytes)");
    return;
  }
  if (box.rank != 4) return;  // unknown extents: no upper bound can be judged
  const std::int64_t align = rule.align.value_or(hw.l2.align_channels);
  CheckedI64 aligned(aligned_bytes(box, align, bw));
  aligned *= rule.operands();
  CheckedI64 bn_bytes(rule.weight ? box.extent(weight_k_dim(box)) : 0);
  bn_bytes *= hw.l2.bn_bytes_per_channel;
  aligned += bn_bytes;
  const std::int64_t most = aligned.value_or(INT64_MAX);
  if (size > most)
    d.report(Check::size_excess, m.pointer(o, key),
             "size " + std::to_string(size) + " bytes exceeds the " + std::to_string(most) +
                 " bytes that box " + to_string(box) + " needs with " + std::to_string(align) +
                 "-channel alignment" +
                 (rule.weight ? " and " + std::to_string(hw.l2.bn_bytes_per_channel) +
                                    " BatchNorm bytes per output channel"
                              : std::string()));
}

void inside(const Model& m, const Origin& o, const Box& inner, const Box& outer, const char* what,
            TransferId t, Diagnostics& d) {
  if (!outer.contains(inner))
    d.report(Check::outside_producer, m.pointer(o),
             what + std::to_string(t) + ": received box " + to_string(inner) +
                 " is not inside the sent box " + to_string(outer));
}

// G006: a 4-D weight box is the scheduler's weight range [N, K, C, R*S]
// (the IR specification's example: [0,0,0,0]-[0,63,2,48] for 64 output
// channels of 3 input channels and a 7x7 kernel): N is [0, 0] (constant
// weights) or the workload's batch range (weights from other layers'
// results). A box written [K, C, R, S] fails this, and is named so (its K
// range against the layer is M007's, with a model).
void weight_layout(const Model& m, const Workload& w, Diagnostics& d) {
  const Box& b = w.weight->box;
  if (b.rank != 4 || w.workload.rank != 4) return;
  const bool batch = (b.lo[0] == 0 && b.hi[0] == 0) ||
                     (b.lo[0] == w.workload.lo[0] && b.hi[0] == w.workload.hi[0]);
  if (batch) return;
  d.report(Check::weight_layout, m.pointer(w.weight->origin),
           "weight box " + to_string(b) + " is not [N, K, C, R*S] of workload " +
               std::to_string(w.workload_id) + " (ofmap " + to_string(w.workload) +
               "): its first dimension is the batch, [0, 0] for constant weights or the "
               "workload's [" +
               std::to_string(w.workload.lo[0]) + ", " + std::to_string(w.workload.hi[0]) +
               "], and K is the second, as in the IR specification's example "
               "[0,0,0,0]-[0,63,2,48] (64 output channels, 3 input channels, 7x7 kernel); read "
               "so, this box holds samples [" +
               std::to_string(b.lo[0]) + ", " + std::to_string(b.hi[0]) +
               "] (a box written [K, C, R, S])");
}

// G002: workloads of one layer must not overlap. Sweep along the dimension
// the boxes are spread over most, so n workloads cost ~n log n.
void layer_overlaps(const Model& m, Diagnostics& d) {
  std::map<std::string, std::vector<std::pair<const Core*, const Workload*>>> layers;
  for (const Core& c : m.cores)
    for (const Workload& w : c.workloads) layers[w.layer_name].emplace_back(&c, &w);
  for (auto& [name, ws] : layers) {
    if (ws.size() < 2) continue;
    int axis = 0;
    std::int64_t best = -1;
    for (int dim = 0; dim < 4; ++dim) {
      std::vector<std::int32_t> starts;
      for (auto& p : ws) starts.push_back(p.second->workload.lo[dim]);
      std::sort(starts.begin(), starts.end());
      const auto distinct = std::unique(starts.begin(), starts.end()) - starts.begin();
      if (distinct > best) {
        best = distinct;
        axis = dim;
      }
    }
    std::sort(ws.begin(), ws.end(), [axis](const auto& a, const auto& b) {
      return a.second->workload.lo[axis] < b.second->workload.lo[axis];
    });
    std::size_t reported = 0;
    for (std::size_t i = 0; i < ws.size() && reported < 10; ++i) {
      const Box& a = ws[i].second->workload;
      for (std::size_t j = i + 1; j < ws.size() && ws[j].second->workload.lo[axis] <= a.hi[axis];
           ++j) {
        const Box& b = ws[j].second->workload;
        if (!a.overlaps(b)) continue;
        d.report(Check::layer_overlap, m.pointer(ws[j].second->origin, "/workload"),
                 "layer " + name + ": core " + std::to_string(ws[j].first->core_id) + " workload " +
                     std::to_string(ws[j].second->workload_id) + " computes " + to_string(b) +
                     ", overlapping core " + std::to_string(ws[i].first->core_id) + " workload " +
                     std::to_string(ws[i].second->workload_id) + " (" + to_string(a) + ")");
        if (++reported >= 10) break;
      }
    }
  }
}

}  // namespace

void geometry(const Model& m, const TransferIndex& ix, const HardwareConfig& hw, Diagnostics& d) {
  auto single = [&](TransferId t) -> const ProducerRef* {
    const auto* ps = ix.producers(t);
    return ps && ps->size() == 1 ? &ps->front() : nullptr;
  };
  auto sent_box = [&](const ProducerRef& p) -> const Box& {
    return p.from_dram ? m.dram_out[p.dram_index].box : ix.ofmap(p).box;
  };

  for (const DramOut& e : m.dram_out)
    check_size(m, hw, e.origin, "/size", e.size, e.box, {e.type == DataType::weight, {}, {}}, d);
  for (const DramIn& e : m.dram_in)
    if (const ProducerRef* p = single(e.transfer_id); p && !p->from_dram)
      inside(m, e.origin, e.box, sent_box(*p), "DRAM in entry of transfer ", e.transfer_id, d);

  for (const Core& c : m.cores) {
    for (const Workload& w : c.workloads) {
      check_size(m, hw, w.origin, "/ofmap_size", w.ofmap_size, w.workload, {}, d);
      for (const Ofmap& o : w.ofmap) {
        check_size(m, hw, o.origin, "/size", o.size, o.box, {false, o.bitwidth, {}}, d);
        if (!w.workload.contains(o.box))
          d.report(Check::ofmap_outside_workload, m.pointer(o.origin),
                   "ofmap box " + to_string(o.box) + " lies outside the workload's box " +
                       to_string(w.workload));
      }
      for (const Ifmap& f : w.ifmap)
        if (f.size)
          check_size(m, hw, f.origin, "/size", *f.size, f.box, {false, f.bitwidth, f.align}, d);
      if (w.weight) weight_layout(m, w, d);
      if (w.weight && w.weight->size)
        check_size(m, hw, w.weight->origin, "/size", *w.weight->size, w.weight->box,
                   {true, w.weight->bitwidth, w.weight->align}, d);
      for (const BufferEntry& b : w.buffer) {
        const bool wt = b.type == TensorType::weight;
        if (b.size)
          check_size(m, hw, b.origin, "/size", *b.size, b.box,
                     {wt, b.bitwidth, b.align, operand_slabs(b)}, d);
        for (const Source& s : b.source) {
          check_size(m, hw, s.origin, "/size", s.size, s.box, {wt, b.bitwidth, b.align}, d);
          if (const ProducerRef* p = single(s.transfer_id))
            inside(m, s.origin, s.box, sent_box(*p), "source of transfer ", s.transfer_id, d);
        }
      }
    }
  }
  layer_overlaps(m, d);
}

}  // namespace gemini::ir::checks
