// noc.model "router" (docs/timing-model.md, "NoC: router"): the mesh's
// input-queued routers, packet by packet, closed loop (noc_model.h).
//
// Contract: the topology, node ids, XY routes, link rates (noc.link_gbps,
// chiplets.d2d_gbps), D2D latency and ejection rates are the mesh's
// (mesh_noc.h), and so is the zero-load latency of a packet of b bytes over
// h hops: (h + 1) x router + ser(b). What the mesh lacks, this model has:
// every router input (each incoming link and the injection link) is a FIFO
// buffer per virtual channel; only the packet at a buffer's head may
// leave, so a packet blocked at the head holds back the packets behind it
// (head-of-line blocking); each output serves the inputs whose head packet
// wants it round robin, and an input feeds one output at a time
// (multicast: its branches, as they are granted); with noc.buffer_packets
// B > 0 a packet may start on a link only when a buffer (VC) at the link's
// end holds fewer than B packets (credits: a slot is taken when the packet
// starts on the link, given back when its tail has left that buffer), so
// congestion backs up hop by hop to the sources. A multicast is one packet
// replicated where its XY routes part (the routers' tree, as the hardware
// multicasts), or with noc.multicast_copies one unicast per destination
// one after the other from the source (booksim2's way).
//
// Timing (picoseconds): a packet's head that reaches a router's input at
// t may leave on its output from t + router on, when the output and the
// input are free and the output's arbiter picks it; it then holds the
// output and its input for its serialisation on that output,
// ser = ceil(b x 1000 / gbps), and at least until its tail, which arrived
// ser behind its head, has followed it through the router; its head is at
// the next router's input when it starts (plus the D2D latency on a die-to-
// die link). A packet streams whole once started (virtual cut-through with
// the buffer's space reserved when it starts): flits of two packets never
// interleave on a link. The source writes its packets into its router's
// injection buffer back to back at the link's rate (injected when the
// tail is written); the destination takes a packet off its ejection link
// at its rate (set_eject_ps_per_byte), arrived when the tail is there.
//
// Events at one time are applied first (packets reaching buffers, streams
// ending, credits returning), then every output whose state changed is
// arbitrated: the outcome does not depend on the order events were queued.
// Reports are made when a packet's last stream is granted, for its end.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include "gemini/sim/distribution.h"
#include "gemini/sim/mesh_links.h"
#include "gemini/sim/mesh_noc.h"
#include "gemini/sim/model_stall.h"
#include "gemini/sim/noc_model.h"
#include "text_format.h"

namespace gemini::sim {

namespace {

constexpr std::uint32_t kNone = ~std::uint32_t{0};

struct RouterNocParams {
  MeshNocParams mesh;
  std::int32_t num_vcs = 1;
  bool copies = false;
  std::int32_t flit_bytes = 0;
};

class RouterNoc final : public ClosedLoopNocModel {
 public:
  RouterNoc(const RouterNocParams& p, const NocLayout& l);

  std::int32_t port_node(std::int32_t port) const override {
    return port_nodes_[static_cast<std::size_t>(port)];
  }
  void set_eject_ps_per_byte(std::int32_t node, double ps_per_byte) override {
    eject_ps_per_byte_[static_cast<std::size_t>(node)] = ps_per_byte;
  }
  void enqueue(Tick t, std::uint64_t tag, std::int32_t src, const std::vector<std::int32_t>& dsts,
               std::int64_t bytes) override;
  void advance(Tick now, Events& ev) override;
  // Just after the earliest event: a packet handed over at its time is in
  // first (advance() runs the events before `now`).
  Tick next_advance() const override { return heap_.empty() ? kNever : heap_.top().t + 1; }

  LinkUse router_link_use() const override { return link_use_of(loads(false, false)); }
  LinkUse d2d_link_use() const override { return link_use_of(loads(true, false)); }
  std::vector<LinkLoad> router_link_loads() const override { return loads(false, true); }
  std::vector<LinkLoad> d2d_link_loads() const override { return loads(true, false); }
  std::string link_name(std::int32_t link) const override { return links_.name(link); }
  double peak_link_gbps() const override { return link_gbps_; }
  std::int64_t packets() const override { return packets_; }
  std::int64_t bytes() const override { return bytes_; }
  std::string name() const override { return "router"; }

