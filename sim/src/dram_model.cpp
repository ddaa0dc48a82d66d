#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "dram_models.h"

namespace gemini::sim {

void DramModel::register_stats(StatGroup& g) const {
  g.add("bytes_read", &stats_.bytes_read);
  g.add("bytes_written", &stats_.bytes_written);
  g.add("requests", &stats_.requests);
  g.add("bursts", &stats_.bursts);
  g.add("row_hits", &stats_.row_hits);
  g.add("row_misses", &stats_.row_misses);
  g.add("row_conflicts", &stats_.row_conflicts);
  g.add("refreshes", &stats_.refreshes);
  g.add("data_busy_ps", &stats_.data_busy);
}

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
