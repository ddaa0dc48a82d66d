// The instruction table: every opcode's fields, once. See docs/isa.md.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gemini/assembler/isa.h"
#include "gemini/ir/op_table.h"
#include "little_endian.h"

namespace gemini::assembler {
namespace {

// The Field and OpInfo tables, generated from isa_table.h: one array of
// Field per opcode (a sentinel ends it, so an opcode without fields still has
// one), then kOps in the table's order.
#define GEMINI_FIELD_ENTRY(name, type, offset, min, max, ...) \
  Field{#name, FieldType::type, offset, min, max __VA_OPT__(, ) __VA_ARGS__},
#define GEMINI_IGNORE(...)
#define GEMINI_FIELD_ARRAY(mnemonic, code, engine, View, FIELDS) \
  constexpr Field kFields_##mnemonic[] = {                       \
      FIELDS(GEMINI_FIELD_ENTRY, GEMINI_IGNORE, GEMINI_IGNORE, GEMINI_IGNORE) Field{}};
GEMINI_ISA_OPS(GEMINI_FIELD_ARRAY)
#undef GEMINI_FIELD_ARRAY

// The operand rules, one array per opcode (a sentinel ends it).
#define GEMINI_USE_RULE(slot, field, lo, hi) OperandRule{#slot, #field, lo, hi, false},
#define GEMINI_REMOTE_RULE(slot, bytes) OperandRule{#slot, #bytes, 0, 0, true},
#define GEMINI_RULE_ARRAY(mnemonic, code, engine, View, FIELDS) \
  constexpr OperandRule kRules_##mnemonic[] = {                 \
      FIELDS(GEMINI_IGNORE, GEMINI_IGNORE, GEMINI_USE_RULE, GEMINI_REMOTE_RULE) OperandRule{}};
GEMINI_ISA_OPS(GEMINI_RULE_ARRAY)
#undef GEMINI_RULE_ARRAY
#undef GEMINI_REMOTE_RULE
#undef GEMINI_USE_RULE

#define GEMINI_FLAG_NAME(name) #name
#define GEMINI_OP_INFO(mnemonic, code, engine, View, FIELDS)                            \
  OpInfo{Opcode::mnemonic,                                                              \
         #mnemonic,                                                                     \
         Engine::engine,                                                                \
         std::span<const Field>(kFields_##mnemonic, std::size(kFields_##mnemonic) - 1), \
         "" FIELDS(GEMINI_IGNORE, GEMINI_FLAG_NAME, GEMINI_IGNORE, GEMINI_IGNORE),      \
         std::span<const OperandRule>(kRules_##mnemonic, std::size(kRules_##mnemonic) - 1)},
constexpr OpInfo kOps[] = {GEMINI_ISA_OPS(GEMINI_OP_INFO)};
#undef GEMINI_OP_INFO
#undef GEMINI_FLAG_NAME
#undef GEMINI_IGNORE
#undef GEMINI_FIELD_ENTRY

// Every opcode fits the fixed-size per-field tables (binding, slot indices).
static_assert(std::all_of(std::begin(kOps), std::end(kOps),
                          [](const OpInfo& o) { return o.fields.size() <= kMaxFields; }));

// The enumerations' spellings, generated from their lists (isa_table.h).
#define GEMINI_NAME(name, ...) #name,
constexpr std::string_view kEngineNames[] = {GEMINI_ISA_ENGINES(GEMINI_NAME)};
constexpr std::string_view kTokenKindNames[] = {GEMINI_ISA_TOKEN_KINDS(GEMINI_NAME)};
constexpr std::string_view kVpOpNames[] = {GEMINI_ISA_VP_OPS(GEMINI_NAME)};
constexpr std::string_view kCutModeNames[] = {GEMINI_ISA_CUT_MODES(GEMINI_NAME)};
constexpr std::string_view kWl0SrcNames[] = {GEMINI_ISA_WL0_SRCS(GEMINI_NAME)};
#undef GEMINI_NAME
#define GEMINI_VP_LAYER_OP(name, layer_op) ir::LayerOp::layer_op,
constexpr ir::LayerOp kVpLayerOps[] = {GEMINI_ISA_VP_OPS(GEMINI_VP_LAYER_OP)};
#undef GEMINI_VP_LAYER_OP
#define GEMINI_CUT_TILE(name, tile) tile,
constexpr std::string_view kCutModeTiles[] = {GEMINI_ISA_CUT_MODES(GEMINI_CUT_TILE)};
#undef GEMINI_CUT_TILE

// A rule's field of the opcode: a name the opcode lacks is a table bug.
const Field* rule_field(const OpInfo& op, std::string_view name) {
  for (const Field& f : op.fields)
    if (f.name == name) return &f;
  std::fprintf(stderr, "gemini: internal error: ISA op %s has an operand rule on field %s\n",
               std::string(op.mnemonic).c_str(), std::string(name).c_str());
  std::abort();
}

// Every field fits in the 64 bytes and no two overlap: checked at start-up.
const bool kTableOk = [] {
  for (const OpInfo& op : kOps) {
    std::array<bool, kInstrBytes> used{};
    std::size_t scalars = 0, boxes = 0;
    for (const Field& f : op.fields) {
      std::size_t w = 0;
      switch (f.type) {
        case FieldType::u8:
        case FieldType::engine:
        case FieldType::token_kind:
        case FieldType::vp_op:
        case FieldType::loop_order:
        case FieldType::cut_mode:
        case FieldType::wl0_src:
          w = 1;
          break;
        case FieldType::u16:
          w = 2;
          break;
        case FieldType::u32:
        case FieldType::i32:
          w = 4;
          break;
        case FieldType::u64:
          w = 8;
          break;
        case FieldType::box:
          w = 16;
          break;
      }
      (f.type == FieldType::box ? boxes : scalars) += 1;
      for (std::size_t b = f.offset; b < f.offset + w; ++b) {
        if (b < kHeaderBytes || b >= kInstrBytes || used[b]) {
          std::fprintf(stderr, "gemini: internal error: ISA field %s.%s overlaps\n",
                       std::string(op.mnemonic).c_str(), std::string(f.name).c_str());
          std::abort();
        }
        used[b] = true;
      }
    }
    if (scalars > kMaxFields || boxes > 2) {
      std::fprintf(stderr, "gemini: internal error: ISA op %s has too many fields\n",
                   std::string(op.mnemonic).c_str());
      std::abort();
    }
    for (const OperandRule& r : op.rules)
      if (rule_field(op, r.field) && rule_field(op, r.slot)->access == Access::none) {
        std::fprintf(stderr, "gemini: internal error: ISA op %s: a rule on %s, not an operand\n",
                     std::string(op.mnemonic).c_str(), std::string(r.slot).c_str());
        std::abort();
      }
  }
  return true;
}();

}  // namespace

std::string_view to_string(Engine e) {
  const auto i = static_cast<std::size_t>(e);
  return i < kEngines ? kEngineNames[i] : "?";
}

std::optional<Engine> engine_from(std::string_view s) {
  for (std::size_t i = 0; i < kEngines; ++i)
    if (kEngineNames[i] == s) return static_cast<Engine>(i);
  return std::nullopt;
}

std::span<const OpInfo> all_ops() { return kOps; }

std::span<const std::string_view> enum_names(FieldType t) {
  static const std::array<std::string_view, 24> loops = [] {
    std::array<std::string_view, 24> l{};
    for (std::size_t i = 0; i < l.size(); ++i) l[i] = loop_order_name(static_cast<std::uint8_t>(i));
    return l;
  }();
  switch (t) {
    case FieldType::engine:
      return kEngineNames;
    case FieldType::token_kind:
      return kTokenKindNames;
    case FieldType::vp_op:
      return kVpOpNames;
    case FieldType::cut_mode:
      return kCutModeNames;
    case FieldType::wl0_src:
      return kWl0SrcNames;
    case FieldType::loop_order:
      return loops;
    default:
      return {};
  }
}

ir::LayerOp layer_op_of(VpOp op) {
  const auto i = static_cast<std::size_t>(op);
  return i < std::size(kVpLayerOps) ? kVpLayerOps[i] : ir::LayerOp::unknown;
}

std::optional<VpOp> vp_op_of(ir::LayerOp op) {
  for (std::size_t i = 0; i < std::size(kVpLayerOps); ++i)
    if (kVpLayerOps[i] == op) return static_cast<VpOp>(i);
  return std::nullopt;
}

CutMode cut_mode_of_tile(std::string_view tile_cut_mode) {
  for (std::size_t i = 0; i < std::size(kCutModeTiles); ++i)
    if (!kCutModeTiles[i].empty() && kCutModeTiles[i] == tile_cut_mode)
      return static_cast<CutMode>(i);
  return CutMode::none;
}

const OpInfo* op_info(Opcode op) {
  for (const OpInfo& o : kOps)
    if (o.op == op) return &o;
  return nullptr;
}

const OpInfo* op_info(std::string_view mnemonic) {
  for (const OpInfo& o : kOps)
    if (o.mnemonic == mnemonic) return &o;
  return nullptr;
}

std::string_view loop_order_name(std::uint8_t index) {
  static const std::array<std::string, 24> names = [] {
    std::array<std::string, 24> out;
    std::string s = "HKNW";  // sorted, so next_permutation walks all 24
    std::size_t i = 0;
    do {
      out[i++] = s;
    } while (std::next_permutation(s.begin(), s.end()));
    return out;
  }();
  return index < 24 ? std::string_view(names[index]) : std::string_view("?");
}

std::optional<std::uint8_t> loop_order_index(std::string_view s) {
  for (std::uint8_t i = 0; i < 24; ++i)
    if (loop_order_name(i) == s) return i;
  return std::nullopt;
}

std::optional<FieldSlot> find_field(const OpInfo& op, std::string_view name) {
  std::size_t scalar = 0, box = 0;
  for (const Field& f : op.fields) {
    const bool is_box = f.type == FieldType::box;
    if (f.name == name) return FieldSlot{&f, is_box ? box : scalar, is_box};
    (is_box ? box : scalar) += 1;
  }
  return std::nullopt;
}

FieldSlot field_slot(Opcode op, std::string_view name) {
  auto s = find_field(*op_info(op), name);
  if (!s) {
    std::fprintf(stderr, "gemini: internal error: opcode %s has no field %s\n",
                 std::string(op_info(op)->mnemonic).c_str(), std::string(name).c_str());
    std::abort();
  }
  return *s;
}

namespace {
// Per opcode, worked out once from the table: the field of each slot (its
// index among the opcode's scalar, or box, fields).
struct SlotTable {
  std::array<const Field*, kMaxFields> scalar{};
  std::array<const Field*, 2> box{};
};
const SlotTable& slots(Opcode op) {
  static const auto table = [] {
    std::array<SlotTable, 256> t{};
    for (const OpInfo& o : all_ops()) {
      SlotTable& x = t[static_cast<std::size_t>(o.op)];
      std::size_t scalar = 0, box = 0;
      for (const Field& f : o.fields) {
        const bool is_box = f.type == FieldType::box;
        std::size_t& k = is_box ? box : scalar;
        if (is_box && k < x.box.size()) x.box[k] = &f;
        if (!is_box) x.scalar[k] = &f;
        ++k;
      }
    }
    return t;
  }();
  return table[static_cast<std::size_t>(op)];
}

[[noreturn]] void instr_bug(Opcode op, const char* what, std::size_t slot) {
  const OpInfo* info = op_info(op);
  std::fprintf(stderr, "gemini: internal error: %s slot %zu of opcode %s\n", what, slot,
               info ? std::string(info->mnemonic).c_str() : "?");
  std::abort();
}
// The same naming a field of the table.
[[noreturn]] void field_bug(Opcode op, const char* what, const Field& f) {
  const OpInfo* info = op_info(op);
  std::fprintf(stderr, "gemini: internal error: %s field %s of opcode %s\n", what,
               std::string(f.name).c_str(), info ? std::string(info->mnemonic).c_str() : "?");
  std::abort();
}

const Field& scalar_field(Opcode op, std::size_t slot) {
  const Field* f = slot < kMaxFields ? slots(op).scalar[slot] : nullptr;
  if (!f) instr_bug(op, "no scalar", slot);
  return *f;
}
const Field& box_field(Opcode op, std::size_t slot) {
  const Field* f = slot < 2 ? slots(op).box[slot] : nullptr;
  if (!f) instr_bug(op, "no box", slot);
  return *f;
}

using detail::load_le;
using detail::store_le;
}  // namespace

std::size_t field_width(FieldType t) {
  switch (t) {
    case FieldType::u16:
      return 2;
    case FieldType::u32:
    case FieldType::i32:
      return 4;
    case FieldType::u64:
      return 8;
    case FieldType::box:
      return 16;
    default:
      return 1;
  }
}

std::int64_t Instr::scalar(std::size_t slot) const { return value(scalar_field(op, slot)); }

void scalar_read_of_box(const Instr& in, const Field& f) {
  field_bug(in.op, "scalar read of box", f);
}

void Instr::set_scalar(std::size_t slot, std::int64_t value) {
  set_value(scalar_field(op, slot), value);
}

void Instr::set_value(const Field& f, std::int64_t v) {
  if (v < f.min || v > f.max || f.type == FieldType::box)
    field_bug(op, "value out of range for", f);
  store_le(&payload[f.offset - kHeaderBytes], static_cast<std::uint64_t>(v), field_width(f.type));
}

ir::Box Instr::box_at(std::size_t slot) const { return box_value(box_field(op, slot)); }

ir::Box Instr::box_value(const Field& f) const {
  return detail::load_box(&payload[f.offset - kHeaderBytes]);
}

void Instr::set_box_at(std::size_t slot, const ir::Box& b) {
  set_box_value(box_field(op, slot), b);
}

void Instr::set_box_value(const Field& f, const ir::Box& b) {
  if (f.type != FieldType::box) field_bug(op, "box stored into scalar", f);
  for (std::size_t d = 0; d < 4; ++d)
    if (b.lo[d] < f.min || b.lo[d] > f.max || b.hi[d] < f.min || b.hi[d] > f.max)
      field_bug(op, "coordinate out of range for box", f);
  detail::store_box(&payload[f.offset - kHeaderBytes], b);
}

std::int64_t Instr::get(std::string_view field) const {
  return scalar(field_slot(op, field).index);
}
void Instr::set(std::string_view field, std::int64_t value) {
  set_scalar(field_slot(op, field).index, value);
}
ir::Box Instr::box(std::string_view field) const { return box_at(field_slot(op, field).index); }
void Instr::set_box(std::string_view field, const ir::Box& b) {
  set_box_at(field_slot(op, field).index, b);
}

}  // namespace gemini::assembler
