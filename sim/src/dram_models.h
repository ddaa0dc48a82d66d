#pragma once
// The DRAM model implementations. Each builds itself from the configuration's
// `dram` section and the resolved bandwidth per port; dram_model.cpp lists
// them by name (kDramModels), so a new model is its own file and one line
// there.
#include "gemini/sim/dram_model.h"

namespace gemini::sim {
// "simple": FCFS at `port_gbps` with a fixed latency (cfg.latency_ns).
std::unique_ptr<DramModel> make_simple_dram(const ir::DramConfig& cfg, double port_gbps);
// "banked": cfg.timing, FR-FCFS over banks and rows (cfg.commit_window,
// cfg.queue_depth); the bandwidth is the timing's own.
std::unique_ptr<DramModel> make_banked_dram(const ir::DramConfig& cfg, double port_gbps);
}  // namespace gemini::sim
