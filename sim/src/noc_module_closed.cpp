// The NoC module with a closed-loop NoC model (noc_model.h; booksim2): its
// packets handed over with enqueue() instead of timed by send(), and what
// send()'s timing decides -- when the source sends its next packet, when a
// message has arrived -- done when the model reports it (NocModel::Events)
// as the module's run() advances it. The messages, the DMA protocol and the
// accounting are the open-loop path's (noc_module.cpp).
//
// Timing: a packet's next is handed over when the model reports the packet
// injected (and, from L2, no sooner than the port rate allows after it was
// handed over); a message has arrived at a destination when every one of
// its packets has (a closed-loop network may deliver them out of order);
// each packet's link wait is its delay beyond its zero-load latency, with
// the link and holder of its longest where the model names them (router;
// booksim2 names none). Energy: a packet's bytes over the links it crossed
// (its arrivals' links: a multicast's tree, or with unicast copies every
// copy's route), counted when its last destination has it.
#include <algorithm>

#include "noc_module.h"

namespace gemini::sim {

bool NocModule::enqueue_closed(std::uint32_t id, Tick now, std::int32_t dst, std::int32_t port,
                               std::int64_t pkt) {
  if (!closed_) return false;
  Message& m = msgs_[id];
  if (closed_msgs_.size() < msgs_.size()) closed_msgs_.resize(msgs_.size());
  ClosedMsg& c = closed_msgs_[id];
  if (m.sent == 0) {  // its first packet: a fresh count
    c.enqueued = 0;
    c.arrived.assign(m.receivers.empty() ? 1 : m.receivers.size(), 0);
  }
  std::uint32_t p;
  if (!free_pending_.empty()) {
    p = free_pending_.back();
    free_pending_.pop_back();
  } else {
    p = static_cast<std::uint32_t>(pending_.size());
    pending_.emplace_back();
  }
  const bool tree = m.kind == Kind::multicast_data || m.kind == Kind::read_data;
  pending_[p] = Pending{id, pkt, port, now,
                        static_cast<std::uint32_t>(tree ? m.receiver_nodes.size() : 1), true};
  ++c.enqueued;
  m.sent += pkt;
  if (tree) {
    noc_->enqueue(now, p, m.src, m.receiver_nodes, pkt);
  } else {
    one_dst_[0] = dst;
    noc_->enqueue(now, p, m.src, one_dst_, pkt);
  }
  return true;
}

void NocModule::injected(std::uint64_t tag, Tick t) {
  Pending& p = pending_[tag];
  p.injecting = false;
  const std::uint32_t id = p.msg;
  Message& m = msgs_[id];
  if (m.sent < m.bytes) {
    if (m.kind == Kind::read_data) {  // the next once the DRAM has its bytes
      try_read_packet(id, t);
    } else {
      Tick next = t;  // from L2, no faster than its port
      if (m.src_ps_per_byte > 0)
        next = std::max(next, p.handed + ceil_tick(p.bytes * m.src_ps_per_byte - 1e-9));
      schedule(next, id, Ev::inject);
    }
  }
  if (p.copies == 0) free_pending_.push_back(static_cast<std::uint32_t>(tag));
}

void NocModule::arrived(const NocModel::Arrival& a) {
  Pending& p = pending_[a.tag];
  const std::uint32_t id = p.msg;
  Message& m = msgs_[id];
  MsgWait& mw = msg_waits_[id];
  p.links += a.links;
  p.d2d_links += a.d2d_links;
  packet_latency_.add(a.t - p.handed);
  if (m.kind != Kind::multicast_request)
    add_link_wait(mw, a.t, a.waited, a.wait_link, OpRef::from_tag(a.wait_owner));
  ClosedMsg& c = closed_msgs_[id];
  // Its destination has them all once the last was handed over.
  const bool last = ++c.arrived[a.dst] == c.enqueued && m.sent >= m.bytes;
  switch (m.kind) {
    case Kind::write_data:
      schedule(a.t, id, Ev::port_packet, static_cast<std::int32_t>(p.bytes), p.port);
      break;
    case Kind::multicast_data:
    case Kind::read_data:
      if (last) {
        if (m.kind == Kind::read_data) forks_[m.fork].wait.merge(mw.wait);
        schedule(a.t, id, Ev::arrive, static_cast<std::int32_t>(a.dst) + 1);
      }
      break;
    default:
      if (last) schedule(a.t, id, Ev::arrive);
      break;
  }
  if (--p.copies == 0) {  // its links, counted once (among a multicast's members)
    count_hops(m, p.bytes, p.links, p.d2d_links);
    if (!p.injecting) free_pending_.push_back(static_cast<std::uint32_t>(a.tag));
  }
}

}  // namespace gemini::sim
