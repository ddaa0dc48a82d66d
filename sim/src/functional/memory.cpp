// The functional unit's memories (functional.h): the DRAM image and every
// core's L2 and WL0 as bytes. A tensor (Place) is dense over its layout from
// its base; its L2 addresses wrap inside the ring region holding the base.
// Copies between a tensor and a dense tile never touch a byte outside the
// memory: a tensor larger than its memory copies nothing (fits), a box
// partly outside a tensor reads zero there (gather_part).
#include <algorithm>
#include <cstring>

#include "../functional.h"

namespace gemini::sim {

using ir::Box;

std::int8_t* Functional::byte(Mem mem, std::int32_t core, std::int64_t addr, bool& ok) {
  ok = false;
  if (mem == Mem::dram) {
    if (addr < 0 || addr >= static_cast<std::int64_t>(dram_.size())) return nullptr;
    ok = true;
    return dram_.data() + addr;
  }
  Core& c = cores_[static_cast<std::size_t>(core)];
  std::vector<std::int8_t>& m = mem == Mem::l2 ? c.l2 : c.wl0;
  if (addr < 0 || addr >= static_cast<std::int64_t>(m.size())) return nullptr;
  ok = true;
  return m.data() + addr;
}

// Copies box `b` (inside p.layout, rows of W contiguous) between `p` and
// the dense tile `dense`. L2 bytes wrap inside the ring region holding the
// tensor's base address. Fast path: when the box's bytes lie in the memory
// without wrapping, they are checked once and copied row by row, rows that
// are contiguous in the layout merged into one.
void Functional::copy_rows(const Place& p, const ir::Box& b, std::int8_t* dense, bool write) {
  if (b.empty() || !fits(p)) return;
  ir::RingRegion ring{0, 0};
  if (p.mem == Mem::l2) {
    for (const ir::RingRegion& r : cores_[static_cast<std::size_t>(p.core)].ring)
      if (p.base >= r.begin && p.base < r.end) ring = r;
  }
  const std::int64_t e1 = p.layout.extent(1), e2 = p.layout.extent(2), e3 = p.layout.extent(3);
  const std::int64_t first = p.base + p.layout.offset(b.lo[0], b.lo[1], b.lo[2], b.lo[3]);
  const std::int64_t last = p.base + p.layout.offset(b.hi[0], b.hi[1], b.hi[2], b.hi[3]);
  bool ok0 = false, ok1 = false;
  std::int8_t* m0 = byte(p.mem, p.core, first, ok0);
  byte(p.mem, p.core, last, ok1);
  const bool in_ring = ring.size() == 0 || (first >= ring.begin && last < ring.end);
  if (ok0 && ok1 && in_ring) {
    // Merge contiguous rows: a box as wide as its layout continues on the
    // next row, one as tall continues in the next channel.
    std::int64_t row = b.extent(3);
    std::int64_t nh = b.extent(2), nc = b.extent(1);
    if (row == e3) {
      row *= nh;
      nh = 1;
      if (b.extent(2) == e2) {
        row *= nc;
        nc = 1;
      }
    }
    std::int8_t* tile = dense;
    for (std::int64_t n = 0; n < b.extent(0); ++n)
      for (std::int64_t c = 0; c < nc; ++c)
        for (std::int64_t h = 0; h < nh; ++h) {
          std::int8_t* m = m0 + (n * e1 + c) * e2 * e3 + h * e3;
          if (write) {
            std::memcpy(m, tile, static_cast<std::size_t>(row));
          } else {
            std::memcpy(tile, m, static_cast<std::size_t>(row));
          }
          tile += row;
        }
    return;
  }
  // Byte by byte through the ring (a tensor that wraps), or out of bounds.
  const std::int64_t row = b.extent(3);
  std::int64_t k = 0;
  std::int32_t at[4];
  for (at[0] = b.lo[0]; at[0] <= b.hi[0]; ++at[0])
    for (at[1] = b.lo[1]; at[1] <= b.hi[1]; ++at[1])
      for (at[2] = b.lo[2]; at[2] <= b.hi[2]; ++at[2]) {
        at[3] = b.lo[3];
        std::int64_t a = p.base + p.layout.offset(at[0], at[1], at[2], at[3]);
        std::int8_t* tile = dense + k;
        k += row;
        std::int64_t left = row;
        while (left > 0) {
          std::int64_t n = left;
          if (ring.size() > 0) {
            a = ring.begin + ((a - ring.begin) % ring.size() + ring.size()) % ring.size();
            n = std::min(n, ring.end - a);
          }
          bool ok = false, ok_end = false;
          std::int8_t* m = byte(p.mem, p.core, a, ok);
          byte(p.mem, p.core, a + n - 1, ok_end);
          if (!ok || !ok_end) return;  // callers checked the layout against the memory
          if (write) {
            std::copy(tile, tile + n, m);
          } else {
            std::copy(m, m + n, tile);
          }
          tile += n;
          a += n;
          left -= n;
        }
      }
}

void Functional::gather_part(const Place& p, const ir::Box& want, std::vector<std::int8_t>& out) {
  out.assign(static_cast<std::size_t>(want.volume()), 0);
  if (!fits(p)) return;
  const ir::Box have = ir::intersect(want, p.layout);
  if (have.empty()) return;
  if (!(have.lo[0] == want.lo[0] && have.hi[0] == want.hi[0] && have.lo[1] == want.lo[1] &&
        have.hi[1] == want.hi[1] && have.lo[2] == want.lo[2] && have.hi[2] == want.hi[2] &&
        have.lo[3] == want.lo[3] && have.hi[3] == want.hi[3])) {
    std::vector<std::int8_t> part(static_cast<std::size_t>(have.volume()));
    gather(p, have, part.data());
    std::int64_t k = 0;
    for (std::int32_t a = have.lo[0]; a <= have.hi[0]; ++a)
      for (std::int32_t b = have.lo[1]; b <= have.hi[1]; ++b)
        for (std::int32_t c = have.lo[2]; c <= have.hi[2]; ++c) {
          std::copy(part.begin() + k, part.begin() + k + have.extent(3),
                    out.begin() + want.offset(a, b, c, have.lo[3]));
          k += have.extent(3);
        }
    return;
  }
  gather(p, want, out.data());
}

bool Functional::fits(const Place& p) const {
  // A tensor is never larger than its memory (and no extent product
  // overflows on the way: each is at most 65536).
  const std::int64_t cap = p.mem == Mem::dram ? static_cast<std::int64_t>(dram_.size())
                           : p.mem == Mem::l2 ? static_cast<std::int64_t>(program_.l2_bytes)
                                              : static_cast<std::int64_t>(program_.wl0_bytes);
  std::int64_t v = 1;
  for (int d = 0; d < 4; ++d) {
    if (p.layout.hi[d] < p.layout.lo[d]) return false;
    v *= p.layout.extent(d);
    if (v > cap) return false;
  }
  return true;
}

Functional::InputRead Functional::input_read(const char* operand, const Place& p,
                                             const ir::Box& box,
                                             std::vector<std::int8_t>&& data) const {
  const Core& at = cores_[static_cast<std::size_t>(p.core)];
  return {operand, p, box, std::move(data),
          p.mem == Mem::wl0 ? at.wl0_log.size() : at.l2_log.size()};
}

}  // namespace gemini::sim