 protected:
  void add_stats(StatGroup& g) const override {
    g.add("packets", &packets_, Unit::count, "packets: data, tokens, DMA requests, write acks");
    g.add("bytes", &bytes_, Unit::bytes, "bytes of every packet");
    g.add("byte_hops", &byte_hops_, Unit::byte_hops, "bytes x router-to-router links crossed");
    g.add("d2d_byte_hops", &d2d_byte_hops_, Unit::byte_hops,
          "bytes x die-to-die links crossed (of byte_hops)");
    g.add("multicast_copies", &copies_sent_, Unit::count,
          "unicast copies sent for multicast packets beyond one per packet");
    g.add_distribution("input_queue", &input_queue_, Unit::packets,
                       "packets ahead in the router input buffer (VC) a packet's head reaches");
  }

 private:
  using Dir = MeshLinks::Dir;
  // A packet (one copy with multicast_copies): its destinations, and their
  // indices `order`, which the routers' forks partition among the branches.
  struct Packet {
    std::uint64_t tag = 0;
    std::uint32_t group = 0;  // the handed-over packet whose `injected` it counts to
    std::int64_t bytes = 0;
    std::int32_t src = 0;
    Tick ready = 0;
    std::vector<std::int32_t> dsts;
    std::vector<NodePos> at;           // where each of dsts is
    std::vector<std::uint32_t> order;  // indices into dsts
    std::uint32_t base = 0;            // reported index of dsts[0] (a copy's)
    std::int32_t alive = 0;            // its packets in buffers, and its arrivals to come
  };
  struct Group {
    std::uint64_t tag = 0;
    std::int32_t to_inject = 0;
  };
  // One output a packet wants at a router: the destinations order[off, off + n).
  struct Branch {
    std::int32_t out = 0;
    std::uint32_t off = 0, n = 0;
    bool granted = false;
  };
  // A packet in a router's input buffer (a link's end, VC `vc`).
  struct Worm {
    std::uint32_t packet = 0, next = kNone;  // next: behind it in its buffer
    std::int32_t in = 0, vc = 0;             // its buffer: incoming link, VC
    NodePos at;
    std::uint32_t off = 0, n = 0;
    Tick tail_in = 0;  // its tail is at this router's input
    std::uint8_t branches = 0, granted = 0, ending = 0;
    std::array<Branch, 5> br{};
  };
  enum class Kind : std::uint8_t { source, head, end };
  struct Ev {
    Tick t;
    std::uint64_t seq;
    Kind kind;
    std::uint8_t branch;
    std::uint32_t id;
    bool operator>(const Ev& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };

