#pragma once
// L2 address allocation for one core: dynamic storage allocation over the
// core's snapshots. Each tensor is live over a closed range of snapshot
// indices [first, last]; tensors live at the same time must not share a byte.
//
// Strategies (each O(n log n) plus, for every tensor, a scan of the tensors
// live at the same time; a few hundred tensors a core here):
//   first_fit_by_start  baseline: tensors in order of first use, each at the
//                       lowest address free over its lifetime;
//   size_best_fit       largest first, each into the smallest gap among the
//                       tensors it overlaps in time (greedy by size);
//   size_first_fit      largest first, lowest gap;
//   area_best_fit       largest size x lifetime first, smallest gap.
// allocate_best() runs them all and keeps the lowest peak. When even that
// peak does not fit the ring region, ring_fit() places tensors on the region
// as a circle (a tensor may run past the end and wrap to the start, as the
// hardware's ring buffers do), largest first.

#include <cstdint>
#include <string>
#include <vector>

#include "gemini/ir/model.h"

namespace gemini::ir {

struct AllocTensor {
  std::int64_t size = 0;  // bytes, a multiple of the alignment
  std::uint32_t first = 0, last = 0;
};

enum class AllocStrategy : std::uint8_t {
  first_fit_by_start,
  size_best_fit,
  size_first_fit,
  area_best_fit,
};
const char* to_string(AllocStrategy s);
inline constexpr AllocStrategy kAllStrategies[] = {
    AllocStrategy::first_fit_by_start, AllocStrategy::size_best_fit, AllocStrategy::size_first_fit,
    AllocStrategy::area_best_fit};

struct Allocation {
  std::vector<std::int64_t> address;  // per tensor, absolute L2 address
  std::int64_t peak = 0;              // highest address in use (exclusive)
  bool wrapped = false;               // some tensor wraps around the region end
  AllocStrategy strategy = AllocStrategy::size_best_fit;
};

// Linear placement from `base` upwards (no upper bound), addresses aligned.
Allocation allocate(const std::vector<AllocTensor>& t, AllocStrategy s, std::int64_t base,
                    std::int64_t alignment);
// The best of all strategies (lowest peak; ties to the earlier strategy).
Allocation allocate_best(const std::vector<AllocTensor>& t, std::int64_t base,
                         std::int64_t alignment);
// Placement inside `region` with wrap-around; false when some tensor finds no
// room (the allocation is then incomplete).
bool ring_fit(const std::vector<AllocTensor>& t, const RingRegion& region, std::int64_t alignment,
              Allocation& out);

// The largest sum of sizes live in one snapshot, and that snapshot's index.
struct LivePeak {
  std::int64_t bytes = 0;
  std::uint32_t snapshot = 0;
};
LivePeak live_peak(const std::vector<AllocTensor>& t);

// Independent check of an allocation: every tensor inside `region` (wrapping
// allowed), aligned, and no two tensors live at the same time sharing a
// byte. Returns the problems found, empty when none.
std::vector<std::string> verify_allocation(const std::vector<AllocTensor>& t, const Allocation& a,
                                           const RingRegion& region, std::int64_t alignment);

}  // namespace gemini::ir
