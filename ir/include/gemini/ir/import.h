#pragma once
// Import: completes a public-dialect model into the full dialect.
//
//   * L2 allocation per core (l2_allocator.h): a tensor is one run of
//     consecutive snapshots of the core; a gap makes a new tensor;
//   * buffersize, ring_buffer_info, tensor_id, newly_added, cur_wl_ifmap,
//     align, bitwidth and sizes of every buffer tensor;
//   * tensor_order: one global order of all loaded tensors (ifmaps and
//     weights, whether from DRAM or another core) by the time their core
//     first holds them, on an as-soon-as-possible schedule of the predicted
//     `time`s; ties by core, then first use;
//   * WL0 snapshots and tile_info from the PE model of the configuration;
//   * tile_padding_tblr where the layer's boxes and weight size determine
//     the kernel, stride and padding.
// docs/allocation.md describes the models and compares the strategies.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/graph.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/l2_allocator.h"
#include "gemini/ir/model.h"

namespace gemini::ir {

// How import places tensors in L2 (docs/allocation.md): `prefetch` (the
// default) as the hardware runs them, each load's bytes free while the
// workload before it computes where the buffer has room (prefetch_fit);
// `tight`, the tightest packing of lifetimes at snapshot granularity (the
// best of the four linear strategies per core; the default before).
enum class L2Allocation : std::uint8_t { prefetch, tight };
const char* to_string(L2Allocation a);
std::optional<L2Allocation> l2_allocation_from(std::string_view s);

struct ImportOptions {
  // Overrides the configuration's L2 size. With it, a schedule that does not
  // fit is an error; without it, L2 grows to what the schedule needs (A001).
  std::optional<std::int64_t> buffersize;
  L2Allocation allocation = L2Allocation::prefetch;
  // Run only this linear strategy instead of keeping the best (for
  // comparisons; implies `tight` placement rules).
  std::optional<AllocStrategy> only_strategy;
};

struct CoreImport {
  std::int32_t core_id = 0;
  std::size_t tensors = 0;
  std::int64_t live_peak = 0;           // largest byte sum of one snapshot
  std::int32_t live_peak_workload = 0;  // the workload of that snapshot
  std::int64_t alloc_peak = 0;          // highest address in use
  AllocStrategy strategy = AllocStrategy::size_best_fit;
  bool wrapped = false;
  // Write-after-read waits (war_waits) of the allocation used, and of the
  // tight packing the capacity was sized with (the same when that is used).
  WarStats war, war_tight;
  // prefetch_fit found no place: the tight packing, with `repaired` tensors
  // moved by prefetch_repair, is used.
  bool prefetch_failed = false;
  std::size_t repaired = 0;
  std::int64_t wl0_peak = 0;
  std::size_t streamed_weights = 0;  // weights larger than WL0, streamed in chunks
  double fragmentation() const {
    return alloc_peak > 0 ? 1.0 - static_cast<double>(live_peak) / static_cast<double>(alloc_peak)
                          : 0.0;
  }
};

struct ImportReport {
  std::int64_t configured_buffersize = 0;
  std::int64_t buffersize = 0;  // what the output uses
  bool fits = true;             // every core fits configured_buffersize
  std::vector<CoreImport> cores;
  std::size_t tensors_with_order = 0;
  L2Allocation allocation = L2Allocation::prefetch;
  WarStats war() const;
  WarStats war_tight() const;
  std::int64_t alloc_peak() const;  // the largest per core
};

// Completes `m` in place (m.dialect becomes full). A full-dialect model is
// left as it is. Returns nullopt, with the reason in `d`, when the schedule
// cannot fit an explicit --buffersize. `graph`, when given, is m's (built
// for validation, say) and is used instead of building another; cores are
// allocated and filled in in parallel.
std::optional<ImportReport> import_model(Model& m, const HardwareConfig& hw,
                                         const ImportOptions& opts, Diagnostics& d,
                                         const ModelGraph* graph = nullptr);

}  // namespace gemini::ir
