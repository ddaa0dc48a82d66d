// What the critical path waited for (report.h, WaitKind; docs/timing-model.md,
// "What the path waited for"), one hand-made program per kind, with the
// arithmetic in the comments: the kinds add up to the total, and each
// names what held it (blames) or whom it waited for (jumps).
#include <gtest/gtest.h>

#include <sstream>

#include "fixture.h"
#include "gemini/sim/simulator.h"

namespace gemini::sim {
namespace {

ir::HardwareConfig test_hw() {
  ir::HardwareConfig hw;  // 1 GHz, router 2 cycles, 24 GB/s links, 512-byte packets
  hw.dram.raw.json = {{"model", "simple"}, {"port_gbps", 1.0}, {"latency_ns", 0}};  // 1 byte per ns
  return hw;
}

Report run(const std::vector<std::string>& texts, std::int32_t xlen, std::int32_t ylen,
           const ir::HardwareConfig& hw = test_hw(), const WorkloadTable& wt = {}) {
  SimOptions o;
  o.xlen = xlen;
  o.ylen = ylen;
  Report r;
  std::string error;
  EXPECT_TRUE(simulate(test::parse_programs(texts), hw, wt, o, r, error)) << error;
  return r;
}

std::int64_t waits(const Report& r, WaitKind k) {
  return r.critical_path.waits[static_cast<std::size_t>(k)];
}

std::int64_t sum(const CriticalPath& cp) {
  std::int64_t s = 0;
  for (std::int64_t c : cp.waits) s += c;
  return s;
}

const PathBlame* blame(const Report& r, WaitKind k) {
  for (const PathBlame& b : r.critical_path.blames)
    if (b.kind == k) return &b;
  return nullptr;
}

std::string read(int transfer, int dram, const std::string& extra = "") {
  return "dma_in l2=0 bytes=512 dram=" + std::to_string(dram) +
         " transfer=" + std::to_string(transfer) +
         " dst_box=[0,0,0,0]:[0,0,0,0] src_box=[0,0,0,0]:[0,0,0,0]" + extra + "\n";
}

std::string send(int to, int transfer) {
  return "noc_send src=0 dst=0 bytes=1024 to=" + std::to_string(to) +
         " transfer=" + std::to_string(transfer) +
         " src_box=[0,0,0,0]:[0,0,0,0] dst_box=[0,0,0,0]:[0,0,0,0]\n";
}

const std::string kCfg =
    "pe_cfg loop=KNHW cut=none ci_cut=1 mtc0=1 mtk0=1 om_n=1 om_k=1 om_h=1 om_w=1 am_n=1 am_c=1 "
    "am_h=1 am_w=1 pad_t=0 pad_b=0 pad_l=0 pad_r=0 r=3 s=3 stride_h=1 stride_w=1 wl0=0 gk=16 gc=32 "
    "in_h=10 in_w=10 shift=0 chain=1\n";
const std::string kRun =
    "pe_run ifmap=0 ifmap_bytes=1024 weight=0 weight_bytes=0 ofmap=4096 ofmap_bytes=512 "
    "ifmap_box=[0,0,0,0]:[0,31,9,9] ofmap_box=[0,0,0,0]:[0,15,7,7]\n";

TEST(CriticalPathWaits, ADramPortBusyWithAnotherCoresRead) {
  // 3x1 mesh, one DRAM port per row end, not interleaved: cores 0 and 1
  // both use the west port and read 512 bytes at 1 byte per ns at cycle 0.
  // Core 0's request lands at 4667 ps (1 hop: 2 x 2000 + 667), core 1's at
  // 6667 (2 hops). Core 0's read takes the port [4667, 516667), core 1's
  // [516667, 1028667): 510000 ps at the port beyond its own 512000, behind
  // core 0's request. Its one packet then crosses 2 hops (3 x 2000 +
  // 21334) and 2 cycles of L2 latency: done at 1058001 ps, cycle 1059, the
  // total. The path is that dma_in: dram_port 510, its delivery after the
  // DRAM had its bytes (29334 ps) NoC, the rest (6667 + 512000 ps) DRAM.
  const Report r = run({".core 0\n" + read(1, 0) + "end\n", ".core 1\n" + read(2, 4096) + "end\n",
                        ".core 2\nend\n"},
                       3, 1);
  EXPECT_EQ(r.total_cycles, 1059);
  EXPECT_EQ(waits(r, WaitKind::dram_port), 510);
  EXPECT_EQ(waits(r, WaitKind::noc), 30);
  EXPECT_EQ(waits(r, WaitKind::dram), 519);
  EXPECT_EQ(waits(r, WaitKind::ordering), 0);
  EXPECT_EQ(sum(r.critical_path), r.total_cycles);
  const PathBlame* b = blame(r, WaitKind::dram_port);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->what, "requests of dma_in of (no workload) (core 0)");
  EXPECT_EQ(b->cycles, 510);
}

TEST(CriticalPathWaits, ALinkBusyWithAnotherCoresPackets) {
  // 3x1 mesh: cores 0 and 1 each send 1024 bytes (two 512-byte packets,
  // ser 21334 ps) to core 2 at cycle 0; both flows cross (1,0)->(2,0).
  // Core 0's packets are booked first: A1 holds that link [4000, 25334),
  // B1 (core 1's) waits there from 2000 to 25334 and lands at 48668; A2
  // takes it [46668, 68002) and B2, at the link from 23334, starts at
  // 68002 and lands at 91336 ps: cycle 92, the total. Without the waits
  // core 1's packets would have landed by 46668 ps: 44668 ps (45 cycles)
  // are link, on (1,0)->(2,0) behind core 0's noc_send; 47 its own.
  const Report r = run({".core 0\n" + send(2, 3) + "end\n", ".core 1\n" + send(2, 4) + "end\n",
                        ".core 2\nwait_token q=pe kind=data transfer=3 from=0 count=1\n"
                        "wait_token q=pe kind=data transfer=4 from=1 count=1\nend\n"},
                       3, 1);
  EXPECT_EQ(r.total_cycles, 92);
  EXPECT_EQ(waits(r, WaitKind::link), 45);
  EXPECT_EQ(waits(r, WaitKind::noc), 47);
  EXPECT_EQ(sum(r.critical_path), r.total_cycles);
  EXPECT_EQ(r.critical_path.cycles[static_cast<std::size_t>(PathKind::noc)], 92);
  const PathBlame* b = blame(r, WaitKind::link);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->what, "(1,0)->(2,0), packets of noc_send of (no workload) (core 0)");
}

