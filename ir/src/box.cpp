#include "gemini/ir/box.h"

#include "gemini/ir/checked_int.h"

namespace gemini::ir {

std::int64_t Box::volume() const {
  CheckedI64 v(1);
  for (int d = 0; d < rank; ++d) {
    if (lo[d] > hi[d]) return 0;
    v *= extent(d);
  }
  return v.value_or(INT64_MAX);
}

bool Box::contains(const Box& inner) const {
  const int r = rank < inner.rank ? rank : inner.rank;
  for (int d = 0; d < r; ++d)
    if (inner.lo[d] < lo[d] || inner.hi[d] > hi[d]) return false;
  return true;
}

bool Box::overlaps(const Box& other) const {
  const int r = rank < other.rank ? rank : other.rank;
  for (int d = 0; d < r; ++d)
    if (lo[d] > other.hi[d] || other.lo[d] > hi[d]) return false;
  return true;
}

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

std::string to_string(const Box& b) {
  if (b.scalar) return std::to_string(b.lo[0]) + ".." + std::to_string(b.hi[0]);
  std::string lo = "[", hi = "[";
  for (int d = 0; d < b.rank; ++d) {
    if (d) {
      lo += ",";
      hi += ",";
    }
    lo += std::to_string(b.lo[d]);
    hi += std::to_string(b.hi[d]);
  }
  return lo + "]..." + hi + "]";
}

}  // namespace gemini::ir
