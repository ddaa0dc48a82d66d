// The XY multicast trees' cache (xy_trees.h) -- a tree's links, forks and
// per-destination counts on a small mesh, a pinned tree kept intact while
// thousands of others pass through the cache -- and the queues the router
// model runs its events on (sim/src/radix_queue.h, run_queue.h): the order
// of a binary heap, on random times and on times at a few fixed delays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <queue>
#include <random>
#include <vector>

#include "gemini/sim/mesh_links.h"
#include "gemini/sim/xy_trees.h"
#include "radix_queue.h"
#include "run_queue.h"

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

// A time queued at the time last popped, after the next time was asked for
// (as the router model does with routers of 0 cycles), is popped and then
// the next is still known: the queue once kept the popped time as its next.
TEST(RadixQueue, ATimeQueuedAtTheLastPoppedLeavesTheNextKnown) {
  RadixQueue<int> q;
  q.push(10, 1);
  q.push(20, 2);
  EXPECT_EQ(q.pop(), 1);
  EXPECT_EQ(q.top_time(), 20);
  q.push(10, 3);
  EXPECT_EQ(q.top_time(), 10);
  EXPECT_EQ(q.pop(), 3);
  EXPECT_EQ(q.top_time(), 20);
  EXPECT_EQ(q.pop(), 2);
  EXPECT_TRUE(q.empty());
}

// Each value pushed comes out once, at its time, in time order, whatever
// run or the heap holds it: values at a router cycle, at two
// serialisations and at random times, for long enough that runs are
// compacted (4096 values popped off a run that never empties).
TEST(RunQueue, PopsEveryValueOnceInTimeOrder) {
  std::mt19937_64 rng(11);
  RunQueue<std::uint32_t> q;
  std::multimap<Tick, std::uint32_t> ref;
  Tick now = 0;
  std::uint32_t next = 0;
  std::size_t popped = 0;
  auto pop = [&] {
    ASSERT_EQ(q.top_time(), ref.begin()->first);
    now = ref.begin()->first;
    const std::uint32_t v = q.pop();
    const auto range = ref.equal_range(now);
    const auto it =
        std::find_if(range.first, range.second, [&](const auto& e) { return e.second == v; });
    ASSERT_NE(it, range.second) << "value " << v << " popped at " << now;
    ref.erase(it);
    ++popped;
  };
  for (int round = 0; round < 200000; ++round) {
    const int pushes = static_cast<int>(rng() % 3);
    for (int k = 0; k < pushes; ++k) {
      const std::uint64_t r = rng() % 10;
      const Tick t = now + (r < 5   ? 1000
                            : r < 7 ? 21334
                            : r < 8 ? 667
                            : r < 9 ? 0
                                    : static_cast<Tick>(rng() % 50000));
      q.push(t, next);
      ref.emplace(t, next++);
    }
    if (!ref.empty() && rng() % 2) pop();
    ASSERT_EQ(q.size(), ref.size());
  }
  while (!ref.empty()) pop();
  EXPECT_TRUE(q.empty());
  EXPECT_GT(popped, std::size_t{100000});
}

TEST(RunQueueDeathTest, ATimeBeforeTheLastPoppedIsAnInternalError) {
  RunQueue<int> q;
  q.push(100, 1);
  q.pop();
  EXPECT_DEATH(q.push(99, 2), "internal error: an event at 99 ps queued after 100 ps");
}

}  // namespace
}  // namespace gemini::sim
