#pragma once
// Typed views of instructions: one struct per opcode, generated from the ISA
// table (isa_table.h), with
//   decode<PeConfig>(instr) -> PeConfig   every field at its table offset;
//   encode(pe_config) -> Instr            the 64 bytes, every value checked;
// so code that reads or writes an instruction names its fields as members,
// and no field's offset, width or range is written anywhere but the table.
//
// For the table's line OP(pe_cfg, 0x20, pe, PeConfig, GEMINI_ISA_PE_CFG) the
// generated struct is
//   struct PeConfig {
//     static constexpr Opcode kOpcode = Opcode::pe_cfg;
//     Engine queue = Engine::pe;               // the header's queue
//     std::uint32_t workload = kNoWorkload;    // the header's workload id
//     bool per_sample = false;                 // flag bit 0, where the opcode has one
//     std::int64_t loop = 0;                   // one member per field, in table order,
//     CutMode cut = CutMode::none;             // each starting at its minimum
//     std::int64_t ci_cut = 1;
//     ...
//   };
// Member types follow the field types: integers are std::int64_t (checked
// against the field's range when encoded, never truncated on assignment),
// engine / token_kind / vp_op / cut_mode / wl0_src their enumerations, boxes
// ir::Box. A default-constructed view encodes.
//
// The views are values: decode copies the fields out (a few loads at
// constant offsets), encode builds a fresh instruction.

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "gemini/assembler/isa.h"

