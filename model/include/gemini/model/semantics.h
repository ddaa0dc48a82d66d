#pragma once
// A schedule against its layer semantics (`--model`): the checks of
// `gemini validate --model` (M002-M008, docs/validation.md) and the
// corrections of the scheduler's known IR quirks (Q1-Q4 of the models
// README). The model is the truth about what a layer computes; the IR about
// where and when.

#include <cstdint>
#include <string>
#include <vector>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/model.h"
#include "gemini/model/network.h"

namespace gemini::model {

// Every workload against its op: the layer exists (M002) and has the op's
// type (M003); its ofmap box lies in the op's output (M004); its ifmap box
// is what the ofmap box needs (M005; narrower along a reduced or
// unpartitionable dimension: M008); its input tensor's sources are the
// op's inputs at their channels and cover what it needs (M006); its weight
// range is its output channels' (M007). Run it on a corrected model.
void check_semantics(const ir::Model& m, const Network& net, ir::Diagnostics& d);

struct QuirkCounts {
  std::int64_t q1 = 0, q2 = 0, q3 = 0, q4 = 0;
  // The corrections added or removed sources, destinations or tensors:
  // graphs built on the model before are stale.
  bool structure_changed = false;
  std::int64_t total() const { return q1 + q2 + q3 + q4; }
  // ("Q2 weight producers at offset 0", 12), ... for the ones seen.
  std::vector<std::pair<std::string, std::int64_t>> named() const;
};

// Corrects the quirks in place, one M009 warning per quirk seen (its count
// and first location):
//   Q1  producer channels of layers that also read network input start at
//       ExternalChannels (the IR starts them at 0);
//   Q2  the weights of a WeightFromFmap op with several weight producers:
//       every weight tensor gets the sources the model says (the producers
//       whose K range meets its own, at their offsets), from the DRAM
//       read-back of the producer's output or a send from its core; a
//       workload the IR gave no weight tensor gets one (public dialect: the
//       import allocates it; a full-dialect file cannot take one: M007);
//   Q3  DRAM weight sizes of grouped convolutions: R*S*(C/G)*K bytes;
//   Q4  workloads without layer_type take their op's (transpose).
// What the corrections change then gets L2 room (docs/ir-model.md): a
// full-dialect input tensor whose corrected sources are an elementwise
// layer's operands gets a slab per operand (in place, else moved within
// its ring region), and a result that no longer reaches a tensor of its own
// core gets an ofmap tensor to wait in (public dialect: the import places
// it); M011 where the file's allocation has no room. `hw` gives the L2's
// alignments (the defaults without it).
QuirkCounts correct_quirks(ir::Model& m, const Network& net, ir::Diagnostics& d,
                           const ir::HardwareConfig* hw = nullptr);

// correct_quirks, then check_semantics on the corrected model: what every
// command with --model runs (validate, import, plan, asm, sim, the golden
// cases), so that each gives the same verdict. Where the corrections
// changed the structure and nothing failed, the IR checks run again
// (ir::validate with `hw`) on the corrected model, so that a correction can
// never leave a cross-reference inconsistent unseen; without `hw` the
// caller does that itself (assembler::assemble_file, with the graph it
// keeps for the lowering).
QuirkCounts correct_and_check(ir::Model& m, const Network& net, ir::Diagnostics& d,
                              const ir::HardwareConfig* hw);

// Writes every weight box of the schedule in the IR specification's layout
// [N, K, C, R*S] (its example: [0,0,0,0]-[0,63,2,48] for 64 output channels
// of 3 input channels and a 7x7 kernel): the public dialect's scalar K
// ranges (N = [0, 0]; C = C/G of the layer, R*S its kernel) and per-sample
// [n, k, c] ranges of WeightFromFmap ops (N their batch range), in workload
// weights, weight buffer entries, DRAM weight entries and the DRAM sources
// that read them. 4-D boxes stay as they are. Returns how many it wrote.
// `gemini import --model` writes its full dialect so.
std::int64_t write_weight_boxes(ir::Model& m, const Network& net);

// Puts the scheduler's quirks back into `allocated`, a schedule corrected
// (correct_quirks) and allocated (ir::import_model) from `original`, the
// same schedule as loaded: every source, transfer list, destination, DRAM
// entry and layer type as `original` has it, every allocation (address,
// size, tensor id and order, WL0, tiling) as `allocated` has it. A weight
// tensor the corrections added (Q2) stays, listed as the scheduler lists
// the others ("source": null); an ofmap tensor they added stays as it is.
// Reading the result with the model corrects it into `allocated` again.
// False (nothing changed) when the two do not have the same cores,
// workloads and entries.
bool keep_quirks(ir::Model& allocated, const ir::Model& original);

}  // namespace gemini::model