  std::int32_t cores() const { return xlen_ * ylen_; }
  NodePos pos(std::int32_t node) const {
    if (node < cores()) return {node % xlen_, node / xlen_};
    const std::int32_t p = node - cores();
    return {(p % 2) ? xlen_ : -1, p / 2};
  }
  std::int32_t node_at(NodePos q) const {
    if (q.x >= 0 && q.x < xlen_) return q.y * xlen_ + q.x;
    return cores() + 2 * q.y + (q.x == xlen_ ? 1 : 0);
  }
  bool is_d2d(std::int32_t link) const {
    return !d2d_.empty() && d2d_[static_cast<std::size_t>(link)] != 0;
  }
  // A packet's time on a link of `ps_per_byte`: its bytes, or with
  // flit_bytes its whole flits.
  Tick ser(std::int64_t bytes, double ps_per_byte) const {
    if (flit_ > 0) bytes = (bytes + flit_ - 1) / flit_ * flit_;
    return std::max<Tick>(1, ceil_tick(static_cast<double>(bytes) * ps_per_byte - 1e-9));
  }
  Tick eject_ser(std::int32_t node, std::int64_t bytes) const {
    const Tick s = ser(bytes, ps_per_byte_);
    const double r = eject_ps_per_byte_[static_cast<std::size_t>(node)];
    return r > 0 ? std::max(s, ser(bytes, r)) : s;
  }
  void push(Tick t, Kind k, std::uint32_t id, std::uint8_t branch = 0) {
    if (t > kTickLimit) past_clock(t);
    heap_.push({t, seq_++, k, branch, id});
  }
  [[noreturn]] void past_clock(Tick t) const {
    throw ModelStall(past_clock_text("noc.model \"router\"", "a packet's stream",
                                     static_cast<double>(t),
                                     "its links carry " + fmt("%g", link_gbps_) +
                                         " GB/s (noc.link_gbps, chiplets.d2d_gbps, "
                                         "the DRAM ports' rates)"));
  }
  template <typename T>
  static std::uint32_t take(std::vector<T>& pool, std::vector<std::uint32_t>& free) {
    if (!free.empty()) {
      const std::uint32_t i = free.back();
      free.pop_back();
      return i;
    }
    pool.emplace_back();
    return static_cast<std::uint32_t>(pool.size() - 1);
  }
  std::size_t fifo(std::int32_t link, std::int32_t vc) const {
    return static_cast<std::size_t>(link) * static_cast<std::size_t>(vcs_) +
           static_cast<std::size_t>(vc);
  }
  void dirty_output(std::int32_t out) {
    if (out_dirty_[static_cast<std::size_t>(out)]) return;
    out_dirty_[static_cast<std::size_t>(out)] = 1;
    dirty_outs_.push_back(out);
  }
  void dirty_node(std::int32_t node) {
    if (node_dirty_[static_cast<std::size_t>(node)]) return;
    node_dirty_[static_cast<std::size_t>(node)] = 1;
    dirty_nodes_.push_back(node);
  }
  // The outputs the head of each VC of incoming link `in` wants.
  void dirty_heads(std::int32_t in) {
    for (std::int32_t v = 0; v < vcs_; ++v) {
      const std::uint32_t h = head_[fifo(in, v)];
      if (h == kNone) continue;
      const Worm& w = worms_[h];
      for (std::uint8_t b = 0; b < w.branches; ++b)
        if (!w.br[b].granted) dirty_output(w.br[b].out);
    }
  }

  void apply(const Ev& e);
  void reach(std::uint32_t wi);
  void leave(std::uint32_t wi);
  void inject(std::int32_t node, Tick t);
  void arbitrate(std::int32_t out, Tick t);
  void grant(std::uint32_t wi, std::uint8_t b, std::int32_t out, std::int32_t dvc, Tick t);
  void report(std::uint32_t pi, std::uint32_t index, Tick t);
  void stalled() const;
  std::vector<LinkLoad> loads(bool d2d, bool all) const;

