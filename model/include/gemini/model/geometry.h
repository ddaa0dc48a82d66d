#pragma once
// The layer geometry a program needs (ir::GeometryTable), exactly, from a
// network's layer semantics and the requantisation shifts of a seeded
// reference (the shifts are calibrated on the seeded data: reference.h).

#include <vector>

#include "gemini/ir/layer_geometry.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"

namespace gemini::model {

ir::GeometryTable geometry_table(const Network& net, const std::vector<LayerNumerics>& numerics);

}  // namespace gemini::model
