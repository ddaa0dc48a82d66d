#pragma once
// State shared by the units of one simulation: resolved parameters, the
// trace recorder and the progress shown (progress.h). Owned by the System; units hold a
// reference. No SystemC types here.

#include <bit>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gemini/ir/hw_config.h"
#include "gemini/sim/chiplets.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/dram_trace.h"
#include "gemini/sim/energy.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/silicon.h"
#include "progress.h"

namespace gemini::sim {

struct Params {
  const ir::HardwareConfig* hw = nullptr;
  Tick period = 1000;  // core clock, ps
  std::int32_t xlen = 0, ylen = 0;
  std::int32_t packet_bytes = 512, control_bytes = 16;
  Tick l2_latency = 0;                  // ps
  std::vector<std::int32_t> port_rows;  // per DRAM port: row
  std::vector<bool> port_east;          // per DRAM port: east side
  std::vector<std::int32_t> core_port;  // per core: its DRAM port
  // Where DRAM port i sits: the west (x = -1) or east (x = xlen) end of its row.
  NodePos port_pos(std::size_t i) const { return {port_east[i] ? xlen : -1, port_rows[i]}; }
  std::string dram_model;                // its name, for the report
  bool dram_interleave = false;          // dram.interleave
  bool dram_in_order = false;            // dram.in_order
  EnergyCosts energy;                    // the `energy` section, by event
  ChipletSetup chiplets;                 // the `chiplets` section (1 x 1: one die)
  bool io_die = false;                   // dram.placement "io_die"
  std::optional<SiliconParams> silicon;  // the `silicon` section, when there is one
  // The models, built from the configuration's `noc` and `dram` sections
  // before the simulation starts; the NoC module and the DRAM ports take
  // them (one DRAM model per port).
  std::unique_ptr<NocModel> noc;
  std::vector<std::unique_ptr<DramModel>> dram;
};

// One instruction of the run: its core (index) and its index in the core's
// program; kNoRef (core -1) for none. Models below the simulator that keep
// an owner for what they time (NocModel::set_owner) keep it as an opaque
// 64-bit tag: tag() and from_tag() are the one conversion, bit for bit
// (kNoRef's tag is ~0, the models' "nobody").
struct OpRef {
  std::int32_t core = -1;
  std::uint32_t op = ~std::uint32_t{0};
  bool none() const { return core < 0; }
  friend bool operator==(const OpRef&, const OpRef&) = default;
  std::uint64_t tag() const { return std::bit_cast<std::uint64_t>(*this); }
  static OpRef from_tag(std::uint64_t t) { return std::bit_cast<OpRef>(t); }
};
inline constexpr OpRef kNoRef{};

// When an instruction started (issued), completed and retired.
struct OpTimes {
  Tick start = 0, done = 0, retire = 0;
};

// What a transfer (dma_in, dma_out, wl0_load from DRAM, noc_send) waited for
// inside its own time, as the NoC and the DRAM ports measured it
// (critical_path.h splits its step by these): `port`, time a request of it
// spent at a DRAM port beyond its own bytes at the port's peak rate while
// an earlier request (`port_owner`) was there; `link`, time its
// packets' heads waited for links that another instruction's packets held
// (`link_id` the one of the longest single wait, `link_owner` whose);
// `held`, time a read was held at its port behind the core's earlier read
// (dram.in_order); `tail`, for a read, time from when the DRAM had its
// last byte ready to the read's completion (the NoC's delivery, its link
// waits included). Each is the largest over the transfer's stripes.
struct OpWait {
  Tick port = 0, link = 0, held = 0, tail = 0;
  OpRef port_owner, link_owner;
  std::int32_t link_id = -1;
  bool any() const { return port > 0 || link > 0 || held > 0 || tail > 0; }
  void merge(const OpWait& o) {
    if (o.port > port) {
      port = o.port;
      port_owner = o.port_owner;
    }
    if (o.link > link) {
      link = o.link;
      link_owner = o.link_owner;
      link_id = o.link_id;
    }
    held = o.held > held ? o.held : held;
    tail = o.tail > tail ? o.tail : tail;
  }
};

struct TraceEvent {
  std::int32_t track_group = 0;  // core index, or -1 - port for DRAM
  std::uint8_t track = 0;        // engine (cores) or read/write (DRAM)
  std::uint8_t op = 0;
  std::int32_t wl = -1;  // IR workload id (cores), -1 none
  std::int64_t bytes = 0;
  Tick start = 0, end = 0;
};

class Functional;
class PowerRecorder;

struct SimContext {
  Params params;
  Functional* functional = nullptr;  // gemini sim --functional; null: timing only
  PowerRecorder* power = nullptr;    // power over time (power.h); null: not asked for
  bool tracing = false;
  std::vector<TraceEvent> trace;
  bool dram_tracing = false;  // every DRAM request into dram_trace
  std::vector<DramTraceRecord> dram_trace;
  Progress progress;  // off unless SimOptions::progress asks
  // A model that could not make progress (process_guard.h): its text; the
  // run has stopped and has no report.
  std::string stall;
};

}  // namespace gemini::sim
