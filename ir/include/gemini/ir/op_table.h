#pragma once
// THE op descriptor table: every op type of the layer semantics, written
// once, here, with what each library needs to know about it:
//
//   type             the OpType (model files' ops; gemini::model's OpType)
//   ark_name         its Type in an ARK model file ("Conv2d")
//   layer_type       the public dialect's layer_type for it ("conv2d"; "" for
//                    none: the public scheduler writes none for transposes, Q4)
//   engine           the engine it runs on: the full dialect's layer_type
//                    (pe, vp, dt), and what Q4 gives a workload without one
//   also_on          another engine the IR may place it on (= engine: none)
//   op, global_op    the layer operation its tiles compute (LayerOp), and the
//                    same with the Global argument (pooling over the whole
//                    input, docs/numerics.md)
//   weights          it reads weights (constant, or other ops' results)
//
// The op registry (gemini::model, op_registry.cpp) adds each type's shape
// rule (Dimop annotation, arguments), the op-to-tile factory
// (tile_op_factory.cpp) what each LayerOp computes; the ISA's vp_op
// enumeration (assembler isa_table.h) names the LayerOp each VP operation
// computes. Nothing else maps a layer type, an op type or an engine to an
// operation: the IR reader, the semantic checks and quirk corrections, the
// layer geometry, the lowering and the functional unit all read these rows.
//
// Contract: each row's layer_type is unique or shared with an earlier row of
// the same engine (the earlier one is what the string names); ark_name and
// type are unique. Checked by tests/ir/test_op_table.cpp.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "gemini/ir/model.h"

namespace gemini::ir {

// GEMINI_LAYER_OPS(L) calls L(name) once per layer operation, in enum order.
// clang-format off
#define GEMINI_LAYER_OPS(L)                                                     \
  L(unknown)   /* a full-dialect "vp" without a model: the shapes decide */    \
  L(conv)                                                                       \
  L(fc)                                                                         \
  L(pool_max)                                                                   \
  L(pool_avg)                                                                   \
  L(eltwise)                                                                    \
  L(copy)                                                                       \
  L(transpose)

// GEMINI_OP_TYPES(OP) calls
//   OP(type, ark_name, layer_type, engine, also_on, op, global_op, weights)
// once per op type, in enum order.
#define GEMINI_OP_TYPES(OP)                                                                \
  OP(conv2d,          "Conv2d",         "conv2d",         pe, pe, conv,      conv,      true)  \
  OP(fully_connected, "FullyConnected", "fc",             pe, pe, fc,        fc,        true)  \
  OP(pool,            "Pool",           "pool",           vp, vp, pool_max,  pool_avg,  false) \
  OP(eltwise,         "Eltwise",        "element_wise",   vp, vp, eltwise,   eltwise,   false) \
  OP(ptp,             "PTP",            "point_to_point", dt, vp, copy,      copy,      false) \
  OP(transpose,       "Transpose",      "",               dt, dt, transpose, transpose, false)
// clang-format on

// What a layer's tiles compute: the operation of its PE or VP instructions.
enum class LayerOp : std::uint8_t {
#define GEMINI_LAYER_OP_ENUM(name) name,
  GEMINI_LAYER_OPS(GEMINI_LAYER_OP_ENUM)
#undef GEMINI_LAYER_OP_ENUM
};
const char* to_string(LayerOp op);

enum class OpType : std::uint8_t {
#define GEMINI_OP_TYPE_ENUM(type, ...) type,
  GEMINI_OP_TYPES(GEMINI_OP_TYPE_ENUM)
#undef GEMINI_OP_TYPE_ENUM
};
#define GEMINI_OP_TYPE_COUNT(...) +1
inline constexpr std::size_t kOpTypeCount = 0 GEMINI_OP_TYPES(GEMINI_OP_TYPE_COUNT);
#undef GEMINI_OP_TYPE_COUNT

struct OpDescriptor {
  OpType type;
  std::string_view ark_name;
  std::string_view layer_type;
  LayerKind engine, also_on;
  LayerOp op, global_op;
  bool weights;
  // Whether a workload on engine k may compute this op.
  constexpr bool runs_on(LayerKind k) const { return k == engine || k == also_on; }
  // The layer operation with or without the Global argument.
  constexpr LayerOp layer_op(bool global) const { return global ? global_op : op; }
};

// The rows, in OpType order.
std::span<const OpDescriptor> op_types();
const OpDescriptor& describe(OpType t);
// The row of an ARK Type; nullptr when no row has it.
const OpDescriptor* find_ark_type(std::string_view ark_name);
// The first row whose public layer_type is `layer_type`; nullptr for none
// (the full dialect's "pe", "vp", "dt", or an empty string).
const OpDescriptor* find_layer_type(std::string_view layer_type);
// The public dialect's layer types, each once, in row order.
std::span<const std::string_view> public_layer_types();

// The layer operation a workload's own layer type names without a model:
// its public layer type's row's; else what its engine implies (pe: conv;
// dt: transpose; vp: unknown, the shapes decide per workload).
LayerOp layer_op_of(const Workload& w);

}  // namespace gemini::ir
