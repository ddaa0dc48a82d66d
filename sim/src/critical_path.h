#pragma once
// The critical path of a finished run (report.h, CriticalPath): traced back
// from the last instruction to retire through what let each instruction
// start or finish when it did, using the times and causes the cores
// recorded (CoreModule::op_times, causes). A pure function of those records:
// no SystemC here.
//
// One step back from instruction X, finishing at t:
//   * t later than X completed: X retired in order behind a slower
//     instruction of its queue; go to the one that completed at t;
//   * a wait_token that blocked: the interval from the token's sender's
//     completion to t is token flight; go to the sender;
//   * a wait_local that blocked: go to the instruction of the other engine
//     whose retirement reached the count;
//   * a multicast dma_in whose last member joined after it started: the
//     read counts from that member's start; go on from that member;
//   * anything else: [start, t] is X's own time (compute, DRAM, NoC); then
//     what let X start: the earlier instruction of its queue that completed
//     or retired at X's start (or issued with it), else its dispatch.
//
// What each step waited for (WaitKind): a transfer's own time is split by
// what the NoC and the DRAM ports measured for it (OpWait: its link waits;
// for a read, the rest of its delivery after the DRAM had its last byte,
// as NoC time; its DRAM port wait; its in-order hold; each at most what is
// left of the step), the rest being its own work (DRAM for a DMA); a token's flight is
// token, or l2_credit for a credit; dispatch and gaps are ordering. The
// blocking waits the trace steps through (a wait_token, a wait_local, a
// multicast read's join) are listed as jumps: their time is the chain's
// they went to, so they overlap the kinds.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gemini/sim/report.h"
#include "gemini/sim/workloads.h"
#include "program_image.h"
#include "sim_context.h"

namespace gemini::sim {

struct PathCore {
  const CoreImage* image = nullptr;
  const std::vector<OpTimes>* times = nullptr;
  const std::vector<OpRef>* causes = nullptr;  // kNoRef: none
  Tick finish = 0;
  // The transfers that waited (CoreModule::op_waits); null: none.
  const std::vector<std::pair<std::uint32_t, OpWait>>* waits = nullptr;
};

// `period`: the core clock; `dispatch_width`: instructions dispatched per
// cycle; `link_name`: a NoC link in words (NocModel::link_name; null: its
// number).
CriticalPath trace_critical_path(const std::vector<PathCore>& cores, Tick period,
                                 std::uint32_t dispatch_width, InFlight in_flight,
                                 const WorkloadTable& workloads,
                                 const std::function<std::string(std::int32_t)>& link_name = {});

}  // namespace gemini::sim
