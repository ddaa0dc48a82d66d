// The lowering's driver (lowerer.h lists its passes) and the public entry
// point (lowering.h).
#include "gemini/assembler/lowering.h"
#include "lowerer.h"

namespace gemini::assembler {
namespace lowering {

std::optional<Program> Lowerer::run() {
  if (m_.dialect != ir::Dialect::full) {
    error("the model is not in the full dialect: run it through import first");
    return std::nullopt;
  }
  // The workload graph, for the priorities (earliest predicted starts).
  std::optional<ir::ModelGraph> own;
  const ir::ModelGraph& mg = ir::ModelGraph::of(m_, shared_graph_, own);
  build_tensors();
  build_dram_map();
  phase("lower/tensors");
  build_events(mg.graph(), mg.earliest_starts());
  phase("lower/resolve");
  if (!errors_.empty()) return std::nullopt;
  const auto order = schedule();
  phase("lower/schedule");
  if (!errors_.empty()) return std::nullopt;
  Program p;
  p.l2_bytes = m_.buffersize.value_or(hw_.l2.size_bytes);
  p.wl0_bytes = hw_.wl0.size_bytes;
  p.dram_bytes = dram_end_;
  p.dram_regions = regions_;
  p.exact_geometry = geo_.from_model;
  p.multicast = mc_stats_;
  emit(order, p);
  for (std::size_t c = 0; c < p.cores.size(); ++c) {
    const auto& wls = m_.cores[c].workloads;
    if (!wls.empty() && wls.front().ring_buffer_info)
      p.cores[c].ring = *wls.front().ring_buffer_info;
    else
      p.cores[c].ring = {ir::RingRegion{0, p.l2_bytes}};
  }
  phase("lower/emit");
  if (!errors_.empty()) return std::nullopt;
  return p;
}

}  // namespace lowering

const char* to_string(DramRegion::Kind k) {
  return k == DramRegion::Kind::input    ? "input"
         : k == DramRegion::Kind::weight ? "weight"
                                         : "ofmap";
}

std::optional<Program> lower(const ir::Model& m, const ir::HardwareConfig& hw,
                             std::vector<std::string>& errors, const PhaseFn& on_phase,
                             const ir::ModelGraph* graph, std::shared_ptr<void>* keep_scratch,
                             const LowerOptions& options) {
  if (!keep_scratch) return lowering::Lowerer(m, hw, errors, on_phase, graph, options).run();
  // Its references (model, errors, callback) are not touched by its
  // destructor, so it may outlive them.
  auto l = std::make_shared<lowering::Lowerer>(m, hw, errors, on_phase, graph, options);
  auto p = l->run();
  *keep_scratch = std::move(l);
  return p;
}

}  // namespace gemini::assembler
