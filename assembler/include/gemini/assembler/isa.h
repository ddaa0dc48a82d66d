#pragma once
// The Gemini core ISA (docs/isa.md): the vocabulary of the one table of
// opcodes (isa_table.h), each declaring its fields once -- tensor slots (an
// L2 / DRAM / WL0 operand with a role and an access) and argument slots (a
// typed, range-checked value) -- and that table as data (all_ops(): Field,
// OpInfo). The encoder, decoder, printer, text parser, binder, verifier and
// the typed views (instr_views.h) are all derived from it; nothing else
// knows a field's offset or width.
//
// Every instruction is 64 bytes, little-endian: an 8-byte header (opcode,
// queue, flags, workload id) and 56 bytes of fields at fixed offsets. Fixed
// width keeps decode a table lookup and lets a core's fetch unit index
// instructions directly; 64 bytes is the smallest power of two that holds a
// PE or NoC operation with both of its 4-D boxes (2 x 16 bytes) and its
// addresses.

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>

#include "gemini/assembler/isa_table.h"
#include "gemini/ir/box.h"

namespace gemini::ir {
enum class LayerOp : std::uint8_t;  // op_table.h
}  // namespace gemini::ir

namespace gemini::assembler {

inline constexpr std::size_t kInstrBytes = 64;
inline constexpr std::size_t kHeaderBytes = 8;
// The most fields an opcode has (checked against the table at compile time):
// the size of the per-field tables of binding, encoding and slot lookup.
inline constexpr std::size_t kMaxFields = 28;

// The engine queues of a core. Instructions are dispatched in program order
// into the queue of their engine; queues run concurrently, each in order.
#define GEMINI_ISA_ENUMERATOR(name, ...) name,
#define GEMINI_ISA_COUNT(...) +1
enum class Engine : std::uint8_t { GEMINI_ISA_ENGINES(GEMINI_ISA_ENUMERATOR) kCount };
inline constexpr std::size_t kEngines = static_cast<std::size_t>(Engine::kCount);
std::string_view to_string(Engine e);
std::optional<Engine> engine_from(std::string_view s);

// The opcodes, generated from the table (isa_table.h): Opcode::pe_cfg = 0x20, ...
enum class Opcode : std::uint8_t {
#define GEMINI_ISA_OPCODE(mnemonic, code, ...) mnemonic = code,
  GEMINI_ISA_OPS(GEMINI_ISA_OPCODE)
#undef GEMINI_ISA_OPCODE
};

// The enumerations of enum-typed fields (isa_table.h) and how many values
// each has (its field's range).
enum class TokenKind : std::uint8_t { GEMINI_ISA_TOKEN_KINDS(GEMINI_ISA_ENUMERATOR) };
enum class VpOp : std::uint8_t { GEMINI_ISA_VP_OPS(GEMINI_ISA_ENUMERATOR) };
enum class CutMode : std::uint8_t { GEMINI_ISA_CUT_MODES(GEMINI_ISA_ENUMERATOR) };
enum class Wl0Src : std::uint8_t { GEMINI_ISA_WL0_SRCS(GEMINI_ISA_ENUMERATOR) };
inline constexpr std::int64_t kTokenKinds = 0 GEMINI_ISA_TOKEN_KINDS(GEMINI_ISA_COUNT);
inline constexpr std::int64_t kVpOps = 0 GEMINI_ISA_VP_OPS(GEMINI_ISA_COUNT);
inline constexpr std::int64_t kCutModes = 0 GEMINI_ISA_CUT_MODES(GEMINI_ISA_COUNT);
inline constexpr std::int64_t kWl0Srcs = 0 GEMINI_ISA_WL0_SRCS(GEMINI_ISA_COUNT);
#undef GEMINI_ISA_COUNT
#undef GEMINI_ISA_ENUMERATOR

// The layer operation a VP operation computes, and the VP operation that
// computes a layer operation (none for the PE's): the table's vp_op list.
ir::LayerOp layer_op_of(VpOp op);
std::optional<VpOp> vp_op_of(ir::LayerOp op);
// The cut mode an IR tile's cut_mode string selects (none for any other).
CutMode cut_mode_of_tile(std::string_view tile_cut_mode);

// The ranges of the table's fields (isa_table.h).
inline constexpr std::int64_t kMaxU8 = 0xff, kMaxU16 = 0xffff, kMaxU32 = 0xffffffffLL;
inline constexpr std::int64_t kMinI32 = INT32_MIN, kMaxI32 = INT32_MAX;
inline constexpr std::int64_t kMaxDramAddress = (std::int64_t{1} << 48) - 1;  // 48 bits
// An instruction's workload id when it came from no IR workload.
inline constexpr std::uint32_t kNoWorkload = 0xffffffffu;

enum class FieldType : std::uint8_t {
  u8,
  u16,
  u32,
  u64,
  i32,
  box,
  engine,
  token_kind,
  vp_op,
  loop_order,
  cut_mode,
  wl0_src
};

// What a tensor slot is to the operation, and how it is accessed.
enum class Role : std::uint8_t { none, src, dst, ifmap, weight, ofmap, wl0, grant };
enum class Access : std::uint8_t { none, read, write };
enum class Memory : std::uint8_t { none, l2, dram, wl0 };

struct Field {
  std::string_view name;
  FieldType type;
  std::uint8_t offset;  // in the 64-byte instruction
  std::int64_t min, max;
  // Tensor slots: the address field names its role, access and memory; the
  // bytes and box fields of the same slot share the role.
  Role role = Role::none;
  Access access = Access::none;
  Memory memory = Memory::none;
  // An optional field (not a box) is left out of the text when it is 0,
  // and is 0 when the text leaves it out.
  bool optional = false;
};

// A rule of a memory operand (isa_table.h: USE, REMOTE), by field name.
struct OperandRule {
  std::string_view slot;        // the operand's address field
  std::string_view field;       // USE: the field deciding; REMOTE: the byte count
  std::int64_t lo = 0, hi = 0;  // USE: the operand is accessed while field is in [lo, hi]
  bool remote = false;          // REMOTE: another core's L2
};

struct OpInfo {
  Opcode op;
  std::string_view mnemonic;
  Engine engine;  // kCount: the queue is a field of the instruction (waits, signal)
  std::span<const Field> fields;
  std::string_view flag_name;  // name of flag bit 0 in text ("" when unused)
  std::span<const OperandRule> rules;
};

std::span<const OpInfo> all_ops();
const OpInfo* op_info(Opcode op);
const OpInfo* op_info(std::string_view mnemonic);

// The text spellings of an enum-typed field's values, indexed by value
// (the table's enumerations; loop orders and engines too); empty for other
// types. The printer writes them and the text parser reads them.
std::span<const std::string_view> enum_names(FieldType t);

// Loop orders are the 24 permutations of "KNHW"; encoded as their index.
std::string_view loop_order_name(std::uint8_t index);
std::optional<std::uint8_t> loop_order_index(std::string_view s);

// An instruction in memory is its 64-byte encoding: the header fields, then
// the 56 bytes of fields at their table offsets (offset - 8 in `payload`),
// little-endian. Fields are read and written through the table (by slot or
// by name); a store checks the field's range, so an Instr never holds a
// value its encoding cannot carry. Keeping the encoded form (not one int64
// per field) keeps a 300,000-instruction program at 20 MB instead of 100.
struct Instr {
  Opcode op = Opcode::nop;
  Engine queue = Engine::ctrl;
  std::uint16_t flags = 0;
  std::uint32_t workload = kNoWorkload;  // the IR workload it came from
  std::array<std::uint8_t, kInstrBytes - kHeaderBytes> payload{};
  bool operator==(const Instr&) const = default;

