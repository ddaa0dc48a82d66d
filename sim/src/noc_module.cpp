#include "noc_module.h"

#include <algorithm>
#include <cstdlib>

#include "core_module.h"
#include "dram_module.h"
#include "functional.h"
#include "gemini/sim/compute_timing.h"

namespace gemini::sim {

NocModule::NocModule(const sc_core::sc_module_name& name, SimContext& ctx)
    : sc_core::sc_module(name), ctx_(ctx), noc_(std::move(ctx.params.noc)) {
  sc_core::sc_spawn_options opt;
  opt.spawn_method();
  opt.set_sensitivity(&ev_);
  opt.dont_initialize();
  sc_core::sc_spawn([this] { run(); }, "router", &opt);
  noc_->register_stats(stats_);
  closed_ = noc_->closed_loop();
}

void NocModule::attach(std::vector<CoreModule*> cores, std::vector<DramModule*> ports) {
  cores_ = std::move(cores);
  ports_ = std::move(ports);
  all_ports_.clear();
  if (ctx_.params.dram_interleave)
    for (std::size_t i = 0; i < ports_.size(); ++i)
      all_ports_.push_back(static_cast<std::int32_t>(i));
  core_nodes_.clear();
  for (CoreModule* c : cores_) core_nodes_.push_back(c->image().core_id);
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

void NocModule::schedule(Tick t, std::uint32_t msg, Ev ev, std::int64_t aux) {
  queue_.push(Item{t, seq_++, msg, ev, aux});
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

void NocModule::send_token(std::int32_t src, std::int32_t dst, std::uint32_t slot,
                           std::uint64_t from, Tick now) {
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
                               const std::vector<std::pair<std::int32_t, std::uint32_t>>& to,
                               std::int64_t bytes, double src_ps_per_byte, Tick now) {
  const std::uint32_t id = alloc(Kind::multicast_data);
  Message& m = msgs_[id];
  m.engine = engine;
  m.src = core_node(src);
  m.sender = src;
  m.bytes = bytes;
  m.src_ps_per_byte = src_ps_per_byte;
  m.receivers.clear();
  m.receiver_nodes.clear();
  for (const auto& [core, op] : to) {
    m.receivers.push_back({core, engine, op});
    m.receiver_nodes.push_back(core_node(core));
  }
  m.pending = m.receivers.size();
  schedule(now, id, Ev::inject);
}

std::uint32_t NocModule::to_port(Kind k, std::int32_t core, std::uint8_t engine, std::uint32_t op,
                                 std::uint64_t addr) {
  const std::uint32_t id = alloc(k);
  Message& m = msgs_[id];
  m.engine = engine;
  m.op = op;
  m.core = core;
  m.port = ctx_.params.core_port[core];
  m.src = core_node(core);
  m.dst = port_node(m.port);
  m.addr = addr;
  return id;
}

void NocModule::dram_read(std::int32_t core, std::uint8_t engine, std::uint32_t op,
                          std::uint64_t addr, std::int64_t bytes, Tick now) {
  const std::uint32_t id = to_port(Kind::read_request, core, engine, op, addr);
  msgs_[id].bytes = ctx_.params.control_bytes;
  msgs_[id].read_bytes = bytes;
  msgs_[id].seq = read_seq_[core]++;
  if (in_order_) unstarted_[core].insert(msgs_[id].seq);
  schedule(now, id, Ev::inject);
}

void NocModule::dram_multicast_read(std::int32_t core, std::uint8_t engine, std::uint32_t op,
                                    std::uint64_t addr, std::int64_t bytes, std::uint32_t transfer,
                                    std::uint16_t part, std::uint16_t members, Tick now) {
  const std::uint32_t id = to_port(Kind::multicast_request, core, engine, op, addr);
  Message& m = msgs_[id];
  m.bytes = ctx_.params.control_bytes;
  m.read_bytes = bytes;
  m.key = std::uint64_t{transfer} << 16 | part;
  m.members = members;
  m.seq = read_seq_[core]++;
  if (in_order_) unstarted_[core].insert(m.seq);
  schedule(now, id, Ev::inject);
}

void NocModule::start_stripes(Join& j, std::vector<std::int32_t> ports, Tick now, Tick held) {
  // The union of the members' ranges, read once.
  const std::int64_t bytes = merge_ranges(j.ranges);
  // The address of byte `off` of the union.
  auto address = [&](std::int64_t off) {
    for (const auto& [lo, hi] : j.ranges) {
      const auto n = static_cast<std::int64_t>(hi - lo);
      if (off < n) return lo + static_cast<std::uint64_t>(off);
      off -= n;
    }
    return j.ranges.back().second;
  };
  if (j.receivers.size() > 1) {  // a multicast: every member waited for the last request
    const Member& last = j.receivers.back();
    for (const Member& m : j.receivers) cores_[m.core]->set_cause(m.op, op_ref(last.core, last.op));
  }
  std::sort(j.receivers.begin(), j.receivers.end());
  std::sort(ports.begin(), ports.end());
  ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
  std::uint32_t f;
  if (!free_forks_.empty()) {
    f = free_forks_.back();
    free_forks_.pop_back();
  } else {
    f = static_cast<std::uint32_t>(forks_.size());
    forks_.emplace_back();
  }
  const auto p = static_cast<std::int64_t>(ports.size());
  std::vector<std::int64_t> cut(ports.size() + 1);
  for (std::int64_t i = 0; i <= p; ++i) cut[static_cast<std::size_t>(i)] = bytes * i / p;
  std::uint16_t stripes = 0;
  for (std::size_t i = 0; i < ports.size(); ++i) stripes += cut[i + 1] > cut[i] ? 1 : 0;
  forks_[f].left.assign(j.receivers.size(), stripes);
  forks_[f].open = j.receivers.size();
  forks_[f].wait = {};
  forks_[f].wait.held = held;
  forks_[f].dram_ready = now;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    if (cut[i + 1] == cut[i]) continue;
    const std::uint32_t d = alloc(Kind::read_data);
    Message& r = msgs_[d];
    r.port = ports[i];
    r.src = port_node(r.port);
    r.bytes = cut[i + 1] - cut[i];
    r.stalled = true;
    r.next_min = now;
    r.receivers = j.receivers;
    r.receiver_nodes.clear();
    for (const Member& m : r.receivers) r.receiver_nodes.push_back(core_node(m.core));
    r.pending = r.receivers.size();
    r.fork = f;
    DramRequest q;
    q.tag = d;
    q.write = false;
    q.addr = address(cut[i]);
    q.bytes = r.bytes;
    q.arrival = now;
    q.chunk_bytes = ctx_.params.packet_bytes;
    count_shared(r.receivers, Event::dram_byte, r.bytes);
    ports_[r.port]->enqueue(q, op_ref(j.receivers[0].core, j.receivers[0].op));
  }
}

void NocModule::count_shared(const std::vector<Member>& members, Event e, std::int64_t n) {
  const auto k = static_cast<std::int64_t>(members.size());
  for (std::int64_t i = 0; i < k; ++i) {
    const Member& m = members[static_cast<std::size_t>(i)];
    const std::int64_t share = n / k + (i < n % k ? 1 : 0);
    if (share > 0) cores_[static_cast<std::size_t>(m.core)]->count(m.op, e, share);
  }
}

void NocModule::count_hops(const Message& m, std::int64_t bytes, std::int32_t links,
                           std::int32_t d2d_links) {
  if (links > d2d_links) count_owner(m, Event::noc_byte_hop, bytes * (links - d2d_links));
  if (d2d_links > 0) count_owner(m, Event::d2d_byte_hop, bytes * d2d_links);
}

void NocModule::count_owner(const Message& m, Event e, std::int64_t n) {
  switch (m.kind) {
    case Kind::data:
      cores_[static_cast<std::size_t>(m.sender)]->count(m.op, e, n);
      break;
    case Kind::token:
      if (m.from != kNoRef)
        cores_[static_cast<std::size_t>(m.from >> 32)]->count(
            static_cast<std::uint32_t>(m.from & 0xffffffffu), e, n);
      break;
    case Kind::multicast_data: {
      // The members are the sender's noc_sends.
      const auto k = static_cast<std::int64_t>(m.receivers.size());
      for (std::int64_t i = 0; i < k; ++i) {
        const std::int64_t share = n / k + (i < n % k ? 1 : 0);
        if (share > 0)
          cores_[static_cast<std::size_t>(m.sender)]->count(
              m.receivers[static_cast<std::size_t>(i)].op, e, share);
      }
      break;
    }
    case Kind::read_data:
      count_shared(m.receivers, e, n);
      break;
    case Kind::read_request:
    case Kind::write_data:
    case Kind::write_ack:
    case Kind::multicast_request:
      cores_[static_cast<std::size_t>(m.core)]->count(m.op, e, n);
      break;
  }
}

void NocModule::read_started(std::int32_t core, std::uint32_t seq, Tick now) {
  auto& u = unstarted_[core];
  u.erase(seq);
  auto& h = held_[core];
  while (!h.empty() && !u.empty() && h.begin()->first == *u.begin()) {
    auto node = h.extract(h.begin());
    Held& x = node.mapped();
    start_stripes(x.join, std::move(x.ports), now, now - x.since);
    u.erase(node.key());
  }
}

void NocModule::dram_write(std::int32_t core, std::uint8_t engine, std::uint32_t op,
                           std::uint64_t addr, std::int64_t bytes, double src_ps_per_byte,
                           Tick now) {
  const std::uint32_t id = to_port(Kind::write_data, core, engine, op, addr);
  msgs_[id].bytes = bytes;
  msgs_[id].src_ps_per_byte = src_ps_per_byte;
  schedule(now, id, Ev::inject);
}

void NocModule::run() {
  running_ = true;
  const Tick now = now_ps();
  if (closed_) noc_->advance(now, *this);  // its reports queue items from now on
  while (!queue_.empty() && queue_.top().t <= now) {
    const Item it = queue_.top();
    queue_.pop();
    switch (it.ev) {
      case Ev::inject:
        inject(it.msg, now);
        break;
      case Ev::arrive:
        if (it.aux > 0 && msgs_[it.msg].kind == Kind::multicast_data) {
          // Multicast data at one of its receivers: the bytes land before
          // the token that announces them.
          Message& m = msgs_[it.msg];
          const Member r = m.receivers[static_cast<std::size_t>(it.aux - 1)];
          --incoming_[static_cast<std::size_t>(r.core)];
          cores_[r.core]->spend(Event::l2_write, m.bytes);
          cores_[m.sender]->cause(r.op, Event::l2_write, m.bytes);
          if (ctx_.functional) ctx_.functional->arrived(m.sender, m.engine, r.op);
          cores_[r.core]->deliver(cores_[m.sender]->image().ops[r.op].slot, now,
                                  op_ref(m.sender, r.op));
          cores_[m.sender]->note_wait(r.op, msg_waits_[it.msg].wait);
          cores_[m.sender]->finish(m.engine, r.op, now, now);
          if (--m.pending == 0) release(it.msg);
          break;
        }
        if (it.aux > 0) {  // read data at one of its receivers
          Message& m = msgs_[it.msg];
          const auto i = static_cast<std::size_t>(it.aux - 1);
          const Member r = m.receivers[i];
          Fork& f = forks_[m.fork];
          --incoming_[static_cast<std::size_t>(r.core)];
          if (--f.left[i] == 0) {  // its last stripe
            OpWait w = f.wait;
            w.tail = now + ctx_.params.l2_latency - f.dram_ready;
            cores_[r.core]->note_wait(r.op, w);
            cores_[r.core]->finish(r.engine, r.op, now + ctx_.params.l2_latency, now);
            if (--f.open == 0) free_forks_.push_back(m.fork);
          }
          if (--m.pending == 0) release(it.msg);
          break;
        }
        arrive(it.msg, now);
        break;
      case Ev::port_packet:
        port_packet(it.msg, static_cast<std::int32_t>(it.aux >> 32), it.aux & 0xffffffff, now);
        break;
    }
  }
  running_ = false;
  Tick next = queue_.empty() ? kNever : queue_.top().t;
  if (closed_) next = std::min(next, noc_->next_advance());
  if (next != kNever) ev_.notify(ps(next - now));
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
    noc_->set_owner(mw.owner);
    if (enqueue_closed(id, now, -1, 0, pkt)) return;
    NocModel::MulticastTiming& mt = multicast_timing_;
    noc_->multicast_stream(now, m.src, m.receiver_nodes, pkt, m.route, mt);
    count_hops(m, pkt, mt.links, mt.d2d_links);
    add_link_wait(mw, mt.last, mt.waited, mt.wait_link, mt.wait_owner);
    m.sent += pkt;
    if (m.sent >= m.bytes) {
      if (m.kind == Kind::read_data) forks_[m.fork].wait.merge(mw.wait);
      for (std::size_t i = 0; i < mt.arrived.size(); ++i)
        schedule(mt.arrived[i], id, Ev::arrive, static_cast<std::int64_t>(i) + 1);
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
  noc_->set_owner(mw.owner);
  if (m.kind == Kind::multicast_request) {
    if (enqueue_closed(id, now, m.dst, m.port, pkt)) return;
    const NocModel::Timing tm = noc_->send(now, m.src, m.dst, pkt);
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
  count_hops(m, pkt, tm.links, tm.d2d_links);
  add_link_wait(mw, tm.arrived, tm.waited, tm.wait_link, tm.wait_owner);
  m.sent += pkt;
  Tick next = tm.injected;
  if (m.src_ps_per_byte > 0) next = std::max(next, now + ceil_tick(pkt * m.src_ps_per_byte - 1e-9));
  if (m.kind == Kind::write_data)
    schedule(tm.arrived, id, Ev::port_packet, static_cast<std::int64_t>(port) << 32 | pkt);
  if (m.sent >= m.bytes) {
    if (m.kind != Kind::write_data) schedule(tm.arrived, id, Ev::arrive);
    return;
  }
  schedule(next, id, Ev::inject);
}

// Read data leaves the port once the DRAM has delivered the packet's bytes.
void NocModule::try_read_packet(std::uint32_t id, Tick earliest) {
  Message& m = msgs_[id];
  const std::int64_t need = std::min<std::int64_t>(m.bytes, m.sent + ctx_.params.packet_bytes);
  while (m.ready_head < m.ready.size() && m.ready[m.ready_head].first < need) ++m.ready_head;
  if (m.ready_head < m.ready.size()) {
    m.stalled = false;
    schedule(std::max(earliest, m.ready[m.ready_head].second), id, Ev::inject);
  } else {
    m.stalled = true;
    m.next_min = earliest;
  }
}

void NocModule::dram_progress(std::uint32_t id, std::int64_t done, Tick t) {
  Message& m = msgs_[id];
  if (m.kind == Kind::read_data) {
    m.ready.emplace_back(done, t);
    if (done >= m.bytes) forks_[m.fork].dram_ready = std::max(forks_[m.fork].dram_ready, t);
    if (m.stalled) try_read_packet(id, m.next_min);
    return;
  }
  // write_data: `done` bytes of one packet are written.
  m.written += done;
  m.last_write = std::max(m.last_write, t);
  if (m.written < m.bytes) return;
  const std::uint32_t ack = alloc(Kind::write_ack);
  Message& w = msgs_[id];  // alloc may have moved the pool
  Message& a = msgs_[ack];
  a.engine = w.engine;
  a.op = w.op;
  a.core = w.core;
  a.src = w.dst;
  a.dst = w.src;
  a.bytes = ctx_.params.control_bytes;
  msg_waits_[ack].wait = msg_waits_[id].wait;
  msg_waits_[ack].carried = msg_waits_[id].wait.link;
  const Tick at = w.last_write;
  release(id);
  schedule(at, ack, Ev::inject);
}

void NocModule::port_packet(std::uint32_t id, std::int32_t port, std::int64_t bytes, Tick now) {
  Message& m = msgs_[id];
  DramRequest r;
  r.tag = id | (static_cast<std::uint64_t>(m.forwarded / std::max(1, ctx_.params.packet_bytes) + 1)
                << 32);
  r.write = true;
  r.addr = m.addr + static_cast<std::uint64_t>(m.forwarded);
  r.bytes = bytes;
  r.arrival = now;
  m.forwarded += bytes;
  cores_[static_cast<std::size_t>(m.core)]->count(m.op, Event::dram_byte, bytes);
  ports_[port]->enqueue(r, op_ref(m.core, m.op));
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
      cores_[m.core]->deliver(static_cast<std::uint32_t>(m.key), now, op_ref(m.sender, m.op));
      cores_[m.sender]->note_wait(m.op, msg_waits_[id].wait);
      cores_[m.sender]->finish(m.engine, m.op, now, now);
      release(id);
      break;
    case Kind::token:
      cores_[m.core]->deliver(static_cast<std::uint32_t>(m.key), now, m.from);
      release(id);
      break;
    case Kind::read_request: {
      // One member; its stripes from every port when interleaved, else
      // one from its own port.
      Join j;
      j.members = 1;
      j.receivers.push_back({m.core, m.engine, m.op});
      j.ranges.emplace_back(m.addr, m.addr + static_cast<std::uint64_t>(m.read_bytes));
      const std::int32_t port = m.port, core = m.core;
      const std::uint32_t seq = m.seq;
      release(id);
      std::vector<std::int32_t> ports =
          all_ports_.empty() ? std::vector<std::int32_t>{port} : all_ports_;
      if (in_order_ && *unstarted_[core].begin() != seq) {
        held_[core].emplace(seq, Held{std::move(j), std::move(ports), now});
        break;
      }
      start_stripes(j, std::move(ports), now);
      if (in_order_) read_started(core, seq, now);
      break;
    }
    case Kind::read_data:
    case Kind::multicast_data:
      break;  // each receiver's arrival is handled in run()
    case Kind::write_ack:
      cores_[m.core]->note_wait(m.op, msg_waits_[id].wait);
      cores_[m.core]->finish(m.engine, m.op, now, now);
      release(id);
      break;
    case Kind::write_data:
      break;  // completes through dram_progress
    case Kind::multicast_request: {
      Join& j = joins_[m.key];
      j.members = m.members;
      j.receivers.push_back({m.core, m.engine, m.op});
      j.ranges.emplace_back(m.addr, m.addr + static_cast<std::uint64_t>(m.read_bytes));
      j.seqs.push_back(m.seq);
      const std::uint64_t key = m.key;
      release(id);
      if (j.receivers.size() >= j.members) {
        // A stripe at each member's port (every port when interleaved).
        std::vector<std::int32_t> ports = all_ports_;
        if (ports.empty())
          for (const Member& r : j.receivers) ports.push_back(ctx_.params.core_port[r.core]);
        std::vector<std::pair<std::int32_t, std::uint32_t>> started;
        for (std::size_t r = 0; r < j.receivers.size(); ++r)
          started.emplace_back(j.receivers[r].core, j.seqs[r]);
        start_stripes(j, std::move(ports), now);
        joins_.erase(key);
        if (in_order_)
          for (const auto& [c, s] : started) read_started(c, s, now);
      }
      break;
    }
  }
}

}  // namespace gemini::sim
