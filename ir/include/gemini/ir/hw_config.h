#pragma once
// Hardware configuration: one struct per component, each with defaults, read
// from a JSON file (configs/README.md documents every parameter). Unknown
// keys, wrong types and out-of-range values are errors that name the
// component and the parameter, e.g.
//   configs/x.json:/l2/size_bytes: parameter "size_bytes" of component "l2":
//   expected an integer >= 1, got string "1M"
// The `dram`, `noc` and `energy` components are the simulator's: ir reads
// the `multicast` of dram and noc (the lowering's) and keeps the rest raw
// (RawComponent); sim::parse_hw_config reads and checks them with the
// simulator's own declarations (gemini/sim/sim_config.h).

#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/model.h"
#include "gemini/ir/params.h"
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
  // Sends the noc engine keeps in flight, retiring in program order too;
  // their packets share the core's injection link.
  std::int32_t noc_in_flight = 1;
};

inline constexpr LoweringParam kLoweringParams[] = {
    {"noc", "multicast", false,
     "one core's data for several cores may go once along the tree (the lowering's)"},
    {"dram", "multicast", false,
     "a DRAM tensor several cores load is read once and multicast (the lowering's)"},
};

// The NoC: the simulator's `noc.model` ("mesh" by default) and its
// parameters are in `raw` (configs/README.md lists them).
struct NocConfig {
  // Whether one core's data for several cores (an ofmap with several core
  // destinations) may be sent once along the route tree (docs/isa.md, "NoC
  // multicast"); the lowering decides per ofmap.
  bool multicast = false;
  RawComponent raw{{}, "", "/noc"};
};

// DRAM: the simulator's `dram.model` ("simple" by default), the ports and
// the model's parameters are in `raw` (configs/README.md lists them).
struct DramConfig {
  // Whether a DRAM tensor with several destination cores may be read once
  // and multicast over the NoC (docs/isa.md, "DRAM multicast"); the
  // lowering decides per tensor.
  bool multicast = false;
  RawComponent raw{{}, "", "/dram"};
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
  // Energy costs (docs/timing-model.md, "Energy"): the simulator's, declared
  // by its energy table (gemini/sim/energy_table.h), kept raw here.
  RawComponent energy{{}, "", "/energy"};
  // Chiplets (docs/chiplets.md): the mesh cut into dies joined by
  // die-to-die links, and the silicon's area and cost model; the
  // simulator's (gemini/sim/chiplets.h, gemini/sim/silicon.h), kept raw.
  RawComponent chiplets{{}, "", "/chiplets"};
  RawComponent silicon{{}, "", "/silicon"};

  // The ring regions to use for `buffersize` bytes of L2.
  std::vector<RingRegion> regions_for(std::int64_t buffersize) const;
};

// Reads a configuration file. On failure returns nullopt and fills `errors`
// with one H001 diagnostic per problem, each naming its file and pointer
// (config_text: "file:pointer: message").
std::optional<HardwareConfig> load_hw_config(const std::string& path, ConfigErrors& errors);
// The parameters ir reads itself, as declared (params.h), by component:
// first the top level's ("" : name, description), then mesh, clock, l2,
// wl0, pe, vp and core. gemini sim --list-params lists them.
std::vector<std::pair<std::string, std::vector<ParamInfo>>> hw_config_params();
// Same, from JSON text (`origin` names it in messages).
std::optional<HardwareConfig> parse_hw_config(const std::string& text, const std::string& origin,
                                              ConfigErrors& errors);

}  // namespace gemini::ir
