// The XY multicast trees' cache (xy_trees.h).
#include "gemini/sim/xy_trees.h"

#include <algorithm>
#include <utility>

namespace gemini::sim {

XyTrees::XyTrees(std::int32_t xlen, std::int32_t ylen, bool forks)
    : links_(xlen, ylen), forks_(forks), entry_(kEntries, 0), at_(links_.count(), -1) {}

void XyTrees::set_d2d(std::vector<std::uint8_t> d2d) {
  d2d_ = std::move(d2d);
  trees_.clear();
  pins_.clear();
  cached_.clear();
  free_.clear();
  entry_.assign(kEntries, 0);
  links_held_ = 0;
}

std::uint32_t XyTrees::find(std::int32_t src, const std::vector<std::int32_t>& dsts,
                            NocModel::MulticastMemo& memo) {
  if (memo.generation != 0 && memo.index < trees_.size() &&
      trees_[memo.index].generation == memo.generation)
    return memo.index;
  std::uint64_t h = (0xcbf29ce484222325u ^ static_cast<std::uint32_t>(src)) * 0x100000001b3u;
  for (const std::int32_t d : dsts) h = (h ^ static_cast<std::uint32_t>(d)) * 0x100000001b3u;
  h ^= h >> 31;  // the low bits pick the entry
  h *= 0x7fb5d329728ea185u;
  h ^= h >> 27;
  if (links_held_ > kLinks) {  // the cache lets go of every tree
    for (std::uint32_t i = 0; i < trees_.size(); ++i)
      if (cached_[i]) {
        cached_[i] = 0;
        if (pins_[i] == 0) release(i);
      }
    entry_.assign(kEntries, 0);
  }
  std::uint32_t& entry = entry_[h % kEntries];
  if (entry != 0) {
    const std::uint32_t i = entry - 1;
    XyTree& t = trees_[i];
    if (t.src != src || t.dsts != dsts) {
      if (pins_[i] == 0) {  // rebuilt in its place
        links_held_ -= t.links.size();
        build(src, dsts, t);
        links_held_ += t.links.size();
      } else {  // it leaves the cache when unpinned
        cached_[i] = 0;
        entry = 0;
      }
    }
  }
  if (entry == 0) {
    const std::uint32_t i = fresh();
    build(src, dsts, trees_[i]);
    links_held_ += trees_[i].links.size();
    cached_[i] = 1;
    entry = i + 1;
  }
  memo.index = entry - 1;
  memo.generation = trees_[memo.index].generation;
  return memo.index;
}

std::uint32_t XyTrees::fresh() {
  if (!free_.empty()) {
    const std::uint32_t i = free_.back();
    free_.pop_back();
    return i;
  }
  trees_.emplace_back();
  pins_.push_back(0);
  cached_.push_back(0);
  return static_cast<std::uint32_t>(trees_.size() - 1);
}

// Its memory goes too: a large mesh's trees are large.
void XyTrees::release(std::uint32_t i) {
  links_held_ -= trees_[i].links.size();
  trees_[i] = XyTree{};
  free_.push_back(i);
}

void XyTrees::build(std::int32_t src, const std::vector<std::int32_t>& dsts, XyTree& t) {
  const NodePos s = links_.node_pos(src);
  auto d2d = [&](std::int32_t link) {
    return !d2d_.empty() && d2d_[static_cast<std::size_t>(link)] != 0;
  };
  t.generation = ++generation_;
  t.src = src;
  t.dsts = dsts;
  t.inject = links_.link(s.x, s.y, MeshLinks::kInject);
  t.links.clear();
  t.ejects.clear();
  t.dests.clear();
  t.router_links = 0;
  for (std::size_t i = 0; i < dsts.size(); ++i) {
    const NodePos d = links_.node_pos(dsts[i]);
    path_.clear();
    links_.xy_route(s, d, [&](std::int32_t link) { path_.push_back(link); });
    path_.push_back(links_.link(d.x, d.y, MeshLinks::kEject));
    std::int32_t parent = -1, route_d2d = 0, first = 0, first_d2d = 0;
    for (const std::int32_t link : path_) {
      const bool eject = link == path_.back();
      route_d2d += !eject && d2d(link) ? 1 : 0;
      std::int32_t& at = at_[static_cast<std::size_t>(link)];
      if (at < 0) {
        at = static_cast<std::int32_t>(t.links.size());
        t.links.push_back({link, parent, eject ? static_cast<std::int32_t>(i) : -1, d2d(link),
                           parent >= 0 && t.links[static_cast<std::size_t>(parent)].d2d});
        if (!eject) {
          ++first;
          first_d2d += d2d(link) ? 1 : 0;
        }
      }
      parent = at;
    }
    t.ejects.push_back(parent);
    t.dests.push_back(
        {dsts[i], static_cast<std::int32_t>(path_.size()) - 1, route_d2d, first, first_d2d});
    t.router_links += first;
  }
  for (const XyTree::Link& l : t.links) at_[static_cast<std::size_t>(l.link)] = -1;
  if (forks_) build_forks(t);
}

// Children by parent (a counting sort), each parent's by direction; then
// breadth first from the injection link.
void XyTrees::build_forks(XyTree& t) {
  const std::size_t n = t.links.size();
  start_.assign(n + 2, 0);  // per parent + 1: where its children start
  for (const XyTree::Link& l : t.links) ++start_[static_cast<std::size_t>(l.parent + 2)];
  for (std::size_t k = 1; k < n + 2; ++k) start_[k] += start_[k - 1];
  children_.resize(n);
  for (std::size_t e = 0; e < n; ++e)
    children_[static_cast<std::size_t>(start_[static_cast<std::size_t>(t.links[e].parent + 1)]++)] =
        static_cast<std::uint32_t>(e);
  // (Each start moved on to the next's: parent p's children end at
  // start_[p + 1], begin at start_[p], or 0 for the injection link's.)
  auto dir = [&](std::uint32_t e) { return t.links[e].link % MeshLinks::kDirs; };
  auto dirs_of = [&](std::size_t begin, std::size_t end) {
    std::sort(children_.begin() + static_cast<std::ptrdiff_t>(begin),
              children_.begin() + static_cast<std::ptrdiff_t>(end),
              [&](std::uint32_t a, std::uint32_t b) { return dir(a) < dir(b); });
    std::uint32_t dirs = 0;
    for (std::size_t c = begin; c < end; ++c) dirs |= 1u << dir(children_[c]);
    return static_cast<std::uint8_t>(dirs);
  };
  t.forks.clear();
  t.root_dirs = dirs_of(0, static_cast<std::size_t>(start_[0]));
  order_.clear();
  for (std::size_t c = 0; c < static_cast<std::size_t>(start_[0]); ++c)
    order_.push_back(children_[c]);
  for (std::size_t i = 0; i < order_.size(); ++i) {  // order_ grows: breadth first
    const std::uint32_t e = order_[i];
    const XyTree::Link& l = t.links[e];
    const auto begin = static_cast<std::size_t>(start_[e]),
               end = static_cast<std::size_t>(start_[e + 1]);
    XyTree::Fork f;
    f.link = l.link;
    f.dst = l.dst;
    f.d2d = l.d2d;
    f.first_child = static_cast<std::uint32_t>(order_.size());
    f.child_dirs = dirs_of(begin, end);
    for (std::size_t c = begin; c < end; ++c) order_.push_back(children_[c]);
    t.forks.push_back(f);
  }
}

}  // namespace gemini::sim
