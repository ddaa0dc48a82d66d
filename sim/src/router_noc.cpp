// noc.model "router": the routers' events (router_noc.h).
#include "router_noc.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace gemini::sim::router {

RouterNoc::RouterNoc(const RouterNocParams& p, const NocLayout& l)
    : xlen_(l.xlen),
      ylen_(l.ylen),
      links_(l.xlen, l.ylen),
      trees_(l.xlen, l.ylen, true),
      link_gbps_(p.mesh.link_gbps),
      ps_per_byte_(1000.0 / p.mesh.link_gbps),
      d2d_ps_per_byte_(1000.0 / l.d2d_gbps),
      hop_(static_cast<Tick>(p.mesh.router_cycles) * l.period),
      buffer_(std::max(0, p.mesh.buffer_packets)),
      vcs_(p.num_vcs),
      copies_(p.copies),
      flit_(p.flit_bytes) {
  if (buffer_ == 0) lookahead_ = hop_;
  early_leave_ = buffer_ == 0 && vcs_ == 1;
  for (const NodePos& q : l.ports) port_nodes_.push_back(links_.node_id(q));
  if (l.x_cut * l.y_cut > 1) {
    d2d_ = links_.d2d_flags(l.x_cut, l.y_cut, l.io_die);
    d2d_latency_ = l.d2d_latency;
    trees_.set_d2d(d2d_);
  }
  const auto nodes = static_cast<std::size_t>(xlen_ * ylen_ + 2 * ylen_);
  eject_ps_per_byte_.assign(nodes, 0);
  queue_.resize(nodes);
  inject_free_.assign(nodes, 0);
  node_dirty_.assign(nodes, 0);
  const std::size_t links = links_.count();
  // (A column of row ends has no vertical links in the mesh; a route
  // between two of them, which no schedule has, would take one, so that
  // every XY route exists.)
  inputs_.resize(links / MeshLinks::kDirs);
  to_router_.assign(links, 0);
  slot_bit_.assign(links, 0);
  req_.assign(links, 0);
  for (std::int32_t y = 0; y < ylen_; ++y)
    for (std::int32_t x = -1; x <= xlen_; ++x) {
      const std::int32_t r = links_.router(x, y);
      std::array<std::int32_t, 5>& in = inputs_[static_cast<std::size_t>(r)];
      in[0] = x - 1 >= -1 ? links_.link(x - 1, y, MeshLinks::kEast) : -1;
      in[1] = x + 1 <= xlen_ ? links_.link(x + 1, y, MeshLinks::kWest) : -1;
      in[2] = y > 0 ? links_.link(x, y - 1, MeshLinks::kSouth) : -1;
      in[3] = y + 1 < ylen_ ? links_.link(x, y + 1, MeshLinks::kNorth) : -1;
      in[4] = links_.link(x, y, MeshLinks::kInject);
      for (std::size_t k = 0; k < in.size(); ++k)
        if (in[k] >= 0) {
          to_router_[static_cast<std::size_t>(in[k])] = r;
          slot_bit_[static_cast<std::size_t>(in[k])] = static_cast<std::uint8_t>(1u << k);
        }
    }
  out_free_.assign(links, 0);
  busy_.assign(links, 0);
  wake_.assign(links, -1);
  link_bytes_.assign(links, 0);
  rr_.assign(links, 0);
  vc_rr_.assign(links, 0);
  owner_.assign(links, kNone);
  holder_.assign(links, ~std::uint64_t{0});
  out_dirty_.assign(links, 0);
  const std::size_t buffers = links * static_cast<std::size_t>(vcs_);
  head_.assign(buffers, kNone);
  tail_.assign(buffers, kNone);
  count_.assign(buffers, 0);
  len_.assign(buffers, 0);
  want_.assign(buffers, 0);
  gone_until_.assign(buffers, -1);
  gone_owner_.assign(buffers, ~std::uint64_t{0});
}

