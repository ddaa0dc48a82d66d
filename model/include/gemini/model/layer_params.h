#pragma once
// An op's tile parameters (tile_ops.h) from its arguments: what a pe_cfg /
// vp_cfg carries for a workload of the op, and what the reference computes
// the whole layer with.

#include "gemini/model/network.h"
#include "gemini/model/tile_ops.h"

namespace gemini::model {

// Conv2d and FullyConnected (an FC is the convolution whose kernel is its
// input: stride 1, no padding).
ConvParams conv_params(const Op& op);
// The box [0, s) of a whole tensor of shape s.
ir::Box whole_box(const Dims4& s);
// The box of an op's whole weights as conv_element reads them: [K, C/G, R,
// S] (FC: [K, C, IH, IW], the same bytes as WeightShape [K, C*IH*IW]); per
// sample (WeightFromFmap) [N, K, C/G, R*S].
ir::Box weight_box(const Op& op);
// Pool (max, or average when Global), with the op's shift.
PoolParams pool_params(const Op& op, std::int32_t shift);

}  // namespace gemini::model
