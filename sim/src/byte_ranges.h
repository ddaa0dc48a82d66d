#pragma once
// Half-open byte ranges [lo, hi) of DRAM, as the reads of one DRAM out
// entry name them.

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace gemini::sim {

using ByteRange = std::pair<std::uint64_t, std::uint64_t>;  // [lo, hi)

// Sorts `r` and merges overlapping or touching ranges in place; returns the
// bytes they cover.
inline std::int64_t merge_ranges(std::vector<ByteRange>& r) {
  std::sort(r.begin(), r.end());
  std::size_t n = 0;
  for (const ByteRange& x : r) {
    if (n > 0 && x.first <= r[n - 1].second)
      r[n - 1].second = std::max(r[n - 1].second, x.second);
    else
      r[n++] = x;
  }
  r.resize(n);
  std::int64_t bytes = 0;
  for (const ByteRange& x : r) bytes += static_cast<std::int64_t>(x.second - x.first);
  return bytes;
}

}  // namespace gemini::sim
