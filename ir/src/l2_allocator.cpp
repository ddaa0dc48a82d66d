#include "gemini/ir/l2_allocator.h"

#include <algorithm>
#include <numeric>

#include "l2_alloc_detail.h"

namespace gemini::ir {
namespace detail {

Overlaps overlaps_of(const std::vector<AllocTensor>& t) {
  const std::size_t n = t.size();
  std::vector<std::uint32_t> by_first(n);
  std::iota(by_first.begin(), by_first.end(), 0u);
  std::stable_sort(by_first.begin(), by_first.end(),
                   [&](auto a, auto b) { return t[a].first < t[b].first; });
  // With tensors in order of first snapshot, a later one overlaps an earlier
  // one exactly when it starts before the earlier one ends.
  auto each_pair = [&](auto&& fn) {
    for (std::size_t x = 0; x < n; ++x)
      for (std::size_t y = x + 1; y < n && t[by_first[y]].first <= t[by_first[x]].last; ++y)
        fn(by_first[x], by_first[y]);
  };
  Overlaps o;
  o.start.assign(n + 1, 0);
  each_pair([&](std::uint32_t a, std::uint32_t b) {
    ++o.start[a + 1];
    ++o.start[b + 1];
  });
  for (std::size_t i = 0; i < n; ++i) o.start[i + 1] += o.start[i];
  o.list.resize(o.start[n]);
  std::vector<std::uint32_t> fill(o.start.begin(), o.start.end() - 1);
  each_pair([&](std::uint32_t a, std::uint32_t b) {
    o.list[fill[a]++] = b;
    o.list[fill[b]++] = a;
  });
  return o;
}

}  // namespace detail

namespace {

using detail::Overlaps;
using detail::overlaps_of;
using detail::ring_spans;
using detail::Span;

std::vector<std::size_t> order_for(const std::vector<AllocTensor>& t, AllocStrategy s) {
  std::vector<std::size_t> order(t.size());
  std::iota(order.begin(), order.end(), 0);
  auto life = [&](std::size_t i) { return std::int64_t{t[i].last} - t[i].first + 1; };
  switch (s) {
    case AllocStrategy::first_fit_by_start:
      std::stable_sort(order.begin(), order.end(),
                       [&](auto a, auto b) { return t[a].first < t[b].first; });
      break;
    case AllocStrategy::size_best_fit:
    case AllocStrategy::size_first_fit:
      std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
        if (t[a].size != t[b].size) return t[a].size > t[b].size;
        if (life(a) != life(b)) return life(a) > life(b);
        return t[a].first < t[b].first;
      });
      break;
    case AllocStrategy::area_best_fit:
      std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
        const auto x = t[a].size * life(a), y = t[b].size * life(b);
        if (x != y) return x > y;
        return t[a].first < t[b].first;
      });
      break;
    case AllocStrategy::prefetch_ring:  // not a linear strategy: prefetch_fit()
      break;
  }
  return order;
}

}  // namespace

const char* to_string(AllocStrategy s) {
  switch (s) {
    case AllocStrategy::first_fit_by_start:
      return "first-fit-by-start";
    case AllocStrategy::size_best_fit:
      return "size-best-fit";
    case AllocStrategy::size_first_fit:
      return "size-first-fit";
    case AllocStrategy::area_best_fit:
      return "area-best-fit";
    case AllocStrategy::prefetch_ring:
      return "prefetch-ring";
  }
  return "?";
}

namespace {

Allocation allocate(const std::vector<AllocTensor>& t, const Overlaps& overlaps, AllocStrategy s,
                    std::int64_t base, std::int64_t alignment) {
  Allocation out;
  out.strategy = s;
  out.address.assign(t.size(), -1);
  out.peak = base;
  const bool best_fit = s == AllocStrategy::size_best_fit || s == AllocStrategy::area_best_fit;
  std::vector<char> placed(t.size(), 0);
  std::vector<Span> busy;
  for (std::size_t i : order_for(t, s)) {
    busy.clear();
    for (std::uint32_t j : overlaps.of(i))
      if (placed[j]) busy.push_back({out.address[j], out.address[j] + t[j].size});
    std::sort(busy.begin(), busy.end(),
              [](const Span& a, const Span& b) { return a.begin < b.begin; });
    // Walk the gaps between busy spans; the last gap is unbounded.
    std::int64_t cursor = align_up(base, alignment);
    std::int64_t chosen = -1, chosen_gap = INT64_MAX;
    for (const Span& b : busy) {
      if (b.begin - cursor >= t[i].size) {
        const std::int64_t gap = b.begin - cursor;
        if (!best_fit) {
          chosen = cursor;
          break;
        }
        if (gap < chosen_gap) {
          chosen_gap = gap;
          chosen = cursor;
        }
      }
      cursor = std::max(cursor, align_up(b.end, alignment));
    }
    if (chosen < 0) chosen = cursor;
    out.address[i] = chosen;
    out.peak = std::max(out.peak, chosen + t[i].size);
    placed[i] = 1;
  }
  return out;
}

}  // namespace

Allocation allocate(const std::vector<AllocTensor>& t, AllocStrategy s, std::int64_t base,
                    std::int64_t alignment) {
  return allocate(t, overlaps_of(t), s, base, alignment);
}

Allocation allocate_best(const std::vector<AllocTensor>& t, std::int64_t base,
                         std::int64_t alignment) {
  const Overlaps overlaps = overlaps_of(t);
  Allocation best;
  bool have = false;
  for (AllocStrategy s : kAllStrategies) {
    Allocation a = allocate(t, overlaps, s, base, alignment);
    if (!have || a.peak < best.peak) {
      best = std::move(a);
      have = true;
    }
  }
  return best;
}

bool ring_fit(const std::vector<AllocTensor>& t, const RingRegion& region, std::int64_t alignment,
              Allocation& out) {
  const std::int64_t cap = region.size();
  out.address.assign(t.size(), -1);
  out.wrapped = false;
  out.peak = region.begin;
  const Overlaps overlaps = overlaps_of(t);
  std::vector<char> placed(t.size(), 0);
  std::vector<Span> busy;  // offsets within the region, split at the wrap
  for (std::size_t i : order_for(t, AllocStrategy::size_best_fit)) {
    if (t[i].size > cap) return false;
    busy.clear();
    for (std::uint32_t j : overlaps.of(i))
      if (placed[j]) ring_spans(out.address[j] - region.begin, t[j].size, cap, busy);
    std::sort(busy.begin(), busy.end(),
              [](const Span& a, const Span& b) { return a.begin < b.begin; });
    auto free_at = [&](std::int64_t off) {
      const std::int64_t end = off + t[i].size;
      for (const Span& b : busy) {
        if (end <= cap) {
          if (b.begin < end && off < b.end) return false;
        } else if ((b.begin < cap && off < b.end) || (b.begin < end - cap)) {
          return false;
        }
      }
      return true;
    };
    std::vector<std::int64_t> candidates{0};
    for (const Span& b : busy) candidates.push_back(align_up(b.end, alignment) % cap);
    std::sort(candidates.begin(), candidates.end());
    std::int64_t chosen = -1;
    for (std::int64_t c : candidates) {
      if (c % alignment == 0 && free_at(c)) {
        chosen = c;
        break;
      }
    }
    if (chosen < 0) return false;
    out.address[i] = region.begin + chosen;
    if (chosen + t[i].size > cap) {
      out.wrapped = true;
      out.peak = region.end;
    } else {
      out.peak = std::max(out.peak, region.begin + chosen + t[i].size);
    }
    placed[i] = 1;
  }
  return true;
}

}  // namespace gemini::ir
