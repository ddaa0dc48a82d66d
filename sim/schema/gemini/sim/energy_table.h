#pragma once
// The energy model's two tables (docs/timing-model.md, "Energy"): the
// components of the breakdown and the events priced into them. Everything
// that shows energy walks these tables -- the breakdown (energy.h, price),
// the text, JSON and per-workload CSV reports, the core's statistics
// groups, the sweep's energy columns (report_metrics.h) -- so a component
// is one row of kComponentTable (and its enumerator) and an event one row
// of kEventTable (and its enumerator). Each event row also declares the
// parameter of the configuration's `energy` section that prices it (its key,
// default, unit and description; kStaticCost for the static component):
// the simulator reads, checks and lists them from these rows (energy.h,
// read_energy_costs), ir keeps the section raw. Header-only, on the
// standard library only: the sweep, which links no simulator, reads the
// component names.
//
// Contract: one row per enumerator, in enumerator order (a missing row
// fails to compile); that order is the order of every report's columns
// and keys.

#include <array>
#include <cstddef>
#include <cstdint>

#include "gemini/sim/unit.h"

namespace gemini::sim {

// The breakdown of the reports: mac (PE MACs and VP operations), core
// buffers (AL1, OL1, OL2), L2, WL0, NoC, die-to-die links, DRAM, static.
enum class Component : std::uint8_t { mac, core_buffers, l2, wl0, noc, d2d, dram, leakage, kCount };
inline constexpr std::size_t kComponents = static_cast<std::size_t>(Component::kCount);

struct ComponentInfo {
  const char* name;  // the reports' key ("mac", ..., "static")
  const char* description;
  // Caused by instructions, so attributed to workloads and layers (and a
  // column of the per-workload CSV); static energy is not.
  bool attributed;
};
inline constexpr std::array<ComponentInfo, kComponents> kComponentTable{{
    {"mac", "PE multiply-accumulates and VP operations", true},
    {"core_buffers", "the PE array's buffers: AL1, OL1, OL2", true},
    {"l2", "L2 reads and writes", true},
    {"wl0", "WL0 reads and writes", true},
    {"noc", "NoC bytes x on-chip router-to-router links crossed", true},
    {"d2d",
     "die-to-die links (chiplets): bytes x D2D links crossed, and SerDes lanes' power over the "
     "whole run (unattributed)",
     true},
    {"dram", "DRAM bytes read and written", true},
    {"static", "every core's static power over the whole run", false},
}};

static_assert(kComponentTable.back().name != nullptr, "a Component without its row");

// A cost parameter of the `energy` section: a number in [0, kMaxCost].
struct CostParam {
  const char* key;  // "mac_pj": its unit is in its name; null: priced elsewhere
  double fallback;  // the public SET scheduler's polar-core value (configs/README.md)
  Unit unit;
  const char* description;
};
inline constexpr double kMaxCost = 1e9;
// The static component's cost: leakage power of one core, over the whole
// run (mW x ns = pJ).
inline constexpr CostParam kStaticCost{"static_mw_per_core", 0, Unit::milliwatts,
                                       "leakage of one core, for the whole run"};

constexpr const ComponentInfo& info(Component c) {
  return kComponentTable[static_cast<std::size_t>(c)];
}
constexpr const char* to_string(Component c) { return info(c).name; }

enum class Event : std::uint8_t {
  mac,
  vp_op,
  al1_read,
  al1_write,
  ol1_read,
  ol1_write,
  ol2_read,
  ol2_write,
  l2_read,
  l2_write,
  wl0_read,
  wl0_write,
  noc_byte_hop,
  d2d_byte_hop,
  dram_byte,
  kCount
};
inline constexpr std::size_t kEvents = static_cast<std::size_t>(Event::kCount);

struct EventInfo {
  const char* name;  // the statistic's name in its unit's group
  Component component;
  const char* group;  // the statistics group that counts it: "core", "l2" or "wl0"
  Unit counted_in;
  const char* description;
  CostParam cost;  // pJ per event counted
};
inline constexpr std::array<EventInfo, kEvents> kEventTable{{
    {"macs",
     Component::mac,
     "core",
     Unit::count,
     "PE multiply-accumulates: n*k*h*w*cin*r*s of each pe_run",
     {"mac_pj", 0.018, Unit::picojoules, "one multiply-accumulate of the PE array"}},
    {"vp_ops",
     Component::mac,
     "core",
     Unit::count,
     "VP element operations of each vp_run",
     {"vp_op_pj", 0.0873, Unit::picojoules, "one vector-lane element operation"}},
    {"al1_read_bytes",
     Component::core_buffers,
     "core",
     Unit::bytes,
     "activations the PE array read from AL1",
     {"al1_read_pj_per_byte", 0.0485625 * 8, Unit::pj_per_byte,
      "a byte read from the PE array's activation buffer"}},
    {"al1_write_bytes",
     Component::core_buffers,
     "core",
     Unit::bytes,
     "ifmap tiles written into AL1",
     {"al1_write_pj_per_byte", 0.0411625 * 8, Unit::pj_per_byte,
      "a byte written to the PE array's activation buffer"}},
    {"ol1_read_bytes",
     Component::core_buffers,
     "core",
     Unit::bytes,
     "partial sums read back from OL1",
     {"ol1_read_pj_per_byte", 0.0802 * 8, Unit::pj_per_byte,
      "a byte read from the partial-sum buffer"}},
    {"ol1_write_bytes",
     Component::core_buffers,
     "core",
     Unit::bytes,
     "partial sums written to OL1",
     {"ol1_write_pj_per_byte", 0.0709 * 8, Unit::pj_per_byte,
      "a byte written to the partial-sum buffer"}},
    {"ol2_read_bytes",
     Component::core_buffers,
     "core",
     Unit::bytes,
     "ofmap tiles read from OL2 on their way to L2",
     {"ol2_read_pj_per_byte", 0.07648125 * 8, Unit::pj_per_byte,
      "a byte read from the output buffer"}},
    {"ol2_write_bytes",
     Component::core_buffers,
     "core",
     Unit::bytes,
     "final sums written to OL2",
     {"ol2_write_pj_per_byte", 0.0989875 * 8, Unit::pj_per_byte,
      "a byte written to the output buffer"}},
    {"read_bytes",
     Component::l2,
     "l2",
     Unit::bytes,
     "bytes read from L2: operands, streamed weights, WL0 fills, dma_out, sends",
     {"l2_read_pj_per_byte", 0.1317125 * 8, Unit::pj_per_byte,
      "a byte read from L2 (the global buffer)"}},
    {"write_bytes",
     Component::l2,
     "l2",
     Unit::bytes,
     "bytes written to L2: pe_run results, dma_in, received sends",
     {"l2_write_pj_per_byte", 0.234025 * 8, Unit::pj_per_byte,
      "a byte written to L2 (the global buffer)"}},
    {"read_bytes",
     Component::wl0,
     "wl0",
     Unit::bytes,
     "weight bytes pe_runs read from WL0",
     {"wl0_read_pj_per_byte", 0.0381625 * 8, Unit::pj_per_byte,
      "a byte read from WL0 (the weight buffer)"}},
    {"write_bytes",
     Component::wl0,
     "wl0",
     Unit::bytes,
     "bytes written to WL0: wl0_load, weights streamed from L2",
     {"wl0_write_pj_per_byte", 0.0308875 * 8, Unit::pj_per_byte,
      "a byte written to WL0 (the weight buffer)"}},
    {"noc_byte_hops",
     Component::noc,
     "core",
     Unit::byte_hops,
     "NoC bytes x router links crossed, of the transfers the core started",
     {"noc_pj_per_byte_hop", 0.7 * 8, Unit::pj_per_byte_hop,
      "a byte over one router-to-router link"}},
    {"d2d_byte_hops",
     Component::d2d,
     "core",
     Unit::byte_hops,
     "bytes x die-to-die links crossed, of the transfers the core started",
     {nullptr, 0, Unit::pj_per_byte_hop,
      "a byte over one die-to-die link: the chiplets.interface's pj_per_byte"}},
    {"dram_bytes",
     Component::dram,
     "core",
     Unit::bytes,
     "DRAM bytes read and written by the transfers the core started",
     {"dram_pj_per_byte", 7.5 * 8, Unit::pj_per_byte, "a byte read or written at a DRAM port"}},
}};

static_assert(kEventTable.back().name != nullptr, "an Event without its row");

constexpr const EventInfo& info(Event e) { return kEventTable[static_cast<std::size_t>(e)]; }
// The statistic's name ("macs", "read_bytes", ...), in the group group_of(e).
constexpr const char* stat_name(Event e) { return info(e).name; }
constexpr Component component_of(Event e) { return info(e).component; }
// The statistics group that counts `e`: "core", "l2" or "wl0".
constexpr const char* group_of(Event e) { return info(e).group; }

}  // namespace gemini::sim