void RouterNoc::enqueue(Tick t, std::uint64_t tag, std::int32_t src,
                        const std::vector<std::int32_t>& dsts, std::int64_t bytes) {
  const Tick ready = buffer_ == 0 ? t : std::max(t, now_);
  if (!ev_) throw std::logic_error("noc.model \"router\": enqueue() before set_events()");
  const std::uint32_t g = take(groups_, free_groups_);
  const bool split = copies_ && dsts.size() > 1;
  groups_[g] = {tag, split ? static_cast<std::int32_t>(dsts.size()) : 1};
  auto add = [&](std::uint32_t base, std::int32_t dst) {
    const std::uint32_t pi = take(packets_pool_, free_packets_);
    Packet& p = packets_pool_[pi];
    p = Packet{};
    p.tag = tag;
    p.group = g;
    p.bytes = bytes;
    p.ready = ready;
    p.base = base;
    p.src = src;
    p.dst = dst;
    p.owner = NocModel::owner_;
    if (dst < 0) {  // along the tree
      NocModel::MulticastMemo memo;
      p.tree = trees_.find(src, dsts, memo);
      trees_.pin(p.tree);
      p.forks = trees_[p.tree].forks.data();
      p.dests = trees_[p.tree].dests.data();
    }
    p.alive = dst < 0 ? static_cast<std::int32_t>(dsts.size()) : 1;
    ++in_flight_;
    if (buffer_ == 0) {  // in as soon as its own packets let it
      start(pi, src, std::max(ready, inject_free_[static_cast<std::size_t>(src)]));
    } else {
      queue_[static_cast<std::size_t>(src)].push_back(pi);
    }
  };
  if (split) {
    for (std::size_t i = 0; i < dsts.size(); ++i) add(static_cast<std::uint32_t>(i), dsts[i]);
    copies_sent_ += static_cast<std::int64_t>(dsts.size()) - 1;
  } else {
    add(0, dsts.size() == 1 ? dsts[0] : -1);
  }
  ++counts_.packets;
  counts_.bytes += bytes;
  if (buffer_ > 0) push(ready, event(Kind::source, static_cast<std::uint32_t>(src)));
}

// Events at a time in turn, then the arbitration they call for; again while
// that queued events at the same time (routers of 0 cycles).
void RouterNoc::advance(Tick now, Events& ev) {
  ev_ = &ev;
  now_ = std::max(now_, now);
  const Tick until = now + lookahead_;
  while (!events_.empty() && events_.top_time() < until) {
    const Tick t = events_.top_time();
    t_ = t;
    while (!events_.empty() && events_.top_time() == t) apply(events_.pop());
    // Nodes and outputs in index order (deterministic); an arbitration
    // dirties none.
    std::sort(dirty_nodes_.begin(), dirty_nodes_.end());
    for (const std::int32_t n : dirty_nodes_) {
      node_dirty_[static_cast<std::size_t>(n)] = 0;
      inject(n, t);
    }
    dirty_nodes_.clear();
    std::sort(dirty_outs_.begin(), dirty_outs_.end());
    for (const std::int32_t o : dirty_outs_) {
      out_dirty_[static_cast<std::size_t>(o)] = 0;
      arbitrate(o, t);
    }
    dirty_outs_.clear();
  }
  // Every event before `until` is applied: the buffers are as of until - 1
  // (a packet that left early by then has gone, enter()).
  t_ = std::max(t_, until - 1);
  if (events_.empty() && in_flight_ > 0) stalled();
}

void RouterNoc::apply(const Ev& e) {
  const std::uint32_t id = e.id;
  switch (e.kind()) {
    case Kind::source:
      dirty_node(static_cast<std::int32_t>(id));
      break;
    case Kind::head:
      at_head(fifo(worms_[id].in, worms_[id].vc));
      break;
    case Kind::wake:
      dirty_output(static_cast<std::int32_t>(id));
      break;
    case Kind::end: {
      dirty_output(e.out);
      Worm& w = worms_[id];
      if (--w.ending == 0 && w.granted == w.branches) leave(id);
      break;
    }
  }
}

// A packet starts towards buffer f (its head there, past the router's
// pipeline, at w.ready): it joins the buffer's queue now -- the order its
// packets arrive in -- and asks for its outputs once at the head and
// ready: at once if it is, else at `ready` (an event), or when the packet
// ahead leaves (leave()).
void RouterNoc::enter(std::uint32_t wi) {
  Worm& w = worms_[wi];
  const std::size_t f = fifo(w.in, w.vc);
  // (A packet that left early is in the buffer until gone_until_.)
  const bool gone = gone_until_[f] > t_;
  input_queue_.add(len_[f]++ + (gone ? 1 : 0));
  if (tail_[f] == kNone) {
    head_[f] = tail_[f] = wi;
    w.head_at = w.ready;
    if (gone_until_[f] > w.ready) {  // behind it, as leave() would have it
      w.head_at = gone_until_[f];
      if (w.head_at - w.ready > w.wait.time) w.wait = {w.head_at - w.ready, w.in, gone_owner_[f]};
    }
    push(w.head_at, event(Kind::head, wi));
  } else {
    worms_[tail_[f]].next = wi;
    tail_[f] = wi;
  }
}

