#pragma once
// The energy model's two tables (docs/timing-model.md, "Energy"): the
// components of the breakdown and the events priced into them. Everything
// that shows energy walks these tables -- the breakdown (energy.h, price),
// the text, JSON and per-workload CSV reports, the core's statistics
// groups, the sweep's energy columns (report_metrics.h) -- so a component
// is one row of kComponentTable (and its enumerator) and an event one row
// of kEventTable (and its enumerator). Header-only, on ir's configuration
// only: the sweep, which links no simulator, reads the component names.
//
// Contract: one row per enumerator, in enumerator order (a missing row
// fails to compile); that order is the order of every report's columns
// and keys.

#include <array>
#include <cstddef>
#include <cstdint>

#include "gemini/ir/hw_config.h"
#include "gemini/sim/unit.h"

namespace gemini::sim {

// The breakdown of the reports: mac (PE MACs and VP operations), core
// buffers (AL1, OL1, OL2), L2, WL0, NoC, DRAM, static.
enum class Component : std::uint8_t { mac, core_buffers, l2, wl0, noc, dram, leakage, kCount };
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
    {"noc", "NoC bytes x router-to-router links crossed", true},
    {"dram", "DRAM bytes read and written", true},
    {"static", "every core's static power over the whole run", false},
}};

static_assert(kComponentTable.back().name != nullptr, "a Component without its row");

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
  dram_byte,
  kCount
};
inline constexpr std::size_t kEvents = static_cast<std::size_t>(Event::kCount);

struct EventInfo {
  const char* name;  // the statistic's name in its unit's group
  Component component;
  const char* unit;  // the statistics group that counts it: "core", "l2" or "wl0"
  double ir::EnergyConfig::*cost;
  Unit counted_in;
  const char* description;
};
inline constexpr std::array<EventInfo, kEvents> kEventTable{{
    {"macs", Component::mac, "core", &ir::EnergyConfig::mac_pj, Unit::count,
     "PE multiply-accumulates: n*k*h*w*cin*r*s of each pe_run"},
    {"vp_ops", Component::mac, "core", &ir::EnergyConfig::vp_op_pj, Unit::count,
     "VP element operations of each vp_run"},
    {"al1_read_bytes", Component::core_buffers, "core", &ir::EnergyConfig::al1_read_pj_per_byte,
     Unit::bytes, "activations the PE array read from AL1"},
    {"al1_write_bytes", Component::core_buffers, "core", &ir::EnergyConfig::al1_write_pj_per_byte,
     Unit::bytes, "ifmap tiles written into AL1"},
    {"ol1_read_bytes", Component::core_buffers, "core", &ir::EnergyConfig::ol1_read_pj_per_byte,
     Unit::bytes, "partial sums read back from OL1"},
    {"ol1_write_bytes", Component::core_buffers, "core", &ir::EnergyConfig::ol1_write_pj_per_byte,
     Unit::bytes, "partial sums written to OL1"},
    {"ol2_read_bytes", Component::core_buffers, "core", &ir::EnergyConfig::ol2_read_pj_per_byte,
     Unit::bytes, "ofmap tiles read from OL2 on their way to L2"},
    {"ol2_write_bytes", Component::core_buffers, "core", &ir::EnergyConfig::ol2_write_pj_per_byte,
     Unit::bytes, "final sums written to OL2"},
    {"read_bytes", Component::l2, "l2", &ir::EnergyConfig::l2_read_pj_per_byte, Unit::bytes,
     "bytes read from L2: operands, streamed weights, WL0 fills, dma_out, sends"},
    {"write_bytes", Component::l2, "l2", &ir::EnergyConfig::l2_write_pj_per_byte, Unit::bytes,
     "bytes written to L2: pe_run results, dma_in, received sends"},
    {"read_bytes", Component::wl0, "wl0", &ir::EnergyConfig::wl0_read_pj_per_byte, Unit::bytes,
     "weight bytes pe_runs read from WL0"},
    {"write_bytes", Component::wl0, "wl0", &ir::EnergyConfig::wl0_write_pj_per_byte, Unit::bytes,
     "bytes written to WL0: wl0_load, weights streamed from L2"},
    {"noc_byte_hops", Component::noc, "core", &ir::EnergyConfig::noc_pj_per_byte_hop,
     Unit::byte_hops, "NoC bytes x router links crossed, of the transfers the core started"},
    {"dram_bytes", Component::dram, "core", &ir::EnergyConfig::dram_pj_per_byte, Unit::bytes,
     "DRAM bytes read and written by the transfers the core started"},
}};

static_assert(kEventTable.back().name != nullptr, "an Event without its row");

constexpr const EventInfo& info(Event e) { return kEventTable[static_cast<std::size_t>(e)]; }
// The statistic's name ("macs", "read_bytes", ...), in the group unit_of(e).
constexpr const char* stat_name(Event e) { return info(e).name; }
constexpr Component component_of(Event e) { return info(e).component; }
// The unit whose statistics group counts `e`: "core", "l2" or "wl0".
constexpr const char* unit_of(Event e) { return info(e).unit; }

}  // namespace gemini::sim
