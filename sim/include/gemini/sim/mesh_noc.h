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
// order (a packet reserves its route when injected; buffers are unbounded).
// Zero-load latency of a packet of b bytes over h hops:
//   (h + 1) * router_ps + ser(b),   ser(b) = ceil(b * 1000 / link_gbps) ps.

#include <cstdint>
#include <vector>

#include "gemini/sim/dram_model.h"

namespace gemini::sim {

struct NodePos {
  std::int32_t x = 0, y = 0;
};

class MeshNoc {
 public:
  MeshNoc(std::int32_t xlen, std::int32_t ylen, double link_gbps, Tick router_ps);

  std::int32_t core_count() const { return xlen_ * ylen_; }
  // Node ids: cores first, then DRAM ports (2 per row: west, east).
  std::int32_t port_node(std::int32_t row, bool east) const {
    return core_count() + 2 * row + (east ? 1 : 0);
  }
  NodePos pos(std::int32_t node) const;
  std::int32_t hops(std::int32_t src, std::int32_t dst) const;
  Tick serialisation(std::int64_t bytes) const;

  struct Timing {
    Tick injected;  // the packet has left the source (the next may follow)
    Tick arrived;   // its tail is at the destination
  };
  // Sends one packet, injected no earlier than `t`.
  Timing send(Tick t, std::int32_t src, std::int32_t dst, std::int64_t bytes);
  // Sends one packet to every node of `dsts` (distinct, none `src`) along
  // the XY tree: the union of the XY routes, forked at the routers where
  // they part, each link of the tree crossed once. arrived[i] is when the
  // tail is at dsts[i]; `injected` when the source may send the next.
  struct MulticastTiming {
    Tick injected = 0;
    std::vector<Tick> arrived;
  };
  MulticastTiming multicast(Tick t, std::int32_t src, const std::vector<std::int32_t>& dsts,
                            std::int64_t bytes);

  // Statistics over the links between routers (not injection/ejection).
  struct LinkUse {
    Tick max_busy = 0;
    NodePos max_from, max_to;  // the busiest link (first of equals)
    double mean_busy = 0;
    std::int32_t links = 0;
  };
  LinkUse router_link_use() const;
  std::int64_t packets() const { return packets_; }
  std::int64_t bytes() const { return bytes_; }

 private:
  enum Dir : std::int32_t { kEast, kWest, kNorth, kSouth, kInject, kEject, kDirs };
  std::int32_t router(std::int32_t x, std::int32_t y) const { return y * (xlen_ + 2) + (x + 1); }
  Tick cross(std::int32_t link, Tick head, Tick ser, Tick& start);
  // The links of the XY route from a to b after the injection link, the
  // ejection link last.
  void route(NodePos a, NodePos b, std::vector<std::int32_t>& links) const;

  std::int32_t xlen_, ylen_;
  double ps_per_byte_;
  Tick router_ps_;
  std::vector<Tick> free_;  // per link: when it is next free
  std::vector<Tick> busy_;  // per link: total busy time
  // Scratch: a route's links; multicast's per-link start in the current
  // tree (or -1) and the links it set.
  std::vector<std::int32_t> path_, tree_links_;
  std::vector<Tick> tree_start_;
  std::int64_t packets_ = 0, bytes_ = 0;
};

}  // namespace gemini::sim
