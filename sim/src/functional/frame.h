#pragma once
// Boxes as the functional unit (functional.h) uses them: the instruction's
// box in the model's Box4, a box moved along the channel axis by a view's
// shift, a box as text for fault messages, and the dense offset of a point
// in a layout. Internal to sim/src/functional*.

#include <cstdint>
#include <string>

#include "gemini/assembler/isa.h"
#include "gemini/model/tile_ops.h"

namespace gemini::sim::functional {

inline model::Box4 box4(const assembler::Box& b) {
  model::Box4 r;
  for (int d = 0; d < 4; ++d) {
    r.lo[d] = static_cast<std::int32_t>(b.lo[d]);
    r.hi[d] = static_cast<std::int32_t>(b.hi[d]);
  }
  return r;
}

// `b` moved by `shift` channels (dimension 1): a view's source -> destination frame.
inline model::Box4 shifted(model::Box4 b, std::int64_t shift) {
  b.lo[1] = static_cast<std::int32_t>(b.lo[1] + shift);
  b.hi[1] = static_cast<std::int32_t>(b.hi[1] + shift);
  return b;
}

// "[n,c,h,w]:[n,c,h,w]", lower then upper corner.
std::string show(const model::Box4& b);

// The dense offset of point `at` in `layout`, linear even outside it.
inline std::int64_t offset_of(const model::Box4& layout, const std::int32_t at[4]) {
  std::int64_t o = 0;
  for (int d = 0; d < 4; ++d) o = o * layout.extent(d) + (at[d] - layout.lo[d]);
  return o;
}

}  // namespace gemini::sim::functional
