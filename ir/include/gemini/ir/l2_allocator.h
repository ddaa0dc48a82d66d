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
// allocate_best() runs them all and keeps the lowest peak (the tightest
// packing; "tight"). When even that peak does not fit the ring region,
// ring_fit() places tensors on the region as a circle (a tensor may run past
// the end and wrap to the start, as the hardware's ring buffers do), largest
// first.
//
// prefetch_fit() ("prefetch", the default for public-dialect files) places
// the tensors the way the hardware runs: a loaded tensor's bytes are taken
// from when its load can be issued -- while the workload before its first
// use computes -- not from its first snapshot, and among the free places the
// one whose bytes were released longest ago is taken, a ring buffer's order.
// war_waits() counts the loads that still have to wait for the workload
// before them (docs/allocation.md, "Prefetch").

#include <cstdint>
#include <string>
#include <vector>

#include "gemini/ir/model.h"

namespace gemini::ir {

struct AllocTensor {
  std::int64_t size = 0;  // bytes, a multiple of the alignment
  std::uint32_t first = 0, last = 0;
  // Written by a load or another core's send (so it can be prefetched), not
  // by its own core's compute (an ofmap).
  bool loaded = false;
};

enum class AllocStrategy : std::uint8_t {
  first_fit_by_start,
  size_best_fit,
  size_first_fit,
  area_best_fit,
  prefetch_ring,
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

// Prefetch-aware placement inside `region`, tensors in order of first use.
// A loaded tensor first used in snapshot f > 0 is placed free of every
// tensor live in snapshots [f - 1, last] (its load runs while workload f - 1
// computes); where the region has no such place, free of those live in
// [f, last] (the load waits for workload f - 1). An ofmap is placed free of
// those live in [f, last]. Among the places that qualify, the one whose
// latest previous tenant was last used earliest (never used counts as
// earliest; ties: the lowest offset); a tensor may run past the region's
// end and wrap to its start. Where that order leaves some tensor no place
// (the region fragmented), the same rules with the lowest qualifying place
// instead. False when some tensor finds no place either way (the
// allocation is then incomplete). Allocation::strategy is prefetch_ring.
bool prefetch_fit(const std::vector<AllocTensor>& t, const RingRegion& region,
                  std::int64_t alignment, Allocation& out);

// Where prefetch_fit finds no place (a buffer full at its peak), the tight
// packing `a` (inside `region`) is repaired instead: in order of first use,
// a loaded tensor that would wait for the workload before it (war_waits)
// moves to a place free of every tensor live in [first - 1, last], where
// that makes fewer loads wait (the loads of the snapshot after its last use
// that would land on it count against it). Every placement stays free of
// the tensors live at the same time. Returns the number of tensors moved.
std::size_t prefetch_repair(const std::vector<AllocTensor>& t, const RingRegion& region,
                            std::int64_t alignment, Allocation& a);

// Write-after-read waits of an allocation: the loaded tensors first used
// after snapshot 0 whose bytes overlap a tensor last used in the snapshot
// just before (their load cannot be issued until that workload is done
// with its bytes), and how many of those no placement could avoid: the
// bytes live in that snapshot plus this tensor exceed `capacity`.
struct WarStats {
  std::int64_t loads = 0;   // loaded tensors first used after snapshot 0
  std::int64_t waits = 0;   // of those, waiting for the previous workload
  std::int64_t forced = 0;  // of those waits, forced by capacity
  WarStats& operator+=(const WarStats& o) {
    loads += o.loads;
    waits += o.waits;
    forced += o.forced;
    return *this;
  }
};
WarStats war_waits(const std::vector<AllocTensor>& t, const Allocation& a, const RingRegion& region,
                   std::int64_t capacity);

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
