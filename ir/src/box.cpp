#include "gemini/ir/box.h"

namespace gemini::ir {

std::int64_t Box::volume() const {
  std::int64_t v = 1;
  for (int d = 0; d < rank; ++d) {
    if (lo[d] > hi[d]) return 0;
    v *= extent(d);
  }
  return v;
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
  if (b.rank != 4) return (b.volume() * bitwidth + 7) / 8;
  const std::int64_t c = align_up(b.extent(1), align_channels);
  return (b.extent(0) * c * b.extent(2) * b.extent(3) * bitwidth + 7) / 8;
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
