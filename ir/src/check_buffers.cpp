// Buffer checks (B001-B009), for snapshots that carry addresses (the full
// dialect): every tensor inside L2 and inside one ring region, wrapping
// inside it; no two tensors of a snapshot overlapping; cur_wl_ifmap and
// newly_added consistent; WL0 contents inside the WL0 capacity.
#include <algorithm>
#include <boost/unordered/unordered_flat_map.hpp>
#include <boost/unordered/unordered_flat_set.hpp>
#include <set>

#include "gemini/ir/validator.h"

namespace gemini::ir::checks {
namespace {

struct Span {
  std::int64_t begin, end;  // [begin, end)
  std::size_t entry;
};

std::string range(std::int64_t b, std::int64_t e) { return to_string(ByteRange{b, e}); }

void ring_regions_ok(const Model& m, const Workload& w, std::int64_t buffersize, Diagnostics& d) {
  if (!w.ring_buffer_info) return;
  auto regs = *w.ring_buffer_info;
  const std::string where = m.pointer(w.ring_origin);
  if (regs.empty()) {
    d.report(Check::bad_ring_regions, where, "no ring-buffer region: expected at least one");
    return;
  }
  for (std::size_t i = 0; i < regs.size(); ++i) {
    if (regs[i].begin >= regs[i].end || regs[i].end > buffersize)
      d.report(Check::bad_ring_regions, std::string(where).append("/").append(std::to_string(i)),
               "region " + range(regs[i].begin, regs[i].end) +
                   " must satisfy begin < end <= buffersize (" + std::to_string(buffersize) + ")");
  }
  std::sort(regs.begin(), regs.end(), [](auto& a, auto& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < regs.size(); ++i)
    if (regs[i].begin < regs[i - 1].end)
      d.report(Check::bad_ring_regions, where,
               "regions " + range(regs[i - 1].begin, regs[i - 1].end) + " and " +
                   range(regs[i].begin, regs[i].end) + " overlap");
}

void snapshot(const Model& m, const Core& c, const Workload& w, std::int64_t buffersize,
              Diagnostics& d) {
  const std::vector<RingRegion> regions = w.ring_buffer_info && !w.ring_buffer_info->empty()
                                              ? *w.ring_buffer_info
                                              : std::vector<RingRegion>{{0, buffersize}};
  std::vector<Span> spans;
  // A tensor listed more than once (one entry per workload reading it) is
  // placed once: its later entries must agree with the first and take no
  // bytes of their own.
  boost::unordered_flat_map<const BufferEntry*, std::size_t, TensorIdentityHash, TensorIdentityEq>
      listed;
  for (std::size_t i = 0; i < w.buffer.size(); ++i) {
    const BufferEntry& b = w.buffer[i];
    if (!b.address || !b.size) continue;
    if (auto [it, fresh] = listed.emplace(&b, i); !fresh) {
      const BufferEntry& f = w.buffer[it->second];
      if (f.address != b.address || f.size != b.size || !(f.box == b.box) ||
          f.transfer_id != b.transfer_id)
        d.report(Check::tensor_identity, m.pointer(b.origin),
                 "the tensor is listed again in this snapshot with another address, size, box "
                 "or transfers (first " +
                     m.pointer(f.origin) + ")");
      continue;
    }
    const std::int64_t a = *b.address, s = *b.size;
    if (a >= buffersize || s > buffersize) {
      d.report(Check::address_out_of_buffer, m.pointer(b.origin, "/address"),
               "tensor at " + std::to_string(a) + " of " + std::to_string(s) +
                   " bytes does not fit buffersize " + std::to_string(buffersize) +
                   " (addresses must lie in [0, buffersize))");
      continue;
    }
    auto r = std::find_if(regions.begin(), regions.end(),
                          [&](const RingRegion& x) { return a >= x.begin && a < x.end; });
    if (r == regions.end()) {
      d.report(Check::outside_ring_region, m.pointer(b.origin, "/address"),
               "address " + std::to_string(a) + " lies in no ring_buffer_info region");
      continue;
    }
    if (s > r->size()) {
      d.report(Check::outside_ring_region, m.pointer(b.origin, "/size"),
               "tensor of " + std::to_string(s) + " bytes is larger than its ring region " +
                   range(r->begin, r->end));
      continue;
    }
    for (const ByteRange& x : r->footprint(a, s)) spans.push_back({x.begin, x.end, i});
  }
  std::sort(spans.begin(), spans.end(), [](const Span& x, const Span& y) {
    return x.begin != y.begin ? x.begin < y.begin : x.end < y.end;
  });
  std::set<std::pair<std::size_t, std::size_t>> pairs;
  std::size_t open = 0;  // the span reaching furthest so far
  for (std::size_t k = 1; k < spans.size(); ++k) {
    if (spans[k].begin < spans[open].end && spans[k].entry != spans[open].entry) {
      auto key = std::minmax(spans[k].entry, spans[open].entry);
      if (pairs.insert(key).second) {
        const BufferEntry& x = w.buffer[key.first];
        const BufferEntry& y = w.buffer[key.second];
        d.report(Check::snapshot_overlap, m.pointer(y.origin),
                 "on core " + std::to_string(c.core_id) + " before workload " +
                     std::to_string(w.workload_id) + ", " + to_string(y.type) + " at " +
                     range(*y.address, *y.address + *y.size) + " overlaps " + to_string(x.type) +
                     " at " + range(*x.address, *x.address + *x.size) + " (" + m.pointer(x.origin) +
                     "), counting ring wrap-around");
      }
    }
    if (spans[k].end > spans[open].end) open = k;
  }
}

void cur_wl_ifmap(const Model& m, const Workload& w, Diagnostics& d) {
  std::set<TransferId> wanted;
  for (const Ifmap& f : w.ifmap) wanted.insert(f.transfer_id.begin(), f.transfer_id.end());
  std::set<TransferId> flagged;
  for (const BufferEntry& b : w.buffer) {
    if (!b.cur_wl_ifmap.value_or(false)) continue;
    for (TransferId t : b.transfer_id) {
      flagged.insert(t);
      if (!wanted.count(t))
        d.report(Check::cur_wl_ifmap_mismatch, m.pointer(b.origin, "/cur_wl_ifmap"),
                 "tensor is marked cur_wl_ifmap but transfer " + std::to_string(t) +
                     " is not an ifmap of workload " + std::to_string(w.workload_id));
    }
  }
  for (TransferId t : wanted)
    if (!flagged.count(t))
      d.report(Check::cur_wl_ifmap_mismatch, m.pointer(w.origin, "/buffer"),
               "ifmap transfer " + std::to_string(t) + " of workload " +
                   std::to_string(w.workload_id) +
                   " is in no buffer tensor marked cur_wl_ifmap: true");
}

void newly_added(const Model& m, const Core& c, const Workload* prev, const Workload& w,
                 Diagnostics& d) {
  // The previous snapshot's entries by tensor identity (the first of equals).
  boost::unordered_flat_set<const BufferEntry*, TensorIdentityHash, TensorIdentityEq> before;
  if (prev)
    for (const BufferEntry& b : prev->buffer) before.insert(&b);
  for (const BufferEntry& b : w.buffer) {
    if (!b.newly_added) continue;
    auto it = before.find(&b);
    if (*b.newly_added && it != before.end()) {
      d.report(Check::newly_added_mismatch, m.pointer(b.origin, "/newly_added"),
               "newly_added is true but the tensor is already in the snapshot of workload " +
                   std::to_string(prev->workload_id) + " (" + m.pointer((*it)->origin) + ")");
    } else if (!*b.newly_added && it == before.end()) {
      d.report(
          Check::newly_added_mismatch, m.pointer(b.origin, "/newly_added"),
          "newly_added is false but the tensor is not in " +
              (prev ? "the snapshot of workload " + std::to_string(prev->workload_id)
                    : std::string("any earlier snapshot (this is the first workload of core ") +
                          std::to_string(c.core_id) + ")"));
    } else if (!*b.newly_added && it != before.end()) {
      const BufferEntry& p = **it;
      if (p.address != b.address || p.size != b.size || !(p.box == b.box))
        d.report(Check::tensor_identity, m.pointer(b.origin),
                 "tensor kept from workload " + std::to_string(prev->workload_id) +
                     " changed its address, size or box (was " + m.pointer(p.origin) + ")");
    }
  }
}

void wl0(const Model& m, const Workload& w, std::int64_t capacity, Diagnostics& d) {
  if (!w.wl0_buffer) return;
  std::vector<Span> spans;
  for (std::size_t i = 0; i < w.wl0_buffer->size(); ++i) {
    const Wl0Entry& e = (*w.wl0_buffer)[i];
    if (!e.address) continue;
    if (*e.address + e.size > capacity) {
      d.report(Check::wl0_overflow, m.pointer(e.origin, "/address"),
               "WL0 entry " + range(*e.address, *e.address + e.size) +
                   " runs past the WL0 capacity of " + std::to_string(capacity) +
                   " bytes (hardware configuration wl0.size_bytes)");
      continue;
    }
    if (e.size > 0) spans.push_back({*e.address, *e.address + e.size, i});
  }
  std::sort(spans.begin(), spans.end(), [](auto& a, auto& b) { return a.begin < b.begin; });
  for (std::size_t k = 1; k < spans.size(); ++k)
    if (spans[k].begin < spans[k - 1].end)
      d.report(Check::wl0_overlap, m.pointer((*w.wl0_buffer)[spans[k].entry].origin),
               "WL0 entry " + range(spans[k].begin, spans[k].end) + " overlaps " +
                   range(spans[k - 1].begin, spans[k - 1].end));
}

}  // namespace

void buffers(const Model& m, const HardwareConfig& hw, Diagnostics& d) {
  const std::int64_t buffersize = m.buffersize.value_or(hw.l2.size_bytes);
  for (const Core& c : m.cores) {
    const Workload* prev = nullptr;
    for (const Workload& w : c.workloads) {
      ring_regions_ok(m, w, buffersize, d);
      snapshot(m, c, w, buffersize, d);
      if (m.dialect == Dialect::full) {
        cur_wl_ifmap(m, w, d);
        newly_added(m, c, prev, w, d);
      }
      wl0(m, w, hw.wl0.size_bytes, d);
      prev = &w;
    }
  }
}

}  // namespace gemini::ir::checks
