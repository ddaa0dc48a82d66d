#include "gemini/ir/l2_allocator.h"

#include <algorithm>
#include <numeric>
#include <span>

namespace gemini::ir {
namespace {

bool overlap_in_time(const AllocTensor& a, const AllocTensor& b) {
  return a.first <= b.last && b.first <= a.last;
}

// For each tensor, the others live at the same time as it, in compressed
// rows: tensor i's are list[start[i] .. start[i + 1]). Worked out once per
// core and shared by every strategy; lifetimes are short, so this is far
// fewer pairs than all of them.
struct Overlaps {
  std::vector<std::uint32_t> start, list;
  std::span<const std::uint32_t> of(std::size_t i) const {
    return {list.data() + start[i], list.data() + start[i + 1]};
  }
};

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

struct Span {
  std::int64_t begin, end;
};

// The offsets [off, off + size) of a ring of `cap` bytes: one span, or two
// where it runs past the end and wraps to the start.
void ring_spans(std::int64_t off, std::int64_t size, std::int64_t cap, std::vector<Span>& out) {
  if (off + size <= cap) {
    out.push_back({off, off + size});
  } else {
    out.push_back({off, cap});
    out.push_back({0, off + size - cap});
  }
}

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

namespace {

// Who last held each byte of a ring region: sorted, contiguous segments
// [begin, end) of offsets with the last snapshot of the latest tensor
// placed there (-1: never used). Tensors are placed in order of first use
// and two tensors share bytes only when one's life ends before the other's
// starts, so the latest tenant of a byte is the one used last.
class Tenants {
 public:
  explicit Tenants(std::int64_t cap) : cap_(cap), segs_{{0, cap, -1}} {}

  struct Choice {
    std::int64_t offset = -1;
    std::int64_t released = 0;  // the latest tenant's last snapshot under it
  };
  // The place for `size` bytes whose tenants were all last used before
  // `from`: released longest ago, or with `compact` the lowest; offset -1
  // when there is none.
  Choice best(std::int64_t size, std::int64_t from, std::int64_t alignment, bool compact) const {
    Choice c;
    if (size > cap_) return c;
    std::vector<std::int64_t> cand;
    cand.reserve(segs_.size() * 2);
    for (const Seg& s : segs_) {
      cand.push_back(s.begin);
      // Ending where this segment ends (the place just before it).
      cand.push_back(((s.end - size) % cap_ + cap_) % cap_ / alignment * alignment);
    }
    std::sort(cand.begin(), cand.end());
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    for (std::int64_t o : cand) {
      const std::int64_t r = released(o, size, from);
      if (r == kBlocked) continue;
      if (c.offset < 0 || (!compact && r < c.released)) c = {o, r};
    }
    return c;
  }
  // `size` bytes at offset `o` (wrapping) are now held until snapshot `last`.
  void take(std::int64_t o, std::int64_t size, std::int64_t last) {
    if (o + size <= cap_) {
      set(o, o + size, last);
    } else {
      set(o, cap_, last);
      set(0, o + size - cap_, last);
    }
  }

 private:
  struct Seg {
    std::int64_t begin, end, last;
  };
  static constexpr std::int64_t kBlocked = INT64_MAX;

  // The latest last use over [o, o + size) (wrapping); kBlocked when some
  // byte is held at `from` or later.
  std::int64_t released(std::int64_t o, std::int64_t size, std::int64_t from) const {
    std::int64_t worst = -1;
    auto scan = [&](std::int64_t b, std::int64_t e) {
      auto it = std::upper_bound(segs_.begin(), segs_.end(), b,
                                 [](std::int64_t v, const Seg& s) { return v < s.begin; });
      if (it != segs_.begin()) --it;
      for (; it != segs_.end() && it->begin < e; ++it) {
        if (it->end <= b) continue;
        if (it->last >= from) return false;
        worst = std::max(worst, it->last);
      }
      return true;
    };
    const bool ok =
        o + size <= cap_ ? scan(o, o + size) : scan(o, cap_) && scan(0, o + size - cap_);
    return ok ? worst : kBlocked;
  }
  void set(std::int64_t b, std::int64_t e, std::int64_t last) {
    std::vector<Seg> next;
    next.reserve(segs_.size() + 2);
    bool placed = false;
    auto put = [&](const Seg& x) {  // merging neighbours with the same tenant
      if (!next.empty() && next.back().end == x.begin && next.back().last == x.last)
        next.back().end = x.end;
      else
        next.push_back(x);
    };
    for (const Seg& x : segs_) {
      if (x.end <= b || x.begin >= e) {
        if (x.begin >= e && !placed) {
          put({b, e, last});
          placed = true;
        }
        put(x);
        continue;
      }
      if (x.begin < b) put({x.begin, b, x.last});
      if (!placed) {
        put({b, e, last});
        placed = true;
      }
      if (x.end > e) put({e, x.end, x.last});
    }
    if (!placed) put({b, e, last});
    segs_.swap(next);
  }

