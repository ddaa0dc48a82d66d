#include "noc_module.h"

#include <algorithm>
#include <cmath>

#include "core_module.h"
#include "dram_module.h"
#include "functional.h"

namespace gemini::sim {

NocModule::NocModule(const sc_core::sc_module_name& name, SimContext& ctx)
    : sc_core::sc_module(name),
      ctx_(ctx),
      mesh_(ctx.params.xlen, ctx.params.ylen, ctx.params.hw->noc.link_gbps,
            ctx.params.hw->noc.router_cycles * ctx.params.period) {
  sc_core::sc_spawn_options opt;
  opt.spawn_method();
  opt.set_sensitivity(&ev_);
  opt.dont_initialize();
  sc_core::sc_spawn([this] { run(); }, "router", &opt);
}

void NocModule::attach(std::vector<CoreModule*> cores, std::vector<DramModule*> ports) {
  cores_ = std::move(cores);
  ports_ = std::move(ports);
  port_read_bytes_.assign(ports_.size(), 0);
  core_nodes_.clear();
  for (CoreModule* c : cores_) core_nodes_.push_back(c->image().core_id);
}

std::int32_t NocModule::core_node(std::int32_t core) const { return core_nodes_[core]; }
std::int32_t NocModule::port_node(std::int32_t port) const {
  return mesh_.port_node(ctx_.params.port_rows[port], ctx_.params.port_east[port]);
}

std::uint32_t NocModule::alloc(Kind k) {
  std::uint32_t id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
    msgs_[id].ready.clear();
    std::vector<std::pair<std::int64_t, Tick>> keep;
    keep.swap(msgs_[id].ready);
    msgs_[id] = Message{};
    msgs_[id].ready.swap(keep);  // keep the capacity
  } else {
    id = static_cast<std::uint32_t>(msgs_.size());
    msgs_.emplace_back();
  }
  msgs_[id].kind = k;
  return id;
}

void NocModule::release(std::uint32_t id) { free_.push_back(id); }

void NocModule::schedule(Tick t, std::uint32_t msg, Ev ev, std::int64_t aux) {
  queue_.push(Item{t, seq_++, msg, ev, aux});
  if (!running_) ev_.notify(ps(t - now_ps()));
}

void NocModule::send_data(std::int32_t src, std::uint8_t engine, std::int32_t dst,
                          std::int64_t bytes, std::uint64_t key, double src_ps_per_byte, Tick now) {
  const std::uint32_t id = alloc(Kind::data);
  Message& m = msgs_[id];
  m.engine = engine;
  m.src = core_node(src);
  m.dst = core_node(dst);
  m.core = dst;
  m.sender = src;
  m.bytes = bytes;
  m.key = key;
  m.src_ps_per_byte = src_ps_per_byte;
  schedule(now, id, Ev::inject);
}

void NocModule::send_token(std::int32_t src, std::int32_t dst, std::uint64_t key, Tick now) {
  const std::uint32_t id = alloc(Kind::token);
  Message& m = msgs_[id];
  m.src = core_node(src);
  m.dst = core_node(dst);
  m.core = dst;
  m.bytes = ctx_.params.control_bytes;
  m.key = key;
  schedule(now, id, Ev::inject);
}

std::uint32_t NocModule::to_port(Kind k, std::int32_t core, std::uint8_t engine,
                                 std::uint64_t addr) {
  const std::uint32_t id = alloc(k);
  Message& m = msgs_[id];
  m.engine = engine;
  m.core = core;
  m.port = ctx_.params.core_port[core];
  m.src = core_node(core);
  m.dst = port_node(m.port);
  m.addr = addr;
  return id;
}

void NocModule::dram_read(std::int32_t core, std::uint8_t engine, std::uint64_t addr,
                          std::int64_t bytes, Tick now) {
  const std::uint32_t id = to_port(Kind::read_request, core, engine, addr);
  msgs_[id].bytes = ctx_.params.control_bytes;
  msgs_[id].read_bytes = bytes;
  port_read_bytes_[msgs_[id].port] += bytes;
  schedule(now, id, Ev::inject);
}

