#pragma once
// The 2-D mesh NoC timing model (docs/timing-model.md, "NoC"). Plain C++ in
// integer picoseconds; the NoC module of the simulator calls it once per
// packet, in injection-time order.
//
// Nodes are the cores (id = y * xlen + x) and the DRAM ports (west port of
// row y at x = -1, east port at x = xlen). Every node has an injection and an
// ejection link to its router; routers are joined by one link per direction.
// Routing is XY (dimension order, X first). A packet is cut through: its
// header takes `router_ps` per router and each link it crosses is busy for
// the packet's serialisation time, first come first served in injection
// order (a packet reserves its route when injected).
// Zero-load latency of a packet of b bytes over h hops:
//   (h + 1) * router_ps + ser(b),   ser(b) = ceil(b * 1000 / link_gbps) ps.
//
// Chiplets (set_chiplets, docs/chiplets.md): a link between two dies of the
// cut, or (io_die) between a DRAM port and a cut mesh, is a die-to-die link:
// it serialises at its own rate, and its header takes d2d_latency beyond
// the router's. Where a packet moves from a slow link to a faster one its
// tail cannot leave before it has arrived: a link is busy from the packet's
// start until max(start + ser, the tail's arrival + router_ps). With one
// rate this is start + ser, so a monolithic mesh is timed as before.
//
// Buffers: with buffer_packets = 0 a router's input buffers are unbounded (a
// congested link delays the packets queued for it and nothing else). With
// B > 0 each input buffer (one per incoming link, the injection link's
// included) holds B packets: a packet may start on a link only once the B-th
// packet before it on that link has left the buffer at the link's end (its
// tail has gone out on its next link, or on every branch of a multicast
// fork). A blocked packet keeps its place, so the stall spreads back link by
// link to the source: credit-based backpressure. Ejection links feed the
// node, which always accepts.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gemini/sim/mesh_links.h"
#include "gemini/sim/model_stall.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/stats.h"
#include "gemini/sim/xy_trees.h"

namespace gemini::sim {

// The mesh's parameters (noc.link_gbps, router_cycles, buffer_packets),
// declared once: the booksim2 model reads the same three with the same
// meaning, so that switching noc.model keeps the configuration.
struct MeshNocParams {
  double link_gbps = 24;
  std::int32_t router_cycles = 2;
  std::int32_t buffer_packets = 0;
};
MeshNocParams read_mesh_noc_params(ParamReader& r);

// The mesh NoC model, registered as "mesh" (noc_model.cpp; its parameters
// link_gbps, router_cycles and buffer_packets are declared in mesh_noc.cpp).
class MeshNoc final : public NocModel {
 public:
  // fill_gaps (unbounded buffers only): a packet may take a link in an idle
  // interval before packets reserved earlier, where it ends before the next
  // of them begins; otherwise a link serves packets in the order they were
  // sent.
  MeshNoc(std::int32_t xlen, std::int32_t ylen, double link_gbps, Tick router_ps,
          std::int32_t buffer_packets = 0, bool fill_gaps = false);

  std::int32_t core_count() const { return xlen_ * ylen_; }
  // Node ids: cores first, then the ends of the rows (2 per row: west,
  // east), where DRAM ports may sit.
  std::int32_t edge_node(std::int32_t row, bool east) const {
    return core_count() + 2 * row + (east ? 1 : 0);
  }
  // The DRAM ports, in order: each at a row end (x = -1 or x = xlen, 0 <= y
  // < ylen; anything else is an internal error).
  void place_ports(const std::vector<NodePos>& ports);
  // Cuts the mesh into x_cut x y_cut dies (each dividing its side), the
  // ports' links being D2D links too with io_die (NocLayout).
  void set_chiplets(std::int32_t x_cut, std::int32_t y_cut, bool io_die, double d2d_gbps,
                    Tick d2d_latency);
  // A multicast packet goes as one unicast per destination, each sent
  // when the one before has left the source (booksim2's way: it has no
  // multicast), instead of along the XY tree.
  void set_multicast_copies(bool on) { copies_ = on; }
  std::int32_t port_node(std::int32_t port) const override {
    return port_nodes_[static_cast<std::size_t>(port)];
  }
  NodePos pos(std::int32_t node) const;
  std::int32_t hops(std::int32_t src, std::int32_t dst) const;
  Tick serialisation(std::int64_t bytes) const;