namespace gemini::assembler {

namespace view_detail {
// The C++ type of a field's value in a view (FieldValueT below).
template <FieldType T>
auto value_of_type() {
  if constexpr (T == FieldType::box) {
    return ir::Box{};
  } else if constexpr (T == FieldType::engine) {
    return Engine{};
  } else if constexpr (T == FieldType::token_kind) {
    return TokenKind{};
  } else if constexpr (T == FieldType::vp_op) {
    return VpOp{};
  } else if constexpr (T == FieldType::cut_mode) {
    return CutMode{};
  } else if constexpr (T == FieldType::wl0_src) {
    return Wl0Src{};
  } else {
    return std::int64_t{};
  }
}
}  // namespace view_detail

// The C++ type of a field's value in a view: its enumeration, ir::Box, or
// std::int64_t for every integer type.
template <FieldType T>
using FieldValueT = decltype(view_detail::value_of_type<T>());

namespace view_detail {

constexpr Engine default_queue(Engine e) { return e == Engine::kCount ? Engine::ctrl : e; }

template <FieldType T>
constexpr FieldValueT<T> initial(std::int64_t min) {
  if constexpr (T == FieldType::box) {
    return ir::Box{};
  } else {
    return static_cast<FieldValueT<T>>(min);
  }
}

// A field's value at `offset` of the instruction (little-endian: isa.h
// asserts the host is).
template <FieldType T>
FieldValueT<T> load(const Instr& in, std::size_t offset) {
  const std::uint8_t* p = &in.payload[offset - kHeaderBytes];
  auto native = [p](auto v, std::size_t at = 0) {
    std::memcpy(&v, p + at, sizeof v);
    return v;
  };
  if constexpr (T == FieldType::box) {
    ir::Box b;
    for (std::size_t d = 0; d < 4; ++d) {
      b.lo[d] = native(std::uint16_t{}, 2 * d);
      b.hi[d] = native(std::uint16_t{}, 8 + 2 * d);
    }
    return b;
  } else if constexpr (T == FieldType::u16) {
    return native(std::uint16_t{});
  } else if constexpr (T == FieldType::u32) {
    return native(std::uint32_t{});
  } else if constexpr (T == FieldType::i32) {
    return native(std::int32_t{});
  } else if constexpr (T == FieldType::u64) {
    return static_cast<std::int64_t>(native(std::uint64_t{}));
  } else {
    return static_cast<FieldValueT<T>>(p[0]);
  }
}

// decode<V>() of an instruction of another opcode: a bug; aborts.
[[noreturn]] void wrong_opcode(const Instr& in, Opcode want);

}  // namespace view_detail

// The views: struct Nop, End, WaitLocal, WaitToken, Signal, ViewInstr, DmaIn,
// DmaOut, NocSend, Wl0Load, PeConfig, PeRun, VpRun, VpConfig.
#define GEMINI_VIEW_MEMBER(name, type, offset, min, max, ...) \
  FieldValueT<FieldType::type> name = view_detail::initial<FieldType::type>(min);
#define GEMINI_VIEW_FLAG_MEMBER(name) bool name = false;
#define GEMINI_VIEW_STRUCT(mnemonic, code, engine, View, FIELDS)                                \
  struct View {                                                                                 \
    static constexpr Opcode kOpcode = Opcode::mnemonic;                                         \
    Engine queue = view_detail::default_queue(Engine::engine);                                  \
    std::uint32_t workload = kNoWorkload;                                                       \
    FIELDS(GEMINI_VIEW_MEMBER, GEMINI_VIEW_FLAG_MEMBER, GEMINI_ISA_NO_RULE, GEMINI_ISA_NO_RULE) \
    bool operator==(const View&) const = default;                                               \
  };
GEMINI_ISA_OPS(GEMINI_VIEW_STRUCT)
#undef GEMINI_VIEW_STRUCT
#undef GEMINI_VIEW_FLAG_MEMBER
#undef GEMINI_VIEW_MEMBER

// The fields of `in` as view V (V::kOpcode must be in.op; another opcode is
// a bug and aborts). Every Instr decodes: its fields were checked when it
// was made (bind, the text parser, decode of a program file).
template <typename V>
V decode(const Instr& in);

#define GEMINI_VIEW_LOAD(name, type, offset, ...) \
  v.name = view_detail::load<FieldType::type>(in, offset);
#define GEMINI_VIEW_LOAD_FLAG(name) v.name = (in.flags & 1) != 0;
#define GEMINI_VIEW_DECODE(mnemonic, code, engine, View, FIELDS)                            \
  template <>                                                                               \
  inline View decode<View>(const Instr& in) {                                               \
    if (in.op != Opcode::mnemonic) view_detail::wrong_opcode(in, Opcode::mnemonic);         \
    View v;                                                                                 \
    v.queue = in.queue;                                                                     \
    v.workload = in.workload;                                                               \
    FIELDS(GEMINI_VIEW_LOAD, GEMINI_VIEW_LOAD_FLAG, GEMINI_ISA_NO_RULE, GEMINI_ISA_NO_RULE) \
    return v;                                                                               \
  }
GEMINI_ISA_OPS(GEMINI_VIEW_DECODE)
#undef GEMINI_VIEW_DECODE
#undef GEMINI_VIEW_LOAD_FLAG
#undef GEMINI_VIEW_LOAD

// The instruction a view describes. The checked form accepts exactly what
// bind() accepts (invocation.h): the opcode's own queue (any engine for
// waits, signal and view), every value inside its field's range, every box
// coordinate too and lower <= upper. On failure it returns false and `error`
// says which, as bind() words it after its "mnemonic (origin): " prefix:
// "wl0=70000 outside [0, 65535]", "dst_box has a coordinate outside [0,
// 65535] or lower > upper", "runs on its own queue". The unchecked form is
// for values written in code: a failure is a bug and aborts.
#define GEMINI_VIEW_ENCODE(mnemonic, code, engine, View, FIELDS) \
  bool encode(const View& v, Instr& out, std::string& error);    \
  Instr encode(const View& v);
GEMINI_ISA_OPS(GEMINI_VIEW_ENCODE)
#undef GEMINI_VIEW_ENCODE

// vp_cfg's `perm`: entry d of a permutation of the four dimensions in bits
// 2d and 2d + 1 (docs/isa.md). Packing keeps each entry's two low bits.
std::int64_t pack_permutation(const std::array<std::int32_t, 4>& perm);
std::array<std::int32_t, 4> unpack_permutation(std::int64_t perm);

}  // namespace gemini::assembler
