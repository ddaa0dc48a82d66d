// An allocation's checks and figures: the loads that wait for a slot's
// last reader (war_waits), the live peak, and verify_allocation.
#include <algorithm>
#include <string>

#include "gemini/ir/l2_allocator.h"
#include "l2_alloc_detail.h"

namespace gemini::ir {

using detail::overlap_in_time;

WarStats war_waits(const std::vector<AllocTensor>& t, const Allocation& a, const RingRegion& region,
                   std::int64_t capacity) {
  WarStats w;
  std::uint32_t n = 0;
  for (const AllocTensor& x : t) n = std::max(n, x.last + 1);
  // Per snapshot: the tensors last used there, the bytes live there and
  // the loaded tensors first used there (in index order).
  std::vector<std::vector<std::uint32_t>> ending(n), arriving(n);
  std::vector<std::int64_t> live(n + 1, 0);
  for (std::uint32_t i = 0; i < t.size(); ++i) {
    ending[t[i].last].push_back(i);
    if (t[i].loaded) arriving[t[i].first].push_back(i);
    live[t[i].first] += t[i].size;
    live[t[i].last + 1] -= t[i].size;
  }
  for (std::uint32_t s = 1; s < n; ++s) live[s] += live[s - 1];
  for (std::uint32_t f = 1; f < n; ++f) {
    for (std::uint32_t i : arriving[f]) {
      ++w.loads;
      const Footprint mine = region.footprint(a.address[i], t[i].size);
      const bool waits = std::any_of(ending[f - 1].begin(), ending[f - 1].end(), [&](auto j) {
        const Footprint theirs = region.footprint(a.address[j], t[j].size);
        for (const ByteRange& p : mine)
          for (const ByteRange& q : theirs)
            if (p.overlaps(q)) return true;
        return false;
      });
      if (!waits) continue;
      ++w.waits;
      if (live[f - 1] + t[i].size > capacity) ++w.forced;
    }
  }
  return w;
}

LivePeak live_peak(const std::vector<AllocTensor>& t) {
  std::uint32_t n = 0;
  for (const AllocTensor& x : t) n = std::max(n, x.last + 1);
  std::vector<std::int64_t> delta(n + 1, 0);
  for (const AllocTensor& x : t) {
    delta[x.first] += x.size;
    delta[x.last + 1] -= x.size;
  }
  LivePeak p;
  std::int64_t cur = 0;
  for (std::uint32_t s = 0; s < n; ++s) {
    cur += delta[s];
    if (cur > p.bytes) {
      p.bytes = cur;
      p.snapshot = s;
    }
  }
  return p;
}

std::vector<std::string> verify_allocation(const std::vector<AllocTensor>& t, const Allocation& a,
                                           const RingRegion& region, std::int64_t alignment) {
  std::vector<std::string> problems;
  const std::int64_t cap = region.size();
  std::vector<Footprint> spans(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::int64_t addr = a.address.at(i);
    if (addr < region.begin || addr >= region.end || t[i].size > cap) {
      problems.push_back("tensor " + std::to_string(i) + " at " + std::to_string(addr) +
                         " is outside its region");
      continue;
    }
    if (alignment > 1 && addr % alignment != 0)
      problems.push_back("tensor " + std::to_string(i) + " at " + std::to_string(addr) +
                         " is not aligned to " + std::to_string(alignment));
    spans[i] = region.footprint(addr, t[i].size);
  }
  for (std::size_t i = 0; i < t.size(); ++i)
    for (std::size_t j = i + 1; j < t.size(); ++j) {
      if (!overlap_in_time(t[i], t[j])) continue;
      for (const ByteRange& x : spans[i])
        for (const ByteRange& y : spans[j])
          if (x.overlaps(y))
            problems.push_back("tensors " + std::to_string(i) + " and " + std::to_string(j) +
                               " are live together and share bytes from " +
                               std::to_string(std::max(x.begin, y.begin)));
    }
  return problems;
}

}  // namespace gemini::ir
