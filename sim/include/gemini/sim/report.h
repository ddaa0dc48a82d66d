#pragma once
// The result of one simulation and its three forms: the text summary
// printed by `gemini sim`, the JSON report (--report) and the per-workload
// CSV (--csv). Everything but the `host` fields is a pure function of the
// input and the configuration, so repeated runs give identical reports.

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "gemini/sim/energy.h"
#include "gemini/sim/power.h"
#include "gemini/sim/roofline.h"
#include "gemini/sim/silicon.h"
#include "gemini/sim/stats.h"

namespace gemini::sim {

// Where a core's cycles went until it finished. Categories are exclusive;
// at each instant the highest-priority one any engine is in counts:
// compute (PE, VP, WL0 fill from L2) > dram (DMA or WL0 from DRAM in
// flight) > noc (a send in flight) > token (waiting for data or a DRAM
// write of another core) > l2_space (waiting for a credit: the receiver's L2
// is not free yet) > other (local waits, fetch).
struct CoreReport {
  std::int32_t core_id = 0;
  std::int64_t finish_cycles = 0;
  std::int64_t compute = 0, dram = 0, noc = 0, token = 0, l2_space = 0, other = 0;
  std::int64_t instructions = 0;
  std::int64_t retired = 0;  // instructions retired (all of them unless stopped early)
  bool finished() const { return retired == instructions; }
  std::int64_t peak_l2_bytes = 0;
  // Spent in the core's units and by the transfers its instructions
  // started (NoC, DRAM), and its static energy over the whole run.
  Energy energy;
  std::int64_t stall() const { return dram + noc + token + l2_space + other; }
};

// A DRAM port: where it is, what its model's counters come to (its group
// of Report::stats: the ports' common counters and the model's own), and
// the figures made from them.
struct DramPortReport {
  std::int32_t row = 0;
  std::string side;                                // "west" or "east"
  std::size_t stats = 0;                           // its group's index in Report::stats
  std::int64_t bytes_read = 0, bytes_written = 0;  // of its group, as every model counts them
  std::int64_t busy_cycles = 0;
  double achieved_gbps = 0, peak_gbps = 0;
  // Its model counts rows (row_hits, row_misses, row_conflicts); the
  // port's row-hit rate, over its bursts (nullopt without rows or bursts).
  bool has_rows = false;
  std::optional<double> row_hit_rate;
};

struct LayerReport {
  std::string name;
  std::int64_t workloads = 0;
  std::int64_t predicted_cycles = 0;  // sum of the scheduler's `time`
  std::int64_t simulated_cycles = 0;  // sum of the workloads' simulated spans
  std::int64_t first_start = 0, last_end = 0;
  Energy energy;  // caused by its workloads (no static)
  // Its roofline under the scheduler's cost rules (roofline.h), when the
  // run was given the IR.
  std::optional<LayerRoofline> roofline;
  double ratio() const {
    return predicted_cycles > 0 ? static_cast<double>(simulated_cycles) / predicted_cycles : 0.0;
  }
};

// A workload's span: from the start of its first compute instruction (or of
// its first instruction if it computes nothing) to the retirement of its
// last instruction (sends and stores included).
struct WorkloadReport {
  std::int32_t core_id = 0;
  std::uint32_t workload_id = 0;
  std::string layer;
  std::int64_t predicted_cycles = 0;
  std::int64_t first_start = 0, compute_start = 0, end = 0;
  // Caused by its instructions wherever it was spent: its own units, the
  // receivers' L2 for its sends, the NoC and DRAM for its transfers.
  Energy energy;
  std::int64_t simulated_cycles() const { return end - compute_start; }
};

// The critical path: the chain of operations and waits that sets the total,
// traced back from the last instruction to retire (docs/timing-model.md,
// "Critical path"). Each step back goes to what let the instruction start
// or finish when it did: the earlier instruction of its queue, the
// instruction of another engine a wait_local counted, the signal or send
// of another core a wait_token received, or the last member to join a
// multicast read. Its time, cycle by cycle, is one of:
enum class PathKind : std::uint8_t {
  compute,  // a PE, VP or WL0-from-L2 operation on the path
  dram,     // a DMA (or WL0 fill) from or to DRAM, a multicast read's join included
  noc,      // a noc_send until its last packet arrived
  token,    // a token between a signal and its arrival (NoC latency)
  other,    // dispatch and gaps the trace cannot attribute
  kCount
};
inline constexpr std::size_t kPathKinds = static_cast<std::size_t>(PathKind::kCount);
const char* to_string(PathKind k);
// A run of consecutive steps of the path on one core and workload.
struct PathSegment {
  std::int32_t core_id = 0;
  std::int64_t workload_id = -1;  // -1: instructions of no workload
  std::string layer;
  std::int64_t start = 0, end = 0;  // cycles
  std::array<std::int64_t, kPathKinds> cycles{};
};
// What the path waited for, cycle by cycle: its own work, a resource that
// another instruction held, or nothing at all -- the programs' order. Adds
// up to the total, as PathKind does (docs/timing-model.md, "What the path
// waited for"); compute = PathKind::compute, dram + dram_port + in_order =
// PathKind::dram, noc + link = PathKind::noc (a DMA's packets' link waits
// are in link too), token + l2_credit = PathKind::token, ordering =
// PathKind::other.
enum class WaitKind : std::uint8_t {
  compute,    // a PE, VP or WL0-from-L2 operation's own time
  dram,       // a DMA's own time: its bytes at the DRAM port's rate, its flight
  noc,        // a noc_send's own time: its packets' serialisation and hops
  dram_port,  // a DRAM port serving another instruction's requests first
  link,       // a NoC link carrying another instruction's packets first
  in_order,   // a read held at its port behind the core's earlier read (dram.in_order)
  token,      // a data or DRAM token's flight from its producer
  l2_credit,  // a credit's flight: the receiver's L2 bytes freed, on their way
  ordering,   // nothing busy: dispatch, and gaps the programs' order left
  kCount
};
inline constexpr std::size_t kWaitKinds = static_cast<std::size_t>(WaitKind::kCount);
const char* to_string(WaitKind k);
// The path's cycles of one wait kind spent on one thing: a DRAM port's
// other requests (by their instruction's layer and opcode), a link (which,
// and whose packets), a held read, a producer, a credit's sender, an
// ordering gap (the instruction that started late).
struct PathBlame {
  WaitKind kind = WaitKind::ordering;
  std::string what;
  std::int64_t cycles = 0, count = 0;
};
// A blocking wait of an instruction on the path: the path went on through
// the instruction it waited for (its time is that one's, above). `kind`:
// token (a wait_token for data or a DRAM store), l2_credit (for a credit),
// multicast (a multicast read for its last member): the waits for another
// core (a wait_local's is its own core's).
struct PathJump {
  std::string kind;
  std::int32_t core_id = 0;
  std::string opcode, layer;
  std::int64_t cycles = 0;  // blocked
  std::int32_t to_core = 0;
  std::string to_opcode, to_layer;
  // Why that one was late: the path's cycles by wait kind while this one
  // was blocked (whole cycles, floors).
  std::array<std::int64_t, kWaitKinds> meanwhile{};
};
struct JumpSum {
  std::string kind;
  std::int64_t cycles = 0, count = 0;
};
struct CriticalPath {
  bool traced = false;                            // not when the run deadlocked or was stopped
  std::array<std::int64_t, kPathKinds> cycles{};  // adds up to the total
  std::array<std::int64_t, kWaitKinds> waits{};   // adds up to the total too
  std::vector<PathBlame> blames;                  // per kind, the largest first (a few each)
  // Blocking waits on the path by kind (token, l2_credit, multicast):
  // cycles blocked and count; and the longest few.
  std::vector<JumpSum> jump_sums;
  std::vector<PathJump> jumps;
  std::vector<PathSegment> segments;  // in time order
  std::int64_t steps = 0;             // instructions on the path
  std::int64_t total() const;
};

// Functional simulation (gemini sim --functional): every tile a pe_run /
// vp_run chain computed and every DRAM tensor element a dma_out wrote,
// compared with the CPU reference computed from the model alone.
struct Mismatch {
  std::int32_t n = 0, k = 0, h = 0, w = 0;  // in the layer's output
  std::int32_t core_id = -1;
  std::int64_t workload_id = -1;
  std::string where;  // "tile" (computed on the core) or "dram" (stored by the core)
  std::int32_t got = 0, want = 0;
};
// Where the first wrong value of a layer came from: the input elements its
// tile read that differ from the reference, and which instruction last
// wrote each of them into L2 (or WL0) before the read (docs/isa.md,
// "Provenance").
struct Provenance {
  struct Writer {
    bool none = true;          // no instruction wrote the bytes before the read
    std::int32_t core_id = 0;  // the core that issued it (a send: the sender)
    std::uint32_t pc = 0;      // its index in that core's program
    std::string opcode;        // dma_in, noc_send, pe_run, vp_run, wl0_load
    std::int64_t workload_id = -1;
    std::string layer;           // its workload's layer
    std::int64_t transfer = -1;  // dma_in, noc_send: the transfer
    std::int64_t dram = -1;      // dma_in, wl0_load from DRAM: the address read
    bool operator==(const Writer&) const = default;
  };
  struct Input {
    std::string operand;                // ifmap, weights (PE); in0, in1 (VP)
    std::int32_t at[4] = {0, 0, 0, 0};  // in the operand's frame (layer input, weights [k,c,r,s])
    std::int32_t got = 0;
    std::vector<std::int32_t> want;  // an elementwise add: any operand's value
    Writer writer;
  };
  std::int32_t core_id = 0;  // the tile's instruction
  std::uint32_t pc = 0;
  std::string opcode;
  std::int64_t inputs_read = 0, inputs_differing = 0;
  std::vector<std::pair<std::string, std::int64_t>> differing_by_operand;  // ifmap, weights, ...
  std::vector<Input> examples;                           // the first differing ones (8)
  std::vector<std::pair<Writer, std::int64_t>> writers;  // of the differing ones, most first (8)
  std::string verdict;  // what the inputs say: the schedule's data, or the computation
};
struct LayerCheck {
  std::string layer;
  std::int64_t tile_elements = 0, tile_mismatches = 0;
  std::int64_t dram_elements = 0, dram_mismatches = 0;
  std::int32_t max_abs_diff = 0;
  std::optional<Mismatch> first;
  std::optional<Provenance> provenance;  // of `first`, when a tile computed it
  // CRC-32 (8 hex digits) of the reference's output of the layer, and of
  // the layer's DRAM tensor as the programs left it ("" when they stored
  // none of it): what golden cases pin.
  std::string reference_digest, dram_digest;
  // Coverage: the elements of the layer's output the model defines, and
  // how many distinct ones the programs computed (and so checked).
  std::int64_t defined = 0, computed = 0;
  bool complete() const { return computed >= defined; }
  std::int64_t elements() const { return tile_elements + dram_elements; }
  std::int64_t mismatches() const { return tile_mismatches + dram_mismatches; }
};
// A program's data access that its own operands contradict (a box outside
// its tensor's layout, an input the tile lacks, a missing view): named by
// core, instruction and workload.
struct FunctionalFault {
  std::int32_t core_id = 0;
  std::uint32_t instruction = 0;
  std::int64_t workload_id = -1;
  std::string layer, message;
};
struct FunctionalReport {
  bool enabled = false;
  std::uint64_t seed = 0;
  std::string model;
  std::vector<LayerCheck> layers;       // in the model's order
  std::vector<FunctionalFault> faults;  // the first 100
  std::int64_t fault_count = 0;
  std::int64_t bytes_moved = 0;  // by DMAs, sends and WL0 loads, functionally
  std::int64_t macs = 0;         // multiply-accumulates computed by the PEs
  // Where wrong values start: layers with mismatches all of whose inputs
  // (and weights from other layers) matched the reference.
  std::vector<std::string> origins;
  // Corrections of known IR quirks from the model (Q1-Q4): count per quirk.
  std::vector<std::pair<std::string, std::int64_t>> quirks;
  std::int64_t mismatches() const;
  std::int64_t elements() const;
  // Layers whose output the programs computed only in part (or not at all).
  std::int64_t incomplete() const;
  // Bit-exact, no fault, and every element of every layer computed.
  bool passed() const { return fault_count == 0 && mismatches() == 0 && incomplete() == 0; }
};

// How `gemini import` placed a public-dialect file's tensors in L2 (filled
// by the caller that imported it; docs/allocation.md): loads that wait for
// the workload before them to free their bytes, how many of those capacity
// forces, the same for the tight packing, and the allocated peak against
// the buffer.
struct L2AllocationSummary {
  std::string strategy;  // "prefetch" or "tight"
  std::int64_t loads = 0, waits = 0, forced = 0, waits_tight = 0, forced_tight = 0;
  std::int64_t alloc_peak = 0, buffer = 0, live_peak = 0;
};

// Die-to-die links (chiplets.h) of a run on a cut mesh.
struct D2dLinkReport {
  std::string from, to;  // "(x,y)"; x = -1 / xlen are the DRAM ports (IO die)
  std::int64_t bytes = 0;
  double utilisation = 0;  // busy time / the run's time
};
struct ChipletReport {
  std::int32_t x_cut = 1, y_cut = 1;
  std::string interface;
  double d2d_gbps = 0, d2d_latency_ns = 0;
  bool io_die = false;              // DRAM ports on an IO die, across D2D links
  std::int32_t links = 0;           // directional D2D links
  std::int64_t lanes_per_link = 0;  // SerDes lanes per direction (0: none)
  double static_mw = 0;             // every lane's power
  double link_util_max = 0, link_util_mean = 0;
  std::string busiest_link;
  std::vector<D2dLinkReport> per_link;
};

struct Report {
  std::string input, hw_name, dram_model;
  std::int32_t xlen = 0, ylen = 0;
  double frequency_mhz = 1000;
  std::int64_t total_cycles = 0;
  std::int64_t instructions = 0;
  std::vector<CoreReport> cores;
  std::vector<DramPortReport> dram_ports;
  std::int64_t dram_bytes = 0;
  // Bytes the ports read, and the schedule's unique reads: every DRAM out
  // entry once (they are equal when every entry's destinations share one
  // read).
  std::int64_t dram_read_bytes = 0, dram_unique_read_bytes = 0;
  double dram_achieved_gbps = 0, dram_peak_gbps = 0, dram_row_hit_rate = 0;
  // The model counts row hits (row_hit_rate means something): its ports'
  // statistics have row_hits.
  bool dram_has_rows() const { return !dram_ports.empty() && dram_ports.front().has_rows; }
  std::int64_t noc_packets = 0, noc_bytes = 0;
  double noc_peak_link_gbps = 0;  // one router-to-router link's, as the NoC model reports it
  std::int32_t noc_links = 0;
  double noc_link_util_max = 0, noc_link_util_mean = 0;
  std::string noc_busiest_link;  // "(x,y)->(x,y)"; x = -1 / xlen are the DRAM ports
  // On a cut mesh (chiplets): the D2D links; the noc_link_* figures above
  // are then the on-chip links'.
  std::optional<ChipletReport> chiplets;
  std::int64_t peak_l2_bytes = 0;
  std::vector<LayerReport> layers;  // in order of first appearance
  // The file's segments under the scheduler's rules (roofline.h), when the
  // run had the IR and its order of layers gives them.
  std::vector<SegmentRoofline> roofline_segments;
  std::vector<WorkloadReport> workloads;
  CriticalPath critical_path;
  std::optional<L2AllocationSummary> l2_allocation;
  std::optional<std::int64_t> expect_cycles;
  // Energy (energy.h): every event counted in the run, priced by the
  // configuration's `energy` section; the components add up to the total.
  // `unattributed`: caused by instructions of no workload (tokens of
  // synchronisation-only code); static is not attributed to workloads.
  EventCounts events{};
  Energy energy, unattributed;
  std::optional<double> expect_energy_pj;
  // Energy-delay product: total pJ x total cycles (the scheduler's cost).
  double edp() const { return energy.total() * static_cast<double>(total_cycles); }
  // The silicon's area and cost (silicon.h), when the configuration has a
  // `silicon` section; the Gemini scheduler's objective is overall_usd x EDP.
  std::optional<SiliconReport> silicon;
  double cost_edp() const { return silicon ? silicon->overall_usd * edp() : 0; }
  // Power over time (power.h), when it was asked for.
  std::optional<PowerReport> power;
  // Runtime deadlock: every blocked instruction when nothing could progress.
  bool deadlock = false;
  bool stopped = false;  // SimOptions::until_cycles ended the run with work left
  std::vector<std::string> blocked;
  FunctionalReport functional;
  // Every unit's statistics group at the end of the run, in unit order:
  // cores (engines, L2, WL0 of each), the NoC, the DRAM ports.
  std::vector<StatSnapshot> stats;
  // Host fields (excluded from golden comparisons).
  double wall_seconds = 0;
  std::int64_t predicted_total() const;
  // The layers' roofline bounds summed (roofline.h); 0 when the run had no IR.
  std::int64_t roofline_total() const;
  // The segments' bounds summed; 0 without segments.
  std::int64_t roofline_segments_total() const;
  double time_us() const { return static_cast<double>(total_cycles) / frequency_mhz; }
};

void print_report(std::ostream& os, const Report& r);
// The functional part of print_report (nothing when it did not run).
void print_functional(std::ostream& os, const FunctionalReport& f);
// `host`: include the wall-time fields (golden files leave them out).
void write_report_json(std::ostream& os, const Report& r, bool host);
void write_workload_csv(std::ostream& os, const Report& r);
// Power over time (gemini sim --power-csv): one line per window and scope
// (package, dram, io_die, each die, each core) with its power in W, whole
// and by component; only the header without Report::power.
void write_power_csv(std::ostream& os, const Report& r);

}  // namespace gemini::sim
