#pragma once
// One Gemini core (docs/timing-model.md, "Core").
//
// Structure: an instruction stream dispatched in program order, at
// core.dispatch_per_cycle instructions per cycle, into seven in-order engine
// queues (dma_in, dma_out, noc, wl0, pe, vp, ctrl). Each engine is one
// SC_METHOD woken only by its own event: when an operation completes, when
// the count or token it waits for arrives, or when its next instruction is
// dispatched. An idle or blocked engine is never woken.
//
// An engine issues in order and retires in order. The DMA engines (dma_in,
// dma_out) keep up to core.dma_in_flight transfers in flight: an
// instruction behind a transfer issues as soon as its own condition holds
// (and a transfer when fewer than that many are in flight), completes when
// the NoC says so, and retires once everything before it has retired, so
// the retired counts that wait_local reads stay in program order. The noc
// engine does the same with core.noc_in_flight sends. A signal is a
// release: it issues only when everything before it on its queue has
// completed. Every other engine has one operation in flight; the members
// of a NoC multicast (noc_send members >= 2) issue one after another and go
// as one transfer when the last is issued.
//
// Timing: wait_local, wait_token, signal, nop and end take no time once
// their condition holds; pe_cfg takes pe.cfg_cycles; pe_run, vp_run and WL0
// fills from L2 take their compute_timing.h formula with the L2 port rate
// for the number of engines streaming L2 when they start; DMA, WL0 fills
// from DRAM and sends complete when the NoC / DRAM say so.

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "gemini/sim/energy.h"
#include "gemini/sim/stats.h"
#include "network_port.h"
#include "power_recorder.h"
#include "program_image.h"
#include "sc_include.h"
#include "sim_context.h"

namespace gemini::sim {

// A client of the network (network_port.h): it sends on `net` and the
// network tells it of tokens, completions and what its transfers cost.
class CoreModule final : public sc_core::sc_module, public NetworkClient {
 public:
  CoreModule(const sc_core::sc_module_name& name, std::int32_t index, const CoreImage& image,
             const assembler::CoreProgram& program, SimContext& ctx, NetworkPort& net);

  // NetworkClient: `slot` is the token's slot on this core (OpRec::slot of
  // the signal or noc_send that sent it).
  void deliver(std::uint32_t slot, Tick now, OpRef from) override;
  void finish(std::uint8_t engine, std::uint32_t op, Tick at, Tick now) override;

  // Results.
  bool done() const { return engines_done_ == assembler::kEngines; }
  Tick finish_time() const { return finish_; }
  enum Act : std::uint8_t { kDone, kOther, kSpace, kToken, kNoc, kDram, kCompute, kActs };
  const std::array<Tick, kActs>& activity() const { return acc_; }
  std::int64_t peak_l2() const { return peak_l2_; }
  std::int64_t instructions() const { return static_cast<std::int64_t>(img_.ops.size()); }
  std::int64_t retired() const {
    std::int64_t n = 0;
    for (const Engine& e : eng_) n += e.retired;
    return n;
  }
  const CoreImage& image() const { return img_; }
  // Engines streaming L2 now (docs/timing-model.md, "L2 port").
  std::int32_t l2_streams() const override { return l2_streams_; }
  const std::vector<Tick>& wl_first() const { return wl_first_; }
  const std::vector<Tick>& wl_compute() const { return wl_compute_; }
  const std::vector<Tick>& wl_end() const { return wl_end_; }
  // One line per blocked engine: the instruction and what it waits for.
  void describe_blocked(std::vector<std::string>& out) const;

  // What the critical path (critical_path.h) is traced back from, per
  // instruction: when it started (issued), completed and retired, and, for
  // a wait_token or a multicast dma_in, the instruction whose token, or
  // whose join request, came last: kNoRef when none. Filled as
  // instructions retire.
  const std::vector<OpTimes>& op_times() const { return times_; }
  const std::vector<OpRef>& causes() const { return cause_; }
  void set_cause(std::uint32_t op, OpRef from) override { cause_[op] = from; }
  // Kept only when it waited.
  void note_wait(std::uint32_t op, const OpWait& w) override {
    if (w.any()) waits_.emplace_back(op, w);
  }
  const std::vector<std::pair<std::uint32_t, OpWait>>& op_waits() const { return waits_; }

