#include "gemini/ir/box.h"

#include "gemini/ir/checked_int.h"

namespace gemini::ir {

std::int64_t aligned_bytes(const Box& b, std::int64_t align_channels, std::int64_t bitwidth) {
  CheckedI64 bits(bitwidth);
  if (b.rank != 4) {
    bits *= b.volume();
  } else {
    bits *= b.extent(0);
    bits *= align_channels <= 1 ? b.extent(1) : ceil_div(b.extent(1), align_channels);
    if (align_channels > 1) bits *= align_channels;
    bits *= b.extent(2);
    bits *= b.extent(3);
  }
  return bits.ok() ? ceil_div<std::int64_t>(*bits.get(), 8) : INT64_MAX;
}

std::string to_string(const Box& b, BoxStyle style) {
  if (style == BoxStyle::ir && b.scalar)
    return std::to_string(b.lo[0]) + ".." + std::to_string(b.hi[0]);
  const int dims = style == BoxStyle::ir ? b.rank : 4;
  std::string lo = "[", hi = "[";
  for (int d = 0; d < dims; ++d) {
    if (d) {
      lo += ",";
      hi += ",";
    }
    lo += std::to_string(b.lo[d]);
    hi += std::to_string(b.hi[d]);
  }
  return lo + (style == BoxStyle::ir ? "]..." : "]:") + hi + "]";
}

}  // namespace gemini::ir