// InOrderDramHoldsAReadBehindTheCoresEarlierMulticastMember (test_sim.cpp):
// core 0's multicast member, then a read of its own; core 1's member after
// a read of its own.
const std::string kMcast =
    "dma_in l2=0 bytes=512 dram=0 transfer=9 dst_box=[0,0,0,0]:[0,0,0,0] "
    "src_box=[0,0,0,0]:[0,0,0,0] members=2\n";

TEST(CriticalPathWaits, AReadHeldBehindTheCoresEarlierRead) {
  // Core 0's second read reaches the west port at 5667 ps and is held there
  // until its first read, the multicast member, starts: when core 1's
  // request reaches the east port at 548668 (543001 ps in_order). It then
  // waits at the west port behind the group's stripe (256 bytes, [548668,
  // 804668): 256000 ps dram_port, whose stripe's owner is core 0's member),
  // is read [804668, 1316668) and lands with its L2 latency at 1344002 ps,
  // cycle 1345 (27334 ps after its bytes were ready: NoC). Whole cycles:
  // floors, the leftover ones to the largest remainders (noc's .334).
  ir::HardwareConfig hw = test_hw();
  hw.core.dma_in_flight = 2;
  hw.dram.raw.json["in_order"] = true;
  WorkloadTable wt;
  wt[0][2] = WorkloadInfo{"b", 1};
  const Report r = run({".core 0\n" + kMcast + read(2, 4096, " wl=2") + "end\n",
                        ".core 1\n" + read(1, 0) + "wait_local q=dma_in on=dma_in count=1\n" +
                            kMcast + "end\n"},
                       2, 1, hw, wt);
  EXPECT_EQ(r.total_cycles, 1345);
  EXPECT_EQ(waits(r, WaitKind::in_order), 543);
  EXPECT_EQ(waits(r, WaitKind::dram_port), 256);
  EXPECT_EQ(waits(r, WaitKind::noc), 28);
  EXPECT_EQ(sum(r.critical_path), r.total_cycles);
  const PathBlame* held = blame(r, WaitKind::in_order);
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->what, "dma_in of b (core 0)");
  const PathBlame* port = blame(r, WaitKind::dram_port);
  ASSERT_NE(port, nullptr);
  EXPECT_EQ(port->what, "requests of dma_in of (no workload) (core 0)");
}

