#pragma once
// Room in the L2 allocation a full-dialect file already has. Contract: one
// core's tensors as the file places them -- each run of snapshots of one
// tensor (the full dialect's identity, tensor_runs.h), at its address, its
// bytes in its ring region, its bytes taken from its first write (a
// workload without an ofmap entry of its own writing its result into it a
// snapshot early: result_run) to its last snapshot -- and, for a tensor
// that must grow or a tensor to add, whether a place is free of every other
// tensor live at the same time, what stands in its way where not, and the
// lowest free place of a ring region (a tensor may run past the region's
// end and wrap to its start, as the hardware's ring buffers do, and as
// docs/allocation.md places them). Used where a correction changes what a
// tensor holds after the file's allocation was made (model/quirks_room.cpp).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gemini/ir/model.h"

namespace gemini::ir {

class CoreRoom {
 public:
  struct Tensor {
    std::int64_t addr = 0, bytes = 0;
    // Snapshots (workload indices of the core): its first write, its first
    // listing, its last listing.
    std::uint32_t from = 0, first = 0, last = 0;
    RingRegion region;
    TensorType type = TensorType::ifmap;
    std::string layer;
    Origin origin;  // its first listing
    // Every listing: (snapshot, index in that snapshot's buffer).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> listings;
    Footprint footprint() const { return region.footprint(addr, bytes); }
  };
  // A tensor in a place's way: it is live in `snapshot` too.
  struct Clash {
    std::uint32_t tensor = 0, snapshot = 0;
  };

  CoreRoom(const Core& c, std::int64_t buffersize);

  const std::vector<Tensor>& tensors() const { return t_; }
  // The ring region of snapshot s holding `addr` ([0, buffersize) where the
  // snapshot lists none).
  RingRegion region_at(std::uint32_t s, std::int64_t addr) const;
  // Snapshot s's ring regions, largest first ([0, buffersize) without any).
  std::vector<RingRegion> regions_of(std::uint32_t s) const;
  // The first tensor other than `self` live somewhere in [from, last] whose
  // bytes meet `bytes` at `addr` of `region`.
  std::optional<Clash> clash(std::int64_t addr, std::int64_t bytes, const RingRegion& region,
                             std::uint32_t from, std::uint32_t last,
                             std::optional<std::uint32_t> self) const;
  // The lowest aligned address of `region` where `bytes` lie free of every
  // tensor but `self` live in [from, last]; nullopt where none is.
  std::optional<std::int64_t> lowest_free(std::int64_t bytes, const RingRegion& region,
                                          std::uint32_t from, std::uint32_t last,
                                          std::int64_t alignment,
                                          std::optional<std::uint32_t> self) const;
  // The bytes of `region` tensors other than `self` hold in snapshot s.
  std::int64_t live_bytes(std::uint32_t s, const RingRegion& region,
                          std::optional<std::uint32_t> self) const;
  // Tensor t now lies at `addr` with `bytes` (its entries are the caller's).
  void place(std::uint32_t t, std::int64_t addr, std::int64_t bytes);
  // A tensor added to the core (its entry is the caller's); its index.
  std::uint32_t add(Tensor x);

 private:
  const Core& core_;
  std::int64_t buffersize_;
  std::vector<Tensor> t_;
};

}  // namespace gemini::ir
