#pragma once
// Timing of one DRAM channel in its own clock (tck_ps), JEDEC style, and the
// presets the `dram.preset` parameter names (dram_presets.cpp gives each
// value's source). Plain data: the banked model runs on it, the simple
// model takes its peak as the default bandwidth.

#include <cstdint>
#include <string>
#include <vector>

namespace gemini::sim {

struct DramTiming {
  std::int64_t tck_ps = 625;
  std::int32_t cl = 22, cwl = 16, trcd = 22, trp = 22, tras = 52, twr = 24;
  std::int32_t trfc = 560, trefi = 12480;
  std::int32_t tburst = 4, tccd = 4, twtr = 12, trtw = 12;
  std::int32_t burst_bytes = 64, banks = 16;
  std::int32_t row_bytes = 8192;
  bool operator==(const DramTiming&) const = default;
  // Peak data-bus bandwidth in GB/s.
  double peak_gbps() const {
    return static_cast<double>(burst_bytes) * 1000.0 / (static_cast<double>(tburst) * tck_ps);
  }
};

class ParamReader;
// The `timing` section of the `dram` component: `preset` with any field
// overridden, each declared, range-checked and read through `r` (banked and
// ramulator2 read the same section).
DramTiming read_dram_timing(ParamReader& r, const DramTiming& preset);

// JEDEC-derived presets: "ddr4_3200", "lpddr5_6400", "hbm2"; nullptr if unknown.
const DramTiming* dram_preset(const std::string& name);
std::vector<std::string> dram_preset_names();

}  // namespace gemini::sim
