#pragma once
// Instruction selection helpers (select.cpp), internal to the assembler.

#include <cstddef>

#include "gemini/assembler/isa.h"
#include "gemini/ir/layer_geometry.h"
#include "gemini/ir/model.h"

namespace gemini::assembler::lowering {

// The VP operation of a workload with `inputs` input tensors, the first's
// buffer entry box `first_input` (null for none): the geometry's where it
// knows it; else the public dialect's layer type names it, and for the
// full dialect's "vp" the shapes decide (two inputs add; a spatially
// smaller output pools; else a copy).
VpOp select_vp_op(const ir::Workload& w, const ir::LayerGeometry& g, std::size_t inputs,
                  const ir::Box* first_input);

}  // namespace gemini::assembler::lowering