  // The rate at which `node` takes packets off its ejection link, in ps per
  // byte (0: the link's rate); a packet ejects in max(ser(b), b * rate).
  void set_eject_ps_per_byte(std::int32_t node, double ps_per_byte) override {
    eject_ps_per_byte_[static_cast<std::size_t>(node)] = ps_per_byte;
    slowest_ps_per_byte_ = std::max(slowest_ps_per_byte_, ps_per_byte);
  }

  // Sends one packet, injected no earlier than `t`.
  Timing send(Tick t, std::int32_t src, std::int32_t dst, std::int64_t bytes) override;
  // Sends one packet to every node of `dsts` (distinct, none `src`) along
  // the XY tree: the union of the XY routes, forked at the routers where
  // they part, each link of the tree crossed once. arrived[i] is when the
  // tail is at dsts[i]; `injected` when the source may send the next.
  MulticastTiming multicast(Tick t, std::int32_t src, const std::vector<std::int32_t>& dsts,
                            std::int64_t bytes) override {
    MulticastMemo memo;
    MulticastTiming out;
    multicast_stream(t, src, dsts, bytes, memo, out);
    return out;
  }
  // `memo` remembers the stream's tree (one destination: no tree, the
  // packet crossed as send() crosses it); out.arrived keeps its capacity.
  void multicast_stream(Tick t, std::int32_t src, const std::vector<std::int32_t>& dsts,
                        std::int64_t bytes, MulticastMemo& memo, MulticastTiming& out) override;

  LinkUse router_link_use() const override { return link_use(false); }
  // "(x,y)->(x',y')", a router's injection or ejection link "(x,y) in/out".
  std::string link_name(std::int32_t link) const override;
  LinkUse d2d_link_use() const override { return link_use(true); }
  std::vector<LinkLoad> d2d_link_loads() const override;
  double peak_link_gbps() const override { return link_gbps_; }
  std::vector<LinkLoad> router_link_loads() const override;
  std::int64_t packets() const override { return counts_.packets; }
  std::int64_t bytes() const override { return counts_.bytes; }
  std::string name() const override { return "mesh"; }
  // Registers the NoC's counters (packets, bytes) in `g`.
  void add_stats(StatGroup& g) const override { counts_.add_to(g); }

 private:
  using Dir = MeshLinks::Dir;
  // Reserves `link` for a packet whose header is there at `head`: it
  // starts when the link and its downstream buffer are free and is busy
  // for `ser`, and at least until `min_end` (its tail's arrival). Returns
  // the end.
  // A wait for a link another owner held (set_owner) adds to `wait_` (and
  // its longest to its link and whose). Inlined: the per-link step of every
  // packet (send, multicast).
  [[gnu::always_inline]] inline Tick cross(std::int32_t link, Tick head, Tick ser, Tick& start,
                                           Tick min_end = 0);
  [[gnu::noinline]] void note_wait(std::int32_t link, Tick waited, std::uint64_t whose);
  // send() with now_ left as it is (one packet, injected no earlier than `t`):
  // a multicast's copies go at their source's later times, and now_ (the
  // time every later head is at or after) must stay the caller's.
  Timing unicast(Tick t, std::int32_t src, std::int32_t dst, std::int64_t bytes);
  // cross() with fill_gaps: the earliest idle interval of the link's
  // reservations from `head` on that holds the packet whole.
  [[gnu::noinline]] Tick cross_gap(std::int32_t link, Tick head, Tick ser, Tick& start,
                                   Tick min_end);
  struct Wait {
    Tick total = 0, longest = 0;
    std::int32_t link = -1;
    std::uint64_t whose = ~std::uint64_t{0};
  } wait_;
  bool is_d2d(std::int32_t link) const {
    return !d2d_.empty() && d2d_[static_cast<std::size_t>(link)] != 0;
  }
  // A packet of `bytes` over a D2D link, given its on-chip ser(bytes) (the
  // same when the mesh is one die).
  Tick d2d_ser(std::int64_t bytes, Tick ser) const {
    return d2d_.empty() ? ser : ceil_tick(static_cast<double>(bytes) * d2d_ps_per_byte_ - 1e-9);
  }
  // A D2D link crossed by a packet of `bytes`: counted for the report and
  // the packet's timing; returns its flight latency.
  Tick cross_d2d(std::int32_t link, std::int64_t bytes, std::int32_t& d2d_links) {
    ++d2d_links;
    d2d_bytes_[static_cast<std::size_t>(link)] += bytes;
    return d2d_latency_;
  }
  LinkUse link_use(bool d2d) const;
  // Buffers: when the packet that entered link's downstream buffer B
  // packets ago has left it (0 when unbounded or not yet B packets), and the
  // record of the current packet's leaving.
  Tick buffer_free(std::int32_t link) const {
    return buffer_ == 0 ? 0 : left_[static_cast<std::size_t>(link) * buffer_ + slot_[link]];
  }
  void buffer_leave(std::int32_t link, Tick t);
  // A packet's serialisation on the ejection link into `node`.
  Tick eject_ser(std::int32_t node, std::int64_t bytes, Tick ser) const {
    const double r = eject_ps_per_byte_[static_cast<std::size_t>(node)];
    return r > 0 ? std::max(ser, ceil_tick(static_cast<double>(bytes) * r - 1e-9)) : ser;
  }
  // When the source may inject after the packet that has just crossed the
  // injection link `link` (started at `start`).
  Tick next_injection(std::int32_t link, Tick start, Tick ser) const {
    return std::max(start + ser, buffer_free(link));
  }
  // The links of the XY route from a to b after the injection link, the
  // ejection link last.
  void route(NodePos a, NodePos b, std::vector<std::int32_t>& links) const;

