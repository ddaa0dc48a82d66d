#pragma once
// Box: an inclusive lower/upper box as the IR writes it. `rank` says how many
// leading dimensions the file gave: 4 for the spec's [N,C,H,W] / [K,C,R,S]
// boxes, 1 for the public dialect's scalar weight channel range ("lower": 0,
// "upper": 15, the K dimension only), 3 for boxes some transformer files
// write with three entries. Dimensions past `rank` are unknown, not zero.

#include <array>
#include <cstdint>
#include <string>

namespace gemini::ir {

struct Box {
  std::array<std::int32_t, 4> lo{0, 0, 0, 0};
  std::array<std::int32_t, 4> hi{0, 0, 0, 0};
  std::uint8_t rank = 4;
  bool scalar = false;  // written as two scalars rather than arrays (rank 1)

  bool valid() const {
    for (int d = 0; d < rank; ++d)
      if (lo[d] > hi[d]) return false;
    return true;
  }
  std::int64_t extent(int d) const { return std::int64_t{hi[d]} - lo[d] + 1; }
  // Product of the known extents (0 for an inverted box; INT64_MAX when it
  // does not fit an int64).
  std::int64_t volume() const;
  // True when `inner` lies inside this box in every dimension both know.
  bool contains(const Box& inner) const;
  bool overlaps(const Box& other) const;
  bool operator==(const Box&) const = default;
};

std::string to_string(const Box& b);

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