// A packet is at the head of buffer f: the outputs it wants are asked for.
void RouterNoc::at_head(std::size_t f) {
  const Worm& w = worms_[head_[f]];
  want_[f] = w.dirs;
  dirty_wanted(w.in, f);
}

// The packet's last stream out of its buffer has ended (or, early_leave_,
// been granted): it leaves, its credit goes back upstream, and the packet
// behind it is at the head.
void RouterNoc::leave(std::uint32_t wi) {
  const Worm& w = worms_[wi];  // (nothing here takes a worm: it stays put)
  const std::size_t f = fifo(w.in, w.vc);
  head_[f] = w.next;
  --count_[f];
  --len_[f];
  want_[f] = 0;
  owner_[static_cast<std::size_t>(w.in)] = kNone;
  if (head_[f] == kNone) {
    tail_[f] = kNone;
  } else {
    Worm& n = worms_[head_[f]];
    n.head_at = std::max(n.ready, t_);
    if (t_ - n.ready > n.wait.time) n.wait = {t_ - n.ready, w.in, w.owner};  // behind w
    if (n.ready <= t_)
      at_head(f);
    else
      push(n.ready, event(Kind::head, head_[f]));
  }
  if (vcs_ > 1)
    for (std::int32_t v = 0; v < vcs_; ++v)  // their input is free
      if (v != w.vc) dirty_wanted(w.in, fifo(w.in, v));
  if (buffer_ > 0) {  // a credit back
    if (w.in % MeshLinks::kDirs == MeshLinks::kInject)
      dirty_node(links_.node_id(router_pos(w.in)));
    else
      dirty_output(w.in);
  }
  free_worms_.push_back(wi);
  --in_flight_;
}

// early_leave_: packet wi's last stream (ending at `end`) was granted and
// none is behind it: it leaves its buffer now, in the buffer's eyes at end.
void RouterNoc::leave_early(std::uint32_t wi, Tick end) {
  const Worm& w = worms_[wi];
  const std::size_t f = fifo(w.in, w.vc);
  gone_until_[f] = end;
  gone_owner_[f] = w.owner;
  leave(wi);  // none behind it, one VC, no credits: the buffer is empty
}

// The source writes its queue's next packet into its router's injection
// buffer once its injection link is free (and, with finite buffers, the
// buffer has room).
void RouterNoc::inject(std::int32_t node, Tick t) {
  const auto n = static_cast<std::size_t>(node);
  if (inject_free_[n] > t || queue_[n].empty()) return;
  const std::uint32_t pi = queue_[n].front();
  const Packet& p = packets_pool_[pi];
  if (p.ready > t) return;  // its source event is due
  const NodePos at = links_.node_pos(node);
  const std::int32_t in = links_.link(at.x, at.y, MeshLinks::kInject);
  if (buffer_ > 0 && count_[fifo(in, 0)] >= buffer_) return;  // leave() retries
  queue_[n].pop_front();
  push(t + start(pi, node, t), event(Kind::source, static_cast<std::uint32_t>(node)));
}

// Packet pi starts into its source's injection buffer at t, which holds its
// injection link for the packet's time on it (returned).
Tick RouterNoc::start(std::uint32_t pi, std::int32_t node, Tick t) {
  const Packet& p = packets_pool_[pi];
  const NodePos at = links_.node_pos(node);
  const std::int32_t in = links_.link(at.x, at.y, MeshLinks::kInject);
  const Tick s = link_ser(p.bytes);
  inject_free_[static_cast<std::size_t>(node)] = t + s;
  const std::uint32_t gi = p.group;
  const std::uint32_t wi = take(worms_, free_worms_);
  Worm& w = worms_[wi];
  w = Worm{};
  w.packet = pi;
  w.in = in;
  w.bytes = p.bytes;
  w.forks = p.forks;
  w.owner = p.owner;
  if (p.forks) {
    w.dirs = trees_[p.tree].root_dirs;
  } else {
    w.first = static_cast<std::uint32_t>(p.dst);
    w.dirs = step(at, links_.node_pos(p.dst));
  }
  w.branches = bits(w.dirs);
  w.tail_in = t + s;
  ++count_[fifo(in, 0)];
  w.ready = t + hop_;
  enter(wi);
  // Last: the caller may hand over its next packet in reply (enqueue()).
  if (--groups_[gi].to_inject == 0) {
    free_groups_.push_back(gi);
    ev_->injected(groups_[gi].tag, t + s);
  }
  return s;
}

