// Pass 1, L2 tensors (lowerer.h). Contract: from the snapshots alone,
// each core's tensors -- a run of snapshots of one buffer entry, with its
// address, size, layout box and operand slabs -- the tensor of every buffer
// entry (at_), the tensors by death (dead_order_) and the tensors that
// receive each (transfer, source core) (receivers_, and inbound_ for the
// sending cores). Queries over them: the ring-buffer hazards a writer must
// wait for, the receiving tensor of a transfer, slab addresses.
#include <algorithm>

#include "gemini/ir/parallel.h"
#include "gemini/ir/tensor_runs.h"
#include "lowerer.h"

namespace gemini::assembler::lowering {

// Each core's tensors on their own (in parallel).
void Lowerer::build_tensors() {
  const std::size_t n = m_.cores.size();
  tensors_.resize(n);
  at_.resize(n);
  at_first_.resize(n);
  workload_ids_.resize(n);
  dead_order_.resize(n);
  receivers_.resize(n);
  ir::parallel_for(n, [&](std::size_t c) {
    const auto& wls = m_.cores[c].workloads;
    for (const ir::Workload& w : wls) workload_ids_[c].push_back(w.workload_id);
    ir::TensorRuns runs = ir::tensor_runs<ir::TensorIdentityHash, ir::TensorIdentityEq>(wls);
    tensors_[c].reserve(runs.runs.size());
    for (const ir::TensorRun& r : runs.runs) {
      const ir::BufferEntry& e = *r.entry;
      Tensor t;
      t.addr = e.address.value_or(0);
      t.size = std::max<std::int64_t>(e.size.value_or(0), 1);
      t.first = t.from = r.first;
      t.last = r.last;
      t.type = e.type;
      t.entry = &e;
      t.box = layout_of(e);
      t.operands = ir::operand_slabs(e);
      tensors_[c].push_back(std::move(t));
    }
    at_[c] = std::move(runs.entry_run);
    at_first_[c] = std::move(runs.first_entry);
    auto& o = dead_order_[c];
    o.resize(tensors_[c].size());
    for (std::uint32_t i = 0; i < o.size(); ++i) o[i] = i;
    std::stable_sort(o.begin(), o.end(),
                     [&](auto a, auto b) { return tensors_[c][a].last < tensors_[c][b].last; });
    for (std::uint32_t i = 0; i < tensors_[c].size(); ++i)
      for (const ir::Source& s : tensors_[c][i].entry->source)
        if (s.type == ir::EndpointType::core) {
          auto& v = receivers_[c][received(s.transfer_id, s.core_id)].list;
          if (v.empty() || v.back().tensor != i)
            v.push_back({i, tensors_[c][i].first, tensors_[c][i].last});
        }
  });
}

ir::Box Lowerer::layout_of(const ir::BufferEntry& e) const {
  if (e.type != ir::TensorType::weight) return to_box(e.box);
  return weight_layout(e.box, geometry(e.layer_name), e.size.value_or(0));
}

std::int64_t Lowerer::slab_address(std::uint32_t c, const Tensor& x,
                                   const std::string& producer) const {
  const std::int32_t k = ir::slab_of(x.operands, producer);
  if (k < 0) return x.addr;
  return slab_at(c, x, k);
}

std::int64_t Lowerer::slab_at(std::uint32_t c, const Tensor& x, std::int64_t k) const {
  const std::int64_t a = x.addr + k * x.box.volume();
  ir::RingRegion r{0, m_.buffersize.value_or(hw_.l2.size_bytes)};
  const auto& regs = m_.cores[c].workloads[x.first].ring_buffer_info;
  if (regs)
    for (const ir::RingRegion& g : *regs)
      if (x.addr >= g.begin && x.addr < g.end) r = g;
  return r.size() > 0 && a >= r.end ? r.begin + (a - r.begin) % r.size() : a;
}

Reception Lowerer::reception(std::uint32_t c, std::uint32_t t, TransferId transfer,
                             std::int32_t from) const {
  const Tensor& x = tensors_[c][t];
  for (const ir::Source& s : x.entry->source)
    if (s.transfer_id == transfer && s.core_id == from)
      return {source_shift(s), slab_address(c, x, s.layer_name.value_or(""))};
  return {0, x.addr};
}

// The accesses the writer of tensor t must wait for: those of earlier tensors
// of the core whose bytes t overlaps (ring wrap counted). Newest first; an
// older tensor is skipped where a newer one already covered its bytes,
// because that newer tensor's writer waited for it (transitive order).
void Lowerer::hazards(std::uint32_t c, std::uint32_t t, DepList& deps) const {
  const Tensor& x = tensors_[c][t];
  const auto& regs = m_.cores[c].workloads[x.first].ring_buffer_info;
  const std::int64_t b = m_.buffersize.value_or(hw_.l2.size_bytes);
  auto footprint = [&](const Tensor& y) {
    ir::RingRegion r{0, b};
    if (regs)
      for (const ir::RingRegion& g : *regs)
        if (y.addr >= g.begin && y.addr < g.end) r = g;
    return r.footprint(y.addr, y.size);
  };
  const ir::Footprint mine = footprint(x);
  std::vector<ir::ByteRange> open(mine.begin(), mine.end()), next;  // bytes no newer tensor covered
  // Predecessors (dead before t is first written), newest death first: the
  // tensors before the first one still alive at x.from in death order.
  const auto& by_death = dead_order_[c];
  const auto alive = std::partition_point(by_death.begin(), by_death.end(), [&](std::uint32_t p) {
    return tensors_[c][p].last < x.from;
  });
  for (auto it = std::make_reverse_iterator(alive); it != by_death.rend() && !open.empty(); ++it) {
    const std::uint32_t p = *it;
    const Tensor& y = tensors_[c][p];
    const ir::Footprint theirs = footprint(y);
    const bool overlap = std::any_of(open.begin(), open.end(), [&](const ir::ByteRange& a) {
      return std::any_of(theirs.begin(), theirs.end(),
                         [&](const ir::ByteRange& q) { return a.overlaps(q); });
    });
    if (!overlap) continue;
    deps.insert(deps.end(), y.accesses.begin(), y.accesses.end());
    if (!y.ordered_after_hazards) continue;  // cannot vouch for what it covers
    for (const ir::ByteRange& q : theirs) {  // open -= q
      next.clear();
      for (const ir::ByteRange& a : open) {
        if (!a.overlaps(q)) {
          next.push_back(a);
          continue;
        }
        if (a.begin < q.begin) next.push_back({a.begin, q.begin});
        if (q.end < a.end) next.push_back({q.end, a.end});
      }
      open.swap(next);
    }
  }
}

// The tensor of core c carrying transfer t from core `from` that is live
// somewhere in snapshots [at_least, at_most]; the earliest such. (Sends,
// which ask with at_least 0 for another core's, read build_inbound()'s
// copy of the answer instead.)
std::optional<std::uint32_t> Lowerer::find_receiver(std::uint32_t c, TransferId t,
                                                    std::int32_t from, std::uint32_t at_most,
                                                    std::uint32_t at_least, bool rising) {
  auto it = receivers_[c].find(received(t, from));
  if (it == receivers_[c].end()) return std::nullopt;
  const auto& list = it->second.list;
  // With `rising` (callers whose at_least never decreases for a core), the
  // prefix of tensors dead before at_least is skipped once, not on every call.
  std::size_t from_index = 0;
  if (rising) {
    std::size_t& dead = it->second.dead;
    while (dead < list.size() && list[dead].last < at_least) ++dead;
    from_index = dead;
  }
  // The list holds exactly the tensors with a core source (t, from) (the key
  // is exact), in tensor order, which is the order of first snapshots: the
  // first one alive in the window is the earliest.
  for (std::size_t k = from_index; k < list.size(); ++k) {
    const Receiver& x = list[k];
    if (x.first > at_most) break;
    if (x.last >= at_least) return x.tensor;
  }
  return std::nullopt;
}

void Lowerer::build_inbound() {
  const std::size_t n = m_.cores.size();
  inbound_.resize(n);
  ir::parallel_for(n, [&](std::size_t r) {
    inbound_[r] = bucket<Inbound>(n, [&](const auto& put) {
      for (const auto& [key, rs] : receivers_[r]) {
        auto sender = core_index_.find(static_cast<std::int32_t>(key.part));
        if (sender == core_index_.end() || rs.list.empty()) continue;  // no core sends it
        const auto count = static_cast<std::uint32_t>(rs.list.size());
        for (const Receiver& x : rs.list) {
          const Tensor& t = tensors_[r][x.tensor];
          const Reception at = reception(static_cast<std::uint32_t>(r), x.tensor, key.transfer,
                                         static_cast<std::int32_t>(key.part));
          put(sender->second, Inbound{key.transfer, static_cast<std::uint32_t>(r), x.tensor,
                                      x.first, x.last, count, at.addr, at.shift, t.box});
        }
      }
    });
  });
}

}  // namespace gemini::assembler::lowering
