#pragma once
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
// Reports are made when a packet's last stream is granted, for its end, and
// never before the time of the call that makes them. With unbounded
// buffers a packet is injected when handed over (its source's earlier
// packets alone decide when) and advance(now) runs the events before now +
// router, which no packet handed over from now on can reach (lookahead);
// with finite buffers a source waits for credits, and advance(now) runs
// those before now.
//
// (This header is the model's own: the registry knows it by name only,
// router_noc_config.cpp builds it.)
#include <array>
#include <bit>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "gemini/sim/distribution.h"
#include "gemini/sim/mesh_links.h"
#include "gemini/sim/mesh_noc.h"
#include "gemini/sim/model_stall.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/xy_trees.h"
#include "run_queue.h"
#include "text_format.h"

namespace gemini::sim::router {

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
  void set_events(Events& ev) override { ev_ = &ev; }
  void advance(Tick now, Events& ev) override;
  // Just after the earliest event, the latest time its reports may be made
  // (a packet handed over at its time is in first); advance() then runs the
  // events of the lookahead beyond it too, so that the next is later.
  Tick next_advance() const override { return events_.empty() ? kNever : events_.top_time() + 1; }

  LinkUse router_link_use() const override { return link_use_of(loads(false, false)); }
  LinkUse d2d_link_use() const override { return link_use_of(loads(true, false)); }
  std::vector<LinkLoad> router_link_loads() const override { return loads(false, true); }
  std::vector<LinkLoad> d2d_link_loads() const override { return loads(true, false); }
  std::string link_name(std::int32_t link) const override { return links_.name(link); }
  double peak_link_gbps() const override { return link_gbps_; }
  std::int64_t packets() const override { return counts_.packets; }
  std::int64_t bytes() const override { return counts_.bytes; }
  std::string name() const override { return "router"; }

 protected:
  void add_stats(StatGroup& g) const override {
    counts_.add_to(g);
    g.add("multicast_copies", &copies_sent_, Unit::count,
          "unicast copies sent for multicast packets beyond one per packet");
    g.add_distribution("input_queue", &input_queue_, Unit::packets,
                       "packets ahead in the router input buffer (VC) a packet starts towards");
  }