// Output `out` is free at t (or busy: its stream's end will call again):
// the next input round robin whose head packet wants it, can use its
// input, and has a buffer slot beyond the link, gets it.
void RouterNoc::arbitrate(std::int32_t out, Tick t) {
  const auto o = static_cast<std::size_t>(out);
  if (out_free_[o] > t) {  // an input wants it (or its end event is due)
    wake(o);
    return;
  }
  const std::array<std::int32_t, 5>& in = inputs_[static_cast<std::size_t>(out / MeshLinks::kDirs)];
  const std::int32_t dir = out % MeshLinks::kDirs;
  const auto bit = static_cast<std::uint8_t>(1u << dir);
  // The buffer (VC) beyond the link: the emptiest; none with room, none
  // goes (the packet that leaves one calls again).
  std::int32_t dvc = 0;
  if (dir != MeshLinks::kEject) {
    for (std::int32_t v = 1; v < vcs_; ++v)
      if (count_[fifo(out, v)] < count_[fifo(out, dvc)]) dvc = v;
    if (buffer_ > 0 && count_[fifo(out, dvc)] >= buffer_) return;
  }
  if (vcs_ == 1) {  // the inputs whose head wants it, by slot; the next after rr_
    std::uint32_t m = req_[o];
    while (m != 0) {
      const std::uint32_t later = m & ~((2u << rr_[o]) - 1);
      const int s = std::countr_zero(later != 0 ? later : m);
      m &= ~(1u << s);
      const auto f = static_cast<std::size_t>(in[static_cast<std::size_t>(s)]);
      const std::uint32_t wi = head_[f];
      if (owner_[f] != kNone && owner_[f] != wi) continue;
      rr_[o] = static_cast<std::uint8_t>(s);
      want_[f] = static_cast<std::uint8_t>(want_[f] & ~bit);
      req_[o] = static_cast<std::uint8_t>(req_[o] & ~(1u << s));
      grant(wi, out, dvc, t);
      if (m != 0) wake(o);  // the others that want it, when it is free
      return;
    }
    return;
  }
  for (int k = 1, s = rr_[o]; k <= 5; ++k) {
    s = s == 4 ? 0 : s + 1;
    if (in[s] < 0) continue;
    const auto il = static_cast<std::size_t>(in[s]);
    const std::int32_t nvc = s == 4 ? 1 : vcs_;
    for (std::int32_t j = 0; j < nvc; ++j) {
      const std::int32_t vc = (vc_rr_[il] + j) % nvc;
      const std::size_t f = fifo(in[s], vc);
      if (!(want_[f] & bit)) continue;
      const std::uint32_t wi = head_[f];
      if (owner_[il] != kNone && owner_[il] != wi) continue;
      rr_[o] = static_cast<std::uint8_t>(s);
      vc_rr_[il] = static_cast<std::uint8_t>((vc + 1) % nvc);
      want_[f] = static_cast<std::uint8_t>(want_[f] & ~bit);
      grant(wi, out, dvc, t);
      return;
    }
  }
}

