#pragma once
// Data layouts for the lowering (docs/isa.md, "Data layout"), internal to
// the assembler: a tensor is dense over its layout box, N then C then H
// then W. These turn IR boxes and buffer entries into layout boxes and
// DRAM offsets; every pass of the lowering reads layouts through them.

#include <array>
#include <cstdint>

#include "gemini/assembler/encoding.h"
#include "gemini/ir/layer_geometry.h"
#include "gemini/ir/model.h"

namespace gemini::assembler::lowering {

// An IR box as a 4-D box (dimensions it lacks are [0, 0]).
ir::Box to_box(const ir::Box& b);
// A source's channel shift from its producer's frame to the receiving
// tensor's (the public dialect's `channel`, corrected from the model where
// it is wrong); 0 where the IR gives none.
inline std::int64_t source_shift(const ir::Source& s) {
  return s.channel && s.box.rank == 4 ? std::int64_t{(*s.channel)[0]} - s.box.lo[1] : 0;
}
// A weight box as data (its forms in ir::weight_k_dim): per-sample weights
// [n, k, c, R*S]; constant weights [k0, k1] x the layer's weight shape
// (C/G x R x S; FC: C*IH*IW x 1 x 1), else [k0, k1] x C x R x S of a 4-D
// box, else the bytes per output channel (`bytes` over the K range) as one
// dimension.
ir::Box weight_layout(const ir::Box& w, const ir::LayerGeometry& g, std::int64_t bytes);

}  // namespace gemini::assembler::lowering
