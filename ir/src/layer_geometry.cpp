#include "gemini/ir/layer_geometry.h"

#include <algorithm>
#include <tuple>

namespace gemini::ir {

std::vector<std::vector<std::string>> operand_slabs(const BufferEntry& e) {
  if (e.type != TensorType::ifmap) return {};
  // Each producer's channel range (the `channel` field where the public
  // dialect gives it, else the source box's channels).
  struct Range {
    std::string name;
    std::int32_t lo, hi;
  };
  std::vector<Range> range;
  for (const Source& s : e.source) {
    const std::string name = s.layer_name.value_or("");
    const std::int32_t lo = s.channel ? (*s.channel)[0] : s.box.lo[1];
    const std::int32_t hi = s.channel ? (*s.channel)[1] : s.box.hi[1];
    auto it =
        std::find_if(range.begin(), range.end(), [&](const Range& r) { return r.name == name; });
    if (it == range.end()) {
      range.push_back({name, lo, hi});
    } else {
      it->lo = std::min(it->lo, lo);
      it->hi = std::max(it->hi, hi);
    }
  }
  if (range.size() < 2) return {};
  // Producers whose channels overlap are different operands; those that do
  // not may be parts of one operand's concatenation. Taken in order of
  // their first channel, each joins the first slab it does not overlap
  // (interval partitioning): as many slabs as channels are covered at
  // most, i.e. the operand count when every operand covers the box. For a
  // sum, any such split computes the same value.
  std::sort(range.begin(), range.end(), [](const Range& a, const Range& b) {
    return std::tie(a.lo, a.name) < std::tie(b.lo, b.name);
  });
  std::vector<std::vector<std::string>> slabs;
  std::vector<std::int32_t> slab_end;
  for (const Range& r : range) {
    std::size_t k = 0;
    while (k < slabs.size() && slab_end[k] >= r.lo) ++k;
    if (k == slabs.size()) {
      slabs.emplace_back();
      slab_end.push_back(r.hi);
    }
    slabs[k].push_back(r.name);
    slab_end[k] = std::max(slab_end[k], r.hi);
  }
  if (slabs.size() < 2) return {};
  // Stored by name: each slab's producers sorted, slabs by their first.
  for (auto& g : slabs) std::sort(g.begin(), g.end());
  std::sort(slabs.begin(), slabs.end());
  return slabs;
}

std::int32_t slab_of(const std::vector<std::vector<std::string>>& slabs,
                     const std::string& producer) {
  for (std::size_t k = 0; k < slabs.size(); ++k)
    if (std::find(slabs[k].begin(), slabs[k].end(), producer) != slabs[k].end())
      return static_cast<std::int32_t>(k);
  return -1;
}

}  // namespace gemini::ir
