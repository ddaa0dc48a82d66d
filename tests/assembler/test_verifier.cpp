// Assembler verifier (V1-V5): signals, cross-core cycles, token counts,
// multicast groups, write-after-read ordering, accesses outside memory.

#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include "fixture.h"
#include "gemini/assembler/encoding.h"
#include "gemini/assembler/invocation.h"
#include "gemini/assembler/lowering.h"
#include "gemini/assembler/program_io.h"
#include "gemini/assembler/text.h"
#include "gemini/assembler/verifier.h"
#include "gemini/ir/loader.h"

namespace fs = std::filesystem;
using namespace gemini;             // NOLINT(google-build-using-namespace): test file
using namespace gemini::assembler;  // NOLINT(google-build-using-namespace): test file

using test::program;

namespace {

const std::string kBox = "[0,0,0,0]:[0,0,0,0]";

TEST(Verifier, AcceptsAWellOrderedPair) {
  const auto a =
      program(0, "dma_in l2=0 bytes=64 dram=0 transfer=1 dst_box=" + kBox + " src_box=" + kBox +
                     "\nwait_token q=noc kind=credit transfer=1 from=1 count=1\nwait_local q=noc "
                     "on=dma_in count=1\n"
                     "noc_send src=0 dst=128 bytes=64 to=1 transfer=1 src_box=" +
                     kBox + " dst_box=" + kBox + "\nend\n");
  const auto b = program(1,
                         "signal q=ctrl kind=credit transfer=1 to=0 grant=128 grant_bytes=64\n"
                         "wait_token q=vp kind=data transfer=1 from=0 count=1\n"
                         "vp_run op=copy inputs=1 window=1 stride=1 in0=128 in1=0 out=256 "
                         "in_bytes=64 out_bytes=64 in_box=" +
                             kBox + " out_box=" + kBox + "\nend\n");
  EXPECT_TRUE(verify({a, b}, {1024, 4096}).empty());
}

TEST(Verifier, MissingSignal) {
  const auto a = program(0, "wait_token q=pe kind=data transfer=9 from=1 count=1\nend\n");
  const auto b = program(1, "end\n");
  const auto p = verify({a, b}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "core 0 #0 wait_token: waits for 1 token(s) of transfer 9 from core 1 but only 0 are "
            "ever sent to this core");
}

TEST(Verifier, CrossCoreCycle) {
  // Each core waits for the other's credit before granting its own.
  const auto a = program(0,
                         "wait_token q=ctrl kind=credit transfer=2 from=1 count=1\n"
                         "signal q=ctrl kind=credit transfer=1 to=1 grant=0 grant_bytes=0\nend\n");
  const auto b = program(1,
                         "wait_token q=ctrl kind=credit transfer=1 from=0 count=1\n"
                         "signal q=ctrl kind=credit transfer=2 to=0 grant=0 grant_bytes=0\nend\n");
  const auto p = verify({a, b}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(p[0].starts_with("deadlock: ")) << p[0];
  EXPECT_NE(p[0].find("core 0 #0 wait_token"), std::string::npos) << p[0];
  EXPECT_NE(p[0].find("core 1 #1 signal"), std::string::npos) << p[0];
}

TEST(Verifier, AWaitForTheNthTokenWaitsForItsNthSend) {
  // Core 0 sends credit 5 twice, with credit 6 between, and the second only
  // after core 1's credit 7. Core 1 waits for `count` credits 5 before
  // sending its credit 7: one is there early; the second never comes.
  auto core0 = program(0,
                       "signal q=ctrl kind=credit transfer=5 to=1 grant=0 grant_bytes=0\n"
                       "signal q=ctrl kind=credit transfer=6 to=1 grant=0 grant_bytes=0\n"
                       "wait_token q=ctrl kind=credit transfer=7 from=1 count=1\n"
                       "signal q=ctrl kind=credit transfer=5 to=1 grant=0 grant_bytes=0\nend\n");
  auto core1 = [](int count) {
    return program(
        1, "wait_token q=ctrl kind=credit transfer=5 from=0 count=" + std::to_string(count) +
               "\nsignal q=ctrl kind=credit transfer=7 to=0 grant=0 grant_bytes=0\n"
               "wait_token q=ctrl kind=credit transfer=6 from=0 count=1\nend\n");
  };
  EXPECT_TRUE(verify({core0, core1(1)}, {1024, 4096}).empty());
  auto p = verify({core0, core1(2)}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "deadlock: core 0 #3 signal -> core 1 #0 wait_token -> core 1 #1 signal -> core 0 "
            "#2 wait_token -> core 0 #2 wait_token");
  p = verify({core0, core1(3)}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "core 1 #0 wait_token: waits for 3 token(s) of transfer 5 from core 0 but only 2 are "
            "ever sent to this core");
}

// A pe_run reading [0, 64) and writing [512, 576); a dma_in writing
// [l2, l2 + 64).
std::string pe_run_line() {
  return "pe_run ifmap=0 ifmap_bytes=64 weight=0 weight_bytes=0 ofmap=512 ofmap_bytes=64 "
         "ifmap_box=" +
         kBox + " ofmap_box=" + kBox + "\n";
}
std::string dma_in_line(int l2) {
  return "dma_in l2=" + std::to_string(l2) + " bytes=64 dram=0 transfer=1 dst_box=" + kBox +
         " src_box=" + kBox + "\n";
}

TEST(Verifier, DeadlockReportWalksBackToTheCycle) {
  // Core 0: #0 (PE queue) waits for the DMA queue's first instruction, #2,
  // which waits for the PE queue's second, #1, which is queued behind #0.
  // Core 1 waits behind the cycle for a signal that never comes. The
  // report starts at the first instruction that never retires (#0) and
  // follows unfinished predecessors (queue order first, then the wait)
  // until one repeats.
  const auto a = program(0, "wait_local q=pe on=dma_in count=1\n" + pe_run_line() +
                                "wait_local q=dma_in on=pe count=2\n" + dma_in_line(128) +
                                "signal q=pe kind=credit transfer=3 to=1 grant=0 grant_bytes=0\n"
                                "end\n");
  const auto b = program(1, "wait_token q=ctrl kind=credit transfer=3 from=0 count=1\nend\n");
  const auto p = verify({a, b}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "deadlock: core 0 #1 pe_run -> core 0 #2 wait_local -> core 0 #0 wait_local -> core "
            "0 #0 wait_local");
}

std::string mc_line(int transfer, int members, int part = 0) {
  return "dma_in l2=0 bytes=64 dram=0 transfer=" + std::to_string(transfer) + " dst_box=" + kBox +
         " src_box=" + kBox + " members=" + std::to_string(members) +
         " part=" + std::to_string(part) + "\n";
}

TEST(Verifier, MulticastMembersJoin) {
  // Two groups taken in the same order on both cores: fine.
  const auto a = program(0, mc_line(1, 2) + mc_line(2, 2) + "end\n");
  const auto b = program(1, mc_line(1, 2) + mc_line(2, 2) + "end\n");
  EXPECT_TRUE(verify({a, b}, {1024, 4096}).empty());
  // In opposite orders, each core's first read waits for a member queued
  // behind the other core's first: no read of either group can start.
  const auto c = program(1, mc_line(2, 2) + mc_line(1, 2) + "end\n");
  const auto p = verify({a, c}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  // (Read "a -> b" as "b waits for a": core 1's #0 for core 0's #1 to be
  // reached, which is queued behind core 0's #0, which waits for core 1's
  // #1, queued behind core 1's #0.)
  EXPECT_EQ(p[0],
            "deadlock: core 0 #1 dma_in -> core 1 #0 dma_in -> core 1 #1 dma_in -> core 0 #0 "
            "dma_in -> core 0 #0 dma_in");
}

TEST(Verifier, MulticastGroupsMustBeComplete) {
  const auto a = program(0, mc_line(1, 3) + mc_line(4, 1) + mc_line(5, 0, 2) + "end\n");
  const auto b = program(1, mc_line(1, 3) + mc_line(6, 2) + mc_line(6, 2) + "end\n");
  const auto p = verify({a, b}, {1024, 4096});
  const std::vector<std::string> want = {
      "core 0 #1 dma_in: members=1 part=0 (a multicast has two or more members; part needs one)",
      "core 0 #2 dma_in: members=0 part=2 (a multicast has two or more members; part needs one)",
      "multicast of transfer 1 part 0: members=3 but its dma_ins are on cores 0, 1",
      "multicast of transfer 6 part 0: members=2 but its dma_ins are on cores 1, 1 (a core twice)",
  };
  EXPECT_EQ(p, want);
}

std::string send_line(int to, int members, int part = 0, int src = 0) {
  return "noc_send src=" + std::to_string(src) + " dst=0 bytes=64 to=" + std::to_string(to) +
         " transfer=3 src_box=" + kBox + " dst_box=" + kBox +
         " members=" + std::to_string(members) + " part=" + std::to_string(part) + "\n";
}
const std::string kWaitData = "wait_token q=pe kind=data transfer=3 from=0 count=1\n";

TEST(Verifier, NocMulticastMembersGoWithTheLast) {
  // A group of two sends: each receiver's data comes with the last send.
  const auto a = program(0, send_line(1, 2) + send_line(2, 2, 1) + "end\n");
  const auto r1 = program(1, kWaitData + "end\n");
  const auto r2 = program(2, kWaitData + "end\n");
  EXPECT_TRUE(verify({a, r1, r2}, {1024, 4096}).empty());
  // Core 0's second send waits for a credit that core 1 signals only once
  // its data is in: as two sends that is fine, as a multicast the data of
  // the first comes only with the second -- a deadlock.
  const std::string credit = "wait_token q=noc kind=credit transfer=5 from=1 count=1\n";
  const auto r1c = program(
      1, kWaitData + "signal q=pe kind=credit transfer=5 to=0 grant=0 grant_bytes=0\nend\n");
  const auto unicast = program(0, send_line(1, 0) + credit + send_line(2, 0) + "end\n");
  EXPECT_TRUE(verify({unicast, r1c, r2}, {1024, 4096}).empty());
  const auto grouped = program(0, send_line(1, 2) + credit + send_line(2, 2, 1) + "end\n");
  const auto p = verify({grouped, r1c, r2}, {1024, 4096});
  ASSERT_FALSE(p.empty());
  EXPECT_EQ(p[0].rfind("deadlock: ", 0), 0u) << p[0];
}

TEST(Verifier, NocMulticastGroupsMustBeWhole) {
  const auto a = program(0, send_line(1, 2) + "end\n");  // part 1 never comes
  const auto b = program(1, send_line(0, 2) + send_line(2, 2, 1, 64) + "end\n");
  const auto c = program(2, send_line(0, 1) + "end\n");
  const auto p = verify({a, b, c}, {1024, 4096});
  const std::vector<std::string> want = {
      "core 0 #0 noc_send: its multicast group ends after 1 members",
      "core 1 #1 noc_send: a multicast member differs from its group's first (members, src, bytes, "
      "transfer) or sends to a core twice",
      "core 2 #0 noc_send: members=1 part=0 (a multicast has two or more members, parts 0 to "
      "members - 1)",
  };
  EXPECT_EQ(p, want);
}

TEST(Verifier, WriteAfterReadWithoutWait) {
  // The PE reads [0,64); the DMA then overwrites it with no wait between.
  const std::string read = pe_run_line();
  const std::string write = dma_in_line(32);
  auto p = verify({program(0, read + write + "end\n")}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "core 0 #1 dma_in: writes [32, 96) which core 0 #0 pe_run reads, and no wait orders "
            "the read first");
  // With the wait, it is fine.
  p = verify({program(0, read + "wait_local q=dma_in on=pe count=1\n" + write + "end\n")},
             {1024, 4096});
  EXPECT_TRUE(p.empty()) << p[0];
}

TEST(Verifier, AReadCoveredByAnOrderedWriteStillGuardsItsBytes) {
  // #2 overwrites what #0 reads and waits for it; #3, on the VP queue, also
  // overwrites it and waits for nothing, so it may run before the read.
  const std::string vp_write =
      "vp_run op=copy inputs=1 window=1 stride=1 in0=256 in1=0 out=0 in_bytes=64 out_bytes=64 "
      "in_box=" +
      kBox + " out_box=" + kBox + "\n";
  auto p = verify({program(0, pe_run_line() + "wait_local q=dma_in on=pe count=1\n" +
                                  dma_in_line(0) + vp_write + "end\n")},
                  {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "core 0 #3 vp_run: writes [0, 64) which core 0 #0 pe_run reads, and no wait orders "
            "the read first");
}

// V4 against its definition on random single-core programs: a write
// conflicts with every earlier read of another queue whose bytes it
// overlaps (L2 as a ring) unless the read happens before it, where
// happens-before is reachability over queue order and local waits (here
// always on earlier instructions), worked out by brute force.
TEST(Verifier, WriteAfterReadMatchesBruteForceHappensBefore) {
  constexpr std::int64_t kL2 = 1024;
  using Bytes = std::bitset<kL2>;
  struct Access {
    Bytes bytes;
    std::int64_t addr, size;
  };
  struct Made {
    Instr in;
    std::vector<Access> reads;            // in operand order
    std::optional<Access> write;          // local L2 write, if any
    std::optional<std::size_t> waits_on;  // the instruction a wait_local names
  };
  auto access = [](std::int64_t addr, std::int64_t size) {
    Access a{{}, addr, size};
    for (std::int64_t b = addr; b < addr + size; ++b)
      a.bytes.set(static_cast<std::size_t>(b % kL2));
    return a;
  };
  std::mt19937 rng(20261121);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  std::size_t conflicts = 0, ordered_pairs = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<Made> made;
    std::array<std::vector<std::size_t>, kEngines> queue;  // instructions of each queue
    const int n = static_cast<int>(pick(10, 70));
    for (int k = 0; k < n; ++k) {
      Made m;
      Instr& in = m.in;
      auto span = [&] { return std::pair{pick(0, kL2 - 1), pick(1, 200)}; };
      const auto kind = pick(0, 9);
      if (kind <= 2) {  // a local wait on an earlier instruction
        std::vector<std::size_t> nonempty;
        for (std::size_t e = 0; e < kEngines; ++e)
          if (!queue[e].empty()) nonempty.push_back(e);
        if (nonempty.empty()) continue;
        const std::size_t on = nonempty[static_cast<std::size_t>(
            pick(0, static_cast<std::int64_t>(nonempty.size()) - 1))];
        const auto count = pick(1, static_cast<std::int64_t>(queue[on].size()));
        in.op = Opcode::wait_local;
        in.queue = static_cast<Engine>(pick(0, kEngines - 1));
        in.set("on", static_cast<std::int64_t>(on));
        in.set("count", count);
        m.waits_on = queue[on][static_cast<std::size_t>(count - 1)];
      } else if (kind == 3) {
        const auto [a, b] = span();
        in.op = Opcode::dma_in;
        in.queue = Engine::dma_in;
        in.set("l2", a);
        in.set("bytes", b);
        m.write = access(a, b);
      } else if (kind == 4) {
        const auto [a, b] = span();
        const auto [w, wb] = span();
        const auto [o, ob] = span();
        const bool weights = pick(0, 1) == 1;
        in.op = Opcode::pe_run;
        in.queue = Engine::pe;
        in.set("ifmap", a);
        in.set("ifmap_bytes", b);
        in.set("weight", w);
        in.set("weight_bytes", weights ? wb : 0);
        in.set("ofmap", o);
        in.set("ofmap_bytes", ob);
        m.reads.push_back(access(a, b));
        if (weights) m.reads.push_back(access(w, wb));
        m.write = access(o, ob);
      } else if (kind == 5) {
        const auto [a0, b] = span();
        const auto a1 = pick(0, kL2 - 1);
        const auto [o, ob] = span();
        const bool two = pick(0, 1) == 1;
        in.op = Opcode::vp_run;
        in.queue = Engine::vp;
        in.set("inputs", two ? 2 : 1);
        in.set("in0", a0);
        in.set("in1", a1);
        in.set("in_bytes", b);
        in.set("out", o);
        in.set("out_bytes", ob);
        m.reads.push_back(access(a0, b));
        if (two) m.reads.push_back(access(a1, b));
        m.write = access(o, ob);
      } else if (kind == 6) {
        const auto [a, b] = span();
        in.op = Opcode::noc_send;
        in.queue = Engine::noc;
        in.set("src", a);
        in.set("dst", pick(0, kL2 - 1));  // another core's L2: not this core's hazard
        in.set("bytes", b);
        in.set("to", 1);
        in.set("transfer", k);
        m.reads.push_back(access(a, b));
      } else if (kind == 7) {
        const auto [a, b] = span();
        in.op = Opcode::dma_out;
        in.queue = Engine::dma_out;
        in.set("l2", a);
        in.set("bytes", b);
        m.reads.push_back(access(a, b));
      } else {
        const auto [a, b] = span();
        in.op = Opcode::signal;
        in.queue = Engine::ctrl;
        in.set("kind", static_cast<std::int64_t>(TokenKind::credit));
        in.set("transfer", k);
        in.set("to", 1);
        in.set("grant", a);
        in.set("grant_bytes", b);
        m.write = access(a, b);
      }
      queue[static_cast<std::size_t>(in.queue)].push_back(made.size());
      made.push_back(std::move(m));
    }
    // Happens-before, by brute force: the union over an instruction's
    // predecessors (the previous one of its queue, the one it waits for).
    const std::size_t count = made.size();
    std::vector<std::vector<bool>> before(count, std::vector<bool>(count, false));
    std::array<std::optional<std::size_t>, kEngines> last{};
    for (std::size_t i = 0; i < count; ++i) {
      std::vector<std::size_t> preds;
      auto& prev = last[static_cast<std::size_t>(made[i].in.queue)];
      if (prev) preds.push_back(*prev);
      if (made[i].waits_on) preds.push_back(*made[i].waits_on);
      for (std::size_t p : preds) {
        before[i][p] = true;
        for (std::size_t x = 0; x < count; ++x)
          if (before[p][x]) before[i][x] = true;
      }
      prev = i;
    }
    std::vector<std::string> expected;
    auto name = [&](std::size_t i) {
      return "core 0 #" + std::to_string(i) + " " + std::string(made[i].in.info().mnemonic);
    };
    for (std::size_t i = 0; i < count; ++i) {
      if (!made[i].write) continue;
      const Access& w = *made[i].write;
      for (std::size_t r = 0; r < i; ++r) {
        if (made[r].in.queue == made[i].in.queue) continue;
        for (const Access& rd : made[r].reads) {
          if ((rd.bytes & w.bytes).none()) continue;
          if (before[i][r]) {
            ++ordered_pairs;
            continue;
          }
          expected.push_back(name(i) + ": writes [" + std::to_string(w.addr) + ", " +
                             std::to_string(w.addr + w.size) + ") which " + name(r) +
                             " reads, and no wait orders the read first");
        }
      }
    }
    conflicts += expected.size();
    CoreProgram c;
    c.core_id = 0;
    for (const Made& m : made) c.instrs.push_back(m.in);
    CoreProgram other;  // the receiver of the sends and credits
    other.core_id = 1;
    ASSERT_EQ(verify({c, other}, {kL2, 4096}, 1u << 20), expected) << "round " << round;
  }
  // Both outcomes were exercised many times.
  EXPECT_GT(conflicts, 1000u);
  EXPECT_GT(ordered_pairs, 1000u);
}

TEST(Verifier, AccessOutsideMemoryAndUnreachableWait) {
  auto p = verify(
      {program(0, "dma_in l2=2048 bytes=64 dram=0 transfer=1 dst_box=" + kBox + " src_box=" + kBox +
                      "\nwl0_load source=l2 wl0=4090 bytes=16 l2=0 dram=0 transfer=1\n"
                      "wait_local q=pe on=noc count=1\nend\n")},
      {1024, 4096});
  ASSERT_EQ(p.size(), 3u);
  EXPECT_NE(p[0].find("waits for 1 instructions of queue noc, which has only 0"), std::string::npos)
      << p[0];
  EXPECT_NE(p[1].find("accesses [2048, 2112) outside L2 of 1024 bytes"), std::string::npos) << p[1];
  EXPECT_NE(p[2].find("accesses [4090, 4106) outside WL0 of 4096 bytes"), std::string::npos)
      << p[2];
}

TEST(Verifier, WaitForNothingIsAProblemNotACrash) {
  // A field never set reads 0: a wait_local for 0 instructions cannot come
  // from the text form (count >= 1) but can be built in memory.
  Instr w;
  w.op = Opcode::wait_local;
  w.queue = Engine::pe;
  w.set("on", static_cast<std::int64_t>(Engine::dma_in));
  CoreProgram c;
  c.instrs = {w, program(0, "end\n").instrs.front()};
  const auto p = verify({c}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("nothing to wait for"), std::string::npos) << p[0];
  std::string err;
  EXPECT_FALSE(encode(w, err));
  EXPECT_EQ(err, "wait_local count=0 outside [1, 4294967295]");
}

}  // namespace
