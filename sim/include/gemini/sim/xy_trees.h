#pragma once
// The XY multicast trees of a mesh (mesh_links.h): from a source to each of
// its destinations, the union of their XY routes, each link once. Built once
// per (src, dsts) and kept in a cache for the packets sent along it again:
// the mesh model (mesh_noc.h) crosses a tree's links in order, the router
// model (router_noc.cpp) forks a packet at each link into its children.
//
// Contract: a tree found stays valid until the next find(), or, pinned,
// until it is unpinned; a MulticastMemo names a tree while it is valid (its
// generation is the tree's), so a stream of packets finds its tree without
// hashing. The cache holds at most kEntries trees (direct-mapped by a hash
// of (src, dsts)) of kLinks links in all, beyond those pinned.

#include <cstdint>
#include <vector>

#include "gemini/sim/mesh_links.h"
#include "gemini/sim/noc_model.h"

namespace gemini::sim {

struct XyTree {
  struct Link {
    std::int32_t link = 0;
    std::int32_t parent = -1;  // index of the link before it on its routes; -1: the injection link
    std::int32_t dst = -1;     // an ejection link: its destination's index in dsts, else -1
    bool d2d = false;
    bool parent_d2d = false;  // its parent is a D2D link
  };
  // A link of the tree where a packet forks into its children (the links
  // whose parent it is): forks[first_child, first_child +
  // popcount(child_dirs)), by direction; bit d of child_dirs: one goes in
  // direction d (MeshLinks::Dir).
  struct Fork {
    std::int32_t link = 0;
    std::int32_t dst = -1;  // as Link's
    std::uint32_t first_child = 0;
    std::uint8_t child_dirs = 0;
    bool d2d = false;
  };
  // A destination: its node; the router-to-router links of its route and
  // the D2D links among them; the links its route added to the tree (first
  // crossed on its way: they sum to router_links) and the D2D links among
  // those.
  struct Dest {
    std::int32_t node = 0;
    std::int32_t route_links = 0, route_d2d = 0, first_links = 0, first_d2d = 0;
  };
  std::uint64_t generation = 0;  // a number no other tree built has had; 0: none
  std::int32_t src = 0;
  std::vector<std::int32_t> dsts;
  std::vector<Dest> dests;  // per destination
  std::int32_t inject = 0;  // the source's injection link
  // Each destination's route in turn, the links an earlier route crossed
  // skipped: every link after its parent.
  std::vector<Link> links;
  std::vector<std::int32_t> ejects;  // per destination: the index of its ejection link
  std::int32_t router_links = 0;     // its links that are not ejection links
  // With XyTrees' `forks`: the links as forks, breadth first: the
  // injection link's children (directions root_dirs), then each fork's
  // children together.
  std::vector<Fork> forks;
  std::uint8_t root_dirs = 0;
};

class XyTrees {
 public:
  static constexpr std::size_t kEntries = 4096, kLinks = std::size_t{1} << 20;

  // forks: build each tree's forks too.
  XyTrees(std::int32_t xlen, std::int32_t ylen, bool forks = false);
  // Per link: 1 on a die-to-die link (MeshLinks::d2d_flags; empty: none).
  // Empties the cache (nothing may be pinned).
  void set_d2d(std::vector<std::uint8_t> d2d);
  // The tree of (src, dsts) (dsts distinct, none src): memo's while valid,
  // else the cache's or built; memo then names it.
  std::uint32_t find(std::int32_t src, const std::vector<std::int32_t>& dsts,
                     NocModel::MulticastMemo& memo);
  const XyTree& operator[](std::uint32_t i) const { return trees_[i]; }
  void pin(std::uint32_t i) { ++pins_[i]; }
  void unpin(std::uint32_t i) {
    if (--pins_[i] == 0 && !cached_[i]) release(i);
  }

 private:
  void build(std::int32_t src, const std::vector<std::int32_t>& dsts, XyTree& t);
  void build_forks(XyTree& t);
  void release(std::uint32_t i);
  std::uint32_t fresh();

  MeshLinks links_;
  bool forks_;
  std::vector<std::uint8_t> d2d_;
  std::vector<XyTree> trees_;
  std::vector<std::int32_t> pins_;
  std::vector<std::uint8_t> cached_;  // in an entry
  std::vector<std::uint32_t> entry_;  // per entry: 1 + its tree's index (0: none)
  std::vector<std::uint32_t> free_;   // trees neither cached nor pinned
  std::size_t links_held_ = 0;        // by the trees not free
  std::uint64_t generation_ = 0;
  // build's scratch: per link its index in the tree (or -1), a route, per
  // parent where its children start, the links by parent.
  std::vector<std::int32_t> at_, path_, start_;
  std::vector<std::uint32_t> children_, order_;
};

}  // namespace gemini::sim
