#pragma once
// The geometry one workload's compute instructions take (internal to the
// assembler; defined in infer_geometry.cpp beside infer_geometry, the one
// place geometry is worked out).
//
// Contract: given a workload and its layer's geometry (the model's, exact,
// or infer_geometry's), these give the kernel, stride, window and padding
// its pe_cfg / vp_cfg / vp_run carry. With exact geometry they are the
// layer's; with inferred geometry, what the workload's own boxes and tile
// imply where the layer table cannot say (a stride or kernel per tile).
// Values are not clamped to the fields' ranges: one outside is an error of
// instruction selection (select.cpp), naming the workload. Two rules map
// a value: a negative bottom or right padding (a layer that crops its
// input: its last window ends before the input does) is 0, the zero rows or
// columns after the input (the PE reads rows up to in_h); and an inferred
// kernel that a tile implies below 1 (an edge tile cut by the input's end)
// is 1.

#include <array>
#include <cstdint>

#include "gemini/ir/layer_geometry.h"
#include "gemini/ir/model.h"

namespace gemini::assembler::lowering {

// The stride the workload's boxes imply along dimension d (2: H, 3: W): its
// first ifmap's extent over its output's, in [1, 255]; 1 where there is no
// ifmap or either box is not 4-D.
std::int64_t box_stride(const ir::Workload& w, int d);

// The kernel extent along dimension d that a tile's mini tiles imply for
// `stride`: act = (out - 1) * stride + R.
std::int64_t tile_kernel(const ir::Tile& t, int d, std::int64_t stride);

// A PE workload: pe_cfg's r, s, stride_h, stride_w and pad (top, bottom,
// left, right; bottom and right at least 0). Exact: the layer's. Inferred:
// the tile's padding, the boxes' stride, and the kernel from the weight
// box's R*S (or the batched product's 1x1, infer_geometry) where it has one,
// else from the tile (at least 1).
struct PeGeometry {
  std::array<std::int64_t, 2> kernel{1, 1}, stride{1, 1};
  std::array<std::int32_t, 4> pad{};
};
PeGeometry pe_geometry(const ir::Workload& w, const ir::LayerGeometry& g, bool exact);

// A VP workload: vp_cfg's kernel and stride (r, s, stride_h, stride_w) and
// padding, and vp_run's window and stride. `pools`: the selected operation
// pools; `input`: the box of the first operand tensor's buffer entry. A
// pooling layer's window is the layer's where the geometry is exact; a
// global average pool's is its whole input; else (and for vp_run when not
// exact) the square window the input and output heights imply.
struct VpGeometry {
  std::array<std::int64_t, 2> kernel{1, 1}, stride{1, 1};
  std::int64_t window = 1, window_stride = 1;
  std::array<std::int32_t, 4> pad{};
};
VpGeometry vp_geometry(const ir::Workload& w, const ir::LayerGeometry& g, bool exact, bool pools,
                       const ir::Box& input);

}  // namespace gemini::assembler::lowering
