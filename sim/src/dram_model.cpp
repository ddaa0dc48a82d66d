#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "dram_models.h"

namespace gemini::sim {

std::unique_ptr<DramModel> make_dram_model(const ir::DramConfig& cfg, double port_gbps) {
  if (cfg.model == "simple")
    return make_simple_dram(port_gbps, static_cast<Tick>(std::llround(cfg.latency_ns * 1000.0)));
  if (cfg.model == "banked")
    return make_banked_dram(cfg.timing, cfg.commit_window, cfg.queue_depth);
  // The configuration parser admits only the names above.
  std::fprintf(stderr, "gemini: internal error: unknown DRAM model \"%s\"\n", cfg.model.c_str());
  std::abort();
}

}  // namespace gemini::sim
