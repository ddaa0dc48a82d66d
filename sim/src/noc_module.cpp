// The NoC module's packets and event loop (noc_module.h): messages from
// the cores, their packets injected into the NocModel in time order, and
// their arrivals. The DMA transfer protocol is in noc_dma.cpp, the
// accounting of energy and waits in noc_accounting.cpp.
#include "noc_module.h"

#include <algorithm>
#include <cstdlib>

#include "functional.h"
#include "gemini/sim/compute_timing.h"
#include "process_guard.h"

namespace gemini::sim {

NocModule::NocModule(const sc_core::sc_module_name& name, SimContext& ctx)
    : sc_core::sc_module(name), ctx_(ctx), noc_(std::move(ctx.params.noc)) {
  sc_core::sc_spawn_options opt;
  opt.spawn_method();
  opt.set_sensitivity(&ev_);
  opt.dont_initialize();
  sc_core::sc_spawn([this] { run_guarded(ctx_, "", [this] { run(); }); }, "router", &opt);
  noc_->register_stats(stats_);
  stats_.add_distribution("packet_latency", &packet_latency_, Unit::picoseconds,
                          "a packet handed to the NoC model to its tail at its destination");
  stats_.add_distribution("messages_in_flight", &in_flight_, Unit::count,
                          "messages under way (on the network or at a DRAM port) a new one finds");
  closed_ = noc_->closed_loop();
  if (closed_) noc_->set_events(*this);
}

void NocModule::attach(std::vector<NetworkClient*> cores, std::vector<std::int32_t> core_nodes,
                       std::vector<MemoryPort*> ports) {
  cores_ = std::move(cores);
  core_nodes_ = std::move(core_nodes);
  ports_ = std::move(ports);
  all_ports_.clear();
  if (ctx_.params.dram_interleave)
    for (std::size_t i = 0; i < ports_.size(); ++i)
      all_ports_.push_back(static_cast<std::int32_t>(i));
  incoming_.assign(cores_.size(), 0);
  in_order_ = ctx_.params.dram_in_order;
  read_seq_.assign(cores_.size(), 0);
  unstarted_.assign(cores_.size(), {});
  held_.assign(cores_.size(), {});
  l2_ps_per_byte_.clear();
  if (ctx_.params.hw->l2.noc_writes_share_ports)
    for (std::size_t k = 0; k <= assembler::kEngines + 1; ++k)
      l2_ps_per_byte_.push_back(
          k == 0 ? 0.0
                 : static_cast<double>(ctx_.params.period) /
                       l2_port_rate(ctx_.params.hw->l2, static_cast<std::int32_t>(k)));
}

void NocModule::set_l2_write_rate(std::int32_t core) {
  const auto k = static_cast<std::size_t>(cores_[static_cast<std::size_t>(core)]->l2_streams() + 1);
  noc_->set_eject_ps_per_byte(core_node(core),
                              l2_ps_per_byte_[std::min(k, l2_ps_per_byte_.size() - 1)]);
}

std::int32_t NocModule::core_node(std::int32_t core) const { return core_nodes_[core]; }
std::int32_t NocModule::port_node(std::int32_t port) const { return noc_->port_node(port); }

std::uint32_t NocModule::alloc(Kind k) {
  in_flight_.add(static_cast<std::int64_t>(msgs_.size() - free_.size()));
  std::uint32_t id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
    // A fresh message that keeps its vectors' capacity.
    Message& m = msgs_[id];
    auto ready = std::move(m.ready);
    auto receivers = std::move(m.receivers);
    auto nodes = std::move(m.receiver_nodes);
    m = Message{};
    ready.clear();
    receivers.clear();
    nodes.clear();
    m.ready = std::move(ready);
    m.receivers = std::move(receivers);
    m.receiver_nodes = std::move(nodes);
  } else {
    id = static_cast<std::uint32_t>(msgs_.size());
    msgs_.emplace_back();
    msg_waits_.emplace_back();
  }
  msg_waits_[id] = MsgWait{};
  msgs_[id].kind = k;
  return id;
}

void NocModule::release(std::uint32_t id) { free_.push_back(id); }

void NocModule::schedule(Tick t, std::uint32_t msg, Ev ev, std::int32_t aux, std::int32_t port) {
  queue_.push(Item{t, seq_++, msg, aux, port, ev});
  if (!running_) ev_.notify(ps(t - now_ps()));
}

void NocModule::send_data(std::int32_t src, std::uint8_t engine, std::uint32_t op, std::int32_t dst,
                          std::int64_t bytes, std::uint32_t slot, double src_ps_per_byte,
                          Tick now) {
  const std::uint32_t id = alloc(Kind::data);
  Message& m = msgs_[id];
  m.engine = engine;
  m.op = op;
  m.src = core_node(src);
  m.dst = core_node(dst);
  m.core = dst;
  m.sender = src;
  m.bytes = bytes;
  m.key = slot;
  m.src_ps_per_byte = src_ps_per_byte;
  schedule(now, id, Ev::inject);
}

