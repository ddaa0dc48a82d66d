// The instruction table: every opcode's fields, once. See docs/isa.md.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gemini/assembler/isa.h"
#include "little_endian.h"

namespace gemini::assembler {
namespace {

constexpr std::int64_t U8 = 0xff, U16 = 0xffff, U32 = 0xffffffffLL;
constexpr std::int64_t U64 = (std::int64_t{1} << 48) - 1;  // DRAM addresses: 48 bits
using F = FieldType;
using R = Role;
using A = Access;
using M = Memory;

constexpr Field kWaitLocal[] = {
    {"on", F::engine, 8, 0, kEngines - 1},
    {"count", F::u32, 12, 1, U32},
};
constexpr Field kWaitToken[] = {
    {"kind", F::token_kind, 8, 0, 2},
    {"transfer", F::u32, 12, 0, U32},
    {"from", F::u16, 16, 0, U16},
    {"count", F::u32, 20, 1, U32},  // wait until this many such tokens arrived
};
constexpr Field kSignal[] = {
    {"kind", F::token_kind, 8, 0, 2},
    {"transfer", F::u32, 12, 0, U32},
    {"to", F::u16, 16, 0, U16},
    // A credit grants the receiver's L2 range the sender will write.
    {"grant", F::u32, 20, 0, U32, R::grant, A::write, M::l2},
    {"grant_bytes", F::u32, 24, 0, U32, R::grant},
};
// The layouts of the operands of the queue's next data instruction that
// the instruction itself does not carry, and the channel shift from its
// source frame to its destination frame (docs/isa.md, "Data layout").
constexpr Field kView[] = {
    {"shift", F::i32, 8, INT32_MIN, INT32_MAX},
    {"box0", F::box, 12, 0, U16},
    {"box1", F::box, 28, 0, U16},
};
constexpr Field kDmaIn[] = {
    {"l2", F::u32, 8, 0, U32, R::dst, A::write, M::l2},
    {"bytes", F::u32, 12, 1, U32, R::dst},
    {"dram", F::u64, 16, 0, U64, R::src, A::read, M::dram},
    {"transfer", F::u32, 24, 0, U32},
    {"dst_box", F::box, 28, 0, U16, R::dst},
    {"src_box", F::box, 44, 0, U16, R::src},
    // DRAM multicast (docs/isa.md): one of `members` cores' dma_in of group
    // `part` of the transfer; 0 for a read of its own.
    {"members", F::u16, 60, 0, U16, R::none, A::none, M::none, true},
    {"part", F::u16, 62, 0, U16, R::none, A::none, M::none, true},
};
constexpr Field kDmaOut[] = {
    {"l2", F::u32, 8, 0, U32, R::src, A::read, M::l2},
    {"bytes", F::u32, 12, 1, U32, R::src},
    {"dram", F::u64, 16, 0, U64, R::dst, A::write, M::dram},
    {"transfer", F::u32, 24, 0, U32},
    {"src_box", F::box, 28, 0, U16, R::src},
};
constexpr Field kNocSend[] = {
    {"src", F::u32, 8, 0, U32, R::src, A::read, M::l2},
    {"dst", F::u32, 12, 0, U32, R::dst, A::write, M::l2},
    {"bytes", F::u32, 16, 1, U32, R::src},
    {"to", F::u16, 20, 0, U16},
    {"transfer", F::u32, 24, 0, U32},
    {"src_box", F::box, 28, 0, U16, R::src},
    {"dst_box", F::box, 44, 0, U16, R::dst},
    // NoC multicast (docs/isa.md): one of the `members` consecutive
    // noc_sends of one source range, sent once along the XY tree; 0 for a
    // send of its own.
    {"members", F::u16, 60, 0, U16, R::none, A::none, M::none, true},
    {"part", F::u16, 62, 0, U16, R::none, A::none, M::none, true},
};
constexpr Field kWl0Load[] = {
    {"source", F::wl0_src, 8, 0, 1},       {"wl0", F::u32, 12, 0, U32, R::wl0, A::write, M::wl0},
    {"bytes", F::u32, 16, 1, U32, R::wl0}, {"l2", F::u32, 20, 0, U32, R::src, A::read, M::l2},
    {"dram", F::u64, 24, 0, U64},          {"transfer", F::u32, 32, 0, U32},
};
constexpr Field kPeCfg[] = {
    {"loop", F::loop_order, 8, 0, 23},
    {"cut", F::cut_mode, 9, 0, 3},
    {"ci_cut", F::u16, 10, 1, U16},
    {"mtc0", F::u16, 12, 1, U16},
    {"mtk0", F::u16, 14, 1, U16},
    {"om_n", F::u16, 16, 1, U16},
    {"om_k", F::u16, 18, 1, U16},
    {"om_h", F::u16, 20, 1, U16},
    {"om_w", F::u16, 22, 1, U16},
    {"am_n", F::u16, 24, 1, U16},
    {"am_c", F::u16, 26, 1, U16},
    {"am_h", F::u16, 28, 1, U16},
    {"am_w", F::u16, 30, 1, U16},
    {"pad_t", F::u8, 32, 0, U8},
    {"pad_b", F::u8, 33, 0, U8},
    {"pad_l", F::u8, 34, 0, U8},
    {"pad_r", F::u8, 35, 0, U8},
    {"r", F::u8, 36, 1, U8},
    {"s", F::u8, 37, 1, U8},
    {"stride_h", F::u8, 38, 1, U8},
    {"stride_w", F::u8, 39, 1, U8},
    {"wl0", F::u16, 40, 0, U16},
    // The layer's geometry for the computation itself (docs/isa.md):
    // output / input channels per group, the input's rows and columns
    // (outside is padding), the requantisation shift and how many pe_runs
    // accumulate before it.
    {"gk", F::u16, 42, 1, U16},
    {"gc", F::u16, 44, 1, U16},
    {"in_h", F::u16, 46, 1, U16},
    {"in_w", F::u16, 48, 1, U16},
    {"shift", F::u8, 50, 0, 31},
    {"chain", F::u8, 51, 1, U8},
};
constexpr Field kPeRun[] = {
    {"ifmap", F::u32, 8, 0, U32, R::ifmap, A::read, M::l2},
    {"ifmap_bytes", F::u32, 12, 1, U32, R::ifmap},
    {"weight", F::u32, 16, 0, U32, R::weight, A::read, M::l2},
    {"weight_bytes", F::u32, 20, 0, U32, R::weight},
    {"ofmap", F::u32, 24, 0, U32, R::ofmap, A::write, M::l2},
    {"ofmap_bytes", F::u32, 28, 1, U32, R::ofmap},
    {"ifmap_box", F::box, 32, 0, U16, R::ifmap},
    {"ofmap_box", F::box, 48, 0, U16, R::ofmap},
};
constexpr Field kVpRun[] = {
    {"op", F::vp_op, 8, 0, 4},
    {"inputs", F::u8, 9, 1, 2},
    {"window", F::u8, 10, 1, U8},
    {"stride", F::u8, 11, 1, U8},
    {"in0", F::u32, 12, 0, U32, R::src, A::read, M::l2},
    {"in1", F::u32, 16, 0, U32, R::src, A::read, M::l2},
    {"out", F::u32, 20, 0, U32, R::dst, A::write, M::l2},
    {"in_bytes", F::u32, 24, 1, U32, R::src},
    {"out_bytes", F::u32, 28, 1, U32, R::dst},
    {"in_box", F::box, 32, 0, U16, R::src},
    {"out_box", F::box, 48, 0, U16, R::dst},
};

constexpr Field kVpCfg[] = {
    {"r", F::u8, 8, 1, U8},
    {"s", F::u8, 9, 1, U8},
    {"stride_h", F::u8, 10, 1, U8},
    {"stride_w", F::u8, 11, 1, U8},
    {"pad_t", F::u8, 12, 0, U8},
    {"pad_l", F::u8, 13, 0, U8},
    {"in_h", F::u16, 14, 1, U16},
    {"in_w", F::u16, 16, 1, U16},
    {"shift", F::u8, 18, 0, 31},
    // Transpose: input dimension i becomes output dimension (perm >> 2i) & 3.
    {"perm", F::u8, 19, 0, U8},
};

constexpr OpInfo kOps[] = {
    {Opcode::nop, "nop", Engine::ctrl, {}, ""},
    {Opcode::end, "end", Engine::ctrl, {}, ""},
    {Opcode::wait_local, "wait_local", Engine::kCount, kWaitLocal, ""},
    {Opcode::wait_token, "wait_token", Engine::kCount, kWaitToken, ""},
    {Opcode::signal, "signal", Engine::kCount, kSignal, ""},
    {Opcode::view, "view", Engine::kCount, kView, ""},
    {Opcode::dma_in, "dma_in", Engine::dma_in, kDmaIn, ""},
    {Opcode::dma_out, "dma_out", Engine::dma_out, kDmaOut, ""},
    {Opcode::noc_send, "noc_send", Engine::noc, kNocSend, ""},
    {Opcode::wl0_load, "wl0_load", Engine::wl0, kWl0Load, ""},
    {Opcode::pe_cfg, "pe_cfg", Engine::pe, kPeCfg, "per_sample"},
    {Opcode::pe_run, "pe_run", Engine::pe, kPeRun, "acc"},
    {Opcode::vp_run, "vp_run", Engine::vp, kVpRun, ""},
    {Opcode::vp_cfg, "vp_cfg", Engine::vp, kVpCfg, ""},
};

// Every opcode fits the fixed-size per-field tables (binding, slot indices).
static_assert(std::all_of(std::begin(kOps), std::end(kOps),
                          [](const OpInfo& o) { return o.fields.size() <= kMaxFields; }));

constexpr std::string_view kEngineNames[] = {"dma_in", "dma_out", "noc", "wl0", "pe", "vp", "ctrl"};

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

Box Instr::box_at(std::size_t slot) const { return box_value(box_field(op, slot)); }

Box Instr::box_value(const Field& f) const {
  return detail::load_box(&payload[f.offset - kHeaderBytes]);
}

void Instr::set_box_at(std::size_t slot, const Box& b) { set_box_value(box_field(op, slot), b); }

void Instr::set_box_value(const Field& f, const Box& b) {
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
Box Instr::box(std::string_view field) const { return box_at(field_slot(op, field).index); }
void Instr::set_box(std::string_view field, const Box& b) {
  set_box_at(field_slot(op, field).index, b);
}

}  // namespace gemini::assembler
