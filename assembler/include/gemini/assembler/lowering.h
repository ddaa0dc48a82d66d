#pragma once
// Lowering: a full-dialect IR model -> one program per core (docs/isa.md,
// "Lowering").
//
// The lowering first builds events -- loads, credits, WL0 loads, computes,
// sends, stores -- each with the events it must wait for: the writers of
// what it reads, the last readers and writers of the L2 bytes it overwrites
// (ring-buffer reuse, derived from the snapshots), the receiver's credit for
// a send, the DRAM writes a load re-reads. It then orders all events of all
// cores in one topological order (earliest predicted start first) and emits
// each core's instructions in that order, turning every dependency into a
// wait: wait_local on the engine and instruction count for the same core,
// wait_token on (kind, transfer, source core, count) across cores. Because
// every queue follows one global topological order, queue order adds no
// cycle: a schedule without dependency cycles lowers to a program without
// deadlock (the verifier checks it again).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gemini/assembler/encoding.h"
#include "gemini/ir/diagnostics.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/layer_geometry.h"
#include "gemini/ir/model.h"

namespace gemini::ir {
class ModelGraph;
}

namespace gemini::assembler {

struct LoweredCore {
  CoreProgram program;
  std::unordered_map<std::uint32_t, std::string> layers;  // workload id -> layer name
  // The core's L2 ring regions [begin, end): an L2 operand's bytes wrap
  // inside the region holding its address (docs/isa.md, "Data layout").
  std::vector<ir::RingRegion> ring;
};

// A tensor in DRAM: a layer's whole output, a layer's constant weights or
// an input of the network, dense over `layout` (docs/isa.md, "Data
// layout"). The program's DMAs address parts of it.
struct DramRegion {
  enum class Kind : std::uint8_t { input, weight, ofmap };
  Kind kind = Kind::ofmap;
  std::string
      name;  // "ofmap:conv1", "weight:conv1", "input:144" (model tensor id) or "input:conv1"
  std::string layer;  // ofmap: the producer; weight: the consumer; input: the first reader
  std::int64_t tensor_id = -1;  // input: the model's tensor id, when the geometry gives it
  ir::Box layout;               // [0, shape - 1]
  std::int64_t base = 0, bytes = 0;
};
const char* to_string(DramRegion::Kind k);

// How the lowering read the DRAM out entries that several loads take
// (docs/isa.md, "DRAM multicast").
struct MulticastStats {
  std::int64_t groups = 0;   // multicast reads
  std::int64_t members = 0;  // loads they serve
  // Loads of such entries read on their own, and why:
  std::int64_t off = 0;  // the configuration's dram.multicast is false
  // A core loads the entry again (it left the core's L2) and no other core
  // loads it that many times: nobody to share that read with.
  std::int64_t reloads = 0;
  // NoC multicasts (docs/isa.md, "NoC multicast"): sends of one ofmap to
  // several cores that go as one transfer, and the sends they take.
  std::int64_t noc_groups = 0, noc_sends = 0;
};

struct Program {
  std::vector<LoweredCore> cores;  // ascending core id, every core of the mesh
  std::int64_t l2_bytes = 0;       // buffersize
  std::int64_t wl0_bytes = 0;
  std::int64_t dram_bytes = 0;           // extent of the DRAM address map
  std::vector<DramRegion> dram_regions;  // ascending base
  // Whether the layer geometry came from a model (the programs then compute
  // the network exactly) or was inferred from the IR.
  bool exact_geometry = false;
  MulticastStats multicast;
};

struct LowerOptions {
  // The layer semantics the compute instructions and DRAM tensors follow;
  // inferred from the IR (infer_geometry) when absent.
  const ir::GeometryTable* geometry = nullptr;
};

// What the IR implies of each layer's geometry: the operation from its
// layer type, the whole output from its workloads' boxes, kernel, stride
// and padding from boxes and tiles, groups 1, shift 0.
ir::GeometryTable infer_geometry(const ir::Model& m);

// Called after each stage of a run with its name ("lower/events"), for
// timing.
using PhaseFn = std::function<void(const char* phase)>;

// Errors go to `errors` ("core 3 workload 12 (conv1): ..."); nullopt when
// any occurred. `graph`, when given, is m's (the one validation and import
// used) and is used instead of building another. With `keep_scratch`, the
// lowering's working state (events, tensors, maps: tens of MB in small
// blocks) is handed to the caller instead of being freed before returning,
// for a caller that frees it later or never (it refers to nothing).
std::optional<Program> lower(const ir::Model& m, const ir::HardwareConfig& hw,
                             std::vector<std::string>& errors, const PhaseFn& on_phase = {},
                             const ir::ModelGraph* graph = nullptr,
                             std::shared_ptr<void>* keep_scratch = nullptr,
                             const LowerOptions& options = {});

}  // namespace gemini::assembler
