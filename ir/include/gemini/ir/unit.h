#pragma once
// The one unit vocabulary: what a configuration parameter is given in
// (ParamInfo::unit, `gemini sim --list-params`) and what a statistic or a
// report figure is counted in (gemini/sim/stats.h, results.json's `unit`,
// the sweep's columns). Each unit has one printed form, kept ASCII; a
// parameter and the statistic it prices share the unit's spelling
// (noc.pj_per_byte_hop is in pJ/byte-hop, core.noc_byte_hops in byte-hops).
// Plain C++, header-only.
//
// A unit names a physical dimension (ns, bytes, GB/s, pJ/byte), a clock
// (cycles: the core's; DRAM clocks: the DRAM's tCK; BookSim cycles), or
// the thing a whole number counts (banks, packets, dies), so that a listing
// says what a number is. `none` is for what is not a number: a verdict, a
// name, a string or a choice.

#include <cstddef>
#include <cstdint>

namespace gemini::ir {

enum class Unit : std::uint8_t {
  none,
  // Statistics and report figures (their printed forms are in every
  // report: unchanged).
  count,
  bytes,
  byte_hops,  // bytes x router-to-router links crossed
  cycles,     // core clock cycles
  picoseconds,
  microseconds,
  gbps,  // GB/s (bytes per ns)
  fraction,
  ratio,
  picojoules,
  pj_cycles,  // energy-delay product: pJ x cycles
  elements,
  seconds,
  megabytes,
  mm2,            // square millimetres of silicon
  usd,            // US dollars
  usd_pj_cycles,  // monetary cost x energy-delay product
  watts,
  nanoseconds,
  pj_ns,      // energy-delay product in time: pJ x ns (a study's EDP)
  usd_pj_ns,  // monetary cost x pJ x ns (the Gemini scheduler's objective)
  // Clocks other than the core's.
  dram_clocks,               // the DRAM's clock period, tCK (dram.timing.tck_ps)
  booksim_cycles,            // BookSim 2's cycle (noc.clock_ratio of them per core cycle)
  booksim_cycles_per_cycle,  // BookSim cycles per core cycle
  megahertz,
  // Rates and sizes.
  bits,
  bytes_per_cycle,
  elements_per_cycle,
  instructions_per_cycle,
  gbit_per_s,     // Gbit/s (a die-to-die lane)
  gbps_per_tops,  // GB/s of DRAM per TOPS of the mesh
  // Energy, power and silicon.
  pj_per_byte,
  pj_per_byte_hop,  // pJ per byte per link crossed (a byte-hop)
  milliwatts,
  nanometres,   // a process node
  millimetres,  // wafer and die dimensions
  um2,          // square micrometres
  um2_per_bit,
  um2_per_gbps,  // um^2 per GB/s of bandwidth (a PHY, a router)
  usd_per_gbps,
  usd_per_mm2,
  per_cm2,  // a defect density
  // Things a whole number counts.
  cores,
  channels,
  pixels,
  banks,
  bank_groups,
  ranks,
  dies,
  packets,
  bursts,
  commands,
  transfers,
  sends,
  accesses,
  virtual_channels,
  iterations,
  id,             // a number that names, not measures: a random seed
  booksim_units,  // a BookSim key passed through: in the unit BookSim gives it
  kCount
};

// One line per unit (a switch: the compiler names a unit left out).
// clang-format off
constexpr const char* to_string(Unit u) {
  switch (u) {
    case Unit::none: return "";
    case Unit::count: return "count";
    case Unit::bytes: return "bytes";
    case Unit::byte_hops: return "byte-hops";
    case Unit::cycles: return "cycles";
    case Unit::picoseconds: return "ps";
    case Unit::microseconds: return "us";
    case Unit::gbps: return "GB/s";
    case Unit::fraction: return "fraction";
    case Unit::ratio: return "ratio";
    case Unit::picojoules: return "pJ";
    case Unit::pj_cycles: return "pJ x cycles";
    case Unit::elements: return "elements";
    case Unit::seconds: return "s";
    case Unit::megabytes: return "MB";
    case Unit::mm2: return "mm^2";
    case Unit::usd: return "USD";
    case Unit::usd_pj_cycles: return "USD x pJ x cycles";
    case Unit::watts: return "W";
    case Unit::nanoseconds: return "ns";
    case Unit::pj_ns: return "pJ x ns";
    case Unit::usd_pj_ns: return "USD x pJ x ns";
    case Unit::dram_clocks: return "DRAM clocks";
    case Unit::booksim_cycles: return "BookSim cycles";
    case Unit::booksim_cycles_per_cycle: return "BookSim cycles/cycle";
    case Unit::megahertz: return "MHz";
    case Unit::bits: return "bits";
    case Unit::bytes_per_cycle: return "bytes/cycle";
    case Unit::elements_per_cycle: return "elements/cycle";
    case Unit::instructions_per_cycle: return "instructions/cycle";
    case Unit::gbit_per_s: return "Gbit/s";
    case Unit::gbps_per_tops: return "GB/s per TOPS";
    case Unit::pj_per_byte: return "pJ/byte";
    case Unit::pj_per_byte_hop: return "pJ/byte-hop";
    case Unit::milliwatts: return "mW";
    case Unit::nanometres: return "nm";
    case Unit::millimetres: return "mm";
    case Unit::um2: return "um^2";
    case Unit::um2_per_bit: return "um^2/bit";
    case Unit::um2_per_gbps: return "um^2/(GB/s)";
    case Unit::usd_per_gbps: return "USD/(GB/s)";
    case Unit::usd_per_mm2: return "USD/mm^2";
    case Unit::per_cm2: return "1/cm^2";
    case Unit::cores: return "cores";
    case Unit::channels: return "channels";
    case Unit::pixels: return "pixels";
    case Unit::banks: return "banks";
    case Unit::bank_groups: return "bank groups";
    case Unit::ranks: return "ranks";
    case Unit::dies: return "dies";
    case Unit::packets: return "packets";
    case Unit::bursts: return "bursts";
    case Unit::commands: return "commands";
    case Unit::transfers: return "transfers";
    case Unit::sends: return "sends";
    case Unit::accesses: return "accesses";
    case Unit::virtual_channels: return "VCs";
    case Unit::iterations: return "iterations";
    case Unit::id: return "id";
    case Unit::booksim_units: return "BookSim's units";
    case Unit::kCount: break;
  }
  return "";
}
// clang-format on

inline constexpr std::size_t kUnits = static_cast<std::size_t>(Unit::kCount);

}  // namespace gemini::ir
