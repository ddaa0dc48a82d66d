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
  // tccd: column to column command of one direction (tCCD_S, to another
  // bank group); twtr: end of write data to a read command in the write's
  // bank group (tWTR_L); trtw: end of read data to write data on the bus.
  std::int32_t tburst = 4, tccd = 4, twtr = 12, trtw = 2;
  std::int32_t burst_bytes = 64, banks = 16;
  std::int32_t row_bytes = 8192;
  // Bank groups (banks / bank_groups banks each; 1: none) and the timings
  // that tell them apart: tccd_l (column to column in one group), twtr_s
  // (end of write data to a read in another group), trrd_s / trrd_l
  // (activate to activate, another / the same group), tfaw (at most four
  // activates in any window this long), trtp (read to precharge).
  std::int32_t bank_groups = 4, tccd_l = 8, twtr_s = 4;
  std::int32_t trrd_s = 4, trrd_l = 8, tfaw = 34, trtp = 12;
  // Commands of the standard's own: act_commands, the command clocks an
  // activate takes (LPDDR5: 2, ACT-1 then ACT-2; tRCD, tRRD and tFAW count
  // from the first); cas_sync, whether a column command after the data
  // clock has stopped (its last column command's data over) needs a sync
  // command first (LPDDR5's CAS with WCK2CK sync).
  std::int32_t act_commands = 1, cas_sync = 0;
  // trpab: an all-bank precharge (a refresh's) to activate or refresh
  // (LPDDR5's tRPab, above its per-bank tRP; 0: trp).
  std::int32_t trpab = 0;
  bool operator==(const DramTiming&) const = default;
  // Peak data-bus bandwidth in GB/s.
  double peak_gbps() const {
    return static_cast<double>(burst_bytes) * 1000.0 / (static_cast<double>(tburst) * tck_ps);
  }
};

}  // namespace gemini::sim
namespace gemini::ir {
class ParamReader;  // params.h
}  // namespace gemini::ir
namespace gemini::sim {
using ir::ParamReader;

// The `timing` section of the `dram` component: `preset` with any field
// overridden, each declared, range-checked and read through `r` (banked and
// ramulator2 read the same section).
DramTiming read_dram_timing(ParamReader& r, const DramTiming& preset);

// The write queue's watermarks (banked's posted writes, ramulator2's
// controller), shares of the queue: above `high` the controller turns to
// writes, below `low` (a read waiting) back to reads. Declared and read
// through `r`, low below high.
struct WriteWatermarks {
  double high = 0.8, low = 0.2;
};
WriteWatermarks read_write_watermarks(ParamReader& r);

// JEDEC-derived presets: "ddr4_3200", "lpddr5_6400", "hbm2"; nullptr if unknown.
const DramTiming* dram_preset(const std::string& name);
// The address map a controller for that preset's standard uses (banked's
// and ramulator2's `address_mapping` default): "MOP4CLXOR" where bank
// groups cost a stream (DDR4: tCCD_L above the burst), "RoBaRaCoCh" else.
std::string dram_preset_mapping(const std::string& name);
std::vector<std::string> dram_preset_names();

}  // namespace gemini::sim