 private:
  // A packet handed over (one copy with multicast_copies): to one node,
  // routed hop by hop, or to several along its XY tree, pinned while the
  // packet lives (so that its arrays stay put).
  struct Packet {
    std::uint64_t tag = 0;
    std::uint32_t group = 0;  // the handed-over packet whose `injected` it counts to
    std::uint32_t tree = kNone;
    std::int64_t bytes = 0;
    Tick ready = 0;
    std::uint32_t base = 0;  // reported index of its dsts[0] (a copy's)
    // Its arrivals to come: with the last, no packet of it is left that
    // wants an output (what streams on needs nothing of it).
    std::int32_t alive = 0;
    std::int32_t src = 0, dst = 0;        // dst: a unicast's
    std::uint64_t owner = ~std::uint64_t{0};  // NocModel::set_owner's when handed over
    const XyTree::Fork* forks = nullptr;  // a multicast's tree's
    const XyTree::Dest* dests = nullptr;
  };
  struct Group {
    std::uint64_t tag = 0;
    std::int32_t to_inject = 0;
  };
  // A packet in a router's input buffer (link `in`, VC `vc`): it wants
  // the outputs of its branches (directions `dirs`), each streamed once
  // granted: a multicast's forks[first, ...) of its tree; a unicast's next
  // link towards node `first` at `to`. (The packet's bytes and forks are
  // here too: a grant reads no more than this and the branch's fork.)
  //
  // For the critical path: its packet's owner (NocModel::set_owner's), when
  // it came to the head of its buffer, and the longest wait on its way so
  // far (behind a packet in a buffer, or for an output another stream
  // held), its link and that packet's owner.
  struct Wait {
    Tick time = 0;
    std::int32_t link = -1;
    std::uint64_t whose = ~std::uint64_t{0};
  };
  struct Worm {
    std::uint32_t packet = 0, next = kNone;  // next: behind it in its buffer
    std::int32_t in = 0;
    std::uint32_t first = 0;
    Tick ready = 0;    // its head is at this router's input, past its pipeline
    Tick tail_in = 0;  // its tail is at this router's input
    std::int64_t bytes = 0;
    const XyTree::Fork* forks = nullptr;  // null: a unicast
    std::uint64_t owner = ~std::uint64_t{0};
    Tick head_at = 0;
    Wait wait;
    std::uint16_t vc = 0;
    std::uint8_t dirs = 0, branches = 0, granted = 0, ending = 0;
  };
  // Bits set in a set of directions.
  static std::uint8_t bits(std::uint32_t dirs) {
    static constexpr std::uint8_t kBits[64] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                               1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
                                               1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
                                               2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6};
    return kBits[dirs & 63];
  }
  // The direction of the next link of the XY route from router `at` to
  // node `to`, as a set.
  static std::uint8_t step(NodePos at, NodePos to) {
    const std::int32_t d = to.x != at.x   ? (to.x > at.x ? MeshLinks::kEast : MeshLinks::kWest)
                           : to.y != at.y ? (to.y > at.y ? MeshLinks::kSouth : MeshLinks::kNorth)
                                          : MeshLinks::kEject;
    return static_cast<std::uint8_t>(1u << d);
  }
  // The router whose output `link` is.
  NodePos router_pos(std::int32_t link) const {
    const std::int32_t r = link / MeshLinks::kDirs;
    return {r % (xlen_ + 2) - 1, r / (xlen_ + 2)};
  }
  // An event: a source's injection link is free (id: the node), a packet's
  // head is past the router pipeline (id: the worm), a stream from a worm
  // (id) on output `out` ends, or output `id` is free again and an input
  // waits for it (a stream that ended with no event: early_leave_).
  // (8 bytes: the kind is in `out`, an output or kSource, kHead or kWake.)
  enum class Kind : std::uint8_t { source, head, end, wake };
  static constexpr std::int32_t kWake = -3, kSource = -2, kHead = -1;
  struct Ev {
    std::uint32_t id;
    std::int32_t out;
    Kind kind() const {
      return out >= 0         ? Kind::end
             : out == kHead   ? Kind::head
             : out == kSource ? Kind::source
                              : Kind::wake;
    }
  };
  static Ev event(Kind k, std::uint32_t id, std::int32_t out = 0) {
    return {id, k == Kind::source ? kSource
                : k == Kind::head ? kHead
                : k == Kind::wake ? kWake
                                  : out};
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
  // ser() on a router link (the last size asked for, remembered).
  Tick link_ser(std::int64_t bytes) {
    if (bytes != ser_bytes_) {
      ser_bytes_ = bytes;
      ser_ps_ = ser(bytes, ps_per_byte_);
    }
    return ser_ps_;
  }
  Tick eject_ser(std::int32_t node, std::int64_t bytes) const {
    const Tick s = ser(bytes, ps_per_byte_);
    const double r = eject_ps_per_byte_[static_cast<std::size_t>(node)];
    return r > 0 ? std::max(s, ser(bytes, r)) : s;
  }
  void push(Tick t, Ev e) {
    if (t > kTickLimit) past_clock(t);
    events_.push(t, e);
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
  // The outputs the head of buffer f (of incoming link `in`) still wants:
  // asked for (req_) and arbitrated.
  void dirty_wanted(std::int32_t in, std::size_t f) {
    const auto i = static_cast<std::size_t>(in);
    const std::int32_t base = to_router_[i] * MeshLinks::kDirs;
    for (std::uint32_t m = want_[f]; m != 0; m &= m - 1) {
      const std::int32_t out = base + std::countr_zero(m);
      req_[static_cast<std::size_t>(out)] |= slot_bit_[i];
      dirty_output(out);
    }
  }
  // Output o, busy until out_free_, is arbitrated again then: by its
  // stream's end event, or by a wake queued now.
  void wake(std::size_t o) {
    if (wake_[o] >= out_free_[o]) return;
    wake_[o] = out_free_[o];
    push(out_free_[o], event(Kind::wake, static_cast<std::uint32_t>(o)));
  }
  void free_packet(std::uint32_t pi) {
    if (packets_pool_[pi].tree != kNone) trees_.unpin(packets_pool_[pi].tree);
    free_packets_.push_back(pi);
  }

  void apply(const Ev& e);
  void enter(std::uint32_t wi);
  void leave_early(std::uint32_t wi, Tick end);
  void at_head(std::size_t f);
  void leave(std::uint32_t wi);
  void inject(std::int32_t node, Tick t);
  Tick start(std::uint32_t pi, std::int32_t node, Tick t);
  void arbitrate(std::int32_t out, Tick t);
  void grant(std::uint32_t wi, std::int32_t out, std::int32_t dvc, Tick t);
  void report(std::uint32_t pi, std::int32_t dst, Tick t, const Wait& wait);
  void stalled() const;
  std::vector<LinkLoad> loads(bool d2d, bool all) const;

  std::int32_t xlen_, ylen_;
  MeshLinks links_;
  XyTrees trees_;
  double link_gbps_, ps_per_byte_, d2d_ps_per_byte_;
  Tick hop_, d2d_latency_ = 0;
  // With unbounded buffers a source injects as its own packets let it, so
  // a packet handed over at t meets others from t + router on: advance()
  // runs that far ahead (with finite buffers, injection waits for credits).
  Tick lookahead_ = 0;
  // With unbounded buffers and one VC, a packet whose last stream out of a
  // buffer is granted with none behind it leaves the buffer at its grant,
  // not at an event when the stream ends: who comes later into the buffer
  // waits for `gone_until_` (behind `gone_owner_`'s packet), who wants the
  // output while it streams queues a wake for it. (With credits, or with
  // other VCs sharing the input, its end must free them at its time.)
  bool early_leave_ = false;
  std::int32_t buffer_, vcs_;
  bool copies_;
  std::int64_t flit_;  // 0: packets serialise byte by byte
  std::int64_t ser_bytes_ = -1;  // link_ser()'s
  Tick ser_ps_ = 0;
  std::vector<std::int32_t> port_nodes_;
  std::vector<std::uint8_t> d2d_;
  std::vector<double> eject_ps_per_byte_;  // per node
  // Per node: its source queue and when its injection link is free.
  std::vector<std::deque<std::uint32_t>> queue_;
  std::vector<Tick> inject_free_;
  // Per link as an output: free from, its arbiter's last grant (an input
  // slot), busy time and bytes; as an input: the router it enters, the
  // packet feeding an output (kNone: none), its VC arbiter's last grant.
  std::vector<Tick> out_free_, busy_, wake_;
  std::vector<std::int64_t> link_bytes_;
  std::vector<std::uint8_t> rr_, vc_rr_;
  std::vector<std::int32_t> to_router_;
  std::vector<std::uint64_t> holder_;  // per output: the owner of its last stream
  std::vector<std::uint32_t> owner_;
  // Per buffer (link x VC): its head and tail packets, the packets in it
  // or on their way into it (the credits taken), the packets in it, and
  // the outputs (bit: direction) its head still wants.
  std::vector<std::uint32_t> head_, tail_;
  std::vector<std::int32_t> count_, len_;
  std::vector<std::uint8_t> want_;
  // Per output: the input slots (bits, inputs_' order) whose head packet
  // wants it (read with one VC only: arbitrate() clears a slot's bit when
  // it grants its packet); per incoming link, its slot's bit.
  std::vector<std::uint8_t> req_, slot_bit_;
  std::vector<Tick> gone_until_;  // early_leave_'s, per buffer
  std::vector<std::uint64_t> gone_owner_;
  std::vector<std::uint8_t> out_dirty_, node_dirty_;
  std::vector<std::int32_t> dirty_outs_, dirty_nodes_;
  // Per router: its inputs (incoming links) from the west, east, north,
  // south and its node; -1 where there is none.
  std::vector<std::array<std::int32_t, 5>> inputs_;
  RunQueue<Ev> events_;
  Events* ev_ = nullptr;  // set_events()'s, advance()'s
  Tick now_ = 0;          // the last advance()'s
  Tick t_ = 0;            // the time of the events being applied (after advance(): its horizon - 1)
  std::vector<Packet> packets_pool_;
  std::vector<Group> groups_;
  std::vector<Worm> worms_;
  std::vector<std::uint32_t> free_packets_, free_groups_, free_worms_;
  std::int64_t in_flight_ = 0;  // packets queued at sources or in buffers
  NocCounters counts_;
  std::int64_t copies_sent_ = 0;
  Distribution input_queue_;
};

}  // namespace gemini::sim::router