  const OpInfo& info() const { return *op_info(op); }
  // By slot: the index among the opcode's scalar (or box) fields
  // (FieldSlot::index). A slot or value the opcode's table does not allow
  // aborts: callers check values first (bind(), the text parser, decode()).
  std::int64_t scalar(std::size_t slot) const;
  void set_scalar(std::size_t slot, std::int64_t value);
  ir::Box box_at(std::size_t slot) const;
  void set_box_at(std::size_t slot, const ir::Box& b);
  // By table entry: `f` must be one of this opcode's fields (OpInfo::fields);
  // no slot lookup, for loops over the table (the printer).
  std::int64_t value(const Field& f) const;  // inline below: the hot read of every pass
  ir::Box box_value(const Field& f) const;
  void set_value(const Field& f, std::int64_t v);        // aborts when v is outside f's range
  void set_box_value(const Field& f, const ir::Box& b);  // aborts on a coordinate outside f's range
  // By name (aborts on a name the opcode does not have: a bug).
  std::int64_t get(std::string_view field) const;
  void set(std::string_view field, std::int64_t value);
  ir::Box box(std::string_view field) const;
  void set_box(std::string_view field, const ir::Box& b);
};
static_assert(sizeof(Instr) == kInstrBytes, "an instruction is its encoding");
static_assert(std::endian::native == std::endian::little,
              "fields are read as native integers: gemini assumes a little-endian host");

// A scalar field's value: one native load of its bytes (a box field, which
// has no scalar value, aborts as a bug).
[[noreturn]] void scalar_read_of_box(const Instr& in, const Field& f);
inline std::int64_t Instr::value(const Field& f) const {
  const std::uint8_t* p = &payload[f.offset - kHeaderBytes];
  auto load = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return static_cast<std::int64_t>(v);
  };
  switch (f.type) {
    case FieldType::u16:
      return load(std::uint16_t{});
    case FieldType::u32:
      return load(std::uint32_t{});
    case FieldType::i32:
      return load(std::int32_t{});
    case FieldType::u64:
      return load(std::uint64_t{});
    case FieldType::box:
      scalar_read_of_box(*this, f);
    default:
      return p[0];
  }
}

// Index of a field among the scalar (or box) fields of its opcode.
struct FieldSlot {
  const Field* field;
  std::size_t index;  // among the opcode's scalar fields, or among its box fields
  bool is_box;
};
std::optional<FieldSlot> find_field(const OpInfo& op, std::string_view name);
// The same for a name the opcode must have (a name from the table, written
// in code): a missing one is a bug and aborts.
FieldSlot field_slot(Opcode op, std::string_view name);
// The bytes a field of this type takes in the encoding.
std::size_t field_width(FieldType t);

}  // namespace gemini::assembler
