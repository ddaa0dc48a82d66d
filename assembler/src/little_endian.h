#pragma once
// Little-endian loads and stores of n <= 8 bytes: the byte order of the
// encoding (docs/isa.md), used by the instruction table's field access and by
// the encoder's headers; and a box field's 16 bytes, built on them. Internal
// to the assembler library.
//
// The field widths (1, 2, 4 and 8 bytes) are one native load or store each
// on a little-endian host, which is what the encoder requires anyway; other
// widths, or a big-endian host, go byte by byte.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gemini/assembler/isa.h"

namespace gemini::assembler::detail {

template <typename T>
inline std::uint64_t load_native(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
inline void store_native(std::uint8_t* p, std::uint64_t v) {
  const auto x = static_cast<T>(v);
  std::memcpy(p, &x, sizeof x);
}

inline std::uint64_t load_le(const std::uint8_t* p, std::size_t n) {
  if constexpr (std::endian::native == std::endian::little) {
    switch (n) {
      case 1:
        return p[0];
      case 2:
        return load_native<std::uint16_t>(p);
      case 4:
        return load_native<std::uint32_t>(p);
      case 8:
        return load_native<std::uint64_t>(p);
      default:
        break;
    }
  }
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

inline void store_le(std::uint8_t* p, std::uint64_t v, std::size_t n) {
  if constexpr (std::endian::native == std::endian::little) {
    switch (n) {
      case 1:
        p[0] = static_cast<std::uint8_t>(v);
        return;
      case 2:
        return store_native<std::uint16_t>(p, v);
      case 4:
        return store_native<std::uint32_t>(p, v);
      case 8:
        return store_native<std::uint64_t>(p, v);
      default:
        break;
    }
  }
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// A box field's bytes: lo[0..3], then hi[0..3], two bytes each. The
// coordinates are stored as they are: callers check their range first.
inline void store_box(std::uint8_t* p, const ir::Box& b) {
  for (std::size_t d = 0; d < 4; ++d) {
    store_le(p + 2 * d, static_cast<std::uint64_t>(b.lo[d]), 2);
    store_le(p + 8 + 2 * d, static_cast<std::uint64_t>(b.hi[d]), 2);
  }
}

inline ir::Box load_box(const std::uint8_t* p) {
  ir::Box b;
  for (std::size_t d = 0; d < 4; ++d) {
    b.lo[d] = static_cast<std::int32_t>(load_le(p + 2 * d, 2));
    b.hi[d] = static_cast<std::int32_t>(load_le(p + 8 + 2 * d, 2));
  }
  return b;
}

}  // namespace gemini::assembler::detail
