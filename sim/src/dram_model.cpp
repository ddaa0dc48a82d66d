#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "dram_models.h"

namespace gemini::sim {

void DramModel::register_stats(StatGroup& g) const {
  g.add("bytes_read", &stats_.bytes_read, Unit::bytes, "bytes read at the port");
  g.add("bytes_written", &stats_.bytes_written, Unit::bytes, "bytes written at the port");
  g.add("requests", &stats_.requests, Unit::count, "requests the port served");
  g.add("bursts", &stats_.bursts, Unit::count, "data bursts of its requests (banked)");
  g.add("row_hits", &stats_.row_hits, Unit::count, "bursts to an open row (banked)");
  g.add("row_misses", &stats_.row_misses, Unit::count, "bursts to a closed bank (banked)");
  g.add("row_conflicts", &stats_.row_conflicts, Unit::count,
        "bursts to a bank with another row open (banked)");
  g.add("refreshes", &stats_.refreshes, Unit::count, "refreshes (banked)");
  g.add("data_busy_ps", &stats_.data_busy, Unit::picoseconds, "time the data bus carried data");
}

namespace {
struct DramEntry {
  const char* name;
  std::unique_ptr<DramModel> (*make)(const ir::DramConfig&, double);
};
// Every DRAM model, by the name `dram.model` gives.
constexpr DramEntry kDramModels[] = {
    {"simple", make_simple_dram},
    {"banked", make_banked_dram},
};
}  // namespace

std::vector<std::string> dram_model_names() {
  std::vector<std::string> out;
  for (const DramEntry& e : kDramModels) out.emplace_back(e.name);
  return out;
}

std::unique_ptr<DramModel> make_dram_model(const ir::DramConfig& cfg, double port_gbps) {
  for (const DramEntry& e : kDramModels)
    if (cfg.model == e.name) return e.make(cfg, port_gbps);
  // The configuration parser admits only the names above.
  std::fprintf(stderr, "gemini: internal error: unknown DRAM model \"%s\"\n", cfg.model.c_str());
  std::abort();
}

}  // namespace gemini::sim
