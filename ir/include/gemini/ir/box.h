#pragma once
// Box: the one inclusive lower/upper box of gemini -- the IR's boxes, the
// layer-coordinate tiles of the tile operations (host and CUDA: every
// member is GEMINI_HD) and, converted at the instruction encoding only
// (assembler's box_at / set_box_at), the boxes of instructions.
// `rank` says how many leading dimensions the file gave: 4 for the spec's
// [N,C,H,W] / [K,C,R,S] boxes (the default: a full 4-D box), 1 for the
// public dialect's scalar weight channel range ("lower": 0, "upper": 15,
// the K dimension only), 3 for boxes some transformer files write with
// three entries. Dimensions past `rank` are unknown, not zero.

#include <array>
#include <cstdint>
#include <string>

#include "gemini/ir/hd.h"

namespace gemini::ir {

struct Box {
  std::array<std::int32_t, 4> lo{0, 0, 0, 0};
  std::array<std::int32_t, 4> hi{0, 0, 0, 0};
  std::uint8_t rank = 4;
  bool scalar = false;  // written as two scalars rather than arrays (rank 1)

  // No dimension inverted (among the known ones).
  GEMINI_HD bool valid() const {
    for (int d = 0; d < rank; ++d)
      if (lo[d] > hi[d]) return false;
    return true;
  }
  GEMINI_HD bool empty() const { return !valid(); }
  GEMINI_HD std::int64_t extent(int d) const { return std::int64_t{hi[d]} - lo[d] + 1; }
  // Product of the known extents (0 for an inverted box; INT64_MAX when it
  // does not fit an int64).
  GEMINI_HD std::int64_t volume() const {
    std::int64_t v = 1;
    bool too_big = false;
    for (int d = 0; d < rank; ++d) {
      const std::int64_t e = extent(d);
      if (e <= 0) return 0;
      too_big = too_big || v > INT64_MAX / e;
      if (!too_big) v *= e;
    }
    return too_big ? INT64_MAX : v;
  }
  // The point (a, b, c, e) lies inside (all four dimensions).
  GEMINI_HD bool holds(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t e) const {
    return a >= lo[0] && a <= hi[0] && b >= lo[1] && b <= hi[1] && c >= lo[2] && c <= hi[2] &&
           e >= lo[3] && e <= hi[3];
  }
  // Dense row-major offset of an element inside the box (N, C, H, W order).
  GEMINI_HD std::int64_t offset(std::int64_t a, std::int64_t b, std::int64_t c,
                                std::int64_t e) const {
    return (((a - lo[0]) * extent(1) + (b - lo[1])) * extent(2) + (c - lo[2])) * extent(3) +
           (e - lo[3]);
  }
  // True when `inner` lies inside this box in every dimension both know.
  GEMINI_HD bool contains(const Box& inner) const {
    const int r = rank < inner.rank ? rank : inner.rank;
    for (int d = 0; d < r; ++d)
      if (inner.lo[d] < lo[d] || inner.hi[d] > hi[d]) return false;
    return true;
  }
  GEMINI_HD bool overlaps(const Box& other) const {
    const int r = rank < other.rank ? rank : other.rank;
    for (int d = 0; d < r; ++d)
      if (lo[d] > other.hi[d] || other.lo[d] > hi[d]) return false;
    return true;
  }
  // (C++17 for the CUDA build: no defaulted comparison.)
  GEMINI_HD bool operator==(const Box& o) const {
    for (int d = 0; d < 4; ++d)
      if (lo[d] != o.lo[d] || hi[d] != o.hi[d]) return false;
    return rank == o.rank && scalar == o.scalar;
  }
  GEMINI_HD bool operator!=(const Box& o) const { return !(*this == o); }
};

// The common part of two boxes (inverted where they do not overlap), of
// the lower rank of the two.
GEMINI_HD inline Box intersect(const Box& a, const Box& b) {
  Box r;
  r.rank = a.rank < b.rank ? a.rank : b.rank;
  for (int d = 0; d < 4; ++d) {
    r.lo[d] = a.lo[d] > b.lo[d] ? a.lo[d] : b.lo[d];
    r.hi[d] = a.hi[d] < b.hi[d] ? a.hi[d] : b.hi[d];
  }
  return r;
}

// A coordinate computed in 64 bits, saturated to the int32 range (a
// coordinate pushed out of range stays out of every field's range).
GEMINI_HD inline std::int32_t saturate_coordinate(std::int64_t v) {
  return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : static_cast<std::int32_t>(v);
}

// `b` moved by `delta` along dimension `d` (saturating): the same data seen
// from another frame.
GEMINI_HD inline Box shifted(Box b, int d, std::int64_t delta) {
  b.lo[d] = saturate_coordinate(b.lo[d] + delta);
  b.hi[d] = saturate_coordinate(b.hi[d] + delta);
  return b;
}

// The one printer, in the two notations gemini's messages use:
//   ir:      "[n,c,h,w]...[n,c,h,w]" over the known dimensions, "lo..hi"
//            for a scalar range (the IR's boxes, the validator, plans);
//   corners: "[n,c,h,w]:[n,c,h,w]", all four dimensions (the assembly
//            text's box fields, the simulator's fault messages).
enum class BoxStyle { ir, corners };
std::string to_string(const Box& b, BoxStyle style = BoxStyle::ir);

// Weight boxes (docs/ir-model.md, "Weight boxes"): the public dialect's
// scalar output-channel range (rank 1) and per-sample [N, K, C] (rank 3,
// attention's weights from other layers' results), and the 4-D
// [N, K, C, R*S] of the IR specification's example (the scheduler's weight
// range: B, output channel, input channel, kernel position; N = [0, 0] for
// constant weights). The dimension holding the output channels.
inline int weight_k_dim(const Box& b) { return b.rank >= 3 ? 1 : 0; }

// v rounded up to a multiple of a (a <= 1: v).
inline std::int64_t align_up(std::int64_t v, std::int64_t a) {
  return a <= 1 ? v : (v + a - 1) / a * a;
}

// The bytes a box's data takes in L2: N x roundup(C, align_channels) x H x W
// elements of `bitwidth` bits for a 4-D box; the plain volume otherwise
// (INT64_MAX when that does not fit an int64).
// One rule for the import's tensor sizes and the validator's size checks.
std::int64_t aligned_bytes(const Box& b, std::int64_t align_channels, std::int64_t bitwidth);

}  // namespace gemini::ir