void NocModule::dram_multicast_read(std::int32_t core, std::uint8_t engine, std::uint64_t addr,
                                    std::int64_t bytes, std::uint32_t transfer, std::uint16_t part,
                                    std::uint16_t members, Tick now) {
  const std::uint32_t id = to_port(Kind::multicast_request, core, engine, addr);
  Message& m = msgs_[id];
  m.bytes = ctx_.params.control_bytes;
  m.read_bytes = bytes;
  m.key = std::uint64_t{transfer} << 16 | part;
  m.members = members;
  schedule(now, id, Ev::inject);
}

void NocModule::start_multicast(Join& j, Tick now) {
  // The union of the members' ranges, read once.
  std::sort(j.ranges.begin(), j.ranges.end());
  std::int64_t bytes = 0;
  std::uint64_t lo = j.ranges.front().first, hi = lo;
  for (const auto& [a, b] : j.ranges) {
    const std::uint64_t e = a + static_cast<std::uint64_t>(b);
    if (a > hi) {
      bytes += static_cast<std::int64_t>(hi - lo);
      lo = a;
    }
    hi = std::max(hi, e);
  }
  bytes += static_cast<std::int64_t>(hi - lo);
  std::sort(j.receivers.begin(), j.receivers.end());
  // The read goes to the members' port that has been given the fewest
  // bytes to read so far (the first member's of equals).
  std::int32_t root = j.receivers.front().first;
  for (const auto& [c, e] : j.receivers)
    if (port_read_bytes_[ctx_.params.core_port[c]] < port_read_bytes_[ctx_.params.core_port[root]])
      root = c;
  const std::uint32_t d = alloc(Kind::read_data);
  Message& r = msgs_[d];
  r.engine = j.receivers.front().second;
  r.core = root;
  r.port = ctx_.params.core_port[root];
  port_read_bytes_[r.port] += bytes;
  r.src = port_node(r.port);
  r.bytes = bytes;
  r.stalled = true;
  r.next_min = now;
  r.receivers = std::move(j.receivers);
  r.receiver_nodes.clear();
  for (const auto& [c, e] : r.receivers) r.receiver_nodes.push_back(core_node(c));
  r.pending = r.receivers.size();
  DramRequest q;
  q.tag = d;
  q.write = false;
  q.addr = j.ranges.front().first;
  q.bytes = bytes;
  q.arrival = now;
  q.chunk_bytes = ctx_.params.packet_bytes;
  ports_[r.port]->enqueue(q);
}

void NocModule::dram_write(std::int32_t core, std::uint8_t engine, std::uint64_t addr,
                           std::int64_t bytes, double src_ps_per_byte, Tick now) {
  const std::uint32_t id = to_port(Kind::write_data, core, engine, addr);
  msgs_[id].bytes = bytes;
  msgs_[id].src_ps_per_byte = src_ps_per_byte;
  schedule(now, id, Ev::inject);
}

void NocModule::run() {
  running_ = true;
  const Tick now = now_ps();
  while (!queue_.empty() && queue_.top().t <= now) {
    const Item it = queue_.top();
    queue_.pop();
    switch (it.ev) {
      case Ev::inject:
        inject(it.msg, now);
        break;
      case Ev::arrive:
        if (it.aux > 0) {  // one receiver of a multicast
          Message& m = msgs_[it.msg];
          const auto [core, engine] = m.receivers[static_cast<std::size_t>(it.aux - 1)];
          if (--m.pending == 0) release(it.msg);
          cores_[core]->finish(engine, now + ctx_.params.l2_latency, now);
          break;
        }
        arrive(it.msg, now);
        break;
      case Ev::port_packet:
        port_packet(it.msg, it.aux, now);
        break;
    }
  }
  running_ = false;
  if (!queue_.empty()) ev_.notify(ps(queue_.top().t - now));
}

