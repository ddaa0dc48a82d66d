#pragma once
// The unit a statistic or a report figure is counted in, and its printed
// form (results.json's `unit`, the statistics table of
// docs/timing-model.md). Plain C++, header-only: the sweep reads it too.

#include <cstdint>

namespace gemini::sim {

enum class Unit : std::uint8_t {
  none,  // a verdict, a name
  count,
  bytes,
  byte_hops,  // bytes x router-to-router links crossed
  cycles,
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
};

constexpr const char* to_string(Unit u) {
  switch (u) {
    case Unit::none:
      return "";
    case Unit::count:
      return "count";
    case Unit::bytes:
      return "bytes";
    case Unit::byte_hops:
      return "byte-hops";
    case Unit::cycles:
      return "cycles";
    case Unit::picoseconds:
      return "ps";
    case Unit::microseconds:
      return "us";
    case Unit::gbps:
      return "GB/s";
    case Unit::fraction:
      return "fraction";
    case Unit::ratio:
      return "ratio";
    case Unit::picojoules:
      return "pJ";
    case Unit::pj_cycles:
      return "pJ x cycles";
    case Unit::elements:
      return "elements";
    case Unit::seconds:
      return "s";
    case Unit::megabytes:
      return "MB";
    case Unit::mm2:
      return "mm^2";
    case Unit::usd:
      return "USD";
    case Unit::usd_pj_cycles:
      return "USD x pJ x cycles";
    case Unit::watts:
      return "W";
    case Unit::nanoseconds:
      return "ns";
  }
  return "";
}

}  // namespace gemini::sim