  // fill_gaps: per link, its reservations in time order (those from
  // slot_first_ on can still matter: they end after now_, the time of the
  // latest send() or multicast, and every later head is at or after it).
  struct Slot {
    Tick start, end;
    std::uint64_t owner;
  };
  bool fill_gaps_;
  bool copies_ = false;  // set_multicast_copies
  Tick now_ = 0;
  std::vector<std::vector<Slot>> slots_;
  std::vector<std::uint32_t> slot_first_;
  std::int32_t xlen_, ylen_;
  MeshLinks links_;                       // the numbering and naming of the links
  XyTrees trees_;                         // the multicast trees
  std::vector<std::int32_t> port_nodes_;  // per DRAM port
  double link_gbps_, ps_per_byte_;
  Tick router_ps_;
  std::int32_t buffer_;                    // packets per input buffer; 0: unbounded
  std::vector<Tick> left_;                 // per link, B slots: when each packet left
  std::vector<std::int32_t> slot_;         // per link: its oldest slot
  std::vector<double> eject_ps_per_byte_;  // per node
  std::vector<Tick> free_;                 // per link: when it is next free
  std::vector<Tick> busy_;                 // per link: total busy time
  std::vector<std::uint64_t> holder_;      // per link: the owner of its last packet
  // Scratch: a route's links; multicast's per-link start, end and when the
  // packet has left each link's downstream buffer (on every branch), by
  // index in its tree.
  std::vector<std::int32_t> path_;
  std::vector<Tick> tree_start_, tree_end_, tree_left_;
  std::vector<std::uint8_t> d2d_;        // per link: a die-to-die link (empty: none)
  std::vector<std::int64_t> d2d_bytes_;  // per link: bytes over it (D2D links only)
  double d2d_ps_per_byte_ = 0;
  // The slowest rate a packet meets (links, D2D links, ejection), for the
  // clock's check (check_clock).
  double slowest_ps_per_byte_ = 0;
  // A packet of `bytes` sent at `t` whose times would pass the simulator's
  // clock (model_stall.h) is a ModelStall: its serialisation alone, before
  // it is computed (a double past 2^63 does not convert to a Tick), and its
  // arrival `end` after.
  void check_clock(Tick t, std::int64_t bytes) const {
    const double end = static_cast<double>(t) + static_cast<double>(bytes) * slowest_ps_per_byte_;
    if (end > static_cast<double>(kTickLimit))
      past_clock("a packet of " + std::to_string(bytes) + " bytes sent at " + std::to_string(t) +
                     " ps",
                 end);
  }
  void check_arrival(Tick end) const {
    if (end > kTickLimit) past_clock("a packet's arrival", static_cast<double>(end));
  }
  [[noreturn]] void past_clock(const std::string& what, double t) const;
  Tick d2d_latency_ = 0;
  NocCounters counts_;
};

}  // namespace gemini::sim
