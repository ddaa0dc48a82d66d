// The op descriptor table (op_table.h), generated from its rows.
#include "gemini/ir/op_table.h"

#include <array>
#include <cstdio>
#include <cstdlib>

namespace gemini::ir {
namespace {

#define GEMINI_OP_ROW(type, ark, layer_type, engine, also_on, op, global_op, weights)  \
  OpDescriptor{OpType::type,       ark,         layer_type,         LayerKind::engine, \
               LayerKind::also_on, LayerOp::op, LayerOp::global_op, weights},
constexpr OpDescriptor kRows[] = {GEMINI_OP_TYPES(GEMINI_OP_ROW)};
#undef GEMINI_OP_ROW

constexpr const char* kLayerOpNames[] = {
#define GEMINI_LAYER_OP_NAME(name) #name,
    GEMINI_LAYER_OPS(GEMINI_LAYER_OP_NAME)
#undef GEMINI_LAYER_OP_NAME
};

constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < std::size(kRows); ++i)
    if (static_cast<std::size_t>(kRows[i].type) != i) return false;
  return true;
}
static_assert(rows_in_enum_order());

// The public layer types, each once, in row order.
struct LayerTypes {
  std::array<std::string_view, std::size(kRows)> names{};
  std::size_t size = 0;
};
constexpr LayerTypes kLayerTypes = [] {
  LayerTypes t;
  for (const OpDescriptor& r : kRows) {
    bool seen = r.layer_type.empty();
    for (std::size_t i = 0; i < t.size; ++i) seen = seen || t.names[i] == r.layer_type;
    if (!seen) t.names[t.size++] = r.layer_type;
  }
  return t;
}();

}  // namespace

const char* to_string(LayerOp op) {
  const auto i = static_cast<std::size_t>(op);
  return i < std::size(kLayerOpNames) ? kLayerOpNames[i] : "unknown";
}

std::span<const OpDescriptor> op_types() { return kRows; }

const OpDescriptor& describe(OpType t) {
  const auto i = static_cast<std::size_t>(t);
  if (i >= std::size(kRows)) {
    std::fprintf(stderr, "gemini: internal error: op type %zu has no descriptor\n", i);
    std::abort();
  }
  return kRows[i];
}

const OpDescriptor* find_ark_type(std::string_view ark_name) {
  for (const OpDescriptor& r : kRows)
    if (r.ark_name == ark_name) return &r;
  return nullptr;
}

const OpDescriptor* find_layer_type(std::string_view layer_type) {
  if (layer_type.empty()) return nullptr;
  for (const OpDescriptor& r : kRows)
    if (r.layer_type == layer_type) return &r;
  return nullptr;
}

std::span<const std::string_view> public_layer_types() {
  return {kLayerTypes.names.data(), kLayerTypes.size};
}

LayerOp layer_op_of(const Workload& w) {
  if (const OpDescriptor* r = find_layer_type(w.layer_type)) return r->op;
  switch (w.kind) {
    case LayerKind::pe:
      return LayerOp::conv;
    case LayerKind::dt:
      return LayerOp::transpose;
    case LayerKind::vp:
      break;
  }
  return LayerOp::unknown;
}

}  // namespace gemini::ir
