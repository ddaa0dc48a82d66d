// The DMA transfer protocol of the NoC module (noc_module.h): read
// requests to a DRAM port, multicast reads joined at the port, a read's
// stripes from the ports forked to its members, in-order holds
// (dram.in_order), write data handed to the DRAM and its ack.
#include <algorithm>

#include "noc_module.h"

namespace gemini::sim {

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
    for (const Member& m : j.receivers) cores_[m.core]->set_cause(m.op, OpRef{last.core, last.op});
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
    q.tag = RequestTag{d, 0}.value();
    q.write = false;
    q.addr = address(cut[i]);
    q.bytes = r.bytes;
    q.arrival = now;
    q.chunk_bytes = ctx_.params.packet_bytes;
    count_shared(r.receivers, Event::dram_byte, r.bytes);
    ports_[r.port]->enqueue(q, OpRef{j.receivers[0].core, j.receivers[0].op});
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

void NocModule::dram_progress(RequestTag tag, std::int64_t done, Tick t) {
  const std::uint32_t id = tag.msg;
  Message& m = msgs_[id];
  if (ctx_.power) power_dram(m, done, t);
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
  // Each packet a request of its own: numbered from 1 (a read's is 0).
  r.tag =
      RequestTag{
          id, static_cast<std::uint32_t>(m.forwarded / std::max(1, ctx_.params.packet_bytes) + 1)}
          .value();
  r.write = true;
  r.addr = m.addr + static_cast<std::uint64_t>(m.forwarded);
  r.bytes = bytes;
  r.arrival = now;
  m.forwarded += bytes;
  cores_[static_cast<std::size_t>(m.core)]->count(m.op, Event::dram_byte, bytes);
  ports_[port]->enqueue(r, OpRef{m.core, m.op});
}

// A DMA message at its end: a read request at its port, a multicast
// member's request at its port (counted into its join), a write's ack at
// its core.
void NocModule::dma_arrive(std::uint32_t id, Tick now) {
  Message& m = msgs_[id];
  switch (m.kind) {
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
    case Kind::write_ack:
      cores_[m.core]->note_wait(m.op, msg_waits_[id].wait);
      cores_[m.core]->finish(m.engine, m.op, now, now);
      release(id);
      break;
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
    default:
      break;  // a write's data completes through dram_progress
  }
}

// Read data at its receiver `i`: the read completes l2.latency_cycles after
// the last packet of its last stripe.
void NocModule::stripe_arrived(std::uint32_t id, std::size_t i, Tick now) {
  Message& m = msgs_[id];
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
  if (--m.pending == 0) release(id);
}

}  // namespace gemini::sim
