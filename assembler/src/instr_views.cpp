// encode() of the typed views (instr_views.h), generated from the ISA table:
// the header, then each field checked against its range and stored at its
// offset, in table order (the first bad field is the one reported).
#include "gemini/assembler/instr_views.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "little_endian.h"

namespace gemini::assembler {
namespace {

// The header of an instruction of opcode `op` (engine `engine`, kCount: any)
// on `queue`; its payload zero.
bool start(Opcode op, Engine engine, Engine queue, std::uint32_t workload, Instr& out,
           std::string& error) {
  if (engine == Engine::kCount ? static_cast<std::size_t>(queue) >= kEngines : queue != engine) {
    error = engine == Engine::kCount ? "bad queue " + std::to_string(static_cast<int>(queue))
                                     : std::string("runs on its own queue");
    return false;
  }
  out = Instr{};
  out.op = op;
  out.queue = queue;
  out.workload = workload;
  return true;
}

// A scalar field: false (and bind()'s message) when v is outside [min, max].
bool store(std::string_view name, std::size_t offset, FieldType type, std::int64_t v,
           std::int64_t min, std::int64_t max, Instr& out, std::string& error) {
  if (v < min || v > max) {
    error = std::string(name) + "=" + std::to_string(v) + " outside [" + std::to_string(min) +
            ", " + std::to_string(max) + "]";
    return false;
  }
  detail::store_le(&out.payload[offset - kHeaderBytes], static_cast<std::uint64_t>(v),
                   field_width(type));
  return true;
}

bool store(std::string_view name, std::size_t offset, FieldType, const ir::Box& b, std::int64_t min,
           std::int64_t max, Instr& out, std::string& error) {
  for (std::size_t d = 0; d < 4; ++d)
    if (b.lo[d] < min || b.hi[d] > max || b.lo[d] > b.hi[d]) {
      error = std::string(name) + " has a coordinate outside [0, " + std::to_string(max) +
              "] or lower > upper";
      return false;
    }
  detail::store_box(&out.payload[offset - kHeaderBytes], b);
  return true;
}

template <typename E>
bool store(std::string_view name, std::size_t offset, FieldType type, E v, std::int64_t min,
           std::int64_t max, Instr& out, std::string& error) {
  static_assert(std::is_enum_v<E>);
  return store(name, offset, type, static_cast<std::int64_t>(v), min, max, out, error);
}

[[noreturn]] void encode_bug(Opcode op, const std::string& error) {
  const OpInfo* info = op_info(op);
  std::fprintf(stderr, "gemini: internal error: encoding %s: %s\n",
               info ? std::string(info->mnemonic).c_str() : "?", error.c_str());
  std::abort();
}

}  // namespace

#define GEMINI_VIEW_STORE(name, type, offset, min, max, ...) \
  if (!store(#name, offset, FieldType::type, v.name, min, max, out, error)) return false;
#define GEMINI_VIEW_STORE_FLAG(name) out.flags = v.name ? 1 : 0;
#define GEMINI_VIEW_ENCODE(mnemonic, code, engine, View, FIELDS)                                 \
  bool encode(const View& v, Instr& out, std::string& error) {                                   \
    if (!start(Opcode::mnemonic, Engine::engine, v.queue, v.workload, out, error)) return false; \
    FIELDS(GEMINI_VIEW_STORE, GEMINI_VIEW_STORE_FLAG, GEMINI_ISA_NO_RULE, GEMINI_ISA_NO_RULE)    \
    return true;                                                                                 \
  }                                                                                              \
  Instr encode(const View& v) {                                                                  \
    Instr out;                                                                                   \
    std::string error;                                                                           \
    if (!encode(v, out, error)) encode_bug(Opcode::mnemonic, error);                             \
    return out;                                                                                  \
  }
GEMINI_ISA_OPS(GEMINI_VIEW_ENCODE)
#undef GEMINI_VIEW_ENCODE
#undef GEMINI_VIEW_STORE_FLAG
#undef GEMINI_VIEW_STORE

namespace view_detail {
void wrong_opcode(const Instr& in, Opcode want) {
  const OpInfo* have = op_info(in.op);
  std::fprintf(stderr, "gemini: internal error: a %s instruction read as %s\n",
               have ? std::string(have->mnemonic).c_str() : "?",
               std::string(op_info(want)->mnemonic).c_str());
  std::abort();
}
}  // namespace view_detail

std::int64_t pack_permutation(const std::array<std::int32_t, 4>& perm) {
  std::int64_t packed = 0;
  for (std::size_t d = 0; d < 4; ++d) packed |= std::int64_t{perm[d] & 3} << (2 * d);
  return packed;
}

std::array<std::int32_t, 4> unpack_permutation(std::int64_t perm) {
  std::array<std::int32_t, 4> out{};
  for (std::size_t d = 0; d < 4; ++d) out[d] = static_cast<std::int32_t>((perm >> (2 * d)) & 3);
  return out;
}

}  // namespace gemini::assembler
