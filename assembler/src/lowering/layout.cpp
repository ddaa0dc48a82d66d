// Data layouts (layout.h): boxes, offsets and the weight layout.
#include "layout.h"

#include <algorithm>

namespace gemini::assembler::lowering {

ir::Box to_box(const ir::Box& b) {
  ir::Box x;
  for (int d = 0; d < 4; ++d) {
    const bool known = d < b.rank;
    x.lo[d] = known ? b.lo[d] : 0;
    x.hi[d] = known ? b.hi[d] : 0;
  }
  return x;
}

ir::Box weight_layout(const ir::Box& w, const ir::LayerGeometry& g, std::int64_t bytes) {
  ir::Box b;
  const std::int64_t rs = std::max<std::int64_t>(1, std::int64_t{g.kernel[0]} * g.kernel[1]);
  if (g.per_sample_weights && w.rank >= 3) {
    for (int d = 0; d < 3; ++d) {
      b.lo[d] = w.lo[d];
      b.hi[d] = w.hi[d];
    }
    b.hi[3] = w.rank == 4 ? w.hi[3] : ir::saturate_coordinate(rs - 1);
    return b;
  }
  const int kd = ir::weight_k_dim(w);
  b.lo[0] = w.lo[kd];
  b.hi[0] = w.hi[kd];
  const std::int64_t per_k =
      std::int64_t{g.weight_shape[1]} * g.weight_shape[2] * g.weight_shape[3];
  if (w.rank == 4 && !(per_k > 0 && w.extent(2) * w.extent(3) == per_k)) {
    // [0, K, C, R*S] where the geometry gives no weight shape it fills:
    // C x R x S, R and S from the kernel.
    b.lo[1] = w.lo[2];
    b.hi[1] = w.hi[2];
    const bool split = w.extent(3) == rs;
    b.hi[2] = (split ? g.kernel[0] : static_cast<std::int32_t>(w.extent(3))) - 1;
    b.hi[3] = (split ? g.kernel[1] : 1) - 1;
    return b;
  }
  const std::int64_t ks = std::max<std::int64_t>(1, b.hi[0] - b.lo[0] + 1);
  if (g.weight_shape[1] > 0) {
    for (int d = 1; d < 4; ++d) b.hi[d] = g.weight_shape[static_cast<std::size_t>(d)] - 1;
  } else {
    b.hi[1] = ir::saturate_coordinate(std::max<std::int64_t>(1, (bytes > 0 ? bytes : ks) / ks) - 1);
  }
  return b;
}

}  // namespace gemini::assembler::lowering
