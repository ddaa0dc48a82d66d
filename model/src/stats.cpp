#include "gemini/model/stats.h"

#include <array>

namespace gemini::model {

std::int64_t op_macs(const Op& op) {
  if (!op.has_weights()) return 0;
  const Dims4& o = op.ofmap_shape;
  const Dims4& w = op.weight_shape;
  return o[0] * o[1] * o[2] * o[3] * w[1] * w[2] * w[3];
}

std::int64_t network_macs(const Network& net) {
  std::int64_t m = 0;
  for (const Op& op : net.ops) m += op_macs(op);
  return m;
}

ValueStats value_stats(const std::vector<std::int8_t>& data) {
  ValueStats s;
  std::array<std::int64_t, 256> hist{};
  for (std::int8_t v : data) ++hist[static_cast<std::uint8_t>(v)];
  s.count = static_cast<std::int64_t>(data.size());
  s.saturated = hist[0x80] + hist[0x7f];
  for (std::int64_t h : hist) s.distinct += h > 0;
  return s;
}

}  // namespace gemini::model
