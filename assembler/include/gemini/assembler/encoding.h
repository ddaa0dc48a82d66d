#pragma once
// Binary form of instructions and programs, derived from the ISA table.
//
// Program file (core_<id>.bin): a 16-byte header -- magic "GEMINIC1", the
// core id (u32) and the instruction count (u32), little-endian -- then the
// instructions, 64 bytes each. Decoding accepts only canonical bytes (unused
// bytes zero, values in range), so decode -> encode reproduces any file it
// accepts byte for byte.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gemini/assembler/isa.h"

namespace gemini::assembler {

using InstrBytes = std::array<std::uint8_t, kInstrBytes>;

// Fails (returns nullopt, sets `error`) when a value is out of its field's range.
std::optional<InstrBytes> encode(const Instr& in, std::string& error);
std::optional<Instr> decode(const std::uint8_t* bytes, std::string& error);

struct CoreProgram {
  std::int32_t core_id = 0;
  std::vector<Instr> instrs;
  bool operator==(const CoreProgram&) const = default;
};

inline constexpr std::size_t kFileHeaderBytes = 16;
// A program's core id, as the text's .core and the instructions' core
// fields (16 bits) hold it; decode_program and encode_program refuse others.
inline constexpr std::int64_t kMaxCoreId = 65535;
bool encode_program(const CoreProgram& p, std::vector<std::uint8_t>& out, std::string& error);
// The same bytes as two pieces to write one after the other, without a
// copy: the file header, and `body` viewing the program's instructions (an
// Instr is its own encoding on the little-endian hosts gemini runs on),
// each checked as encode() checks it.
bool encode_program_view(const CoreProgram& p, std::array<std::uint8_t, kFileHeaderBytes>& header,
                         std::span<const std::uint8_t>& body, std::string& error);
// `error` names the instruction index and byte offset of the first problem.
std::optional<CoreProgram> decode_program(const std::vector<std::uint8_t>& bytes,
                                          std::string& error);

}  // namespace gemini::assembler
