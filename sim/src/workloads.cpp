#include "gemini/sim/workloads.h"

namespace gemini::sim {

WorkloadTable workload_table(const ir::Model& m) {
  WorkloadTable t;
  for (const ir::Core& c : m.cores) {
    auto& per = t[c.core_id];
    for (const ir::Workload& w : c.workloads)
      per[static_cast<std::uint32_t>(w.workload_id)] = WorkloadInfo{w.layer_name, w.time};
  }
  return t;
}

}  // namespace gemini::sim