void NocModule::send_token(std::int32_t src, std::int32_t dst, std::uint32_t slot, OpRef from,
                           Tick now) {
  const std::uint32_t id = alloc(Kind::token);
  Message& m = msgs_[id];
  m.from = from;
  m.src = core_node(src);
  m.dst = core_node(dst);
  m.core = dst;
  m.bytes = ctx_.params.control_bytes;
  m.key = slot;
  schedule(now, id, Ev::inject);
}

void NocModule::send_multicast(std::int32_t src, std::uint8_t engine,
                               const std::vector<MulticastTarget>& to, std::int64_t bytes,
                               double src_ps_per_byte, Tick now) {
  const std::uint32_t id = alloc(Kind::multicast_data);
  Message& m = msgs_[id];
  m.engine = engine;
  m.src = core_node(src);
  m.sender = src;
  m.bytes = bytes;
  m.src_ps_per_byte = src_ps_per_byte;
  m.receivers.clear();
  m.receiver_nodes.clear();
  for (const MulticastTarget& r : to) {
    m.receivers.push_back({r.core, engine, r.op, r.slot});
    m.receiver_nodes.push_back(core_node(r.core));
  }
  m.pending = m.receivers.size();
  schedule(now, id, Ev::inject);
}

void NocModule::run() {
  running_ = true;
  const Tick now = now_ps();
  ctx_.progress.poll(now);
  if (closed_) noc_->advance(now, *this);  // its reports queue items from now on
  while (!queue_.empty() && queue_.top().t <= now) {
    const Item it = queue_.top();
    queue_.pop();
    switch (it.ev) {
      case Ev::inject:
        inject(it.msg, now);
        break;
      case Ev::arrive:
        if (it.aux == 0)
          arrive(it.msg, now);
        else if (msgs_[it.msg].kind == Kind::multicast_data)
          multicast_arrived(it.msg, static_cast<std::size_t>(it.aux - 1), now);
        else
          stripe_arrived(it.msg, static_cast<std::size_t>(it.aux - 1), now);
        break;
      case Ev::port_packet:
        port_packet(it.msg, it.port, it.aux, now);
        break;
    }
  }
  running_ = false;
  Tick next = queue_.empty() ? kNever : queue_.top().t;
  if (closed_) next = std::min(next, noc_->next_advance());
  if (next != kNever) ev_.notify(ps(next - now));
}

// Multicast data at its receiver `i`: the bytes land before the token that
// announces them.
void NocModule::multicast_arrived(std::uint32_t id, std::size_t i, Tick now) {
  Message& m = msgs_[id];
  const Member r = m.receivers[i];
  --incoming_[static_cast<std::size_t>(r.core)];
  cores_[r.core]->spend(Event::l2_write, m.bytes);
  cores_[m.sender]->cause(r.op, Event::l2_write, m.bytes);
  if (ctx_.functional) ctx_.functional->arrived(m.sender, m.engine, r.op);
  cores_[r.core]->deliver(r.slot, now, OpRef{m.sender, r.op});
  cores_[m.sender]->note_wait(r.op, msg_waits_[id].wait);
  cores_[m.sender]->finish(m.engine, r.op, now, now);
  if (--m.pending == 0) release(id);
}

