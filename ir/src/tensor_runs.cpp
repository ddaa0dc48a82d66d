// Where a workload without an ofmap entry of its own writes its result
// (tensor_runs.h).
#include "gemini/ir/tensor_runs.h"

#include <algorithm>

namespace gemini::ir {

bool has_own_ofmap_entry(const Workload& w) {
  return std::any_of(w.buffer.begin(), w.buffer.end(), [&](const BufferEntry& e) {
    return e.type == TensorType::ofmap && e.layer_name == w.layer_name;
  });
}

std::optional<std::uint32_t> result_run(const Core& c, std::uint32_t i, const TensorRuns& runs) {
  for (const Ofmap& o : c.workloads[i].ofmap)
    for (std::uint32_t r = 0; r < runs.runs.size(); ++r) {
      const TensorRun& run = runs.runs[r];
      if (run.first > i + 1) break;  // runs are in order of first listing
      if (run.last < i) continue;
      for (const Source& s : run.entry->source)
        if (s.type == EndpointType::core && s.core_id == c.core_id &&
            s.transfer_id == o.transfer_id)
          return r;
    }
  return std::nullopt;
}

bool snapshot_receives_result(const Core& c, std::size_t s, const Workload& w) {
  if (s >= c.workloads.size()) return false;
  for (const BufferEntry& e : c.workloads[s].buffer)
    for (const Source& src : e.source)
      if (src.type == EndpointType::core && src.core_id == c.core_id)
        for (const Ofmap& o : w.ofmap)
          if (o.transfer_id == src.transfer_id) return true;
  return false;
}

}  // namespace gemini::ir
