#include "gemini/ir/layer_geometry.h"

#include <algorithm>
#include <map>

namespace gemini::ir {

const char* to_string(LayerOp op) {
  switch (op) {
    case LayerOp::conv:
      return "conv";
    case LayerOp::fc:
      return "fc";
    case LayerOp::pool_max:
      return "pool_max";
    case LayerOp::pool_avg:
      return "pool_avg";
    case LayerOp::eltwise:
      return "eltwise";
    case LayerOp::copy:
      return "copy";
    case LayerOp::transpose:
      return "transpose";
    case LayerOp::unknown:
      break;
  }
  return "unknown";
}

std::vector<std::string> operand_producers(const BufferEntry& e) {
  if (e.type != TensorType::ifmap) return {};
  // Each producer's channel range (the `channel` field where the public
  // dialect gives it, else the source box's channels).
  std::map<std::string, std::pair<std::int32_t, std::int32_t>> range;
  for (const Source& s : e.source) {
    const std::string name = s.layer_name.value_or("");
    const std::int32_t lo = s.channel ? (*s.channel)[0] : s.box.lo[1];
    const std::int32_t hi = s.channel ? (*s.channel)[1] : s.box.hi[1];
    auto [it, fresh] = range.emplace(name, std::pair{lo, hi});
    if (!fresh) {
      it->second.first = std::min(it->second.first, lo);
      it->second.second = std::max(it->second.second, hi);
    }
  }
  if (range.size() < 2) return {};
  bool overlap = false;
  for (auto a = range.begin(); a != range.end(); ++a)
    for (auto b = std::next(a); b != range.end(); ++b)
      overlap |= a->second.first <= b->second.second && b->second.first <= a->second.second;
  if (!overlap) return {};
  std::vector<std::string> out;
  out.reserve(range.size());
  for (const auto& kv : range) out.push_back(kv.first);
  return out;
}

}  // namespace gemini::ir