void NocModule::inject(std::uint32_t id, Tick now) {
  Message& m = msgs_[id];
  const bool control =
      m.kind == Kind::token || m.kind == Kind::read_request || m.kind == Kind::write_ack;
  const bool request = control || m.kind == Kind::multicast_request;
  const std::int64_t pkt =
      request ? m.bytes : std::min<std::int64_t>(ctx_.params.packet_bytes, m.bytes - m.sent);
  if (!m.receivers.empty()) {
    // Multicast read data: one packet down the tree; on the last, each
    // receiver completes at its own arrival.
    const MeshNoc::MulticastTiming mt = mesh_.multicast(now, m.src, m.receiver_nodes, pkt);
    m.sent += pkt;
    if (m.sent >= m.bytes) {
      for (std::size_t i = 0; i < mt.arrived.size(); ++i)
        schedule(mt.arrived[i], id, Ev::arrive, static_cast<std::int64_t>(i) + 1);
      return;
    }
    try_read_packet(id, mt.injected);
    return;
  }
  if (m.kind == Kind::multicast_request) {
    schedule(mesh_.send(now, m.src, m.dst, pkt).arrived, id, Ev::arrive);
    return;
  }
  const MeshNoc::Timing tm = mesh_.send(now, m.src, m.dst, pkt);
  m.sent += pkt;
  Tick next = tm.injected;
  if (m.src_ps_per_byte > 0)
    next = std::max(next, now + static_cast<Tick>(std::ceil(pkt * m.src_ps_per_byte - 1e-9)));
  if (m.kind == Kind::write_data) schedule(tm.arrived, id, Ev::port_packet, pkt);
  if (m.sent >= m.bytes) {
    if (m.kind != Kind::write_data) schedule(tm.arrived, id, Ev::arrive);
    return;
  }
  if (m.kind == Kind::read_data) {
    try_read_packet(id, next);
  } else {
    schedule(next, id, Ev::inject);
  }
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
  a.core = w.core;
  a.src = w.dst;
  a.dst = w.src;
  a.bytes = ctx_.params.control_bytes;
  const Tick at = w.last_write;
  release(id);
  schedule(at, ack, Ev::inject);
}

void NocModule::port_packet(std::uint32_t id, std::int64_t bytes, Tick now) {
  Message& m = msgs_[id];
  DramRequest r;
  r.tag = id | (static_cast<std::uint64_t>(m.forwarded / std::max(1, ctx_.params.packet_bytes) + 1)
                << 32);
  r.write = true;
  r.addr = m.addr + static_cast<std::uint64_t>(m.forwarded);
  r.bytes = bytes;
  r.arrival = now;
  m.forwarded += bytes;
  ports_[m.port]->enqueue(r);
}

void NocModule::arrive(std::uint32_t id, Tick now) {
  Message& m = msgs_[id];
  switch (m.kind) {
    case Kind::data:
      // The bytes land before the token that announces them.
      if (ctx_.functional) ctx_.functional->arrived(m.sender, m.engine);
      cores_[m.core]->deliver(m.key, now);
      cores_[m.sender]->finish(m.engine, now, now);
      release(id);
      break;
    case Kind::token:
      cores_[m.core]->deliver(m.key, now);
      release(id);
      break;
    case Kind::read_request: {
      const std::int32_t core = m.core, port = m.port;
      const std::uint8_t engine = m.engine;
      const std::uint64_t addr = m.addr;
      const std::int64_t bytes = m.read_bytes;
      const std::int32_t src = m.dst, dst = m.src;
      release(id);
      const std::uint32_t d = alloc(Kind::read_data);
      Message& r = msgs_[d];
      r.engine = engine;
      r.core = core;
      r.port = port;
      r.src = src;
      r.dst = dst;
      r.bytes = bytes;
      r.stalled = true;
      r.next_min = now;
      DramRequest q;
      q.tag = d;
      q.write = false;
      q.addr = addr;
      q.bytes = bytes;
      q.arrival = now;
      q.chunk_bytes = ctx_.params.packet_bytes;
      ports_[port]->enqueue(q);
      break;
    }
    case Kind::read_data:
      cores_[m.core]->finish(m.engine, now + ctx_.params.l2_latency, now);
      release(id);
      break;
    case Kind::write_ack:
      cores_[m.core]->finish(m.engine, now, now);
      release(id);
      break;
    case Kind::write_data:
      break;  // completes through dram_progress
    case Kind::multicast_request: {
      Join& j = joins_[m.key];
      j.members = m.members;
      j.receivers.emplace_back(m.core, m.engine);
      j.ranges.emplace_back(m.addr, m.read_bytes);
      release(id);
      if (j.receivers.size() >= j.members) {
        const auto key = msgs_[id].key;
        start_multicast(j, now);
        joins_.erase(key);
      }
      break;
    }
  }
}

}  // namespace gemini::sim