void NocModule::inject(std::uint32_t id, Tick now) {
  Message& m = msgs_[id];
  const bool control =
      m.kind == Kind::token || m.kind == Kind::read_request || m.kind == Kind::write_ack;
  const bool request = control || m.kind == Kind::multicast_request;
  const std::int64_t pkt =
      request ? m.bytes : std::min<std::int64_t>(ctx_.params.packet_bytes, m.bytes - m.sent);
  if (m.kind == Kind::multicast_data || m.kind == Kind::read_data) {
    // One packet down the XY tree to its receivers (read data: a stripe for
    // one, or a DRAM multicast's members; multicast data: a NoC
    // multicast's); on the last, each receiver's arrival is handled in
    // run().
    if (m.sent == 0)
      for (const Member& r : m.receivers) ++incoming_[static_cast<std::size_t>(r.core)];
    if (!l2_ps_per_byte_.empty())
      for (const Member& r : m.receivers) set_l2_write_rate(r.core);
    MsgWait& mw = msg_waits_[id];
    if (m.sent == 0) mw.owner = owner_of(m);
    noc_->set_owner(mw.owner.tag());
    if (enqueue_closed(id, now, -1, 0, pkt)) return;
    NocModel::MulticastTiming& mt = multicast_timing_;
    noc_->multicast_stream(now, m.src, m.receiver_nodes, pkt, m.route, mt);
    for (const Tick t : mt.arrived) packet_latency_.add(t - now);
    count_hops(m, pkt, mt.links, mt.d2d_links);
    add_link_wait(mw, mt.last, mt.waited, mt.wait_link, OpRef::from_tag(mt.wait_owner));
    m.sent += pkt;
    if (m.sent >= m.bytes) {
      if (m.kind == Kind::read_data) forks_[m.fork].wait.merge(mw.wait);
      for (std::size_t i = 0; i < mt.arrived.size(); ++i)
        schedule(mt.arrived[i], id, Ev::arrive, static_cast<std::int32_t>(i) + 1);
      return;
    }
    if (m.kind == Kind::read_data) {  // the next packet once the DRAM has its bytes
      try_read_packet(id, mt.injected);
      return;
    }
    Tick next = mt.injected;  // from L2, no faster than its port
    if (m.src_ps_per_byte > 0)
      next = std::max(next, now + ceil_tick(pkt * m.src_ps_per_byte - 1e-9));
    schedule(next, id, Ev::inject);
    return;
  }
  MsgWait& mw = msg_waits_[id];
  if (m.sent == 0) mw.owner = owner_of(m);
  noc_->set_owner(mw.owner.tag());
  if (m.kind == Kind::multicast_request) {
    if (enqueue_closed(id, now, m.dst, m.port, pkt)) return;
    const NocModel::Timing tm = noc_->send(now, m.src, m.dst, pkt);
    packet_latency_.add(tm.arrived - now);
    count_hops(m, pkt, tm.links, tm.d2d_links);
    schedule(tm.arrived, id, Ev::arrive);
    return;
  }
  // A write's packets go to its port or, interleaved, to the port its DRAM
  // address maps to (packet_bytes granules, round robin over the ports).
  std::int32_t dst = m.dst, port = m.port;
  if (m.kind == Kind::write_data && !all_ports_.empty()) {
    const auto k = static_cast<std::int64_t>(
        (m.addr + static_cast<std::uint64_t>(m.sent)) /
        static_cast<std::uint64_t>(std::max(1, ctx_.params.packet_bytes)));
    port = all_ports_[static_cast<std::size_t>(k % static_cast<std::int64_t>(all_ports_.size()))];
    dst = port_node(port);
  }
  if (m.kind == Kind::data) {
    if (m.sent == 0) ++incoming_[static_cast<std::size_t>(m.core)];
    if (!l2_ps_per_byte_.empty()) set_l2_write_rate(m.core);
  }
  if (enqueue_closed(id, now, dst, port, pkt)) return;
  const NocModel::Timing tm = noc_->send(now, m.src, dst, pkt);
  packet_latency_.add(tm.arrived - now);
  count_hops(m, pkt, tm.links, tm.d2d_links);
  add_link_wait(mw, tm.arrived, tm.waited, tm.wait_link, OpRef::from_tag(tm.wait_owner));
  m.sent += pkt;
  Tick next = tm.injected;
  if (m.src_ps_per_byte > 0) next = std::max(next, now + ceil_tick(pkt * m.src_ps_per_byte - 1e-9));
  if (m.kind == Kind::write_data)
    schedule(tm.arrived, id, Ev::port_packet, static_cast<std::int32_t>(pkt), port);
  if (m.sent >= m.bytes) {
    if (m.kind != Kind::write_data) schedule(tm.arrived, id, Ev::arrive);
    return;
  }
  schedule(next, id, Ev::inject);
}

void NocModule::arrive(std::uint32_t id, Tick now) {
  Message& m = msgs_[id];
  switch (m.kind) {
    case Kind::data:
      // The bytes land before the token that announces them.
      --incoming_[static_cast<std::size_t>(m.core)];
      cores_[m.core]->spend(Event::l2_write, m.bytes);
      cores_[m.sender]->cause(m.op, Event::l2_write, m.bytes);
      if (ctx_.functional) ctx_.functional->arrived(m.sender, m.engine, m.op);
      cores_[m.core]->deliver(static_cast<std::uint32_t>(m.key), now, OpRef{m.sender, m.op});
      cores_[m.sender]->note_wait(m.op, msg_waits_[id].wait);
      cores_[m.sender]->finish(m.engine, m.op, now, now);
      release(id);
      break;
    case Kind::token:
      cores_[m.core]->deliver(static_cast<std::uint32_t>(m.key), now, m.from);
      release(id);
      break;
    case Kind::read_data:
    case Kind::multicast_data:
      break;  // each receiver's arrival is handled in run()
    case Kind::read_request:
    case Kind::write_ack:
    case Kind::write_data:
    case Kind::multicast_request:
      dma_arrive(id, now);  // noc_dma.cpp
      break;
  }
}

}  // namespace gemini::sim
