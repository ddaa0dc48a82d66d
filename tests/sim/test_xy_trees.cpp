// The XY multicast trees' cache (xy_trees.h) -- a tree's links, forks and
// per-destination counts on a small mesh, a pinned tree kept intact while
// thousands of others pass through the cache -- and the radix queue the
// router model runs its events on (sim/src/radix_queue.h): the order of a
// binary heap, on random times.
#include <gtest/gtest.h>

#include <cstdint>
#include <queue>
#include <random>
#include <vector>

#include "gemini/sim/mesh_links.h"
#include "gemini/sim/xy_trees.h"
#include "radix_queue.h"

namespace gemini::sim {
namespace {

TEST(XyTrees, ATreeIsTheUnionOfItsRoutesForkedByDirection) {
  // 3x2 mesh, core 0 (0,0) to cores 2 (2,0) and 4 (1,1): the links
  // (0,0)->(1,0), (1,0)->(2,0), eject at 2; (1,0)->(1,1), eject at 4.
  XyTrees trees(3, 2);
  NocModel::MulticastMemo memo;
  const XyTree& t = trees[trees.find(0, {2, 4}, memo)];
  const MeshLinks links(3, 2);
  ASSERT_EQ(t.links.size(), 5u);
  EXPECT_EQ(t.router_links, 3);
  EXPECT_EQ(t.links[0].link, links.link(0, 0, MeshLinks::kEast));
  EXPECT_EQ(t.links[3].link, links.link(1, 0, MeshLinks::kSouth));
  EXPECT_EQ(t.links[3].parent, 0);
  EXPECT_EQ(t.links[t.ejects[1]].dst, 1);
  EXPECT_EQ(t.dests[0].route_links, 2);
  EXPECT_EQ(t.dests[1].route_links, 2);
  EXPECT_EQ(t.dests[0].first_links + t.dests[1].first_links, t.router_links);
  EXPECT_TRUE(t.forks.empty());  // not asked for

  XyTrees forking(3, 2, true);
  const XyTree& f = forking[forking.find(0, {2, 4}, memo)];
  EXPECT_EQ(f.root_dirs, 1u << MeshLinks::kEast);
  ASSERT_EQ(f.forks.size(), 5u);
  // Breadth first: (0,0) east; at (1,0) east then south (by direction).
  const XyTree::Fork& at10 = f.forks[0];
  EXPECT_EQ(at10.child_dirs, (1u << MeshLinks::kEast) | (1u << MeshLinks::kSouth));
  EXPECT_EQ(f.forks[at10.first_child].link, links.link(1, 0, MeshLinks::kEast));
  EXPECT_EQ(f.forks[at10.first_child + 1].link, links.link(1, 0, MeshLinks::kSouth));
  const XyTree::Fork& to4 = f.forks[at10.first_child + 1];
  EXPECT_EQ(to4.child_dirs, 1u << MeshLinks::kEject);
  EXPECT_EQ(f.forks[to4.first_child].dst, 1);
}

TEST(XyTrees, APinnedTreeStaysAsItIsWhileOthersTakeItsEntry) {
  // 4x4: every (source, pair of destinations) -- 16 x 120 trees, more than
  // the cache's entries, so that some replace the pinned tree's entry.
  XyTrees trees(4, 4, true);
  NocModel::MulticastMemo memo;
  const std::uint32_t i = trees.find(0, {5, 15}, memo);
  trees.pin(i);
  const XyTree kept = trees[i];
  for (std::int32_t s = 0; s < 16; ++s)
    for (std::int32_t a = 0; a < 16; ++a)
      for (std::int32_t b = a + 1; b < 16; ++b) {
        if (a == s || b == s) continue;
        NocModel::MulticastMemo m;
        const XyTree& t = trees[trees.find(s, {a, b}, m)];
        ASSERT_EQ(t.src, s);
        ASSERT_EQ(t.dsts, (std::vector<std::int32_t>{a, b}));
      }
  const XyTree& now = trees[i];
  EXPECT_EQ(now.generation, kept.generation);
  EXPECT_EQ(now.dsts, kept.dsts);
  ASSERT_EQ(now.forks.size(), kept.forks.size());
  for (std::size_t k = 0; k < now.forks.size(); ++k)
    EXPECT_EQ(now.forks[k].link, kept.forks[k].link);
  // Its memo still names it; once unpinned and replaced it does not.
  EXPECT_EQ(trees.find(0, {5, 15}, memo), i);
  trees.unpin(i);
}

TEST(RadixQueue, PopsInTheOrderOfABinaryHeap) {
  std::mt19937_64 rng(7);
  RadixQueue<std::uint32_t> q;
  std::priority_queue<Tick, std::vector<Tick>, std::greater<>> ref;
  Tick now = 0;
  for (int round = 0; round < 20000; ++round) {
    const int pushes = static_cast<int>(rng() % 4);
    for (int k = 0; k < pushes; ++k) {
      // Mostly near, sometimes far, sometimes now.
      const std::uint64_t r = rng();
      const Tick t = now + static_cast<Tick>(r % 3 == 0   ? 0
                                             : r % 5 == 0 ? r % (1u << 30)
                                                          : r % 2000);
      q.push(t, static_cast<std::uint32_t>(k));
      ref.push(t);
    }
    if (!ref.empty() && rng() % 2) {
      ASSERT_EQ(q.top_time(), ref.top());
      now = ref.top();
      q.pop();
      ref.pop();
    }
    ASSERT_EQ(q.size(), ref.size());
  }
  while (!ref.empty()) {
    ASSERT_EQ(q.top_time(), ref.top());
    q.pop();
    ref.pop();
  }
  EXPECT_TRUE(q.empty());
}

}  // namespace
}  // namespace gemini::sim
