// The SystemC model end to end on hand-written programs: exact cycle counts
// (arithmetic in the comments), cross-engine and cross-core synchronisation,
// stall attribution, run-time deadlock, repeatability.
#include <gtest/gtest.h>

#include <sstream>

#include "fixture.h"
#include "gemini/assembler/text.h"
#include "gemini/sim/simulator.h"

namespace gemini::sim {
namespace {

const std::string kCfg =
    "pe_cfg loop=KNHW cut=none ci_cut=1 mtc0=1 mtk0=1 om_n=1 om_k=1 om_h=1 om_w=1 am_n=1 am_c=1 "
    "am_h=1 am_w=1 pad_t=0 pad_b=0 pad_l=0 pad_r=0 r=3 s=3 stride_h=1 stride_w=1 wl0=0 gk=16 gc=32 "
    "in_h=10 in_w=10 shift=0 chain=1\n";
const std::string kRun =
    "pe_run ifmap=0 ifmap_bytes=1024 weight=0 weight_bytes=0 ofmap=4096 ofmap_bytes=512 "
    "ifmap_box=[0,0,0,0]:[0,31,9,9] ofmap_box=[0,0,0,0]:[0,15,7,7]\n";
const std::string kDmaIn =
    "dma_in l2=0 bytes=512 dram=0 transfer=1 dst_box=[0,0,0,0]:[0,0,0,0] "
    "src_box=[0,0,0,0]:[0,0,0,0]\n";

assembler::Program program(const std::vector<std::string>& texts) {
  return test::parse_programs(texts);
}

ir::HardwareConfig test_hw() {
  ir::HardwareConfig hw;  // 1 GHz, defaults: router 2 cycles, 24 GB/s links
  hw.dram.raw.json = {{"model", "simple"}, {"port_gbps", 1.0}, {"latency_ns", 0}};  // 1 byte per ns
  return hw;
}

Report run(const assembler::Program& p, std::int32_t xlen, std::int32_t ylen,
           const ir::HardwareConfig& hw = test_hw()) {
  return test::simulate_programs(p, xlen, ylen, hw);
}

TEST(Sim, PeConfigThenRun) {
  // pe_cfg: 4 cycles [0, 4). pe_run: ceil(64/8) * ceil(16/8) * ceil(32/16) *
  // 9 = 288 compute cycles (L2 24, no weights) + 16 pipeline = 304: [4, 308).
  // `end` retires at cycle 2 on ctrl. The core is done at 308.
  const Report r = run(program({std::string(".core 0\n") + kCfg + kRun + "end\n"}), 1, 1);
  EXPECT_EQ(r.total_cycles, 308);
  ASSERT_EQ(r.cores.size(), 1u);
  EXPECT_EQ(r.cores[0].compute, 308);
  EXPECT_EQ(r.cores[0].stall(), 0);
  EXPECT_EQ(r.cores[0].peak_l2_bytes, 512);  // the ofmap; nothing wrote the ifmap
  EXPECT_FALSE(r.deadlock);
}

TEST(Sim, AGroupedConvolutionReadsOnlyItsGroupsChannels) {
  // The run of PeConfigThenRun with groups of 8 input channels (gc=8): each
  // output channel reads 8 of the box's 32, so ceil(64/8) * ceil(16/8) *
  // ceil(8/16) * 9 = 144 compute cycles + 16 pipeline: done at 4 + 160.
  std::string cfg = kCfg;
  cfg.replace(cfg.find("gc=32"), 5, "gc=8");
  const Report r = run(program({".core 0\n" + cfg + kRun + "end\n"}), 1, 1);
  EXPECT_EQ(r.total_cycles, 164);
}

TEST(Sim, WorkloadsAndLayersAgainstPredictedTime) {
  // pe_cfg and pe_run of workload 5 (layer "conv", predicted 100): compute
  // starts at cycle 4 (pe_run), the workload's last instruction retires at 308.
  const auto p = program({std::string(".core 0\n") + kCfg.substr(0, kCfg.size() - 1) + " wl=5\n" +
                          kRun.substr(0, kRun.size() - 1) + " wl=5\nend\n"});
  WorkloadTable wt;
  wt[0][5] = WorkloadInfo{"conv", 100};
  SimOptions o;
  o.xlen = 1;
  o.ylen = 1;
  Report r;
  std::string error;
  ASSERT_TRUE(simulate(p, test_hw(), wt, o, r, error)) << error;
  ASSERT_EQ(r.workloads.size(), 1u);
  EXPECT_EQ(r.workloads[0].first_start, 0);
  EXPECT_EQ(r.workloads[0].compute_start, 4);
  EXPECT_EQ(r.workloads[0].end, 308);
  EXPECT_EQ(r.workloads[0].simulated_cycles(), 304);
  ASSERT_EQ(r.layers.size(), 1u);
  EXPECT_EQ(r.layers[0].name, "conv");
  EXPECT_EQ(r.layers[0].predicted_cycles, 100);
  EXPECT_DOUBLE_EQ(r.layers[0].ratio(), 3.04);
  std::ostringstream csv;
  write_workload_csv(csv, r);
  EXPECT_NE(csv.str().find("\n0,5,conv,100,0,4,308,304,3.0400,"), std::string::npos) << csv.str();
}

TEST(Sim, DmaInThroughTheNocAndDram) {
  // 1x1 mesh; the core uses the west port of row 0, one hop away.
  // Request (16 B, ser ceil(16000/24) = 667 ps): injection [0, 667), header
  // +2000 per router: hop link at 2000, ejection at 4000, arrives 4667.
  // DRAM at 1 B/ns: 512 B ready at 4667 + 512000 = 516667.
  // Data (512 B, ser 21334): injected 516667, hop 518667, ejection 520667,
  // arrives 542001; + L2 latency 2 cycles = 544001 ps -> cycle 545.
  const Report r = run(program({std::string(".core 0\n") + kDmaIn + "end\n"}), 1, 1);
  EXPECT_EQ(r.total_cycles, 545);
  EXPECT_EQ(r.cores[0].dram, 545);
  ASSERT_EQ(r.dram_ports.size(), 2u);
  EXPECT_EQ(r.dram_ports[0].side, "west");
  EXPECT_EQ(r.dram_ports[0].bytes_read, 512);
  EXPECT_EQ(r.dram_ports[1].bytes_read, 0);
}

TEST(Sim, LatencyDistributionsOfADmaIn) {
  // DmaInThroughTheNocAndDram's run, its distributions by hand: two
  // packets, the request handed over at 0 and at the port at 4667 ps, the
  // data handed over at 516667 and landed at 542001 (25334 ps); one DRAM
  // read, 4667 to 516667 (512000 ps), finding the port empty.
  const Report r = run(program({std::string(".core 0\n") + kDmaIn + "end\n"}), 1, 1);
  const std::vector<KindStats> kinds = sum_by_kind(r.stats);
  auto dist = [&](const std::string& kind, const std::string& name) -> const Distribution* {
    for (const KindStats& k : kinds)
      for (const DistValue& d : k.distributions)
        if (k.kind == kind && d.name == name) return &d.dist;
    return nullptr;
  };
  const Distribution* packets = dist("noc", "packet_latency");
  ASSERT_NE(packets, nullptr);
  EXPECT_EQ(packets->count(), 2);
  EXPECT_EQ(packets->sum(), 4667 + 25334);
  EXPECT_EQ(packets->min(), 4667);
  EXPECT_EQ(packets->max(), 25334);
  EXPECT_EQ(packets->percentile(0.5), 4667);    // its bucket [4608, 4864), clamped to the min
  EXPECT_EQ(packets->percentile(0.99), 25334);  // rank 2 of 2: the maximum
  using Buckets = std::vector<std::pair<std::int64_t, std::int64_t>>;
  // 4667 in [4096, 8192) in buckets of 256, 25334 in [16384, 32768) in 1024s.
  EXPECT_EQ(packets->buckets(), (Buckets{{4608, 1}, {24576, 1}}));
  const Distribution* reads = dist("dram", "read_latency");
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->count(), 1);
  EXPECT_EQ(reads->percentile(0.99), 512000);
  const Distribution* writes = dist("dram", "write_latency");
  ASSERT_NE(writes, nullptr);
  EXPECT_EQ(writes->count(), 0);
  const Distribution* queue = dist("dram", "queue_occupancy");
  ASSERT_NE(queue, nullptr);
  EXPECT_EQ(queue->count(), 1);
  EXPECT_EQ(queue->max(), 0);
}

const std::string kMcast =
    "dma_in l2=0 bytes=512 dram=0 transfer=9 dst_box=[0,0,0,0]:[0,0,0,0] "
    "src_box=[0,0,0,0]:[0,0,0,0] members=2\n";

TEST(Sim, MulticastReadsDramOnceForAllMembers) {
  // 2x1 mesh: core 0 reads through the west port, core 1 through the east.
  // Both requests arrive at 4667 ps (as in DmaInThroughTheNocAndDram); the
  // group reads its 512 bytes once, in two stripes of 256 bytes, one at
  // each member's port: both ready at 4667 + 256000 = 260667. Each stripe
  // is one packet (ser 10667 ps) forked to both cores. The east stripe is
  // routed first: core 1's ejection [264667, 275334), then the link
  // (1,0)->(0,0) and core 0's ejection [266667, 277334). The west stripe's
  // heads reach (0,0) at 264667 and (1,0) at 266667 but find the ejection
  // links taken: core 0's [277334, 288001), core 1's [275334, 286001).
  // + 2 cycles of L2 latency: core 1 done at 288001 ps (cycle 289), core 0
  // at 290001 ps (cycle 291) -- against 547 cycles when one port read all
  // 512 bytes.
  const Report r =
      run(program({".core 0\n" + kMcast + "end\n", ".core 1\n" + kMcast + "end\n"}), 2, 1);
  EXPECT_EQ(r.total_cycles, 291);
  EXPECT_EQ(r.cores[0].dram, 291);
  EXPECT_EQ(r.cores[1].dram, 289);
  ASSERT_EQ(r.dram_ports.size(), 2u);
  // Once in all (half at each port), not once per member.
  EXPECT_EQ(r.dram_ports[0].bytes_read, 256);
  EXPECT_EQ(r.dram_ports[1].bytes_read, 256);
  // The same reads without multicast: each core through its own port.
  const Report u =
      run(program({".core 0\n" + kDmaIn + "end\n", ".core 1\n" + kDmaIn + "end\n"}), 2, 1);
  EXPECT_EQ(u.dram_ports[0].bytes_read + u.dram_ports[1].bytes_read, 1024);
  // The report's unique reads: transfer 1's range once, read once with
  // multicast, twice without.
  EXPECT_EQ(r.dram_unique_read_bytes, 512);
  EXPECT_EQ(r.dram_read_bytes, 512);
  EXPECT_EQ(u.dram_unique_read_bytes, 512);
  EXPECT_EQ(u.dram_read_bytes, 1024);
}

TEST(Sim, AMulticastWaitsForItsLastMember) {
  // Core 1 reaches its member only after a read of its own (done at 544001
  // ps, as above): its request arrives at the east port at 548668, the
  // stripes are ready at 548668 + 256000 = 804668, and both members wait
  // for them: the last bytes arrive 27334 ps later as above, + 2 cycles of
  // L2 latency -> cycle 835 for core 0, 833 for core 1.
  const Report r =
      run(program({".core 0\n" + kMcast + "end\n", ".core 1\n" + kDmaIn + kMcast + "end\n"}), 2, 1);
  EXPECT_EQ(r.cores[0].dram, 835);
  EXPECT_EQ(r.total_cycles, 835);
  EXPECT_EQ(r.dram_ports[0].bytes_read, 256);
  EXPECT_EQ(r.dram_ports[1].bytes_read, 512 + 256);
}

const std::string kDmaIn2 =
    "dma_in l2=4096 bytes=512 dram=4096 transfer=2 dst_box=[0,0,0,0]:[0,0,0,0] "
    "src_box=[0,0,0,0]:[0,0,0,0]\n";

TEST(Sim, ADmaEngineKeepsSeveralTransfersInFlight) {
  // Two reads of 512 bytes on a 1x1 mesh. One in flight: the second is
  // requested when the first is done (544001 ps, as above), its request
  // arrives at 548668, the port delivers at 1060668, the data lands at
  // 1086002 + 2000 -> cycle 1089.
  const auto p = program({".core 0\n" + kDmaIn + kDmaIn2 + "end\n"});
  EXPECT_EQ(run(p, 1, 1).total_cycles, 1089);
  // Two in flight: the second request leaves at its dispatch (cycle 1):
  // injection [1000, 1667), arrives 5667 and queues behind the first read
  // (port busy until 516667): ready 1028667, lands 1054001 + 2000 -> cycle
  // 1057. The port never waits for a request round trip.
  ir::HardwareConfig hw = test_hw();
  hw.core.dma_in_flight = 2;
  const Report r = run(p, 1, 1, hw);
  EXPECT_EQ(r.total_cycles, 1057);
  EXPECT_EQ(r.cores[0].dram, 1057);
  EXPECT_EQ(r.dram_ports[0].bytes_read, 1024);
}

TEST(Sim, TransfersInFlightRetireInProgramOrder) {
  // Core 0's first read is a multicast whose other member (core 1) asks
  // only once a read of its own has retired: it completes at cycle 835 (as
  // in AMulticastWaitsForItsLastMember; core 0's second read, requested at
  // cycle 1, has the west port from 5667 to 517667, before the stripes).
  // That second read lands at cycle 546 but retires after the first: the
  // PE's wait for one retired dma_in holds until cycle 835, then pe_cfg
  // takes 4 cycles.
  ir::HardwareConfig hw = test_hw();
  hw.core.dma_in_flight = 2;
  const Report r = run(
      program(
          {".core 0\n" + kMcast + kDmaIn2 + "wait_local q=pe on=dma_in count=1\n" + kCfg + "end\n",
           ".core 1\n" + kDmaIn + "wait_local q=dma_in on=dma_in count=1\n" + kMcast + "end\n"}),
      2, 1, hw);
  EXPECT_EQ(r.cores[0].finish_cycles, 839);
  EXPECT_EQ(r.cores[0].compute, 4);
}

TEST(Sim, InOrderDramHoldsAReadBehindTheCoresEarlierMulticastMember) {
  // TransfersInFlightRetireInProgramOrder's reads without the PE. Core 0's
  // second read reaches the west port at 5667 ps. Out of order it is read
  // at once (ready 517667, lands 545001 ps: cycle 546, as there). With
  // dram.in_order it waits there until core 0's earlier read -- the
  // multicast member -- starts: when core 1's request reaches the east
  // port at 548668. The west port then reads the group's stripe first
  // (256 bytes, [548668, 804668)) and this read after it ([804668,
  // 1316668)); its packet takes 2000 + 2000 + 21334 ps to land and 2
  // cycles of L2 latency: 1344002 ps, cycle 1345.
  ir::HardwareConfig hw = test_hw();
  hw.core.dma_in_flight = 2;
  const auto p = program(
      {".core 0\n" + kMcast + kDmaIn2.substr(0, kDmaIn2.size() - 1) + " wl=2\nend\n",
       ".core 1\n" + kDmaIn + "wait_local q=dma_in on=dma_in count=1\n" + kMcast + "end\n"});
  WorkloadTable wt;
  wt[0][2] = WorkloadInfo{"b", 1};
  SimOptions o;
  o.xlen = 2;
  o.ylen = 1;
  Report out_of_order, in_order;
  std::string error;
  ASSERT_TRUE(simulate(p, hw, wt, o, out_of_order, error)) << error;
  hw.dram.raw.json["in_order"] = true;
  ASSERT_TRUE(simulate(p, hw, wt, o, in_order, error)) << error;
  auto landed = [](const Report& r) {
    for (const WorkloadReport& w : r.workloads)
      if (w.core_id == 0 && w.workload_id == 2) return w.end;
    return std::int64_t{-1};
  };
  // The second read retires behind the first (cycle 835) out of order; in
  // order it lands at 1345 and is the core's last instruction.
  EXPECT_EQ(landed(out_of_order), 835);
  EXPECT_EQ(out_of_order.cores[0].finish_cycles, 835);
  EXPECT_EQ(landed(in_order), 1345);
  EXPECT_EQ(in_order.cores[0].finish_cycles, 1345);
}

TEST(Sim, ANocMulticastSendsOnceToEveryMember) {
  // 3x1 mesh, 512 bytes from core 0 to cores 1 and 2 (one packet, ser
  // 21334 ps). As a multicast the packet goes when the last member issues
  // (its dispatch, cycle 1): injected at 1000, the link (0,0)->(1,0) at
  // 3000, core 1's ejection at 5000 (lands 26334 ps: cycle 27), the link
  // (1,0)->(2,0) at 5000 and core 2's ejection at 7000 (lands 28334: cycle
  // 29). As two sends, the second starts when the first has landed (one in
  // flight, 25334 ps): 25334 + 3 x 2000 + 21334 = 52668 ps, cycle 53.
  const std::string send =
      "noc_send src=0 dst=0 bytes=512 to=%d transfer=3 src_box=[0,0,0,0]:[0,0,0,0] "
      "dst_box=[0,0,0,0]:[0,0,0,0]";
  auto to = [&](int core, const std::string& extra) {
    std::string t = send;
    t.replace(t.find("%d"), 2, std::to_string(core));
    return t + extra + "\n";
  };
  const std::string recv = "wait_token q=pe kind=data transfer=3 from=0 count=1\nend\n";
  const Report m =
      run(program({".core 0\n" + to(1, " members=2") + to(2, " members=2 part=1") + "end\n",
                   ".core 1\n" + recv, ".core 2\n" + recv}),
          3, 1);
  EXPECT_EQ(m.cores[1].finish_cycles, 27);
  EXPECT_EQ(m.cores[2].finish_cycles, 29);
  EXPECT_EQ(m.total_cycles, 29);
  EXPECT_EQ(m.noc_packets, 1);
  const Report u = run(program({".core 0\n" + to(1, "") + to(2, "") + "end\n", ".core 1\n" + recv,
                                ".core 2\n" + recv}),
                       3, 1);
  EXPECT_EQ(u.cores[2].finish_cycles, 53);
  EXPECT_EQ(u.noc_packets, 2);
}

TEST(Sim, SendsInFlightShareTheInjectionLink) {
  // ANocMulticastSendsOnceToEveryMember's two sends (512 bytes to core 1,
  // then to core 2, one packet each, ser 21334 ps). One in flight: the
  // second starts when the first has landed, core 2 done at cycle 53 (as
  // there). Two in flight (core.noc_in_flight): the second issues at its
  // dispatch (1000 ps) and injects when the first packet has left the
  // injection link, 21334; the link (0,0)->(1,0) is free again at 23334
  // (the first packet's [2000, 23334)) and carries it to 44668; (1,0)->(2,0)
  // from its header at 25334 until its tail has come in, 44668 + 2000; core
  // 2's ejection until 46668 + 2000 = 48668 ps: cycle 49. Core 1's packet
  // is unchanged (lands at 25334: cycle 26).
  const std::string send =
      "noc_send src=0 dst=0 bytes=512 to=%d transfer=3 src_box=[0,0,0,0]:[0,0,0,0] "
      "dst_box=[0,0,0,0]:[0,0,0,0]\n";
  auto to = [&](int core) {
    std::string t = send;
    t.replace(t.find("%d"), 2, std::to_string(core));
    return t;
  };
  const std::string recv = "wait_token q=pe kind=data transfer=3 from=0 count=1\nend\n";
  const auto p =
      program({".core 0\n" + to(1) + to(2) + "end\n", ".core 1\n" + recv, ".core 2\n" + recv});
  const Report one = run(p, 3, 1);
  EXPECT_EQ(one.cores[1].finish_cycles, 26);
  EXPECT_EQ(one.cores[2].finish_cycles, 53);
  ir::HardwareConfig hw = test_hw();
  hw.core.noc_in_flight = 2;
  const Report two = run(p, 3, 1, hw);
  EXPECT_EQ(two.cores[1].finish_cycles, 26);
  EXPECT_EQ(two.cores[2].finish_cycles, 49);
  EXPECT_EQ(two.total_cycles, 49);
  // The path through the second send still adds up to the total.
  EXPECT_EQ(two.critical_path.total(), two.total_cycles);
}

TEST(Sim, TheCriticalPathSeesTheSendWindowPastWaits) {
  // Core 0's noc queue with two sends in flight: a long send to core 1
  // (4096 bytes), a credit wait, a long send to core 2, another credit
  // wait and a short last send. Core 2's credits are signalled at cycle 0
  // and are there after 5 cycles; the second wait cannot issue before one
  // of the long sends has completed (two in flight until then), though a
  // wait sits between them. The path must go through the long sends, not
  // call the time since the credit was signalled a credit's flight.
  const std::string send =
      "noc_send src=0 dst=0 bytes=%b to=%c transfer=%t "
      "src_box=[0,0,0,0]:[0,0,0,0] dst_box=[0,0,0,0]:[0,0,0,0]\n";
  auto to = [&](int core, int bytes, int transfer) {
    std::string t = send;
    t.replace(t.find("%b"), 2, std::to_string(bytes));
    t.replace(t.find("%c"), 2, std::to_string(core));
    t.replace(t.find("%t"), 2, std::to_string(transfer));
    return t;
  };
  const std::string credit = "wait_token q=noc kind=credit transfer=9 from=2 count=";
  ir::HardwareConfig hw = test_hw();
  hw.core.noc_in_flight = 2;
  const Report r =
      run(program({".core 0\n" + to(1, 4096, 3) + credit + "1\n" + to(2, 4096, 4) + credit + "2\n" +
                       to(2, 512, 5) + "end\n",
                   ".core 1\nend\n",
                   ".core 2\nsignal q=ctrl kind=credit transfer=9 to=0 grant=0 grant_bytes=64\n"
                   "signal q=ctrl kind=credit transfer=9 to=0 grant=0 grant_bytes=64\nend\n"}),
          3, 1, hw);
  const CriticalPath& cp = r.critical_path;
  ASSERT_TRUE(cp.traced);
  EXPECT_EQ(cp.total(), r.total_cycles);
  EXPECT_LE(cp.waits[static_cast<std::size_t>(WaitKind::l2_credit)], 10) << r.total_cycles;
  EXPECT_GT(cp.cycles[static_cast<std::size_t>(PathKind::noc)], 150);  // the long send
}

TEST(Sim, TheCriticalPathFollowsLocalWaitsAndAddsUpToTheTotal) {
  // LocalWaitOrdersEnginesOfACore: the dma_in [0, 544001) ps, the PE's
  // wait for it, pe_cfg [544001, 548001) and pe_run [548001, 852001). The
  // path, traced back from the pe_run, is all of it: 544001 ps of DRAM
  // (545 cycles with the leftover picosecond) and 308 cycles of compute,
  // 853 = the total, in one segment (no workload) on core 0.
  const Report r = run(program({std::string(".core 0\n") + kDmaIn +
                                "wait_local q=pe on=dma_in count=1\n" + kCfg + kRun + "end\n"}),
                       1, 1);
  const CriticalPath& cp = r.critical_path;
  ASSERT_TRUE(cp.traced);
  EXPECT_EQ(cp.total(), r.total_cycles);
  EXPECT_EQ(cp.cycles[static_cast<std::size_t>(PathKind::dram)], 545);
  EXPECT_EQ(cp.cycles[static_cast<std::size_t>(PathKind::compute)], 308);
  EXPECT_EQ(cp.steps, 3);  // dma_in, pe_cfg, pe_run
  ASSERT_EQ(cp.segments.size(), 1u);
  EXPECT_EQ(cp.segments[0].core_id, 0);
  EXPECT_EQ(cp.segments[0].workload_id, -1);
  EXPECT_EQ(cp.segments[0].end, 853);
}

TEST(Sim, TheCriticalPathCrossesCoresThroughTokens) {
  // TokenAcrossCores: core 1's wait ends when core 0's credit, signalled
  // at 0, arrives at 4667 ps: the path is that token's flight, 5 cycles,
  // ending on core 1.
  const Report r = run(
      program({".core 0\nsignal q=ctrl kind=credit transfer=7 to=1 grant=0 grant_bytes=64\nend\n",
               ".core 1\nwait_token q=ctrl kind=credit transfer=7 from=0 count=1\nend\n"}),
      2, 1);
  const CriticalPath& cp = r.critical_path;
  EXPECT_EQ(cp.total(), 5);
  EXPECT_EQ(cp.cycles[static_cast<std::size_t>(PathKind::token)], 5);
  ASSERT_FALSE(cp.segments.empty());
  EXPECT_EQ(cp.segments.front().core_id, 0);
  EXPECT_EQ(cp.segments.back().core_id, 1);
  // The data of a send: the path goes through the noc_send, whose time is
  // the transfer (DataSendDeliversTheDataToken: 47 cycles).
  const Report d =
      run(program({".core 0\nnoc_send src=0 dst=0 bytes=1024 to=1 transfer=3 "
                   "src_box=[0,0,0,0]:[0,0,0,0] dst_box=[0,0,0,0]:[0,0,0,0]\nend\n",
                   ".core 1\nwait_token q=pe kind=data transfer=3 from=0 count=1\nend\n"}),
          2, 1);
  EXPECT_EQ(d.critical_path.total(), 47);
  EXPECT_EQ(d.critical_path.cycles[static_cast<std::size_t>(PathKind::noc)], 47);
  std::ostringstream text;
  print_report(text, d);
  EXPECT_NE(text.str().find("critical path (the chain of operations and waits that sets the "
                            "total): 47 cycles"),
            std::string::npos)
      << text.str();
}

TEST(Sim, ASignalWaitsForTheTransfersBeforeIt) {
  // A store, then "it is in DRAM" to core 1: with two transfers in flight
  // the signal still leaves only when the store is acknowledged, so core 1
  // gets the token at the same cycle as with one (and not at cycle 5, a
  // token's flight from cycle 1).
  const auto p =
      program({".core 0\ndma_out l2=0 bytes=1024 dram=0 transfer=4 "
               "src_box=[0,0,0,0]:[0,0,0,0]\n"
               "signal q=dma_out kind=dram transfer=4 to=1 grant=0 grant_bytes=0\nend\n",
               ".core 1\nwait_token q=dma_in kind=dram transfer=4 from=0 count=1\nend\n"});
  const Report one = run(p, 2, 1);
  ir::HardwareConfig hw = test_hw();
  hw.core.dma_in_flight = 2;
  const Report two = run(p, 2, 1, hw);
  EXPECT_GT(one.cores[1].finish_cycles, one.cores[0].dram);
  EXPECT_EQ(two.cores[1].finish_cycles, one.cores[1].finish_cycles);
}

TEST(Sim, InterleavedDramSpreadsEveryAccessOverThePorts) {
  // 1x1 mesh, dram.interleave: the read's request reaches the west port at
  // 4667 (as above) and each port reads a stripe of 256 bytes: both ready
  // at 260667. The west stripe ejects [264667, 275334), the east one finds
  // the ejection link taken: [275334, 286001); + 2 cycles -> cycle 289
  // (545 from one port).
  ir::HardwareConfig hw = test_hw();
  hw.dram.raw.json["interleave"] = true;
  const Report r = run(program({".core 0\n" + kDmaIn + "end\n"}), 1, 1, hw);
  EXPECT_EQ(r.total_cycles, 289);
  ASSERT_EQ(r.dram_ports.size(), 2u);
  EXPECT_EQ(r.dram_ports[0].bytes_read, 256);
  EXPECT_EQ(r.dram_ports[1].bytes_read, 256);
  // A write's packets go to the port of their address: 512-byte granules
  // round robin, granule 0 west, granule 1 east.
  const Report w = run(program({".core 0\ndma_out l2=0 bytes=1024 dram=0 transfer=4 "
                                "src_box=[0,0,0,0]:[0,0,0,0]\n"
                                "end\n"}),
                       1, 1, hw);
  EXPECT_EQ(w.dram_ports[0].bytes_written, 512);
  EXPECT_EQ(w.dram_ports[1].bytes_written, 512);
  hw.dram.raw.json["interleave"] = false;
  const Report u = run(program({".core 0\ndma_out l2=0 bytes=1024 dram=0 transfer=4 "
                                "src_box=[0,0,0,0]:[0,0,0,0]\n"
                                "end\n"}),
                       1, 1, hw);
  EXPECT_EQ(u.dram_ports[0].bytes_written, 1024);
}

TEST(Sim, LocalWaitOrdersEnginesOfACore) {
  // dma_in retires at 544001 ps (as above); the PE queue waits for it, then
  // pe_cfg [544001, 548001) and pe_run 304 cycles -> 852001 ps -> cycle 853.
  const Report r = run(program({std::string(".core 0\n") + kDmaIn +
                                "wait_local q=pe on=dma_in count=1\n" + kCfg + kRun + "end\n"}),
                       1, 1);
  EXPECT_EQ(r.total_cycles, 853);
  EXPECT_EQ(r.cores[0].dram, 545);     // [0, 544001) rounds up to 545
  EXPECT_EQ(r.cores[0].compute, 308);  // [544001, 852001)
}

TEST(Sim, TokenAcrossCores) {
  // 2x1 mesh. Core 0 signals a credit at 0: 16 B, one hop: injection [0,
  // 667), hop link at 2000, ejection at 4000, arrival 4667 ps. Core 1's
  // wait_token retires then; its `end` was dispatched at 1000 -> done at
  // 4667 ps = cycle 5, all of it waiting for L2 space (a credit).
  const Report r = run(
      program({".core 0\nsignal q=ctrl kind=credit transfer=7 to=1 grant=0 grant_bytes=64\nend\n",
               ".core 1\nwait_token q=ctrl kind=credit transfer=7 from=0 count=1\nend\n"}),
      2, 1);
  EXPECT_EQ(r.total_cycles, 5);
  ASSERT_EQ(r.cores.size(), 2u);
  EXPECT_EQ(r.cores[1].l2_space, 5);
  EXPECT_EQ(r.cores[1].token, 0);
  EXPECT_EQ(r.cores[0].peak_l2_bytes, 64);  // the credit reserves the granted range
  EXPECT_EQ(r.cores[0].finish_cycles, 1);   // `end` dispatched at cycle 1
}

TEST(Sim, DataSendDeliversTheDataToken) {
  // 1024 bytes = 2 packets from core 0 to core 1 (one hop). Packet 1:
  // injection [0, 21334), arrival 4000 + 21334 = 25334 is not the end;
  // packet 2 is injected at 21334: hop link free at 2000 + 21334 = 23334 ->
  // starts 23334, ejection at max(25334, 25334) -> arrives 46668 ps. Core 1
  // waits for the data token: done at cycle 47.
  const Report r =
      run(program({".core 0\nnoc_send src=0 dst=0 bytes=1024 to=1 transfer=3 "
                   "src_box=[0,0,0,0]:[0,0,0,0] dst_box=[0,0,0,0]:[0,0,0,0]\nend\n",
                   ".core 1\nwait_token q=pe kind=data transfer=3 from=0 count=1\nend\n"}),
          2, 1);
  EXPECT_EQ(r.total_cycles, 47);
  EXPECT_EQ(r.cores[0].noc, 47);
  EXPECT_EQ(r.cores[1].token, 47);
}

TEST(Sim, NocWritesIntoL2ShareItsPorts) {
  // One 16-byte bank, 16-byte ports: rate(k) = 16 / k bytes per cycle.
  // Core 0 sends 1024 bytes (2 packets) to core 1, reading them out of L2
  // at 16 B/cycle (a packet every 32000 ps); core 1 runs pe_cfg [0, 4) and
  // an L2-bound pe_run from cycle 4: (8192 + 512) bytes.
  ir::HardwareConfig hw = test_hw();
  hw.l2.banks = 1;
  hw.l2.bank_bytes = 16;
  hw.l2.port_bytes = 16;
  const std::string big_run =
      "pe_run ifmap=0 ifmap_bytes=8192 weight=0 weight_bytes=0 ofmap=16384 ofmap_bytes=512 "
      "ifmap_box=[0,0,0,0]:[0,31,9,9] ofmap_box=[0,0,0,0]:[0,15,7,7]\n";
  const auto p =
      program({".core 0\nnoc_send src=0 dst=0 bytes=1024 to=1 transfer=3 "
               "src_box=[0,0,0,0]:[0,0,0,0] dst_box=[0,0,0,0]:[0,0,0,0]\nend\n",
               ".core 1\n" + kCfg + big_run + "end\n"});
  // Apart: the PE gets the whole port, ceil(8704 / 16) + 16 = 560 cycles:
  // done at 564. Packet 1 ejects [4000, 25334), packet 2 (injected at
  // 32000) [36000, 57334): the send completes at cycle 58.
  const Report apart = run(p, 2, 1, hw);
  EXPECT_EQ(apart.cores[1].finish_cycles, 564);
  EXPECT_EQ(apart.cores[0].finish_cycles, 58);
  // Sharing: the pe_run starts while the send's data is being written, so
  // it gets rate(2) = 8: ceil(8704 / 8) + 16 = 1104 cycles, done at 1108.
  // Packet 1 (sent at 0, core 1 idle) ejects at rate(1) = 16 B/cycle:
  // [4000, 36000); packet 2 (sent at 32000, the PE streaming) at rate(2):
  // 64000 ps from 36000: the send completes at cycle 100.
  hw.l2.noc_writes_share_ports = true;
  const Report shared = run(p, 2, 1, hw);
  EXPECT_EQ(shared.cores[1].finish_cycles, 1108);
  EXPECT_EQ(shared.cores[0].finish_cycles, 100);
}

// Runs the first `cycles` cycles only.
Report run_until(const assembler::Program& p, std::int32_t xlen, std::int64_t cycles) {
  SimOptions o;
  o.xlen = xlen;
  o.ylen = 1;
  o.until_cycles = cycles;
  Report r;
  std::string error;
  EXPECT_TRUE(simulate(p, test_hw(), {}, o, r, error)) << error;
  return r;
}

TEST(Sim, NotDoneAtTMinusOneDoneAtT) {
  // The three cases above, stopped one cycle before and at their end.
  // PE: pe_run retires at 308000 ps (cycle 308); `end` and pe_cfg earlier.
  const auto pe = program({std::string(".core 0\n") + kCfg + kRun + "end\n"});
  const Report pe_before = run_until(pe, 1, 307), pe_at = run_until(pe, 1, 308);
  EXPECT_TRUE(pe_before.stopped);
  EXPECT_FALSE(pe_before.deadlock);
  EXPECT_FALSE(pe_before.cores[0].finished());
  EXPECT_EQ(pe_before.cores[0].retired, 2);  // pe_cfg and end
  EXPECT_FALSE(pe_at.stopped);
  EXPECT_TRUE(pe_at.cores[0].finished());
  EXPECT_EQ(pe_at.cores[0].retired, 3);
  // DMA in: retires at 544001 ps, i.e. in cycle 545.
  const auto dma = program({std::string(".core 0\n") + kDmaIn + "end\n"});
  EXPECT_FALSE(run_until(dma, 1, 544).cores[0].finished());
  EXPECT_TRUE(run_until(dma, 1, 545).cores[0].finished());
  // Token: arrives at 4667 ps, in cycle 5.
  const auto tok =
      program({".core 0\nsignal q=ctrl kind=credit transfer=7 to=1 grant=0 grant_bytes=64\nend\n",
               ".core 1\nwait_token q=ctrl kind=credit transfer=7 from=0 count=1\nend\n"});
  const Report tok_before = run_until(tok, 2, 4);
  EXPECT_TRUE(tok_before.cores[0].finished());
  EXPECT_FALSE(tok_before.cores[1].finished());
  ASSERT_EQ(tok_before.blocked.size(), 1u);
  EXPECT_NE(tok_before.blocked[0].find("core 1 queue ctrl #0 wait_token"), std::string::npos);
  EXPECT_TRUE(run_until(tok, 2, 5).cores[1].finished());
}

TEST(Sim, RuntimeDeadlockNamesTheBlockedInstructions) {
  const Report r =
      run(program({".core 0\nwait_token q=pe kind=data transfer=1 from=1 count=1\nend\n",
                   ".core 1\nwait_token q=vp kind=data transfer=2 from=0 count=1\nend\n"}),
          2, 1);
  EXPECT_TRUE(r.deadlock);
  ASSERT_EQ(r.blocked.size(), 2u);
  EXPECT_NE(r.blocked[0].find("core 0 queue pe #0 wait_token"), std::string::npos) << r.blocked[0];
  EXPECT_NE(r.blocked[0].find("0 such tokens arrived"), std::string::npos) << r.blocked[0];
  EXPECT_NE(r.blocked[1].find("core 1 queue vp #0 wait_token"), std::string::npos) << r.blocked[1];
}

TEST(Sim, CoreOutsideTheMeshIsAnError) {
  SimOptions o;
  o.xlen = 1;
  o.ylen = 1;
  Report r;
  std::string error;
  EXPECT_FALSE(simulate(program({".core 5\nend\n"}), test_hw(), {}, o, r, error));
  EXPECT_NE(error.find("core 5 is outside the 1x1 mesh"), std::string::npos) << error;
}

TEST(Sim, BankedDramChangesTheTiming) {
  ir::HardwareConfig hw = test_hw();
  hw.dram.raw.json = {{"model", "banked"}};
  const Report a = run(program({std::string(".core 0\n") + kDmaIn + "end\n"}), 1, 1, hw);
  // Request arrives 4667 ps; DDR4: ceil(4667/625) = 8 clocks, 8 bursts of
  // 64 B, MOP4CLXOR (the preset's map): bursts 0-3 open one bank in each
  // bank group (activates at 8, 12, 16, 20: tRRD_S), bursts 4-7 hit them.
  // Reads every tCCD_S 4 from 8 + 22 = 30: first data at 52, last done at
  // 52 + 8 * 4 = 84 clocks = 52500 ps; data leaves at 52500: arrives
  // 52500 + 4000 + 21334 = 77834, + 2000 = 79834 ps -> cycle 80.
  EXPECT_EQ(a.total_cycles, 80);
  const StatSnapshot& port = a.stats.at(a.dram_ports[0].stats);
  EXPECT_EQ(port.value_or("bursts", -1), 8);
  EXPECT_EQ(port.value_or("row_hits", -1), 4);
  EXPECT_TRUE(a.dram_has_rows());
  EXPECT_DOUBLE_EQ(a.dram_row_hit_rate, 0.5);
  EXPECT_DOUBLE_EQ(a.dram_ports[0].row_hit_rate.value_or(0), 0.5);
}

TEST(Sim, Ramulator2DramTimesTheSameTransferWithBankGroups) {
  if (!ramulator2_built())
    GTEST_SKIP() << "Ramulator 2 is not built into this gemini (cmake/ramulator2.cmake)";
  ir::HardwareConfig hw = test_hw();
  hw.dram.raw.json = {{"model", "ramulator2"}};
  const Report a = run(program({std::string(".core 0\n") + kDmaIn + "end\n"}), 1, 1, hw);
  // As banked's above, DDR4-3200 on the same channel and map (MOP4CLXOR):
  // the request arrives at 4667 ps, clock 8; four activates, one per bank
  // group, tRRD_S 4 apart from 8, reads tCCD_S 4 apart from 30: the same
  // 84 clocks and cycle 80 as banked's, 4 row misses and 4 hits.
  EXPECT_EQ(a.total_cycles, 80);
  EXPECT_EQ(a.dram_model, "ramulator2");
  const StatSnapshot& port = a.stats.at(a.dram_ports[0].stats);
  EXPECT_EQ(port.value_or("bursts", -1), 8);
  EXPECT_EQ(port.value_or("row_hits", -1), 4);
  EXPECT_EQ(port.value_or("row_misses", -1), 4);
  EXPECT_GT(port.value_or("busy_clocks", -1), 0);
  EXPECT_TRUE(a.dram_has_rows());
  EXPECT_DOUBLE_EQ(a.dram_row_hit_rate, 0.5);
  // With the row:bank:column map the 8 bursts share one row of one bank,
  // so one bank group: reads tCCD_L 8 apart in both models, the last at 30
  // + 7 * 8 = 86, its last beat at 86 + CL 22 + 4 = 112 clocks = 70000 ps;
  // the data arrives at 70000 + 4000 + 21334 = 95334, + 2000 = 97334 ps ->
  // cycle 98.
  for (const char* model : {"ramulator2", "banked"}) {
    hw.dram.raw.json = {{"model", model}, {"address_mapping", "RoBaRaCoCh"}};
    const Report b = run(program({std::string(".core 0\n") + kDmaIn + "end\n"}), 1, 1, hw);
    EXPECT_EQ(b.total_cycles, 98) << model;
    EXPECT_DOUBLE_EQ(b.dram_row_hit_rate, 7.0 / 8.0) << model;
  }
}

TEST(Sim, ShippedExampleIsRepeatable) {
  // The same input twice in one process: identical reports (SystemC gets a
  // fresh context per run).
  const auto p = program({std::string(".core 0\n") + kDmaIn +
                              "wait_local q=pe on=dma_in count=1\n" + kCfg + kRun + "end\n",
                          ".core 1\n" + kCfg + kRun + "end\n"});
  std::ostringstream a, b;
  write_report_json(a, run(p, 2, 1), false);
  write_report_json(b, run(p, 2, 1), false);
  EXPECT_EQ(a.str(), b.str());
  EXPECT_NE(a.str().find("\"total_cycles\" : 853"), std::string::npos) << a.str();
}

}  // namespace
}  // namespace gemini::sim
