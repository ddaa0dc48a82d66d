// Identity checks: workload ids unique and ascending on each core. Core keys
// and core references inside the mesh are checked while loading (I002).
#include <unordered_map>

#include "gemini/ir/validator.h"

namespace gemini::ir::checks {

void identity(const Model& m, Diagnostics& d) {
  for (const Core& c : m.cores) {
    std::unordered_map<std::int32_t, const Workload*> seen;
    const Workload* prev = nullptr;
    for (const Workload& w : c.workloads) {
      auto [it, fresh] = seen.emplace(w.workload_id, &w);
      if (!fresh) {
        d.report(Check::duplicate_workload_id, m.pointer(w.origin, "/workload_id"),
                 "workload_id " + std::to_string(w.workload_id) + " on core " +
                     std::to_string(c.core_id) + " is also used at " +
                     m.pointer(it->second->origin));
      } else if (prev && w.workload_id < prev->workload_id) {
        d.report(Check::workload_order, m.pointer(w.origin, "/workload_id"),
                 "workload_id " + std::to_string(w.workload_id) + " follows " +
                     std::to_string(prev->workload_id) + " on core " + std::to_string(c.core_id) +
                     "; workloads must appear in ascending workload_id order");
      }
      prev = &w;
    }
  }
}

}  // namespace gemini::ir::checks
