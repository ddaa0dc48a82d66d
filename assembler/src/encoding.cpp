#include "gemini/assembler/encoding.h"

#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <string>

#include "little_endian.h"

namespace gemini::assembler {
namespace {

// The unused-byte masks below read payload words in host order.
static_assert(std::endian::native == std::endian::little, "gemini assumes a little-endian host");

using detail::load_le;
using detail::store_le;

// Per opcode, worked out once from the table: the scalar fields whose range
// is narrower than their bytes, and a mask of the payload bytes no field uses.
struct OpChecks {
  std::array<const Field*, kMaxFields> field{};
  std::size_t n = 0;
  std::array<std::uint64_t, (kInstrBytes - kHeaderBytes) / 8> unused{};  // 0xff per unused byte
};
const OpChecks& op_checks(Opcode op) {
  static const auto table = [] {
    std::array<OpChecks, 256> t{};
    for (const OpInfo& o : all_ops()) {
      OpChecks& c = t[static_cast<std::size_t>(o.op)];
      std::array<bool, kInstrBytes> used{};
      for (std::size_t fi = 0; fi < o.fields.size(); ++fi) {
        const Field& f = o.fields[fi];
        const std::size_t w = field_width(f.type);
        for (std::size_t i = 0; i < w; ++i) used[f.offset + i] = true;
        if (f.type == FieldType::box) continue;  // 16-bit coordinates: always in [0, 65535]
        const bool full = f.type != FieldType::i32 && w < 8 && f.min == 0 &&
                          f.max == static_cast<std::int64_t>((std::uint64_t{1} << (8 * w)) - 1);
        if (!full) c.field[c.n++] = &f;
      }
      for (std::size_t i = kHeaderBytes; i < kInstrBytes; ++i)
        if (!used[i])
          c.unused[(i - kHeaderBytes) / 8] |= std::uint64_t{0xff} << (8 * ((i - kHeaderBytes) % 8));
    }
    return t;
  }();
  return table[static_cast<std::size_t>(op)];
}

// What the bytes of an instruction must satisfy beyond their layout: a
// known queue its opcode allows, defined flags, every field inside its range
// (a field never set reads 0, below a minimum of 1), unused bytes zero.
bool check(const Instr& in, const OpInfo& op, std::string& error) {
  if (static_cast<std::size_t>(in.queue) >= kEngines) {
    error = "bad queue " + std::to_string(static_cast<int>(in.queue));
    return false;
  }
  if (op.engine != Engine::kCount && in.queue != op.engine) {
    error = std::string(op.mnemonic) + " runs on queue " + std::string(to_string(op.engine)) +
            ", not " + std::string(to_string(in.queue));
    return false;
  }
  if (op.flag_name.empty() && in.flags != 0) {
    error = std::string(op.mnemonic) + " has no flags";
    return false;
  }
  if (in.flags > 1) {
    error = "only flag bit 0 is defined";
    return false;
  }
  // Only fields whose range is narrower than their bytes can be out of it.
  const OpChecks& oc = op_checks(in.op);
  for (std::size_t k = 0; k < oc.n; ++k) {
    const Field& f = *oc.field[k];
    const std::int64_t v = in.value(f);
    if (v < f.min || v > f.max) {
      error = std::string(op.mnemonic) + " " + std::string(f.name) + "=" + std::to_string(v) +
              " outside [" + std::to_string(f.min) + ", " + std::to_string(f.max) + "]";
      return false;
    }
  }
  for (std::size_t w = 0; w < oc.unused.size(); ++w) {
    std::uint64_t word = 0;
    std::memcpy(&word, &in.payload[8 * w], 8);
    if ((word & oc.unused[w]) == 0) continue;
    for (std::size_t i = 8 * w; i < 8 * w + 8; ++i)
      if (((oc.unused[w] >> (8 * (i - 8 * w))) & 0xff) != 0 && in.payload[i] != 0) {
        error = std::string(op.mnemonic) + ": unused byte " + std::to_string(i + kHeaderBytes) +
                " is not zero";
        return false;
      }
  }
  return true;
}

}  // namespace

std::optional<InstrBytes> encode(const Instr& in, std::string& error) {
  const OpInfo* op = op_info(in.op);
  if (!op) {
    error = "unknown opcode " + std::to_string(static_cast<int>(in.op));
    return std::nullopt;
  }
  if (!check(in, *op, error)) return std::nullopt;
  InstrBytes b{};
  b[0] = static_cast<std::uint8_t>(in.op);
  b[1] = static_cast<std::uint8_t>(in.queue);
  store_le(&b[2], in.flags, 2);
  store_le(&b[4], in.workload, 4);
  std::memcpy(&b[kHeaderBytes], in.payload.data(), in.payload.size());
  return b;
}

std::optional<Instr> decode(const std::uint8_t* b, std::string& error) {
  const OpInfo* op = op_info(static_cast<Opcode>(b[0]));
  if (!op) {
    static const char* hex = "0123456789abcdef";
    error = std::string("unknown opcode 0x") + hex[b[0] >> 4] + hex[b[0] & 15];
    return std::nullopt;
  }
  Instr in;
  in.op = op->op;
  in.queue = static_cast<Engine>(b[1]);
  in.flags = static_cast<std::uint16_t>(load_le(&b[2], 2));
  in.workload = static_cast<std::uint32_t>(load_le(&b[4], 4));
  std::memcpy(in.payload.data(), &b[kHeaderBytes], in.payload.size());
  if (!check(in, *op, error)) return std::nullopt;
  return in;
}

namespace {
void put_header(std::uint8_t* h, const CoreProgram& p) {
  std::memcpy(h, "GEMINIC1", 8);
  store_le(&h[8], static_cast<std::uint32_t>(p.core_id), 4);
  store_le(&h[12], p.instrs.size(), 4);
}
}  // namespace

bool encode_program(const CoreProgram& p, std::vector<std::uint8_t>& out, std::string& error) {
  std::array<std::uint8_t, kFileHeaderBytes> header{};
  std::span<const std::uint8_t> body;
  if (!encode_program_view(p, header, body, error)) return false;
  out.assign(header.begin(), header.end());
  out.insert(out.end(), body.begin(), body.end());
  return true;
}

bool encode_program_view(const CoreProgram& p, std::array<std::uint8_t, kFileHeaderBytes>& header,
                         std::span<const std::uint8_t>& body, std::string& error) {
  // An Instr's header fields sit where the encoding puts them, and the host
  // is little-endian (asserted above): its bytes are exactly encode()'s.
  static_assert(offsetof(Instr, op) == 0 && offsetof(Instr, queue) == 1 &&
                offsetof(Instr, flags) == 2 && offsetof(Instr, workload) == 4 &&
                offsetof(Instr, payload) == kHeaderBytes);
  for (std::size_t i = 0; i < p.instrs.size(); ++i) {
    const Instr& in = p.instrs[i];
    const OpInfo* op = op_info(in.op);
    if (!op || !check(in, *op, error)) {
      if (!op) error = "unknown opcode " + std::to_string(static_cast<int>(in.op));
      error = "instruction " + std::to_string(i) + ": " + error;
      return false;
    }
  }
  if (p.core_id < 0 || p.core_id > kMaxCoreId) {
    error = "core id " + std::to_string(p.core_id) + " is outside [0, " +
            std::to_string(kMaxCoreId) + "]";
    return false;
  }
  put_header(header.data(), p);
  body = {reinterpret_cast<const std::uint8_t*>(p.instrs.data()), p.instrs.size() * kInstrBytes};
  return true;
}

std::optional<CoreProgram> decode_program(const std::vector<std::uint8_t>& bytes,
                                          std::string& error) {
  if (bytes.size() < kFileHeaderBytes || std::memcmp(bytes.data(), "GEMINIC1", 8) != 0) {
    error = "not a gemini program (magic \"GEMINIC1\" missing)";
    return std::nullopt;
  }
  CoreProgram p;
  const std::uint64_t core = load_le(&bytes[8], 4);
  if (core > kMaxCoreId) {
    // The text form (.core) and the core fields of instructions are 16-bit.
    error = "core id " + std::to_string(core) + " in the header is outside [0, " +
            std::to_string(kMaxCoreId) + "]";
    return std::nullopt;
  }
  p.core_id = static_cast<std::int32_t>(core);
  const std::uint64_t n = load_le(&bytes[12], 4);
  if (bytes.size() != kFileHeaderBytes + n * kInstrBytes) {
    error = "header says " + std::to_string(n) + " instructions but the file has " +
            std::to_string(bytes.size()) + " bytes (expected " +
            std::to_string(kFileHeaderBytes + n * kInstrBytes) + ")";
    return std::nullopt;
  }
  p.instrs.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    auto in = decode(&bytes[kFileHeaderBytes + i * kInstrBytes], error);
    if (!in) {
      error = "instruction " + std::to_string(i) + " (byte " +
              std::to_string(kFileHeaderBytes + i * kInstrBytes) + "): " + error;
      return std::nullopt;
    }
    p.instrs.push_back(*in);
  }
  return p;
}

}  // namespace gemini::assembler