  std::int64_t cap_;
  std::vector<Seg> segs_;
};

}  // namespace

namespace {

bool prefetch_pass(const std::vector<AllocTensor>& t, const RingRegion& region,
                   std::int64_t alignment, bool compact, Allocation& out) {
  out.address.assign(t.size(), -1);
  out.wrapped = false;
  out.peak = region.begin;
  out.strategy = AllocStrategy::prefetch_ring;
  const std::int64_t cap = region.size();
  std::vector<std::size_t> order(t.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](auto a, auto b) { return t[a].first < t[b].first; });
  Tenants ring(cap);
  for (std::size_t i : order) {
    const AllocTensor& x = t[i];
    Tenants::Choice c;
    if (x.loaded && x.first > 0)
      c = ring.best(x.size, std::int64_t{x.first} - 1, alignment, compact);
    if (c.offset < 0) c = ring.best(x.size, x.first, alignment, compact);
    if (c.offset < 0) return false;
    ring.take(c.offset, x.size, x.last);
    out.address[i] = region.begin + c.offset;
    if (c.offset + x.size > cap) {
      out.wrapped = true;
      out.peak = region.end;
    } else {
      out.peak = std::max(out.peak, region.begin + c.offset + x.size);
    }
  }
  return true;
}

}  // namespace

bool prefetch_fit(const std::vector<AllocTensor>& t, const RingRegion& region,
                  std::int64_t alignment, Allocation& out) {
  return prefetch_pass(t, region, alignment, false, out) ||
         prefetch_pass(t, region, alignment, true, out);
}

std::size_t prefetch_repair(const std::vector<AllocTensor>& t, const RingRegion& region,
                            std::int64_t alignment, Allocation& a) {
  const std::int64_t cap = region.size();
  std::uint32_t n = 0;
  for (const AllocTensor& x : t) n = std::max(n, x.last + 1);
  std::vector<std::vector<std::uint32_t>> ending(n + 1), arriving(n + 1);
  for (std::uint32_t i = 0; i < t.size(); ++i) {
    ending[t[i].last].push_back(i);
    if (t[i].loaded) arriving[t[i].first].push_back(i);
  }
  const Overlaps overlaps = overlaps_of(t);
  // Offsets in the region; a span may wrap (split in two).
  auto spans_of = [&](std::uint32_t j, std::vector<Span>& out) {
    ring_spans(a.address[j] - region.begin, t[j].size, cap, out);
  };
  auto hits = [&](std::int64_t o, std::int64_t size, const std::vector<Span>& busy) {
    auto one = [&](std::int64_t b, std::int64_t e) {
      return std::any_of(busy.begin(), busy.end(),
                         [&](const Span& s) { return s.begin < e && b < s.end; });
    };
    return o + size <= cap ? one(o, o + size) : one(o, cap) || one(0, o + size - cap);
  };
  // Whether tensor j at offset o overlaps tensor k where it is now.
  auto lands_on = [&](std::int64_t o, std::uint32_t j, std::uint32_t k) {
    std::vector<Span> s;
    spans_of(k, s);
    return hits(o, t[j].size, s);
  };
  std::vector<std::uint32_t> order(t.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](auto x, auto y) { return t[x].first < t[y].first; });
  std::size_t moved = 0;
  std::vector<Span> hard, soft;
  for (std::uint32_t i : order) {
    const AllocTensor& x = t[i];
    if (!x.loaded || x.first == 0 || x.size > cap) continue;
    const std::int64_t here = a.address[i] - region.begin;
    const auto& before = ending[x.first - 1];
    if (std::none_of(before.begin(), before.end(),
                     [&](std::uint32_t k) { return lands_on(here, i, k); }))
      continue;  // it does not wait
    hard.clear();
    for (std::uint32_t j : overlaps.of(i)) spans_of(j, hard);
    soft = hard;
    for (std::uint32_t k : before) spans_of(k, soft);
    // The loads it would hold up: those of the snapshot after its last.
    const auto& after = arriving[x.last + 1 < n ? x.last + 1 : n];
    std::vector<Span> mine;
    auto holds_up = [&](std::int64_t o) {
      // Loads of the next snapshot that would land on [o, o + size).
      mine.clear();
      ring_spans(o, x.size, cap, mine);
      std::int64_t c = 0;
      std::vector<Span> su;
      for (std::uint32_t u : after) {
        su.clear();
        spans_of(u, su);
        bool on = false;
        for (const Span& p : mine)
          for (const Span& q : su) on = on || (p.begin < q.end && q.begin < p.end);
        c += on ? 1 : 0;
      }
      return c;
    };
    std::vector<std::int64_t> cand{0};
    for (const Span& s : soft) {
      cand.push_back(align_up(s.end, alignment) % cap);
      cand.push_back((((s.begin - x.size) % cap + cap) % cap) / alignment * alignment);
    }
    std::sort(cand.begin(), cand.end());
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    const std::int64_t now_held = holds_up(here);
    std::int64_t best = -1, best_held = 0;
    for (std::int64_t o : cand) {
      if (hits(o, x.size, soft)) continue;
      const std::int64_t h = holds_up(o);
      // Its own wait goes; what it holds up may grow by less than one.
      if (h - now_held >= 1) continue;
      if (best < 0 || h < best_held) {
        best = o;
        best_held = h;
      }
    }
    if (best < 0) continue;
    a.address[i] = region.begin + best;
    if (best + x.size > cap) a.wrapped = true;
    ++moved;
  }
  a.peak = region.begin;
  for (std::uint32_t i = 0; i < t.size(); ++i)
    a.peak = std::max(
        a.peak, a.address[i] + t[i].size > region.end ? region.end : a.address[i] + t[i].size);
  return moved;
}

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
