// Pass 4, the event graph of one core (lowerer.h). Contract: for each
// workload of the core, in order, the events of its phases with their
// instructions bound and the dependencies known on this core:
//   0 loads and credits of the tensors that first appear in its snapshot
//     (add_sources), each after the ring-buffer hazards of its bytes;
//   1 its WL0 load (add_wl0);
//   2 its compute (add_compute; instructions by select.cpp), after the
//     writers of what it reads and the hazards of a new output tensor;
//   3 a store or send of every ofmap destination (add_outputs).
// Event ids are local to the core; what other cores must add (the
// credits a send awaits, sends into their tensors, DRAM re-reads) is
// recorded in CoreEvents for merge.cpp. Reads only this core's tensors and
// the inbound_ prepared for it, so cores are built in parallel.
#include <algorithm>

#include "lowerer.h"

namespace gemini::assembler::lowering {

const char* to_string(Kind k) {
  switch (k) {
    case Kind::load:
      return "load";
    case Kind::credit:
      return "L2 credit";
    case Kind::wl0:
      return "WL0 load";
    case Kind::compute:
      return "compute";
    case Kind::send:
      return "send";
    case Kind::store:
      return "store";
  }
  return "?";
}

bool Lowerer::bind_named(const Invocation& inv, std::uint32_t c, std::uint32_t w, Instr& out,
                         std::string& err, RepeatBinder& binder) const {
  if (binder.bind(inv, out, err)) return true;
  const std::string origin = who(c, w);
  Invocation named = inv;
  named.origin = origin;
  (void)bind(named, out, err);
  return false;
}

void Lowerer::bound(CoreEvents& ce, const Invocation& inv, std::uint32_t c, std::uint32_t w,
                    RepeatBinder& binder) const {
  Instr& in = ce.ops.emplace_back();
  std::string err;
  if (!bind_named(inv, c, w, in, err, binder)) {
    error(ce, err);
    in = Instr{};
  }
}

Event Lowerer::make(const CoreEvents& ce, Kind k, Engine q, std::uint8_t phase, std::uint32_t c,
                    std::uint32_t i, std::int64_t prio) {
  Event e{};
  e.kind = k;
  e.queue = q;
  e.phase = phase;
  e.core = c;
  e.workload = i;
  e.op_begin = e.op_end = static_cast<std::uint32_t>(ce.ops.size());
  e.prio = prio;
  return e;
}

void Lowerer::view(CoreBuild& b, const WorkloadBuild& wb, Engine q, std::int64_t shift,
                   const ir::Box& box0, const ir::Box& box1) const {
  Invocation v;
  v.op = Opcode::view;
  v.queue = q;
  v.workload = wb.wid;
  v.arg("shift", shift).box("box0", box0).box("box1", box1);
  bound(b.ce, v, b.c, wb.i, b.binders.view);
}

void Lowerer::build_core_events(std::uint32_t c, const std::vector<std::int64_t>& start,
                                const ir::DependencyGraph& g, CoreEvents& ce) {
  std::size_t estimate = 0;
  for (const ir::Workload& w : m_.cores[c].workloads)
    estimate += 4 + w.buffer.size() * 2 + w.ofmap.size() * 2;
  ce.events.reserve(estimate);
  ce.ops.reserve(estimate);
  CoreBuild b{c, m_.cores[c], ce, start, g, {}, {}, {}, 0, {}, {}};
  // Where this core's sends go, by (transfer, receiving core): gathered
  // from every receiving core's inbound_ here, on the thread that reads it.
  {
    std::size_t count = 0;
    for (const Buckets<Inbound>& from : inbound_) count += from.of(c).size();
    b.outbox.reserve(count);
    for (const Buckets<Inbound>& from : inbound_)
      for (const Inbound& x : from.of(c)) b.outbox.emplace(TransferKey{x.transfer, x.core}, &x);
  }
  for (std::uint32_t i = 0; i < b.core.workloads.size(); ++i) {
    const ir::Workload& w = b.core.workloads[i];
    WorkloadBuild wb{
        w,  i, static_cast<std::uint32_t>(w.workload_id), start[g.node_of(c, i)], {}, {}, {}, {},
        {}, {}};
    add_sources(b, wb);
    if (!find_operands(b, wb)) continue;
    add_wl0(b, wb);
    const std::uint32_t comp = add_compute(b, wb);
    add_outputs(b, wb, comp);
  }
}

// Phase 0: tensors newly added before this workload, loads and credits.
// Tensors are numbered as they first appear, so the new ones of this
// workload are the next run of numbers (in snapshot order).
void Lowerer::add_sources(CoreBuild& b, const WorkloadBuild& wb) {
  const std::uint32_t c = b.c;
  for (; b.next_new < tensors_[c].size() && tensors_[c][b.next_new].first == wb.i; ++b.next_new) {
    const std::uint32_t t = b.next_new;
    Tensor& x = tensors_[c][t];
    if (x.type == ir::TensorType::ofmap) continue;
    DepList hz;
    hazards(c, t, hz);
    // A tensor written before its first snapshot (Tensor::from) already
    // holds that data: what wrote and read it comes first too.
    hz.insert(hz.end(), x.accesses.begin(), x.accesses.end());
    x.ordered_after_hazards = true;
    // A tensor with many sources (one credit per sending core, one load
    // per DRAM transfer) would repeat its hazards in every source event.
    // Only the first event of each queue whose dependencies are exactly
    // the hazards (the anchor) carries them; the later ones wait for the
    // anchor instead. That changes neither the schedule nor a wait: the
    // anchor is ready whenever they could be and ranks before them (same
    // workload and phase, built earlier), and it is on their own queue,
    // whose waits already cover the hazards when they come.
    std::optional<std::uint32_t> load_anchor, credit_anchor;
    for (const ir::Source& s : x.entry->source) {
      if (s.type == ir::EndpointType::dram)
        add_load(b, wb, t, s, hz, load_anchor);
      else
        add_credit(b, wb, t, s, hz, credit_anchor);
    }
  }
}

// A load of DRAM source s into tensor t (a member of a multicast group
// where plan_multicast put it).
void Lowerer::add_load(CoreBuild& b, const WorkloadBuild& wb, std::uint32_t t, const ir::Source& s,
                       const DepList& hz, std::optional<std::uint32_t>& anchor) {
  const std::uint32_t c = b.c;
  Tensor& x = tensors_[c][t];
  Event e = make(b, wb, Kind::load, Engine::dma_in, 0);
  e.deps = anchor && !hz.empty() ? DepList{*anchor} : hz;
  auto rg = out_region_.find(s.transfer_id);
  if (rg == out_region_.end()) {
    error(b.ce, who(c, wb.i) + ": DRAM source transfer " + std::to_string(s.transfer_id) +
                    " is not a DRAM out entry");
    return;
  }
  // What moves, in the DRAM tensor's frame: the source's box (a K
  // range of whole output channels for constant weights).
  ir::Box moved = to_box(s.box);
  if (s.box.rank == 1) {
    for (int d = 1; d < 4; ++d) {
      moved.lo[d] = x.box.lo[d];
      moved.hi[d] = x.box.hi[d];
    }
  } else if (regions_[rg->second].kind == DramRegion::Kind::weight) {
    moved = weight_layout(s.box, geometry(x.entry->layer_name), s.size);
  }
  view(b, wb, Engine::dma_in, source_shift(s), regions_[rg->second].layout, ir::Box{});
  Invocation inv;
  inv.op = Opcode::dma_in;
  inv.workload = wb.wid;
  inv.tensor("l2", {slab_address(c, x, s.layer_name.value_or("")), s.size, x.box, Access::write});
  inv.tensor("dram", {dram_address(rg->second, moved), s.size, moved, Access::read});
  inv.arg("transfer", s.transfer_id);
  const McLoad* mc = nullptr;
  if (!mc_loads_[c].empty()) {
    const auto k = static_cast<std::uint64_t>(&s - x.entry->source.data());
    auto it = mc_loads_[c].find(std::uint64_t{t} << 16 | k);
    if (it != mc_loads_[c].end()) mc = &it->second;
  }
  inv.arg("members", mc ? mc->members : 0).arg("part", mc ? mc->part : 0);
  bound(b.ce, inv, c, wb.i, b.binders.load);
  if (auto ro = related_.find(s.transfer_id); ro != related_.end() && !ro->second->empty())
    e.dram_after = ro->second;
  const bool anchors = !anchor && e.dram_after == nullptr;  // waits for hz alone
  const std::uint32_t id = add(b.ce, std::move(e));
  if (mc) b.ce.multicast.emplace_back(id, mc->group);
  if (anchors) anchor = id;
  x.accesses.push_back(id);
  x.writers.push_back(id);
}

// The credit for core source s of tensor t: the sender may write it.
void Lowerer::add_credit(CoreBuild& b, const WorkloadBuild& wb, std::uint32_t t,
                         const ir::Source& s, const DepList& hz,
                         std::optional<std::uint32_t>& anchor) {
  const std::uint32_t c = b.c;
  Tensor& x = tensors_[c][t];
  Event e = make(b, wb, Kind::credit, Engine::ctrl, 0);
  e.deps = anchor && !hz.empty() ? DepList{*anchor} : hz;
  auto from = core_index_.find(s.core_id);
  if (from == core_index_.end()) {
    error(b.ce, who(c, wb.i) + ": source core " + std::to_string(s.core_id) + " has no program");
    return;
  }
  Invocation inv;
  inv.op = Opcode::signal;
  inv.queue = Engine::ctrl;
  inv.workload = wb.wid;
  inv.arg("kind", static_cast<std::int64_t>(TokenKind::credit))
      .arg("transfer", s.transfer_id)
      .arg("to", s.core_id);
  inv.tensor("grant", {x.addr, x.size, std::nullopt, Access::write});
  bound(b.ce, inv, c, wb.i, b.binders.credit);
  e.tokens.push_back({s.transfer_id, from->second, TokenKind::credit});
  const std::uint32_t id = add(b.ce, std::move(e));
  if (!anchor) anchor = id;
  b.ce.credit_of[TransferKey{s.transfer_id, t}] = id;
  x.accesses.push_back(id);
}

// The workload's operands: its input tensors (the flagged ifmap entries,
// else those sharing a transfer with its ifmaps), its weight tensor and
// the tensor its result lands in (its ofmap entry, else a same-core
// consumer's tensor receiving it). False (reported) when nothing holds
// its result.
bool Lowerer::find_operands(CoreBuild& b, WorkloadBuild& wb) {
  const std::uint32_t c = b.c, i = wb.i;
  const ir::Workload& w = wb.w;
  b.ifmap_ids.clear();
  for (const ir::Ifmap& f : w.ifmap)
    b.ifmap_ids.insert(b.ifmap_ids.end(), f.transfer_id.begin(), f.transfer_id.end());
  const bool flagged = std::any_of(w.buffer.begin(), w.buffer.end(), [](const ir::BufferEntry& e) {
    return e.cur_wl_ifmap.has_value();
  });
  for (std::size_t ei = 0; ei < w.buffer.size(); ++ei) {
    const ir::BufferEntry& e = w.buffer[ei];
    const std::uint32_t t = at_[c][at_first_[c][i] + ei];
    auto shares = [&](const std::vector<TransferId>& ids) {
      return std::any_of(e.transfer_id.begin(), e.transfer_id.end(), [&](TransferId x) {
        return std::find(ids.begin(), ids.end(), x) != ids.end();
      });
    };
    if (e.type == ir::TensorType::ifmap &&
        (flagged ? e.cur_wl_ifmap.value_or(false) : shares(b.ifmap_ids)) &&
        std::find(wb.ins.begin(), wb.ins.end(), t) == wb.ins.end())
      wb.ins.push_back(t);
    if (e.type == ir::TensorType::weight && w.weight && shares(w.weight->transfer_id) && !wb.wt)
      wb.wt = t;
    if (e.type == ir::TensorType::ofmap && !wb.out && e.layer_name == w.layer_name) wb.out = t;
  }
  if (!wb.out) {
    // No ofmap entry: the result goes straight into a tensor of this
    // core that receives it (a same-core consumer's ifmap).
    for (const ir::Ofmap& o : w.ofmap)
      if (!wb.out) {
        wb.out = find_receiver(c, o.transfer_id, b.core.core_id, i + 1, i, true);
        if (wb.out) wb.out_via = o.transfer_id;
        // A tensor of the next snapshot is written from this one on.
        if (wb.out) tensors_[c][*wb.out].from = std::min(tensors_[c][*wb.out].from, i);
      }
  }
  if (!wb.out) {
    error(b.ce, who(c, i) +
                    ": no L2 tensor holds its ofmap (no ofmap entry in the snapshot and no "
                    "tensor of this core receives it)");
    return false;
  }
  // Where the result lands and how that tensor sees the layer's output:
  // its own ofmap tensor, or a consumer's tensor (its slab, its frame).
  wb.out_at = wb.out_via ? reception(c, *wb.out, *wb.out_via, b.core.core_id)
                         : Reception{0, tensors_[c][*wb.out].addr};
  return true;
}

// Phase 1: the WL0 loads of a PE workload, after the previous PE compute
// (WL0 reuse) and the weight tensor's writers where it loads from L2.
void Lowerer::add_wl0(CoreBuild& b, WorkloadBuild& wb) {
  const ir::Workload& w = wb.w;
  if (w.kind != ir::LayerKind::pe || !w.wl0_buffer || w.wl0_buffer->empty()) return;
  const std::uint32_t c = b.c;
  Event e = make(b, wb, Kind::wl0, Engine::wl0, 1);
  if (b.last_pe) e.deps.push_back(*b.last_pe);
  for (const ir::Wl0Entry& x : *w.wl0_buffer) {
    Invocation inv;
    inv.op = Opcode::wl0_load;
    inv.workload = wb.wid;
    const bool from_l2 = x.source == ir::Wl0Source::core && wb.wt;
    inv.arg("source", from_l2 ? 0 : 1);
    inv.tensor("wl0", {x.address.value_or(0), std::max<std::int64_t>(x.size, 1), std::nullopt,
                       Access::write});
    inv.tensor("l2", {from_l2 ? tensors_[c][*wb.wt].addr : 0, 0, std::nullopt, Access::read});
    const TransferId tr = x.transfer_id.empty() ? 0 : x.transfer_id.front();
    auto d = dram_out_addr_.find(tr);
    inv.arg("dram", from_l2 || d == dram_out_addr_.end() ? 0 : d->second);
    inv.arg("transfer", tr);
    bound(b.ce, inv, c, wb.i, b.binders.wl0);
    if (from_l2) data_deps(c, *wb.wt, e);
  }
  wb.wl0_event = add(b.ce, std::move(e));
  if (wb.wt) {
    tensors_[c][*wb.wt].accesses.push_back(*wb.wl0_event);
    tensors_[c][*wb.wt].readers.push_back(*wb.wl0_event);
  }
}

// Phase 2: the compute event; its instructions from select_pe / select_vp.
std::uint32_t Lowerer::add_compute(CoreBuild& b, const WorkloadBuild& wb) {
  const std::uint32_t c = b.c;
  const ir::Workload& w = wb.w;
  Event e = make(b, wb, Kind::compute, w.kind == ir::LayerKind::pe ? Engine::pe : Engine::vp, 2);
  for (std::uint32_t t : wb.ins) data_deps(c, t, e);
  if (wb.wt) data_deps(c, *wb.wt, e);
  if (wb.wl0_event) e.deps.push_back(*wb.wl0_event);
  const std::uint32_t out = *wb.out;
  if (tensors_[c][out].first >= wb.i) {
    hazards(c, out, e.deps);
    tensors_[c][out].ordered_after_hazards = true;
  }
  const std::int64_t out_bytes =
      std::max<std::int64_t>(std::min(w.ofmap_size, tensors_[c][out].size), 1);
  if (w.kind == ir::LayerKind::pe)
    select_pe(b, wb, out_bytes);
  else
    select_vp(b, wb, out_bytes);
  const std::uint32_t comp = add(b.ce, std::move(e));
  if (w.kind == ir::LayerKind::pe) b.last_pe = comp;
  for (std::uint32_t t : wb.ins) {
    tensors_[c][t].accesses.push_back(comp);
    tensors_[c][t].readers.push_back(comp);
  }
  if (wb.wt) {
    tensors_[c][*wb.wt].accesses.push_back(comp);
    tensors_[c][*wb.wt].readers.push_back(comp);
  }
  tensors_[c][out].accesses.push_back(comp);
  tensors_[c][out].writers.push_back(comp);
  return comp;
}

// Phase 3: sends and stores of every ofmap destination, the core
// destinations from a place that depends on the sending core: the
// producers of a layer fan out to the same consumers, and in one order
// they would all send to one receiver's ejection link at once.
void Lowerer::add_outputs(CoreBuild& b, const WorkloadBuild& wb, std::uint32_t comp) {
  std::vector<std::uint32_t> to_cores;  // sends of one ofmap to other cores
  for (const ir::Ofmap& of : wb.w.ofmap) {
    b.sent.clear();  // (core, tensor) already sent this ofmap
    if (to_cores.size() >= 2) b.ce.send_groups.push_back(to_cores);
    to_cores.clear();
    const std::size_t nd = of.destination.size();
    const std::size_t first_d = nd > 1 ? (b.c * 7 + 3) % nd : 0;
    for (std::size_t dk = 0; dk < nd; ++dk) {
      const ir::Endpoint& d = of.destination[(first_d + dk) % nd];
      if (d.type == ir::EndpointType::dram)
        add_store(b, wb, of, comp);
      else
        add_send(b, wb, of, d, comp, to_cores);
    }
  }
  if (to_cores.size() >= 2) b.ce.send_groups.push_back(to_cores);
}

// A store of ofmap `of`: its box, seen in the L2 tensor's frame, to the
// producer's DRAM tensor.
void Lowerer::add_store(CoreBuild& b, const WorkloadBuild& wb, const ir::Ofmap& of,
                        std::uint32_t comp) {
  const std::uint32_t c = b.c;
  const Tensor& o = tensors_[c][*wb.out];
  Event s = make(b, wb, Kind::store, Engine::dma_out, 3);
  s.deps.push_back(comp);
  auto rg = in_region_.find(of.transfer_id);
  std::int64_t dram = 0;
  ir::Box dram_layout;
  if (rg != in_region_.end()) {
    dram = dram_address(rg->second, to_box(of.box));
    dram_layout = regions_[rg->second].layout;
  }
  view(b, wb, Engine::dma_out, -wb.out_at.shift, o.box, dram_layout);
  Invocation inv;
  inv.op = Opcode::dma_out;
  inv.workload = wb.wid;
  inv.tensor("l2", {wb.out_at.addr, std::max<std::int64_t>(of.size, 1),
                    ir::shifted(to_box(of.box), 1, wb.out_at.shift), Access::read});
  inv.tensor("dram", {dram, 0, std::nullopt, Access::write});
  inv.arg("transfer", of.transfer_id);
  bound(b.ce, inv, c, wb.i, b.binders.store);
  const std::uint32_t id = add(b.ce, std::move(s));
  b.ce.stores.emplace_back(of.transfer_id, id);
  tensors_[c][*wb.out].accesses.push_back(id);
}

// Of the tensors of core dc that receive one transfer from this core
// (`first`, the first of its consecutive Inbounds), the one that
// destination workload di reads: alive in its snapshot and, where several
// are (the transfer listed once per reading workload, each at its own
// address), the one flagged as its ifmap (cur_wl_ifmap), else the one of
// its layer, else the first alive. Reads only what no pass writes (the
// receiving core's snapshots and their tensor numbering).
const Inbound* Lowerer::reader_tensor(const Inbound* first, std::uint32_t dc,
                                      std::uint32_t di) const {
  const ir::Workload& w = m_.cores[dc].workloads[di];
  const Inbound* alive = nullptr;
  const Inbound* of_layer = nullptr;
  for (const Inbound* x = first; x != first + first->count; ++x) {
    if (x->first > di || x->last < di) continue;
    if (!alive) alive = x;
    for (std::size_t k = 0; k < w.buffer.size(); ++k) {
      if (at_[dc][at_first_[dc][di] + k] != x->tensor) continue;
      const ir::BufferEntry& e = w.buffer[k];
      if (e.cur_wl_ifmap.value_or(false)) return x;
      if (!of_layer && e.layer_name == w.layer_name) of_layer = x;
    }
  }
  return of_layer ? of_layer : alive ? alive : first;
}

// A send of ofmap `of` to core destination d: its box, seen in the L2
// tensor's frame, into the receiver's tensor (its slab, its frame). Sends
// to other cores join `to_cores` (a NoC multicast candidate) under
// noc.multicast.
void Lowerer::add_send(CoreBuild& b, const WorkloadBuild& wb, const ir::Ofmap& of,
                       const ir::Endpoint& d, std::uint32_t comp,
                       std::vector<std::uint32_t>& to_cores) {
  const std::uint32_t c = b.c, i = wb.i;
  auto dc_it = core_index_.find(d.core_id);
  if (dc_it == core_index_.end() || !d.workload_id) {
    error(b.ce, who(c, i) + ": destination core " + std::to_string(d.core_id) + " has no program");
    return;
  }
  const std::uint32_t dc = dc_it->second;
  const auto di = workload_index(dc, *d.workload_id);
  if (!di) {
    error(b.ce, who(c, i) + ": destination workload " + std::to_string(*d.workload_id) +
                    " does not exist");
    return;
  }
  // find_receiver(dc, of.transfer_id, core.core_id, *di, 0), from the outbox.
  auto to = b.outbox.find(TransferKey{of.transfer_id, dc});
  const Inbound* rt = to == b.outbox.end() || to->second->first > *di ? nullptr : to->second;
  if (rt && rt->count > 1) rt = reader_tensor(rt, dc, *di);
  if (!rt) {
    error(b.ce, who(c, i) + ": core " + std::to_string(d.core_id) +
                    " has no buffer tensor receiving transfer " + std::to_string(of.transfer_id) +
                    " by its workload " + std::to_string(*d.workload_id));
    return;
  }
  const std::uint32_t r = rt->tensor;
  if (dc == c && r == *wb.out) return;  // written there directly
  if (std::find(b.sent.begin(), b.sent.end(), std::pair{dc, r}) != b.sent.end()) return;
  b.sent.emplace_back(dc, r);
  const Tensor& o = tensors_[c][*wb.out];
  Event s = make(b, wb, Kind::send, Engine::noc, 3);
  s.deps.push_back(comp);
  view(b, wb, Engine::noc, rt->shift - wb.out_at.shift, o.box, ir::Box{});
  Invocation inv;
  inv.op = Opcode::noc_send;
  inv.workload = wb.wid;
  inv.tensor("src", {wb.out_at.addr, std::max<std::int64_t>(of.size, 1),
                     ir::shifted(to_box(of.box), 1, wb.out_at.shift), Access::read});
  inv.tensor("dst", {rt->addr, 0, rt->box, Access::write});
  inv.arg("to", d.core_id).arg("transfer", of.transfer_id);
  bound(b.ce, inv, c, i, b.binders.send);
  s.tokens.push_back({of.transfer_id, dc, TokenKind::data});
  s.receiver_tensor = r;
  const std::uint32_t id = add(b.ce, std::move(s));
  tensors_[c][*wb.out].accesses.push_back(id);
  if (dc == c) {
    tensors_[c][r].writers.push_back(id);
  } else {
    b.ce.remote_writes.push_back({dc, r, id});
    if (hw_.noc.multicast && std::none_of(to_cores.begin(), to_cores.end(), [&](std::uint32_t x) {
          return b.ce.events[x].tokens.front().to == dc;
        }))
      to_cores.push_back(id);
  }
}

}  // namespace gemini::assembler::lowering
