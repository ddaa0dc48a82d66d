// Order check (O001): the dependency graph must be acyclic; a cycle would
// deadlock the chip. The report spells out the chain.
#include "gemini/ir/graph.h"
#include "gemini/ir/validator.h"

namespace gemini::ir::checks {

void order(const Model& m, const DependencyGraph& g, Diagnostics& d) {
  auto cycle = g.find_cycle();
  if (!cycle) return;
  std::string chain;
  for (const auto& [node, edge] : *cycle) {
    chain += g.describe(node);
    if (edge.transfer == DependencyGraph::kProgramOrder) {
      chain += " -(runs before)-> ";
    } else {
      chain += " -(transfer " + std::to_string(edge.transfer) + (edge.via_dram ? " via DRAM" : "") +
               ")-> ";
    }
  }
  chain += g.describe(cycle->front().first);
  d.report(Check::dependency_cycle, m.pointer(g.workload(cycle->front().first).origin),
           "deadlock: " + chain);
}

}  // namespace gemini::ir::checks
