#include "gemini/assembler/encoding.h"

#include <cstring>
#include <string>

namespace gemini::assembler {
namespace {

std::size_t width(FieldType t) {
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

void put(std::uint8_t* p, std::uint64_t v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint64_t take(const std::uint8_t* p, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

bool in_range(const Field& f, std::int64_t v) { return v >= f.min && v <= f.max; }

}  // namespace

std::optional<InstrBytes> encode(const Instr& in, std::string& error) {
  const OpInfo* op = op_info(in.op);
  if (!op) {
    error = "unknown opcode " + std::to_string(static_cast<int>(in.op));
    return std::nullopt;
  }
  if (op->engine != Engine::kCount && in.queue != op->engine) {
    error = std::string(op->mnemonic) + " runs on queue " + std::string(to_string(op->engine)) +
            ", not " + std::string(to_string(in.queue));
    return std::nullopt;
  }
  if (static_cast<std::size_t>(in.queue) >= kEngines) {
    error = "bad queue";
    return std::nullopt;
  }
  if (op->flag_name.empty() && in.flags != 0) {
    error = std::string(op->mnemonic) + " has no flags";
    return std::nullopt;
  }
  if (in.flags > 1) {
    error = "only flag bit 0 is defined";
    return std::nullopt;
  }
  InstrBytes b{};
  b[0] = static_cast<std::uint8_t>(in.op);
  b[1] = static_cast<std::uint8_t>(in.queue);
  put(&b[2], in.flags, 2);
  put(&b[4], in.workload, 4);
  std::size_t scalar = 0, box = 0;
  for (const Field& f : op->fields) {
    if (f.type == FieldType::box) {
      const Box& x = in.boxes[box++];
      for (int d = 0; d < 4; ++d) {
        if (!in_range(f, x.lo[d]) || !in_range(f, x.hi[d])) {
          error = std::string(op->mnemonic) + " " + std::string(f.name) +
                  ": coordinate outside [0, " + std::to_string(f.max) + "]";
          return std::nullopt;
        }
        put(&b[f.offset + 2 * d], static_cast<std::uint64_t>(x.lo[d]), 2);
        put(&b[f.offset + 8 + 2 * d], static_cast<std::uint64_t>(x.hi[d]), 2);
      }
      continue;
    }
    const std::int64_t v = in.v[scalar++];
    if (!in_range(f, v)) {
      error = std::string(op->mnemonic) + " " + std::string(f.name) + "=" + std::to_string(v) +
              " outside [" + std::to_string(f.min) + ", " + std::to_string(f.max) + "]";
      return std::nullopt;
    }
    put(&b[f.offset], static_cast<std::uint64_t>(v), width(f.type));
  }
  // Unused scalar slots must stay zero so that equal instructions compare equal.
  for (std::size_t i = scalar; i < in.v.size(); ++i)
    if (in.v[i] != 0) {
      error = "value in an unused field slot";
      return std::nullopt;
    }
  return b;
}

std::optional<Instr> decode(const std::uint8_t* b, std::string& error) {
  const OpInfo* op = op_info(static_cast<Opcode>(b[0]));
  if (!op) {
    error = "unknown opcode 0x" + std::to_string(b[0]);
    return std::nullopt;
  }
  Instr in;
  in.op = op->op;
  if (b[1] >= kEngines) {
    error = "bad queue " + std::to_string(b[1]);
    return std::nullopt;
  }
  in.queue = static_cast<Engine>(b[1]);
  in.flags = static_cast<std::uint16_t>(take(&b[2], 2));
  in.workload = static_cast<std::uint32_t>(take(&b[4], 4));
  std::array<bool, kInstrBytes> used{};
  std::size_t scalar = 0, box = 0;
  for (const Field& f : op->fields) {
    for (std::size_t i = 0; i < width(f.type); ++i) used[f.offset + i] = true;
    if (f.type == FieldType::box) {
      Box& x = in.boxes[box++];
      for (int d = 0; d < 4; ++d) {
        x.lo[d] = static_cast<std::int64_t>(take(&b[f.offset + 2 * d], 2));
        x.hi[d] = static_cast<std::int64_t>(take(&b[f.offset + 8 + 2 * d], 2));
      }
      continue;
    }
    in.v[scalar++] = static_cast<std::int64_t>(take(&b[f.offset], width(f.type)));
  }
  for (std::size_t i = kHeaderBytes; i < kInstrBytes; ++i)
    if (!used[i] && b[i] != 0) {
      error = std::string(op->mnemonic) + ": unused byte " + std::to_string(i) + " is not zero";
      return std::nullopt;
    }
  // Re-encode: catches values out of range and a queue the opcode forbids.
  if (!encode(in, error)) return std::nullopt;
  return in;
}

bool encode_program(const CoreProgram& p, std::vector<std::uint8_t>& out, std::string& error) {
  out.assign(kFileHeaderBytes, 0);
  std::memcpy(out.data(), "GEMINIC1", 8);
  put(&out[8], static_cast<std::uint32_t>(p.core_id), 4);
  put(&out[12], p.instrs.size(), 4);
  out.reserve(kFileHeaderBytes + p.instrs.size() * kInstrBytes);
  for (std::size_t i = 0; i < p.instrs.size(); ++i) {
    auto b = encode(p.instrs[i], error);
    if (!b) {
      error = "instruction " + std::to_string(i) + ": " + error;
      return false;
    }
    out.insert(out.end(), b->begin(), b->end());
  }
  return true;
}

std::optional<CoreProgram> decode_program(const std::vector<std::uint8_t>& bytes,
                                          std::string& error) {
  if (bytes.size() < kFileHeaderBytes || std::memcmp(bytes.data(), "GEMINIC1", 8) != 0) {
    error = "not a gemini program (magic \"GEMINIC1\" missing)";
    return std::nullopt;
  }
  CoreProgram p;
  p.core_id = static_cast<std::int32_t>(take(&bytes[8], 4));
  const std::uint64_t n = take(&bytes[12], 4);
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
