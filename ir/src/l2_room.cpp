// Room in a full-dialect file's L2 allocation (l2_room.h).
#include "gemini/ir/l2_room.h"

#include <algorithm>

#include "gemini/ir/tensor_runs.h"

namespace gemini::ir {

CoreRoom::CoreRoom(const Core& c, std::int64_t buffersize) : core_(c), buffersize_(buffersize) {
  const TensorRuns runs = tensor_runs<TensorIdentityHash, TensorIdentityEq>(c.workloads);
  t_.reserve(runs.runs.size());
  for (const TensorRun& r : runs.runs) {
    const BufferEntry& e = *r.entry;
    Tensor x;
    x.addr = e.address.value_or(0);
    x.bytes = e.size.value_or(0);
    x.from = x.first = r.first;
    x.last = r.last;
    x.region = region_at(r.first, x.addr);
    x.type = e.type;
    x.layer = e.layer_name;
    x.origin = e.origin;
    t_.push_back(std::move(x));
  }
  for (std::uint32_t s = 0; s < c.workloads.size(); ++s)
    for (std::uint32_t k = 0; k < c.workloads[s].buffer.size(); ++k)
      t_[runs.run_of(s, k)].listings.emplace_back(s, k);
  for (std::uint32_t i = 0; i < c.workloads.size(); ++i) {
    if (has_own_ofmap_entry(c.workloads[i])) continue;
    if (const auto r = result_run(c, i, runs)) t_[*r].from = std::min(t_[*r].from, i);
  }
}

std::vector<RingRegion> CoreRoom::regions_of(std::uint32_t s) const {
  const auto& regs = core_.workloads[s].ring_buffer_info;
  std::vector<RingRegion> out;
  if (regs)
    for (const RingRegion& g : *regs)
      if (g.begin < g.end) out.push_back(g);
  if (out.empty()) out.push_back({0, buffersize_});
  std::stable_sort(out.begin(), out.end(),
                   [](const RingRegion& a, const RingRegion& b) { return a.size() > b.size(); });
  return out;
}

RingRegion CoreRoom::region_at(std::uint32_t s, std::int64_t addr) const {
  const auto& regs = core_.workloads[s].ring_buffer_info;
  if (regs)
    for (const RingRegion& g : *regs)
      if (addr >= g.begin && addr < g.end) return g;
  return {0, buffersize_};
}

std::optional<CoreRoom::Clash> CoreRoom::clash(std::int64_t addr, std::int64_t bytes,
                                               const RingRegion& region, std::uint32_t from,
                                               std::uint32_t last,
                                               std::optional<std::uint32_t> self) const {
  const Footprint mine = region.footprint(addr, bytes);
  for (std::uint32_t t = 0; t < t_.size(); ++t) {
    const Tensor& y = t_[t];
    if (t == self || y.last < from || y.from > last) continue;
    if (mine.overlaps(y.footprint())) return Clash{t, std::max(from, y.from)};
  }
  return std::nullopt;
}

std::optional<std::int64_t> CoreRoom::lowest_free(std::int64_t bytes, const RingRegion& region,
                                                  std::uint32_t from, std::uint32_t last,
                                                  std::int64_t alignment,
                                                  std::optional<std::uint32_t> self) const {
  if (bytes > region.size()) return std::nullopt;
  const std::int64_t a = std::max<std::int64_t>(alignment, 1);
  auto aligned = [&](std::int64_t x) { return region.begin + (x - region.begin + a - 1) / a * a; };
  // A lowest free place starts at the region's start or where a tensor
  // live at the same time ends.
  std::vector<std::int64_t> at{region.begin};
  for (std::uint32_t t = 0; t < t_.size(); ++t) {
    const Tensor& y = t_[t];
    if (t == self || y.last < from || y.from > last) continue;
    for (const ByteRange& r : y.footprint())
      if (const std::int64_t x = aligned(r.end); x >= region.begin && x < region.end)
        at.push_back(x);
  }
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  for (std::int64_t x : at)
    if (!clash(x, bytes, region, from, last, self)) return x;
  return std::nullopt;
}

std::int64_t CoreRoom::live_bytes(std::uint32_t s, const RingRegion& region,
                                  std::optional<std::uint32_t> self) const {
  std::int64_t sum = 0;
  for (std::uint32_t t = 0; t < t_.size(); ++t) {
    const Tensor& y = t_[t];
    if (t == self || y.last < s || y.from > s) continue;
    if (y.region.begin == region.begin && y.region.end == region.end) sum += y.bytes;
  }
  return sum;
}

void CoreRoom::place(std::uint32_t t, std::int64_t addr, std::int64_t bytes) {
  t_[t].addr = addr;
  t_[t].bytes = bytes;
}

std::uint32_t CoreRoom::add(Tensor x) {
  t_.push_back(std::move(x));
  return static_cast<std::uint32_t>(t_.size() - 1);
}

}  // namespace gemini::ir
