#pragma once
// The intra-core tiling model used by import (docs/allocation.md, "Tiling").

#include <map>
#include <optional>
#include <string>

#include "gemini/ir/hw_config.h"
#include "gemini/ir/model.h"

namespace gemini::ir::detail {

// What the boxes of a whole layer say about its convolution geometry.
struct LayerGeometry {
  std::int32_t r = 1, s = 1;  // kernel
  std::int32_t stride_h = 1, stride_w = 1;
  std::int32_t pad_top = 0, pad_left = 0;  // of the whole layer
  std::int64_t in_h = 0, in_w = 0;         // input extent (rows, columns)
  std::int32_t in_c = 0;
  bool known = false;  // kernel derivable (weight bytes per output channel = C * r * s)
};

// Per pe layer, from all its workloads. `weight_bytes` maps a workload (by
// origin loc) to the bytes of its weights.
std::map<std::string, LayerGeometry> layer_geometry(
    const Model& m, const std::map<Loc, std::int64_t>& weight_bytes);

// tile_padding_tblr of a workload's ofmap box, where the geometry is known.
std::optional<std::array<std::int32_t, 4>> tile_padding(const Box& ofmap, const LayerGeometry& g);

// The single tile of a pe workload.
Tile make_tile(const Workload& w, const LayerGeometry& g, const PeConfig& pe);

}  // namespace gemini::ir::detail
