#pragma once
// What a program needs to know about each layer beyond what the IR says:
// the computation of its PE / VP tiles (kernel, stride, padding, groups,
// requantisation shift, pooling kind, transpose permutation), the shape of
// its whole output (its DRAM tensor) and its external inputs. The layer
// semantics (gemini::model) give it exactly; without a model the lowering
// infers what the IR implies (docs/isa.md, "Layer geometry").

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "gemini/ir/model.h"
#include "gemini/ir/op_table.h"

namespace gemini::ir {

struct LayerGeometry {
  LayerOp op = LayerOp::unknown;              // op_table.h
  std::array<std::int32_t, 4> ofmap_shape{};  // N, K, H, W: the whole output
  std::array<std::int32_t, 4> ifmap_shape{};  // N, C, IH, IW: the concatenated input
  std::array<std::int32_t, 2> kernel{1, 1}, stride{1, 1};
  std::array<std::int32_t, 4> pad{};      // top, bottom, left, right
  std::int32_t group_k = 1, group_c = 1;  // output / input channels per group
  bool per_sample_weights = false;        // weights from other layers' results
  // Constant weights as stored: [K, C/G, R, S] (FC: [K, C, IH, IW]).
  std::array<std::int32_t, 4> weight_shape{};
  std::int32_t shift = 0;     // requantisation (conv, FC, average pool, add)
  std::int32_t operands = 1;  // elementwise add
  std::array<std::int32_t, 4> permutation{0, 1, 2, 3};  // transpose: input dim i -> output dim
  // External inputs (network data no layer produces) the layer reads.
  struct External {
    std::int64_t tensor_id = -1;  // the model's tensor id: its DRAM tensor and generator key
    std::int32_t channel_offset = 0;
    std::array<std::int32_t, 4> shape{};
  };
  std::vector<External> externals;
};

struct GeometryTable {
  std::unordered_map<std::string, LayerGeometry> layers;
  bool from_model = false;  // exact (layer semantics) rather than inferred from the IR
  const LayerGeometry* find(const std::string& layer) const {
    auto it = layers.find(layer);
    return it == layers.end() ? nullptr : &it->second;
  }
};

// The operand slabs of an ifmap buffer entry that holds an elementwise
// layer's operands separately (sources from different layers covering the
// same channels): per slab, the producers whose data it holds (one, or the
// parts of a concatenated operand: producers with disjoint channels), in
// the order the slabs are stored (by name). Empty when the entry holds one
// concatenated input. Its bytes in L2 are then slabs x its box's aligned
// size (import and lowering agree through this one function).
std::vector<std::vector<std::string>> operand_slabs(const BufferEntry& e);
// The slab of `slabs` holding `producer`'s data; -1 for none.
std::int32_t slab_of(const std::vector<std::vector<std::string>>& slabs,
                     const std::string& producer);

}  // namespace gemini::ir