  std::int32_t xlen_, ylen_;
  MeshLinks links_;
  double link_gbps_, ps_per_byte_, d2d_ps_per_byte_;
  Tick hop_, d2d_latency_ = 0;
  std::int32_t buffer_, vcs_;
  bool copies_;
  std::int64_t flit_;  // 0: packets serialise byte by byte
  std::vector<std::int32_t> port_nodes_;
  std::vector<std::uint8_t> d2d_;
  std::vector<double> eject_ps_per_byte_;  // per node
  // Per node: its source queue and when its injection link is free.
  std::vector<std::deque<std::uint32_t>> queue_;
  std::vector<Tick> inject_free_;
  // Per link as an output: free from, its arbiter's last grant (an input
  // slot), busy time and bytes; as an input: the packet feeding an output
  // (kNone: none), its VC arbiter's last grant.
  std::vector<Tick> out_free_, busy_;
  std::vector<std::int64_t> link_bytes_;
  std::vector<std::uint8_t> rr_, vc_rr_;
  std::vector<std::uint32_t> owner_;
  // Per buffer (link x VC): its head and tail packets, and the packets in it
  // or on their way into it (the credits taken).
  std::vector<std::uint32_t> head_, tail_;
  std::vector<std::int32_t> count_, len_;  // len_: the packets in it
  std::vector<std::uint8_t> out_dirty_, node_dirty_;
  std::vector<std::int32_t> dirty_outs_, dirty_nodes_;
  std::vector<std::uint32_t> scratch_, sorted_;  // reach()'s partition
  // Per router: its inputs (incoming links) from the west, east, north,
  // south and its node; -1 where there is none.
  std::vector<std::array<std::int32_t, 5>> inputs_;
  std::priority_queue<Ev, std::vector<Ev>, std::greater<>> heap_;
  std::uint64_t seq_ = 0;
  Events* ev_ = nullptr;
  Tick now_ = 0;  // the last advance()'s
  std::vector<Packet> packets_pool_;
  std::vector<Group> groups_;
  std::vector<Worm> worms_;
  std::vector<std::uint32_t> free_packets_, free_groups_, free_worms_;
  std::int64_t in_flight_ = 0;  // packets queued at sources or in buffers
  std::int64_t packets_ = 0, bytes_ = 0, byte_hops_ = 0, d2d_byte_hops_ = 0, copies_sent_ = 0;
  Distribution input_queue_;
};

RouterNoc::RouterNoc(const RouterNocParams& p, const NocLayout& l)
    : xlen_(l.xlen),
      ylen_(l.ylen),
      links_(l.xlen, l.ylen),
      link_gbps_(p.mesh.link_gbps),
      ps_per_byte_(1000.0 / p.mesh.link_gbps),
      d2d_ps_per_byte_(1000.0 / l.d2d_gbps),
      hop_(static_cast<Tick>(p.mesh.router_cycles) * l.period),
      buffer_(std::max(0, p.mesh.buffer_packets)),
      vcs_(p.num_vcs),
      copies_(p.copies),
      flit_(p.flit_bytes) {
  for (const NodePos& q : l.ports) port_nodes_.push_back(node_at(q));
  if (l.x_cut * l.y_cut > 1) {
    d2d_ = links_.d2d_flags(l.x_cut, l.y_cut, l.io_die);
    d2d_latency_ = l.d2d_latency;
  }
  const std::size_t nodes = static_cast<std::size_t>(cores() + 2 * ylen_);
  eject_ps_per_byte_.assign(nodes, 0);
  queue_.resize(nodes);
  inject_free_.assign(nodes, 0);
  node_dirty_.assign(nodes, 0);
  const std::size_t links = links_.count();
  // (A column of row ends has no vertical links in the mesh; a route
  // between two of them, which no schedule has, would take one, so that
  // every XY route exists.)
  inputs_.resize(links / MeshLinks::kDirs);
  for (std::int32_t y = 0; y < ylen_; ++y)
    for (std::int32_t x = -1; x <= xlen_; ++x) {
      std::array<std::int32_t, 5>& in = inputs_[static_cast<std::size_t>(links_.router(x, y))];
      in[0] = x - 1 >= -1 ? links_.link(x - 1, y, MeshLinks::kEast) : -1;
      in[1] = x + 1 <= xlen_ ? links_.link(x + 1, y, MeshLinks::kWest) : -1;
      in[2] = y > 0 ? links_.link(x, y - 1, MeshLinks::kSouth) : -1;
      in[3] = y + 1 < ylen_ ? links_.link(x, y + 1, MeshLinks::kNorth) : -1;
      in[4] = links_.link(x, y, MeshLinks::kInject);
    }
  out_free_.assign(links, 0);
  busy_.assign(links, 0);
  link_bytes_.assign(links, 0);
  rr_.assign(links, 0);
  vc_rr_.assign(links, 0);
  owner_.assign(links, kNone);
  out_dirty_.assign(links, 0);
  head_.assign(links * static_cast<std::size_t>(vcs_), kNone);
  tail_.assign(links * static_cast<std::size_t>(vcs_), kNone);
  count_.assign(links * static_cast<std::size_t>(vcs_), 0);
  len_.assign(links * static_cast<std::size_t>(vcs_), 0);
}

void RouterNoc::enqueue(Tick t, std::uint64_t tag, std::int32_t src,
                        const std::vector<std::int32_t>& dsts, std::int64_t bytes) {
  const Tick ready = std::max(t, now_);
  const std::uint32_t g = take(groups_, free_groups_);
  const bool split = copies_ && dsts.size() > 1;
  groups_[g] = {tag, split ? static_cast<std::int32_t>(dsts.size()) : 1};
  auto add = [&](std::uint32_t base, const std::int32_t* first, std::size_t n) {
    const std::uint32_t pi = take(packets_pool_, free_packets_);
    Packet& p = packets_pool_[pi];
    p.tag = tag;
    p.group = g;
    p.bytes = bytes;
    p.src = src;
    p.ready = ready;
    p.dsts.assign(first, first + n);
    p.at.resize(n);
    for (std::size_t i = 0; i < n; ++i) p.at[i] = pos(p.dsts[i]);
    p.order.resize(n);
    for (std::size_t i = 0; i < n; ++i) p.order[i] = static_cast<std::uint32_t>(i);
    p.base = base;
    p.alive = 1 + static_cast<std::int32_t>(n);  // queued, and each arrival
    queue_[static_cast<std::size_t>(src)].push_back(pi);
    ++in_flight_;
  };
  if (split) {
    for (std::size_t i = 0; i < dsts.size(); ++i) add(static_cast<std::uint32_t>(i), &dsts[i], 1);
    copies_sent_ += static_cast<std::int64_t>(dsts.size()) - 1;
  } else {
    add(0, dsts.data(), dsts.size());
  }
  ++packets_;
  bytes_ += bytes;
  push(ready, Kind::source, static_cast<std::uint32_t>(src));
}

// Events at a time in turn, then the arbitration they call for; again while
// that queued events at the same time (routers of 0 cycles).
void RouterNoc::advance(Tick now, Events& ev) {
  ev_ = &ev;
  now_ = std::max(now_, now);
  while (!heap_.empty() && heap_.top().t < now) {
    const Tick t = heap_.top().t;
    while (!heap_.empty() && heap_.top().t == t) {
      const Ev e = heap_.top();
      heap_.pop();
      apply(e);
    }
    for (std::size_t i = 0; i < dirty_nodes_.size(); ++i) {
      const std::int32_t n = dirty_nodes_[i];
      node_dirty_[static_cast<std::size_t>(n)] = 0;
      inject(n, t);
    }
    dirty_nodes_.clear();
    // Outputs in index order (deterministic); an arbitration dirties none.
    std::sort(dirty_outs_.begin(), dirty_outs_.end());
    for (const std::int32_t o : dirty_outs_) {
      out_dirty_[static_cast<std::size_t>(o)] = 0;
      arbitrate(o, t);
    }
    dirty_outs_.clear();
  }
  if (heap_.empty() && in_flight_ > 0) stalled();
  ev_ = nullptr;
}

void RouterNoc::apply(const Ev& e) {
  switch (e.kind) {
    case Kind::source:
      dirty_node(static_cast<std::int32_t>(e.id));
      break;
    case Kind::head:
      reach(e.id);
      break;
    case Kind::end: {
      Worm& w = worms_[e.id];
      dirty_output(w.br[e.branch].out);
      if (--w.ending == 0 && w.granted == w.branches) leave(e.id);
      break;
    }
  }
}

// A packet's head is at its buffer, and past the router's pipeline: it
// joins the buffer and learns the outputs it wants there.
void RouterNoc::reach(std::uint32_t wi) {
  Worm& w = worms_[wi];
  Packet& p = packets_pool_[w.packet];
  // Its branches: the destinations by the next step of their XY routes,
  // in the order east, west, north, south, here.
  auto step = [&](std::uint32_t i) {
    const NodePos d = p.at[i];
    if (d.x != w.at.x) return d.x > w.at.x ? 0 : 1;
    if (d.y != w.at.y) return d.y < w.at.y ? 2 : 3;
    return 4;
  };
  static constexpr Dir kOut[5] = {MeshLinks::kEast, MeshLinks::kWest, MeshLinks::kNorth,
                                  MeshLinks::kSouth, MeshLinks::kEject};
  w.branches = 0;
  if (w.n == 1) {
    w.br[0] = {links_.link(w.at.x, w.at.y, kOut[step(p.order[w.off])]), w.off, 1, false};
    w.branches = 1;
  } else {
    // A counting sort of its destinations by their next step.
    std::array<std::uint32_t, 6> at{};
    scratch_.resize(w.n);
    for (std::uint32_t i = 0; i < w.n; ++i) {
      const int st = step(p.order[w.off + i]);
      scratch_[i] = static_cast<std::uint32_t>(st);
      ++at[static_cast<std::size_t>(st) + 1];
    }
    for (std::size_t k = 1; k < at.size(); ++k) at[k] += at[k - 1];
    std::array<std::uint32_t, 5> fill{};
    sorted_.resize(w.n);
    for (std::uint32_t i = 0; i < w.n; ++i) {
      const std::uint32_t st = scratch_[i];
      sorted_[at[st] + fill[st]++] = p.order[w.off + i];
    }
    std::copy(sorted_.begin(), sorted_.end(), p.order.begin() + w.off);
    for (std::uint32_t st = 0; st < 5; ++st)
      if (fill[st] > 0)
        w.br[w.branches++] = {links_.link(w.at.x, w.at.y, kOut[st]), w.off + at[st], fill[st],
                              false};
  }
  const std::size_t f = fifo(w.in, w.vc);
  input_queue_.add(len_[f]++);
  if (tail_[f] == kNone) {
    head_[f] = tail_[f] = wi;
    for (std::uint8_t b = 0; b < w.branches; ++b) dirty_output(w.br[b].out);
  } else {
    worms_[tail_[f]].next = wi;
    tail_[f] = wi;
  }
}

// The packet's last stream out of its buffer has ended: it leaves, its
// credit goes back upstream, and the packet behind it is at the head.
void RouterNoc::leave(std::uint32_t wi) {
  Worm& w = worms_[wi];
  const std::size_t f = fifo(w.in, w.vc);
  head_[f] = w.next;
  if (head_[f] == kNone) tail_[f] = kNone;
  --count_[f];
  --len_[f];
  owner_[static_cast<std::size_t>(w.in)] = kNone;
  dirty_heads(w.in);
  if (w.in % MeshLinks::kDirs == MeshLinks::kInject) {
    dirty_node(node_at(w.at));
  } else {
    dirty_output(w.in);
  }
  Packet& p = packets_pool_[w.packet];
  if (--p.alive == 0) free_packets_.push_back(w.packet);
  free_worms_.push_back(wi);
  --in_flight_;
}

// The source writes its queue's next packet into its router's injection
// buffer once its injection link is free (and, with finite buffers, the
// buffer has room).
void RouterNoc::inject(std::int32_t node, Tick t) {
  const auto n = static_cast<std::size_t>(node);
  if (inject_free_[n] > t || queue_[n].empty()) return;
  const std::uint32_t pi = queue_[n].front();
  Packet& p = packets_pool_[pi];
  if (p.ready > t) return;  // its source event is due
  const NodePos at = pos(node);
  const std::int32_t in = links_.link(at.x, at.y, MeshLinks::kInject);
  if (buffer_ > 0 && count_[fifo(in, 0)] >= buffer_) return;  // leave() retries
  queue_[n].pop_front();
  const Tick s = ser(p.bytes, ps_per_byte_);
  inject_free_[n] = t + s;
  push(t + s, Kind::source, static_cast<std::uint32_t>(node));
  // Its place in `alive` passes from the queue to the packet in the buffer.
  const std::uint32_t wi = take(worms_, free_worms_);
  Worm& w = worms_[wi];
  w = Worm{};
  w.packet = pi;
  w.in = in;
  w.vc = 0;
  w.at = at;
  w.off = 0;
  w.n = static_cast<std::uint32_t>(p.dsts.size());
  w.tail_in = t + s;
  ++count_[fifo(in, 0)];
  push(t + hop_, Kind::head, wi);
  // Last: the caller may hand over its next packet in reply (enqueue()).
  const std::uint32_t gi = p.group;
  if (--groups_[gi].to_inject == 0) {
    free_groups_.push_back(gi);
    ev_->injected(groups_[gi].tag, t + s);
  }
}

// Output `out` is free at t (or busy: its stream's end will call again):
// the next input round robin whose head packet wants it, can use its
// input, and has a buffer slot beyond the link, gets it.
void RouterNoc::arbitrate(std::int32_t out, Tick t) {
  const auto o = static_cast<std::size_t>(out);
  if (out_free_[o] > t) return;
  const std::array<std::int32_t, 5>& in = inputs_[static_cast<std::size_t>(out / MeshLinks::kDirs)];
  const bool to_link = out % MeshLinks::kDirs != MeshLinks::kEject;
  for (int k = 1; k <= 5; ++k) {
    const int s = (rr_[o] + k) % 5;
    if (in[s] < 0) continue;
    const auto il = static_cast<std::size_t>(in[s]);
    const std::int32_t nvc = s == 4 ? 1 : vcs_;
    for (std::int32_t j = 0; j < nvc; ++j) {
      const std::int32_t vc = (vc_rr_[il] + j) % nvc;
      const std::uint32_t wi = head_[fifo(in[s], vc)];
      if (wi == kNone || (owner_[il] != kNone && owner_[il] != wi)) continue;
      const Worm& w = worms_[wi];
      std::uint8_t b = 0;
      while (b < w.branches && (w.br[b].out != out || w.br[b].granted)) ++b;
      if (b == w.branches) continue;
      // The buffer (VC) beyond the link: the emptiest with room.
      std::int32_t dvc = 0;
      if (to_link) {
        for (std::int32_t v = 1; v < vcs_; ++v)
          if (count_[fifo(out, v)] < count_[fifo(out, dvc)]) dvc = v;
        if (buffer_ > 0 && count_[fifo(out, dvc)] >= buffer_) continue;
      }
      rr_[o] = static_cast<std::uint8_t>(s);
      vc_rr_[il] = static_cast<std::uint8_t>((vc + 1) % nvc);
      grant(wi, b, out, dvc, t);
      return;
    }
  }
}

void RouterNoc::grant(std::uint32_t wi, std::uint8_t b, std::int32_t out, std::int32_t dvc,
                      Tick t) {
  Worm& w = worms_[wi];
  Packet& p = packets_pool_[w.packet];
  Branch& br = w.br[b];
  br.granted = true;
  ++w.granted;
  ++w.ending;
  owner_[static_cast<std::size_t>(w.in)] = wi;
  const auto o = static_cast<std::size_t>(out);
  const bool eject = out % MeshLinks::kDirs == MeshLinks::kEject;
  const bool d2d = !eject && is_d2d(out);
  const Tick s = eject ? eject_ser(node_at(w.at), p.bytes)
                       : ser(p.bytes, d2d ? d2d_ps_per_byte_ : ps_per_byte_);
  // Busy for its serialisation, and until its tail has come through.
  const Tick end = std::max(t + s, w.tail_in + hop_);
  out_free_[o] = end;
  push(end, Kind::end, wi, b);
  if (eject) {
    report(w.packet, p.order[br.off], end);
    return;
  }
  busy_[o] += end - t;
  link_bytes_[o] += p.bytes;
  byte_hops_ += p.bytes;
  if (d2d) d2d_byte_hops_ += p.bytes;
  const Tick lat = d2d ? d2d_latency_ : 0;
  const std::uint32_t ci = take(worms_, free_worms_);
  Worm& c = worms_[ci];  // w may have moved
  c = Worm{};
  c.packet = worms_[wi].packet;
  c.in = out;
  c.vc = dvc;
  c.at =
      MeshLinks::next(worms_[wi].at.x, worms_[wi].at.y, static_cast<Dir>(out % MeshLinks::kDirs));
  c.off = worms_[wi].br[b].off;
  c.n = worms_[wi].br[b].n;
  c.tail_in = end + lat;
  ++count_[fifo(out, dvc)];
  ++packets_pool_[c.packet].alive;
  ++in_flight_;
  push(t + lat + hop_, Kind::head, ci);
}

void RouterNoc::report(std::uint32_t pi, std::uint32_t index, Tick t) {
  Packet& p = packets_pool_[pi];
  Arrival a;
  a.tag = p.tag;
  a.dst = p.base + index;
  a.t = t;
  const std::int32_t dst = p.dsts[index];
  const NodePos from = pos(p.src), to = p.at[index];
  a.links = std::abs(to.x - from.x) + std::abs(to.y - from.y);
  if (!d2d_.empty())
    links_.xy_route(from, to, [&](std::int32_t link) { a.d2d_links += is_d2d(link) ? 1 : 0; });
  const Tick ideal =
      p.ready + (a.links + 1) * hop_ + a.d2d_links * d2d_latency_ + eject_ser(dst, p.bytes);
  a.waited = std::max<Tick>(0, t - ideal);
  if (--p.alive == 0) free_packets_.push_back(pi);
  ev_->arrived(a);
}

void RouterNoc::stalled() const {
  std::int64_t queued = 0;
  for (const auto& q : queue_) queued += static_cast<std::int64_t>(q.size());
  throw ModelStall(
      "noc.model \"router\": the routers deadlocked: " + std::to_string(in_flight_ - queued) +
      " packets hold router buffers none of them can leave and " + std::to_string(queued) +
      " wait at their sources (noc.buffer_packets = " + std::to_string(buffer_) +
      ": a multicast fork waits for a slot on each branch while holding its buffer; "
      "noc.buffer_packets 0 or noc.multicast_copies true cannot deadlock)");
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

NocBuilder configure(ParamReader& r) {
  RouterNocParams p;
  p.mesh = read_mesh_noc_params(r);
  p.num_vcs = r.param<std::int32_t>("num_vcs")
                  .unit(Unit::virtual_channels)
                  .range(1, 64)
                  .fallback(1)
                  .describe("virtual channels per router input, each a buffer of buffer_packets")
                  .get();
  p.copies = r.param<bool>("multicast_copies")
                 .fallback(false)
                 .describe(
                     "a multicast packet goes as one unicast per destination, one after the "
                     "other from the source, as booksim2 sends it (for comparing the two)")
                 .get();
  p.flit_bytes = r.param<std::int32_t>("flit_bytes")
                     .unit(Unit::bytes)
                     .range(0, 1 << 20)
                     .fallback(0)
                     .describe(
                         "a link carries whole flits of this many bytes: a packet's time on it is "
                         "its flits' (0: its bytes', as the mesh's)")
                     .get();
  return [p](const NocLayout& l, std::string& error) -> std::unique_ptr<NocModel> {
    // Three words per buffer (link x VC): a bound that keeps them in memory.
    const double buffers = static_cast<double>(l.xlen + 2) * l.ylen *
                           static_cast<int>(MeshLinks::kDirs) * p.num_vcs;
    if (buffers > static_cast<double>(std::int64_t{1} << 28)) {
      error = "parameter \"num_vcs\" of component \"noc\" (NoC model \"router\"): " +
              std::to_string(p.num_vcs) + " VCs on every link of a " + std::to_string(l.xlen) +
              "x" + std::to_string(l.ylen) + " mesh are more buffers than it keeps (2^28)";
      return nullptr;
    }
    for (const NodePos& q : l.ports)
      if ((q.x != -1 && q.x != l.xlen) || q.y < 0 || q.y >= l.ylen) {
        error = "noc.model \"router\": a DRAM port at (" + std::to_string(q.x) + ", " +
                std::to_string(q.y) + ") is not at a row end of the " + std::to_string(l.xlen) +
                "x" + std::to_string(l.ylen) + " mesh";
        return nullptr;
      }
    return std::make_unique<RouterNoc>(p, l);
  };
}

}  // namespace

NocModelInfo router_noc_model() {
  return {"router",
          "2-D mesh of input-queued routers, packet by packet, closed loop: per-VC input "
          "buffers, head-of-line blocking, round-robin outputs, credits, multicast forks",
          configure};
}

}  // namespace gemini::sim
