#pragma once
// Hardware configuration: one struct per component, each with defaults, read
// from a JSON file (configs/README.md documents every parameter). Unknown
// keys, wrong types and out-of-range values are errors that name the
// component and the parameter, e.g.
//   configs/x.json:/l2/size_bytes: parameter "size_bytes" of component "l2":
//   expected an integer >= 1, got string "1M"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/model.h"
#include "gemini/ir/resources.h"

namespace gemini::ir {

struct MeshConfig {
  std::int32_t xlen = 0;  // 0: as the IR says
  std::int32_t ylen = 0;
};

struct ClockConfig {
  double frequency_mhz = 1000.0;
};

struct L2Config {
  std::int64_t size_bytes = 1 << 20;  // at most kMaxMemoryBytes, as WL0's
  // Ring-buffer regions [begin, end); empty: one region over all of L2.
  std::vector<RingRegion> ring_regions;
  std::int32_t align_channels = 8;  // channel alignment of fmap tensors
  std::int32_t bitwidth = 8;        // data width the scheduler assumed
  // Per output channel bytes of BatchNorm parameters a weight tensor may carry.
  std::int32_t bn_bytes_per_channel = 8;
  // Addresses and sizes of L2 tensors are multiples of this (gemini import).
  std::int32_t alignment_bytes = 8;
  // Timing (gemini sim, docs/timing-model.md): `banks` SRAM banks of
  // `bank_bytes` per cycle each; an engine's port moves up to `port_bytes`
  // per cycle; an access sees `latency_cycles` before its first byte.
  std::int32_t banks = 16;
  std::int32_t bank_bytes = 16;
  std::int32_t port_bytes = 64;
  std::int32_t latency_cycles = 2;
  // Data arriving from the NoC is written through an L2 port like an
  // engine's stream: it slows the engines streaming L2 and is slowed by
  // them (docs/timing-model.md, "L2 port and bank conflicts").
  bool noc_writes_share_ports = false;
};

struct Wl0Config {
  std::int64_t size_bytes = 4096;
  std::int32_t bytes_per_cycle = 64;  // WL0 fill and PE weight-streaming bandwidth
};

// The PE array: `rows` output channels x `cols` output pixels (along W) per
// cycle, each a dot product over `lanes` input channels.
struct PeConfig {
  std::int32_t rows = 8;
  std::int32_t cols = 8;
  std::int32_t lanes = 16;
  std::int32_t pipeline_cycles = 16;  // fill + drain of one pe_run
  std::int32_t cfg_cycles = 4;        // one pe_cfg
  std::int64_t macs_per_cycle() const { return std::int64_t{rows} * cols * lanes; }
};

// The vector processor: `lanes` elements per cycle.
struct VpConfig {
  std::int32_t lanes = 64;
  std::int32_t pipeline_cycles = 8;
};

// Instruction fetch and dispatch of a core.
struct CoreConfig {
  std::int32_t dispatch_per_cycle = 1;
  // Transfers each DMA engine (dma_in, dma_out) keeps in flight; they
  // retire in program order (docs/timing-model.md, "Core").
  std::int32_t dma_in_flight = 1;
};

// The 2-D mesh NoC (XY routing, virtual cut-through at packet granularity).
struct NocConfig {
  double link_gbps = 24.0;          // per direction per link (GB/s = bytes/ns)
  std::int32_t router_cycles = 2;   // header latency through one router
  std::int32_t packet_bytes = 512;  // payload per packet; messages are split
  std::int32_t control_bytes = 16;  // a token, DMA read request or write ack
  // Packets each router input buffer holds; 0: unbounded (no backpressure).
  std::int32_t buffer_packets = 0;
  // Whether one core's data for several cores (an ofmap with several core
  // destinations) may be sent once along the XY tree (docs/isa.md, "NoC
  // multicast"); the lowering decides per ofmap.
  bool multicast = false;
};

// Timing of one DRAM channel in its own clock (tck_ps), JEDEC style.
struct DramTiming {
  std::int64_t tck_ps = 625;
  std::int32_t cl = 22, cwl = 16, trcd = 22, trp = 22, tras = 52, twr = 24;
  std::int32_t trfc = 560, trefi = 12480;
  std::int32_t tburst = 4, tccd = 4, twtr = 12, trtw = 12;
  std::int32_t burst_bytes = 64, banks = 16;
  std::int32_t row_bytes = 8192;
  // Peak data-bus bandwidth in GB/s.
  double peak_gbps() const {
    return static_cast<double>(burst_bytes) * 1000.0 / (static_cast<double>(tburst) * tck_ps);
  }
};
// JEDEC-derived presets: "ddr4_3200", "lpddr5_6400", "hbm2"; nullptr if unknown.
const DramTiming* dram_preset(const std::string& name);
std::vector<std::string> dram_preset_names();

// DRAM: one controller per port; ports at the west and east end of every row
// ("west_east") or of row 0 only ("west_east_row0").
struct DramConfig {
  std::string model = "simple";  // "simple" (bandwidth + latency) or "banked"
  std::string preset = "ddr4_3200";
  std::string placement = "west_east";
  // simple: bandwidth of one port; 0 -> gbps_per_tops if set, else the preset's peak
  double port_gbps = 0;
  // simple: the total over all ports as GB/s per TOPS of the mesh (0: unused)
  double gbps_per_tops = 0;
  double latency_ns = 50;  // simple: fixed access latency
  // banked: how far ahead (DRAM clocks) the controller commits commands
  std::int32_t commit_window = 128;
  // banked: requests FR-FCFS chooses among (the oldest queue_depth)
  std::int32_t queue_depth = 32;
  // Whether a DRAM tensor with several destination cores may be read once
  // and multicast over the NoC (docs/isa.md, "DRAM multicast"); the
  // lowering decides per tensor.
  bool multicast = false;
  // Whether every DRAM access is spread over all ports in equal shares (the
  // scheduler's DRAM_interleave) instead of going to the core's nearest port
  // (docs/timing-model.md, "DMA over the NoC").
  bool interleave = false;
  // Whether a core's DRAM reads reach DRAM in the order its DMA engines
  // issued them, as transactions of one source and ID complete in order on
  // an AXI-style bus: a read waits at the port for the core's earlier reads
  // to start, a multicast member's until its group's read starts
  // (docs/timing-model.md, "DMA over the NoC").
  bool in_order = false;
  DramTiming timing;  // the preset's, with any parameter in "timing" overriding
};

// Energy per event (docs/timing-model.md, "Energy"); every entry's unit is in
// its name: pJ per event, per byte accessed, per byte per router-to-router
// link crossed, or mW of leakage per core. The defaults are the public SET
// scheduler's polar-core values (configs/README.md gives each source). The
// core's internal buffers (AL1 activations, OL1 partial sums, OL2 outputs)
// are counted from the dataflow docs/timing-model.md states; WL0 is the
// scheduler's wl1, L2 its ul3.
struct EnergyConfig {
  double mac_pj = 0.018;                       // one multiply-accumulate of the PE array
  double vp_op_pj = 0.0873;                    // one vector-lane element operation
  double l2_read_pj_per_byte = 0.1317125 * 8;  // L2 (global buffer)
  double l2_write_pj_per_byte = 0.234025 * 8;
  double wl0_read_pj_per_byte = 0.0381625 * 8;  // WL0 (weight buffer)
  double wl0_write_pj_per_byte = 0.0308875 * 8;
  double al1_read_pj_per_byte = 0.0485625 * 8;  // activation buffer of the PE array
  double al1_write_pj_per_byte = 0.0411625 * 8;
  double ol1_read_pj_per_byte = 0.0802 * 8;  // partial-sum buffer
  double ol1_write_pj_per_byte = 0.0709 * 8;
  double ol2_read_pj_per_byte = 0.07648125 * 8;  // output buffer
  double ol2_write_pj_per_byte = 0.0989875 * 8;
  double noc_pj_per_byte_hop = 0.7 * 8;  // one byte over one router-to-router link
  double dram_pj_per_byte = 7.5 * 8;     // one byte read or written
  double static_mw_per_core = 0;         // leakage of one core, for the whole run
};

struct HardwareConfig {
  std::string name = "default";
  std::string description;
  MeshConfig mesh;
  ClockConfig clock;
  L2Config l2;
  Wl0Config wl0;
  PeConfig pe;
  VpConfig vp;
  CoreConfig core;
  NocConfig noc;
  DramConfig dram;
  EnergyConfig energy;

  // The ring regions to use for `buffersize` bytes of L2.
  std::vector<RingRegion> regions_for(std::int64_t buffersize) const;
};

// Reads a configuration file. On failure returns nullopt and fills `errors`
// with one line per problem ("file:pointer: message").
std::optional<HardwareConfig> load_hw_config(const std::string& path,
                                             std::vector<std::string>& errors);
// Same, from JSON text (`origin` names it in messages).
std::optional<HardwareConfig> parse_hw_config(const std::string& text, const std::string& origin,
                                              std::vector<std::string>& errors);

}  // namespace gemini::ir
