// The prefetch ring (AllocStrategy::prefetch_ring): tensors placed in
// order of first use, each where its bytes' last tenants are longest done,
// and the repair that moves tensors a load would wait for.
#include <algorithm>
#include <numeric>

#include "gemini/ir/l2_allocator.h"
#include "l2_alloc_detail.h"

namespace gemini::ir {

using detail::Overlaps;
using detail::overlaps_of;
using detail::ring_spans;
using detail::Span;

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

}  // namespace gemini::ir