TEST(CriticalPathWaits, AMulticastReadWaitsForItsLastMember) {
  // Core 0's member issues at once; core 1's only after its own read
  // (done at cycle 545). The group's read waits for core 1's member: the
  // path goes through it to core 1's read, and the jump says so.
  const Report r = run({".core 0\n" + kMcast + "end\n",
                        ".core 1\n" + read(1, 0) + "wait_local q=dma_in on=dma_in count=1\n" +
                            kMcast + "end\n"},
                       2, 1);
  EXPECT_EQ(sum(r.critical_path), r.total_cycles);
  const CriticalPath& cp = r.critical_path;
  ASSERT_EQ(cp.jump_sums.size(), 3u);
  EXPECT_EQ(cp.jump_sums[2].kind, "multicast");
  EXPECT_EQ(cp.jump_sums[2].count, 1);
  ASSERT_FALSE(cp.jumps.empty());
  EXPECT_EQ(cp.jumps[0].kind, "multicast");
  EXPECT_EQ(cp.jumps[0].to_core, 1);
  EXPECT_EQ(cp.jumps[0].to_opcode, "dma_in");
  EXPECT_GT(cp.jumps[0].cycles, 500);
  // Why core 1's member was late: meanwhile the path was core 1's own read.
  EXPECT_GT(cp.jumps[0].meanwhile[static_cast<std::size_t>(WaitKind::dram)], 500);
  std::ostringstream text;
  print_report(text, r);
  EXPECT_NE(text.str().find("; meanwhile dram "), std::string::npos) << text.str();
}

TEST(CriticalPathWaits, ATokensFlightAndACreditsFlight) {
  // A DRAM token (signal kind=dram) and a credit from core 0 to core 1,
  // each 5 cycles of flight (TokenAcrossCores: 4667 ps): token, then
  // l2_credit; the jump names the producer, core 0's signal.
  const Report t = run({".core 0\nsignal q=ctrl kind=dram transfer=7 to=1 grant=0 grant_bytes=0\n"
                        "end\n",
                        ".core 1\nwait_token q=ctrl kind=dram transfer=7 from=0 count=1\nend\n"},
                       2, 1);
  EXPECT_EQ(waits(t, WaitKind::token), 5);
  EXPECT_EQ(sum(t.critical_path), t.total_cycles);
  ASSERT_FALSE(t.critical_path.jumps.empty());
  EXPECT_EQ(t.critical_path.jumps[0].kind, "token");
  EXPECT_EQ(t.critical_path.jumps[0].to_core, 0);
  EXPECT_EQ(t.critical_path.jumps[0].to_opcode, "signal");
  const Report c =
      run({".core 0\nsignal q=ctrl kind=credit transfer=7 to=1 grant=0 grant_bytes=64\nend\n",
           ".core 1\nwait_token q=ctrl kind=credit transfer=7 from=0 count=1\nend\n"},
          2, 1);
  EXPECT_EQ(waits(c, WaitKind::l2_credit), 5);
  EXPECT_EQ(waits(c, WaitKind::token), 0);
  ASSERT_FALSE(c.critical_path.jumps.empty());
  EXPECT_EQ(c.critical_path.jumps[0].kind, "l2_credit");
}

TEST(CriticalPathWaits, OrderingIsTimeNothingWasBusy) {
  // Three nops before the PE's work: pe_cfg is dispatched at cycle 3
  // (one instruction per cycle), so the path's first 3 cycles waited for
  // nothing but the program's order; then 4 + 304 cycles of compute
  // (PeConfigThenRun).
  const Report r = run({".core 0\nnop\nnop\nnop\n" + kCfg + kRun + "end\n"}, 1, 1);
  EXPECT_EQ(r.total_cycles, 311);
  EXPECT_EQ(waits(r, WaitKind::ordering), 3);
  EXPECT_EQ(waits(r, WaitKind::compute), 308);
  const PathBlame* b = blame(r, WaitKind::ordering);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->what, "pe_cfg of (no workload) (core 0)");
}

TEST(CriticalPathWaits, TheReportsSayIt) {
  const Report r = run({".core 0\n" + read(1, 0) + "end\n", ".core 1\n" + read(2, 4096) + "end\n",
                        ".core 2\nend\n"},
                       3, 1);
  std::ostringstream text;
  print_report(text, r);
  EXPECT_NE(text.str().find("  waited for: compute 0 (0.0%), dram 519 (49.0%), noc 30 (2.8%), "
                            "dram_port 510 (48.2%), link 0 (0.0%)"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("    dram_port: 510, 1, requests of dma_in of (no workload) (core 0)"),
            std::string::npos);
  std::ostringstream json;
  write_report_json(json, r, false);
  EXPECT_NE(json.str().find("\"dram_port\" : 510"), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("\"ordering\" : 0"), std::string::npos);
}

}  // namespace
}  // namespace gemini::sim
