#pragma once
// Helpers the L2 allocator's parts share (l2_allocator.cpp: the linear
// strategies and ring_fit; l2_prefetch.cpp: the prefetch ring and its
// repair; l2_alloc_check.cpp: verification and statistics). Not installed.

#include <cstdint>
#include <span>
#include <vector>

#include "gemini/ir/l2_allocator.h"

namespace gemini::ir::detail {

inline bool overlap_in_time(const AllocTensor& a, const AllocTensor& b) {
  return a.first <= b.last && b.first <= a.last;
}

// For each tensor, the others live at the same time as it, in compressed
// rows: tensor i's are list[start[i] .. start[i + 1]). Worked out once per
// core and shared by every strategy; lifetimes are short, so this is far
// fewer pairs than all of them.
struct Overlaps {
  std::vector<std::uint32_t> start, list;
  std::span<const std::uint32_t> of(std::size_t i) const {
    return {list.data() + start[i], list.data() + start[i + 1]};
  }
};

Overlaps overlaps_of(const std::vector<AllocTensor>& t);

struct Span {
  std::int64_t begin, end;
};

// The offsets [off, off + size) of a ring of `cap` bytes: one span, or two
// where it runs past the end and wraps to the start.
inline void ring_spans(std::int64_t off, std::int64_t size, std::int64_t cap,
                       std::vector<Span>& out) {
  if (off + size <= cap) {
    out.push_back({off, off + size});
  } else {
    out.push_back({off, cap});
    out.push_back({0, off + size - cap});
  }
}

}  // namespace gemini::ir::detail
