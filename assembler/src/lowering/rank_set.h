#pragma once
// The schedule's ready set (schedule.cpp), internal to the assembler.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gemini::assembler::lowering {

// A set of ranks in [0, n) that hands out its smallest: one bit per rank,
// and above that level after level one bit per non-zero word below, so
// that an insert or a pop is a few word operations (the schedule's ready
// set; a binary heap costs a dozen or more compare-swaps a pop there).
class RankSet {
 public:
  explicit RankSet(std::size_t n) {
    std::size_t words = n / 64 + 1;
    levels_.emplace_back(words, 0);
    while (words > 1) {
      words = (words + 63) / 64;
      levels_.emplace_back(words, 0);
    }
  }
  bool empty() const { return levels_.back()[0] == 0; }
  void insert(std::uint32_t r) {
    std::size_t i = r;
    for (std::vector<std::uint64_t>& level : levels_) {
      level[i / 64] |= std::uint64_t{1} << (i % 64);
      i /= 64;
    }
  }
  // The smallest rank, removed (the set must not be empty).
  std::uint32_t pop_min() {
    std::size_t w = 0;  // a non-zero word of the level below
    for (std::size_t l = levels_.size() - 1; l > 0; --l)
      w = w * 64 + static_cast<std::size_t>(std::countr_zero(levels_[l][w]));
    const std::size_t r = w * 64 + static_cast<std::size_t>(std::countr_zero(levels_[0][w]));
    std::size_t i = r;
    for (std::vector<std::uint64_t>& level : levels_) {
      level[i / 64] &= ~(std::uint64_t{1} << (i % 64));
      if (level[i / 64] != 0) break;
      i /= 64;
    }
    return static_cast<std::uint32_t>(r);
  }

 private:
  std::vector<std::vector<std::uint64_t>> levels_;  // [0]: a bit per rank; the last is one word
};

}  // namespace gemini::assembler::lowering
