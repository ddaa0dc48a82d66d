#pragma once
// Little-endian loads and stores of n <= 8 bytes: the byte order of the
// encoding (docs/isa.md), used by the instruction table's field access and by
// the encoder's headers. Internal to the assembler library.

#include <cstddef>
#include <cstdint>

namespace gemini::assembler::detail {

inline std::uint64_t load_le(const std::uint8_t* p, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

inline void store_le(std::uint8_t* p, std::uint64_t v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace gemini::assembler::detail