  // Energy events (energy.h), counted twice: where they are spent (this
  // core's units: events(), its statistics groups) and which workload
  // caused them (wl_events(); no_workload() for instructions of none). The
  // NoC and DRAM events of a transfer are spent by the core whose
  // instruction `op` started it; a send's write into the receiver's L2 is
  // spent by the receiver and caused by the sender's workload.
  void count(std::uint32_t op, Event e, std::int64_t n) {
    CoreModule::spend(e, n);
    CoreModule::cause(op, e, n);
  }
  void spend(Event e, std::int64_t n) override {
    events_[static_cast<std::size_t>(e)] += n;
    if (power_ != nullptr) [[unlikely]]
      record_power(e, n);
  }
  void cause(std::uint32_t op, Event e, std::int64_t n) override {
    const std::int32_t wl = img_.ops[op].wl;
    (wl >= 0 ? wl_events_[static_cast<std::size_t>(wl)] : no_wl_)[static_cast<std::size_t>(e)] += n;
  }
  const EventCounts& events() const { return events_; }
  const std::vector<EventCounts>& wl_events() const { return wl_events_; }
  const EventCounts& no_workload() const { return no_wl_; }
  // The core's statistics groups: its engines, its L2, its WL0.
  std::vector<const StatGroup*> stat_groups() const {
    return {&core_stats_, &l2_stats_, &wl0_stats_};
  }

 private:
  // An issued instruction that has not retired.
  struct Slot {
    std::uint32_t instr = 0;
    Tick done_at = 0, started = 0;  // done_at: kNever until known
    bool timed = false;             // an operation (not a wait, view, ...)
    bool l2_stream = false;
    // A NoC multicast member before the last: in flight, but not counted
    // against the engine's limit (the group is one transfer, counted at
    // its last member).
    bool member = false;
    Act act = kOther;
  };
  struct Engine {
    std::vector<std::uint32_t> queue;  // instruction indices, program order
    std::size_t head = 0;              // the oldest not retired
    std::size_t issue = 0;             // the next to issue
    std::uint32_t retired = 0;
    std::uint32_t limit = 1;  // timed operations in flight at once
    std::deque<Slot> window;  // queue[head, issue)
    Act act = kOther;
  };
  struct Waiter {
    std::uint8_t engine;
    std::uint32_t count;
  };
  struct TokenSlot {
    std::uint32_t count = 0;
    OpRef last_from;  // the sender of the latest arrival
    std::vector<Waiter> waiters;
  };

  void step(std::uint8_t e);
  // Starts the operation at the engine's issue point; fills its slot.
  void start(std::uint8_t e, const OpRec& o, Slot& s, Tick now);
  // Issues the instruction at the issue point as complete at `now`.
  void complete_now(std::uint8_t e, Tick now);
  void retire(std::uint8_t e, const Slot& s, Tick now);
  void run_for(Slot& s, std::uint8_t e, std::int64_t cycles, Tick now);
  void set_act(std::uint8_t e, Act a, Tick now);
  void account(Tick now);
  Tick dispatch_at(std::uint32_t i) const {
    return static_cast<Tick>(i / dispatch_width_) * ctx_.params.period;
  }
  void wake(std::uint8_t e, Tick delay);
  // Wakes (and drops) the waiters whose count has been reached.
  void wake_waiters(std::vector<Waiter>& w, std::uint32_t count);

  std::int32_t index_;
  const CoreImage& img_;
  const assembler::CoreProgram& program_;
  SimContext& ctx_;
  NetworkPort& net_;
  std::uint32_t dispatch_width_;
  std::array<Engine, assembler::kEngines> eng_;
  std::array<sc_core::sc_event, assembler::kEngines> ev_;
  std::array<std::vector<Waiter>, assembler::kEngines> local_waiters_;
  std::vector<TokenSlot> tokens_;  // by slot (OpRec::slot)
  std::int32_t l2_streams_ = 0;
  std::int64_t l2_live_ = 0, peak_l2_ = 0;
  std::array<std::int32_t, kActs> counts_{};
  std::array<Tick, kActs> acc_{};
  Tick last_ = 0, finish_ = 0;
  std::size_t engines_done_ = 0;
  std::vector<Tick> wl_first_, wl_compute_, wl_end_;
  std::vector<std::uint32_t> wl_left_;  // per workload: its instructions not yet retired
  std::vector<OpTimes> times_;
  std::vector<OpRef> cause_;
  std::vector<std::pair<std::uint32_t, OpWait>> waits_;
  // The NoC multicast being gathered: its receivers so far.
  std::vector<MulticastTarget> multicast_;
  EventCounts events_{}, no_wl_{};
  // Power over time (power.h), when asked for: each event spent goes to the
  // recorder at the time it is spent, or spread until span_to_ (set while
  // an operation with a duration counts its events; 0 otherwise).
  PowerRecorder* power_ = nullptr;
  Tick span_to_ = 0;
  void record_power(Event e, std::int64_t n);
  std::vector<EventCounts> wl_events_;
  std::int64_t instructions_ = 0;
  StatGroup core_stats_, l2_stats_, wl0_stats_;
  void register_stats();
};

}  // namespace gemini::sim
