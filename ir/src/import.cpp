#include "gemini/ir/import.h"

#include <algorithm>
#include <boost/container_hash/hash.hpp>
#include <map>

#include "gemini/ir/checked_int.h"
#include "gemini/ir/graph.h"
#include "gemini/ir/layer_geometry.h"
#include "gemini/ir/parallel.h"
#include "gemini/ir/tensor_runs.h"
#include "import_tiling.h"

namespace gemini::ir {
namespace {

// The bytes a buffer tensor holds.
std::int64_t tensor_bytes(const BufferEntry& e, const HardwareConfig& hw) {
  if (e.size) return *e.size;  // ofmap entries carry their size
  if (e.type == TensorType::weight) {
    CheckedI64 sum;
    for (const Source& s : e.source) sum += s.size;
    if (sum.value_or(INT64_MAX) > 0) return sum.value_or(INT64_MAX);
    return aligned_bytes(e.box, 1, hw.l2.bitwidth);
  }
  // An elementwise layer's operands each take a slab of the box's size.
  const auto slabs = std::max<std::size_t>(1, operand_slabs(e).size());
  CheckedI64 bytes(aligned_bytes(e.box, hw.l2.align_channels, hw.l2.bitwidth));
  bytes *= static_cast<std::int64_t>(slabs);
  return bytes.value_or(INT64_MAX);
}

// Identity of a buffer entry across the snapshots of one core: its type,
// box and transfer ids, and for a tensor not received (an ofmap, or data
// without transfers) its layer and workload id. Received data is one tensor
// whoever reads it: the public dialect lists an ifmap once per consuming
// workload, so several layers reading one input (GoogLeNet's inception
// branches on one core) list the same transfers several times in one
// snapshot, and they arrive once. Equal entries of one snapshot are one
// tensor.
bool received(const BufferEntry& e) {
  return e.type == TensorType::ifmap && !e.transfer_id.empty();
}

bool same_tensor(const BufferEntry& a, const BufferEntry& b) {
  if (a.type != b.type || a.box.rank != b.box.rank || a.transfer_id != b.transfer_id) return false;
  if (!received(a) && (a.workload_id != b.workload_id || a.layer_name != b.layer_name))
    return false;
  for (int d = 0; d < a.box.rank; ++d)
    if (a.box.lo[d] != b.box.lo[d] || a.box.hi[d] != b.box.hi[d]) return false;
  return true;
}

struct EntryEq {
  bool operator()(const BufferEntry* a, const BufferEntry* b) const { return same_tensor(*a, *b); }
};

struct EntryHash {
  std::size_t operator()(const BufferEntry* k) const {
    const BufferEntry& e = *k;
    std::size_t h = 0;
    if (!received(e)) {
      boost::hash_combine(h, e.layer_name);
      boost::hash_combine(h, e.workload_id.value_or(-1));
    }
    boost::hash_combine(h, static_cast<int>(e.type));
    boost::hash_range(h, e.box.lo.begin(), e.box.lo.begin() + e.box.rank);
    boost::hash_range(h, e.box.hi.begin(), e.box.hi.begin() + e.box.rank);
    boost::hash_range(h, e.transfer_id.begin(), e.transfer_id.end());
    return h;
  }
};

// Whether a buffer entry holds the workload's weights (shares a transfer id
// with its weight).
bool holds_weight_of(const BufferEntry& e, const Workload& w) {
  if (e.type != TensorType::weight || !w.weight) return false;
  const auto& ids = w.weight->transfer_id;
  return std::any_of(e.transfer_id.begin(), e.transfer_id.end(), [&](TransferId t) {
    return std::find(ids.begin(), ids.end(), t) != ids.end();
  });
}

// A core's tensors (runs of one entry across its snapshots), as the
// allocator sees them.
struct CoreTensors {
  TensorRuns runs;
  std::vector<AllocTensor> tensors;  // [run]
};

// A workload without an ofmap entry of its own writes its result straight
// into the tensor of its core that receives it (the lowering's choice:
// the earliest one alive in this snapshot or the next). Where that tensor
// is first listed in the next snapshot, its bytes are taken from this
// one on: its allocation starts here, so that nothing else lies there.
void count_early_writes(const Core& c, CoreTensors& ct) {
  for (std::uint32_t i = 0; i < c.workloads.size(); ++i) {
    if (has_own_ofmap_entry(c.workloads[i])) continue;
    if (const auto to = result_run(c, i, ct.runs))
      ct.tensors[*to].first = std::min(ct.tensors[*to].first, i);
  }
}

// The allocator's tensors: each run, from its first write to its last
// snapshot (runs.runs keeps the first listing, for newly_added).
CoreTensors collect(const Core& c, const HardwareConfig& hw, std::int64_t alignment) {
  CoreTensors ct{tensor_runs<EntryHash, EntryEq>(c.workloads), {}};
  ct.tensors.reserve(ct.runs.runs.size());
  for (const TensorRun& r : ct.runs.runs)
    ct.tensors.push_back(
        {align_up(std::max<std::int64_t>(tensor_bytes(*r.entry, hw), 1), alignment), r.first,
         r.last, r.entry->type != TensorType::ofmap});
  count_early_writes(c, ct);
  return ct;
}

}  // namespace

const char* to_string(L2Allocation a) { return a == L2Allocation::tight ? "tight" : "prefetch"; }

std::optional<L2Allocation> l2_allocation_from(std::string_view s) {
  if (s == "prefetch") return L2Allocation::prefetch;
  if (s == "tight") return L2Allocation::tight;
  return std::nullopt;
}

WarStats ImportReport::war() const {
  WarStats w;
  for (const CoreImport& c : cores) w += c.war;
  return w;
}

WarStats ImportReport::war_tight() const {
  WarStats w;
  for (const CoreImport& c : cores) w += c.war_tight;
  return w;
}

std::int64_t ImportReport::alloc_peak() const {
  std::int64_t p = 0;
  for (const CoreImport& c : cores) p = std::max(p, c.alloc_peak);
  return p;
}

namespace {

// What the phases of import_model hand on: each core's tensors, their
// placement and the region they are placed in.
struct Placement {
  std::vector<RingRegion> regions;  // the ring regions written into every snapshot
  RingRegion region;                // the largest: where tensors are placed
  std::vector<CoreTensors> all;
  std::vector<Allocation> alloc;
  std::vector<LivePeak> peaks;
  std::vector<char> overflows;          // cores whose tensors did not fit `region`
  std::vector<RingRegion> core_region;  // the region each core was placed in at last
};

// Tight packing of every core (cores are independent, so in parallel), in
// a ring where the linear packing overflows `region`.
void pack_cores(const Model& m, const HardwareConfig& hw, const ImportOptions& opts,
                ImportReport& rep, Placement& pl) {
  const std::int64_t alignment = hw.l2.alignment_bytes;
  const std::size_t n = m.cores.size();
  pl.all.resize(n);
  pl.alloc.resize(n);
  pl.peaks.resize(n);
  pl.overflows.assign(n, 0);
  rep.cores.resize(n);
  parallel_for(n, [&](std::size_t ci) {
    const Core& c = m.cores[ci];
    pl.all[ci] = collect(c, hw, alignment);
    const auto& t = pl.all[ci].tensors;
    CoreImport& ci_rep = rep.cores[ci];
    ci_rep.core_id = c.core_id;
    ci_rep.tensors = t.size();
    const LivePeak lp = live_peak(t);
    pl.peaks[ci] = lp;
    ci_rep.live_peak = lp.bytes;
    if (!c.workloads.empty()) ci_rep.live_peak_workload = c.workloads[lp.snapshot].workload_id;
    Allocation& a = pl.alloc[ci];
    a = opts.only_strategy ? allocate(t, *opts.only_strategy, pl.region.begin, alignment)
                           : allocate_best(t, pl.region.begin, alignment);
    if (a.peak > pl.region.end) {
      Allocation ring;
      if (ring_fit(t, pl.region, alignment, ring)) {
        ring.strategy = a.strategy;
        a = std::move(ring);
      } else {
        pl.overflows[ci] = 1;
      }
    }
    ci_rep.alloc_peak = a.peak;
    ci_rep.strategy = a.strategy;
    ci_rep.wrapped = a.wrapped;
  });
}

// What did not fit, reported in core order; false when that is an error
// (an explicit buffersize), else the buffer grows to the largest need.
bool grow_if_needed(const Model& m, const ImportOptions& opts, ImportReport& rep, Placement& pl,
                    Diagnostics& d) {
  std::int64_t needed = 0;
  for (std::size_t ci = 0; ci < m.cores.size(); ++ci) {
    if (!pl.overflows[ci]) continue;
    const Core& c = m.cores[ci];
    rep.fits = false;
    needed = std::max(needed, pl.alloc[ci].peak);
    d.report(opts.buffersize ? Check::l2_does_not_fit : Check::l2_grown,
             m.pointer(c.workloads[pl.peaks[ci].snapshot].origin),
             "core " + std::to_string(c.core_id) + " holds " + std::to_string(pl.peaks[ci].bytes) +
                 " bytes live before workload " + std::to_string(rep.cores[ci].live_peak_workload) +
                 " and needs " + std::to_string(pl.alloc[ci].peak) + " bytes of L2 as allocated; " +
                 std::to_string(pl.region.end) + " are available" +
                 (opts.buffersize ? "" : "; buffersize grown"));
  }
  if (rep.fits) return true;
  if (opts.buffersize) return false;
  // Grow L2 to the largest need, rounded to KiB. A core that fit keeps
  // its placement and its ring (the configured region, below); one that
  // did not has its linear allocation in the grown buffer.
  rep.buffersize = align_up(needed, 1024);
  pl.regions = {RingRegion{0, rep.buffersize}};
  return true;
}

// The placement used: the tight packing above sized the buffer; the
// prefetch placement takes the same region where it finds room for every
// tensor (docs/allocation.md, "Prefetch"): the configured one, or the
// grown buffer for a core that did not fit it.
void place_for_prefetch(const Model& m, const HardwareConfig& hw, ImportReport& rep,
                        Placement& pl) {
  const std::int64_t alignment = hw.l2.alignment_bytes;
  pl.core_region.assign(m.cores.size(), pl.region);
  parallel_for(m.cores.size(), [&](std::size_t ci) {
    const RingRegion used = pl.overflows[ci] ? RingRegion{0, rep.buffersize} : pl.region;
    pl.core_region[ci] = used;
    const auto& t = pl.all[ci].tensors;
    CoreImport& cr = rep.cores[ci];
    cr.war_tight = war_waits(t, pl.alloc[ci], used, used.size());
    cr.war = cr.war_tight;
    if (rep.allocation != L2Allocation::prefetch) return;
    Allocation p;
    if (prefetch_fit(t, used, alignment, p)) {
      pl.alloc[ci] = std::move(p);
    } else {  // full at its peak: the tight packing, repaired
      cr.prefetch_failed = true;
      cr.repaired = prefetch_repair(t, used, alignment, pl.alloc[ci]);
    }
    cr.alloc_peak = pl.alloc[ci].peak;
    cr.strategy = pl.alloc[ci].strategy;
    cr.wrapped = pl.alloc[ci].wrapped;
    cr.war = war_waits(t, pl.alloc[ci], used, used.size());
  });
}

// tensor_order: every loaded tensor, by when its core first holds it
// (order[core][tensor], -1 for tensors not loaded).
std::vector<std::vector<std::int64_t>> tensor_order(const Model& m, const ModelGraph& mg,
                                                    const Placement& pl, ImportReport& rep) {
  const DependencyGraph& g = mg.graph();
  const std::vector<std::int64_t>& start = mg.earliest_starts();
  struct Need {
    std::int64_t time;
    std::uint32_t core, tensor;
  };
  std::vector<Need> needs;
  for (std::uint32_t ci = 0; ci < m.cores.size(); ++ci)
    for (std::uint32_t ti = 0; ti < pl.all[ci].tensors.size(); ++ti)
      if (pl.all[ci].tensors[ti].loaded)
        needs.push_back({start[g.node_of(ci, pl.all[ci].runs.runs[ti].first)], ci, ti});
  std::stable_sort(needs.begin(), needs.end(), [](const Need& a, const Need& b) {
    if (a.time != b.time) return a.time < b.time;
    return a.core < b.core;
  });
  std::vector<std::vector<std::int64_t>> order(m.cores.size());
  for (std::uint32_t ci = 0; ci < m.cores.size(); ++ci)
    order[ci].assign(pl.all[ci].tensors.size(), -1);
  for (std::size_t i = 0; i < needs.size(); ++i)
    order[needs[i].core][needs[i].tensor] = static_cast<std::int64_t>(i);
  rep.tensors_with_order = needs.size();
  return order;
}

// Weight bytes per pe workload: its L2 weight tensor(s), else DRAM sizes.
std::map<Loc, std::int64_t> weight_bytes_of(const Model& m, const HardwareConfig& hw,
                                            const TransferIndex& ix) {
  std::map<Loc, std::int64_t> weight_bytes;
  for (const Core& c : m.cores) {
    for (const Workload& w : c.workloads) {
      if (!w.weight) continue;
      std::int64_t bytes = 0;
      for (const BufferEntry& e : w.buffer)
        if (holds_weight_of(e, w)) bytes += tensor_bytes(e, hw);
      if (bytes == 0)
        for (TransferId t : w.weight->transfer_id)
          if (const auto* ps = ix.producers(t); ps && ps->size() == 1 && ps->front().from_dram)
            bytes += m.dram_out[ps->front().dram_index].size;
      if (bytes > 0) weight_bytes[w.origin.loc] = bytes;
    }
  }
  return weight_bytes;
}

// A pe workload's WL0 snapshot: the first chunk of its weights (larger
// weights stream through it, docs/allocation.md, "WL0"), staged in L2 (a
// weight tensor of this snapshot) or read from DRAM.
void fill_wl0(Workload& w, std::int64_t bytes, const HardwareConfig& hw, CoreImport& cr) {
  Wl0Entry e;
  e.address = 0;
  e.align = hw.l2.align_channels;
  e.bitwidth = hw.l2.bitwidth;
  e.layer_name = w.layer_name;
  e.size = std::min(bytes, hw.wl0.size_bytes);
  e.transfer_id = w.weight->transfer_id;
  e.source = Wl0Source::dram;
  for (const BufferEntry& b : w.buffer)
    if (holds_weight_of(b, w)) {
      e.source = Wl0Source::core;
      e.tensor_order = b.tensor_order;
      break;
    }
  cr.wl0_peak = std::max(cr.wl0_peak, e.size);
  if (bytes > hw.wl0.size_bytes) ++cr.streamed_weights;
  w.wl0_buffer->push_back(std::move(e));
}

// What the full dialect adds to one snapshot: its buffer entries'
// allocation, the ifmap/weight sizes, WL0 and the tiling.
void fill_snapshot(Workload& w, std::uint32_t s, std::size_t ci, const HardwareConfig& hw,
                   const Placement& pl, const std::vector<std::vector<std::int64_t>>& order,
                   const std::map<Loc, std::int64_t>& weight_bytes,
                   const std::map<std::string, detail::LayerGeometry>& geometry,
                   std::vector<RingRegion> ring, CoreImport& cr) {
  const std::int32_t bw = hw.l2.bitwidth, align_c = hw.l2.align_channels;
  w.ring_buffer_info = std::move(ring);
  for (std::size_t ei = 0; ei < w.buffer.size(); ++ei) {
    BufferEntry& e = w.buffer[ei];
    const std::uint32_t ti = pl.all[ci].runs.run_of(s, ei);
    e.size = tensor_bytes(e, hw);
    e.address = pl.alloc[ci].address[ti];
    e.align = align_c;
    e.bitwidth = bw;
    e.tensor_id = ti;
    e.newly_added = pl.all[ci].runs.runs[ti].first == s;
    e.tensor_order = order[ci][ti] >= 0 ? std::optional<std::int64_t>(order[ci][ti]) : std::nullopt;
    if (e.type == TensorType::ifmap) {
      e.cur_wl_ifmap = e.workload_id ? *e.workload_id == w.workload_id : false;
    }
    if (e.type != TensorType::ofmap) {
      e.has_transfer_id = true;  // [] where the public file had none
      e.has_source = true;       // null stays null
      if (e.source.empty() && !e.source_null) e.source_null = true;
    }
  }
  for (Ifmap& f : w.ifmap) {
    f.align = align_c;
    f.bitwidth = bw;
    f.size = aligned_bytes(f.box, align_c, bw);
  }
  for (Ofmap& o : w.ofmap) o.bitwidth = bw;
  w.wl0_buffer.emplace();
  auto wb = weight_bytes.find(w.origin.loc);
  if (w.kind == LayerKind::pe && w.weight) {
    w.weight->align = align_c;
    w.weight->bitwidth = bw;
    if (wb != weight_bytes.end()) w.weight->size = wb->second;
  }
  if (w.kind == LayerKind::pe && w.weight && wb != weight_bytes.end())
    fill_wl0(w, wb->second, hw, cr);
  if (w.kind == LayerKind::pe) {
    auto gi = geometry.find(w.layer_name);
    const detail::LayerGeometry geo = gi != geometry.end() ? gi->second : detail::LayerGeometry{};
    w.tile_info = std::vector<Tile>{detail::make_tile(w, geo, hw.pe)};
    w.tile_padding_tblr = detail::tile_padding(w.workload, geo);
  }
}

}  // namespace

std::optional<ImportReport> import_model(Model& m, const HardwareConfig& hw,
                                         const ImportOptions& opts, Diagnostics& d,
                                         const ModelGraph* shared) {
  ImportReport rep;
  rep.allocation = opts.only_strategy ? L2Allocation::tight : opts.allocation;
  rep.configured_buffersize = opts.buffersize.value_or(m.buffersize.value_or(hw.l2.size_bytes));
  rep.buffersize = rep.configured_buffersize;
  if (m.dialect == Dialect::full) return rep;  // already complete

  // The region tensors are placed in: the configuration's largest ring region
  // (by default the whole L2).
  Placement pl;
  pl.regions = hw.regions_for(rep.configured_buffersize);
  if (opts.buffersize) pl.regions = {RingRegion{0, *opts.buffersize}};
  pl.region = *std::max_element(
      pl.regions.begin(), pl.regions.end(),
      [](const RingRegion& a, const RingRegion& b) { return a.size() < b.size(); });
  pack_cores(m, hw, opts, rep, pl);
  if (!grow_if_needed(m, opts, rep, pl, d)) return std::nullopt;
  place_for_prefetch(m, hw, rep, pl);

  std::optional<ModelGraph> own;
  const ModelGraph& mg = ModelGraph::of(m, shared, own);
  const auto order = tensor_order(m, mg, pl, rep);
  const auto weight_bytes = weight_bytes_of(m, hw, mg.transfers());
  const auto geometry = detail::layer_geometry(m, weight_bytes);

  // Fill in the full dialect, each core on its own. Grown: each core's
  // ring is the region it was placed in (the configured one where it fit,
  // the grown buffer where it did not).
  parallel_for(m.cores.size(), [&](std::size_t ci) {
    Core& c = m.cores[ci];
    for (std::uint32_t s = 0; s < c.workloads.size(); ++s)
      fill_snapshot(c.workloads[s], s, ci, hw, pl, order, weight_bytes, geometry,
                    rep.fits ? pl.regions : std::vector<RingRegion>{pl.core_region[ci]},
                    rep.cores[ci]);
  });
  m.buffersize = rep.buffersize;
  m.dialect = Dialect::full;
  return rep;
}

}  // namespace gemini::ir