void RouterNoc::grant(std::uint32_t wi, std::int32_t out, std::int32_t dvc, Tick t) {
  Worm& w = worms_[wi];
  const std::uint32_t pi = w.packet;
  const std::int64_t bytes = w.bytes;
  const auto dir = static_cast<std::uint32_t>(out % MeshLinks::kDirs);
  const XyTree::Fork* forks = w.forks;
  // Its branch in direction `dir`: a multicast's among its branches by
  // direction (index in the tree's dsts where it ejects); a unicast's next
  // link.
  const XyTree::Fork* l = forks ? &forks[w.first + bits(w.dirs & ((1u << dir) - 1))] : nullptr;
  const std::int32_t eject = dir != MeshLinks::kEject ? -1 : l ? l->dst : 0;
  const bool d2d = l ? l->d2d : eject < 0 && is_d2d(out);
  if (w.next != kNone) {  // at the head when w leaves: long after, cold by then
    const char* n = reinterpret_cast<const char*>(&worms_[w.next]);
    __builtin_prefetch(n);
    __builtin_prefetch(n + sizeof(Worm) - 1);
  }
  ++w.granted;
  ++w.ending;
  owner_[static_cast<std::size_t>(w.in)] = wi;
  const auto o = static_cast<std::size_t>(out);
  const Tick s = eject >= 0 ? eject_ser(l ? packets_pool_[pi].dests[eject].node
                                          : static_cast<std::int32_t>(w.first),
                                        bytes)
                 : d2d ? ser(bytes, d2d_ps_per_byte_)
                       : link_ser(bytes);
  // Busy for its serialisation, and until its tail has come through.
  const Tick end = std::max(t + s, w.tail_in + hop_);
  out_free_[o] = end;
  const bool early = early_leave_ && w.next == kNone && w.granted == w.branches && w.ending == 1;
  if (!early) {
    wake_[o] = end;  // its end event arbitrates the output
    push(end, event(Kind::end, wi, out));
  }
  // Its wait for this output (from when it asked), against its way's.
  Wait wait = w.wait;
  if (t - w.head_at > wait.time) wait = {t - w.head_at, out, holder_[o]};
  holder_[o] = w.owner;
  if (early) leave_early(wi, end);  // (w stays valid: nothing is taken before)
  if (eject >= 0) {
    report(pi, eject, end, wait);
    return;
  }
  busy_[o] += end - t;
  link_bytes_[o] += bytes;
  counts_.byte_hops += bytes;
  if (d2d) counts_.d2d_byte_hops += bytes;
  const Tick lat = d2d ? d2d_latency_ : 0;
  const std::uint32_t first = w.first;
  const std::uint64_t owner = w.owner;
  const std::uint32_t ci = take(worms_, free_worms_);
  Worm& n = worms_[ci];  // w may have moved
  n = Worm{};
  n.packet = pi;
  n.in = out;
  n.bytes = bytes;
  n.forks = forks;
  n.owner = owner;
  n.wait = wait;
  if (l) {
    n.first = l->first_child;
    n.dirs = l->child_dirs;
  } else {
    const NodePos at = router_pos(out);
    n.first = first;
    n.dirs = step(MeshLinks::next(at.x, at.y, static_cast<MeshLinks::Dir>(dir)),
                  links_.node_pos(static_cast<std::int32_t>(first)));
  }
  n.branches = bits(n.dirs);
  if (n.dirs & (1u << MeshLinks::kEject))  // its report reads the packet: cold by then
    __builtin_prefetch(&packets_pool_[pi]);
  n.vc = static_cast<std::uint16_t>(dvc);
  n.tail_in = end + lat;
  ++count_[fifo(out, dvc)];
  ++in_flight_;
  n.ready = t + lat + hop_;
  enter(ci);
}

// An arrival reports the links its route added to the packet's tree (each
// crossed once): the arrivals of a packet sum to the links it crossed.
void RouterNoc::report(std::uint32_t pi, std::int32_t dst, Tick t, const Wait& wait) {
  Packet& p = packets_pool_[pi];
  XyTree::Dest d;
  if (p.dests) {
    d = p.dests[dst];
  } else {  // a unicast: its route
    const NodePos from = links_.node_pos(p.src), to = links_.node_pos(p.dst);
    d.node = p.dst;
    d.route_links = d.first_links = std::abs(to.x - from.x) + std::abs(to.y - from.y);
    if (!d2d_.empty())
      links_.xy_route(from, to, [&](std::int32_t link) { d.route_d2d += is_d2d(link) ? 1 : 0; });
    d.first_d2d = d.route_d2d;
  }
  Arrival a;
  a.tag = p.tag;
  a.dst = p.base + static_cast<std::size_t>(dst);
  a.t = t;
  a.links = d.first_links;
  a.d2d_links = d.first_d2d;
  const Tick ideal = p.ready + (d.route_links + 1) * hop_ + d.route_d2d * d2d_latency_ +
                     eject_ser(d.node, p.bytes);
  a.waited = std::max<Tick>(0, t - ideal);
  a.wait_link = wait.link;
  a.wait_owner = wait.whose;
  if (--p.alive == 0) free_packet(pi);
  ev_->arrived(a);
}

// Every wait is for a buffer further along an XY route (a row's links, then
// a column's, then an ejection, which always drains), so waits cannot form
// a cycle, forks included: no progress with packets in flight is the
// model's fault, said as such rather than a hang.
void RouterNoc::stalled() const {
  std::int64_t queued = 0;
  for (const auto& q : queue_) queued += static_cast<std::int64_t>(q.size());
  throw ModelStall("noc.model \"router\": internal error: no event is due, yet " +
                   std::to_string(in_flight_ - queued) + " packets are in router buffers and " +
                   std::to_string(queued) +
                   " wait at their sources (noc.buffer_packets = " + std::to_string(buffer_) +
                   "; XY routes cannot deadlock: please report this with the input)");
}

std::vector<NocModel::LinkLoad> RouterNoc::loads(bool d2d, bool all) const {
  std::vector<LinkLoad> out;
  links_.for_each_link([&](std::int32_t link, NodePos from, NodePos to) {
    if (!all && is_d2d(link) != d2d) return;
    const auto k = static_cast<std::size_t>(link);
    out.push_back({from, to, link_bytes_[k], busy_[k]});
  });
  return out;
}

}  // namespace gemini::sim::router
