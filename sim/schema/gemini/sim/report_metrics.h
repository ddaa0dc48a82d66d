#pragma once
// The figures of the JSON report (--report) that other programs read -- the
// sweep's columns -- each declared once, here: its place in the report (a
// JSON pointer), its unit, its meaning and how it is read from the
// simulator's report. The JSON writer (sim/src/report_json.cpp) writes each
// figure through its declaration, under the pointer's last segment and with
// `read`'s value, and the sweep (sweep/src/results.cpp) reads it through the
// same declaration: renaming a figure renames both, removing one fails to
// compile. tests/sim/test_report_metrics.cpp checks that every pointer
// resolves, in real reports, to the value `read` gives.
//
// Header-only, on the standard library and energy_table.h: the sweep
// includes it and links no simulator. `read` is a generic lambda over the
// report type, so only code that knows sim::Report (the simulator, its
// tests) instantiates it.
//
// The statistics (stats.h) need no declaration here: the JSON `stats`
// section holds every unit's group with its kind and each counter with its
// unit, and their sums by kind (stat_snapshot.h), which the sweep reads.

#include <string>
#include <string_view>
#include <tuple>

#include "gemini/sim/energy_table.h"
#include "gemini/sim/stat_snapshot.h"
#include "gemini/sim/unit.h"

namespace gemini::sim {

// A metric's declaration without its reader (a plain aggregate, so that
// the declarations below can name their fields: designated initializers of
// a class template's own deduction are beyond some compilers, clang 14's
// among them).
struct MetricSpec {
  std::string_view key;      // the sweep's column
  std::string_view pointer;  // where the JSON report holds it (RFC 6901)
  Unit unit = Unit::none;
  std::string_view description;  // one line: results.json, docs/sweeps.md
  bool plot = false;             // the sweep plots it against each axis
  std::string_view group = "";   // sweep columns drawn as one figure's panels ("" alone)
};

template <class Read>
struct ReportMetric : MetricSpec {
  Read read;  // the value, from a sim::Report
  // The member the JSON writer writes it as: the pointer's last segment.
  constexpr std::string_view json_key() const { return pointer.substr(pointer.rfind('/') + 1); }
};
template <class Read>
constexpr ReportMetric<Read> metric_of(MetricSpec spec, Read read) {
  return {spec, read};
}

// A part of every core's time: cycles at `pointer` in each element of
// kCoresPointer (`read` from a sim::CoreReport). The sweep's column `key` is
// its sum over the cores over the sum of their core_finish cycles.
struct CoreShareSpec {
  std::string_view key, pointer, description;
};
template <class Read>
struct CoreShare : CoreShareSpec {
  Read read;
  constexpr std::string_view json_key() const { return pointer.substr(pointer.rfind('/') + 1); }
};
template <class Read>
constexpr CoreShare<Read> share_of(CoreShareSpec spec, Read read) {
  return {spec, read};
}

namespace metric {

inline constexpr auto total_cycles =
    metric_of({.key = "total_cycles",
               .pointer = "/total_cycles",
               .unit = Unit::cycles,
               .description = "simulated cycles until the last core finished",
               .plot = true},
              [](const auto& r) { return r.total_cycles; });
inline constexpr auto time_us = metric_of({.key = "time_us",
                                           .pointer = "/time_us",
                                           .unit = Unit::microseconds,
                                           .description = "simulated time at the configured clock",
                                           .plot = true},
                                          [](const auto& r) { return r.time_us(); });
inline constexpr auto dram_bytes = metric_of({.key = "dram_bytes",
                                              .pointer = "/dram/bytes",
                                              .unit = Unit::bytes,
                                              .description = "bytes the DRAM ports read and wrote",
                                              .plot = true},
                                             [](const auto& r) { return r.dram_bytes; });
inline constexpr auto dram_gbps =
    metric_of({.key = "dram_gbps",
               .pointer = "/dram/achieved_gbps",
               .unit = Unit::gbps,
               .description = "DRAM bandwidth achieved over the whole run",
               .plot = true},
              [](const auto& r) { return r.dram_achieved_gbps; });
inline constexpr auto dram_peak_gbps =
    metric_of({.key = "dram_peak_gbps",
               .pointer = "/dram/peak_gbps",
               .unit = Unit::gbps,
               .description = "DRAM peak bandwidth of the configuration (all ports)"},
              [](const auto& r) { return r.dram_peak_gbps; });
inline constexpr auto noc_bytes = metric_of({.key = "noc_bytes",
                                             .pointer = "/noc/bytes",
                                             .unit = Unit::bytes,
                                             .description = "bytes carried by the NoC"},
                                            [](const auto& r) { return r.noc_bytes; });
inline constexpr auto noc_link_util_max =
    metric_of({.key = "noc_link_util_max",
               .pointer = "/noc/link_utilisation_max",
               .unit = Unit::fraction,
               .description = "utilisation of the busiest NoC link",
               .plot = true},
              [](const auto& r) { return r.noc_link_util_max; });
inline constexpr auto noc_link_util_mean =
    metric_of({.key = "noc_link_util_mean",
               .pointer = "/noc/link_utilisation_mean",
               .unit = Unit::fraction,
               .description = "mean utilisation of the NoC links",
               .plot = true},
              [](const auto& r) { return r.noc_link_util_mean; });
// Chiplet runs only (a cut mesh; absent otherwise): read from the report's
// ChipletReport.
inline constexpr auto d2d_links = metric_of({.key = "d2d_links",
                                             .pointer = "/chiplets/links",
                                             .unit = Unit::count,
                                             .description = "directional die-to-die links"},
                                            [](const auto& c) { return c.links; });
inline constexpr auto d2d_byte_hops = metric_of(
    {.key = "d2d_byte_hops",
     .pointer = "/chiplets/byte_hops",
     .unit = Unit::byte_hops,
     .description = "bytes x die-to-die links crossed",
     .plot = true},
    [](const auto& r) { return r.events[static_cast<std::size_t>(Event::d2d_byte_hop)]; });
inline constexpr auto d2d_link_util_max =
    metric_of({.key = "d2d_link_util_max",
               .pointer = "/chiplets/link_utilisation_max",
               .unit = Unit::fraction,
               .description = "utilisation of the busiest die-to-die link",
               .plot = true},
              [](const auto& c) { return c.link_util_max; });
// Runs whose configuration has a `silicon` section (absent otherwise).
inline constexpr auto silicon_total_die_mm2 =
    metric_of({.key = "total_die_mm2",
               .pointer = "/silicon/total_die_mm2",
               .unit = Unit::mm2,
               .description = "silicon: every compute die and the IO die",
               .plot = true},
              [](const auto& s) { return s.total_die_mm2; });
inline constexpr auto silicon_overall_usd = metric_of(
    {.key = "overall_usd",
     .pointer = "/silicon/overall_usd",
     .unit = Unit::usd,
     .description = "silicon, package and DRAM cost (the Gemini scheduler's cost_overall)",
     .plot = true},
    [](const auto& s) { return s.overall_usd; });
inline constexpr auto cost_edp =
    metric_of({.key = "cost_edp_usd_pj_cycles",
               .pointer = "/silicon/cost_edp_usd_pj_cycles",
               .unit = Unit::usd_pj_cycles,
               .description = "overall_usd x EDP: the Gemini scheduler's objective",
               .plot = true},
              [](const auto& r) { return r.cost_edp(); });
// The components (energy_table.h) are beside the total: energy_component().
inline constexpr auto energy_pj =
    metric_of({.key = "energy_pj",
               .pointer = "/energy_pj/total",
               .unit = Unit::picojoules,
               .description = "the run's energy: every component, static included",
               .plot = true},
              [](const auto& r) { return r.energy.total(); });
inline constexpr auto edp = metric_of(
    {.key = "edp_pj_cycles",
     .pointer = "/energy_pj/edp_pj_cycles",
     .unit = Unit::pj_cycles,
     .description = "energy-delay product: the run's energy x its cycles (the scheduler's cost)",
     .plot = true},
    [](const auto& r) { return r.edp(); });
// Functional runs only (absent otherwise).
inline constexpr auto functional_passed =
    metric_of({.key = "functional_passed",
               .pointer = "/functional/passed",
               .description = "bit-exact, no fault, every element of every layer computed"},
              [](const auto& r) { return r.functional.passed(); });
inline constexpr auto functional_mismatches =
    metric_of({.key = "functional_mismatches",
               .pointer = "/functional/mismatches",
               .unit = Unit::elements,
               .description = "elements that differ from the reference"},
              [](const auto& r) { return r.functional.mismatches(); });

// The critical path (runs that finished; absent otherwise): its cycles, and
// beside them its cycles by kind, one member per PathKind (report.h) named
// as kPathKindNames has it, in its order; the sweep's columns
// "path_<kind>_share" are each over the whole.
inline constexpr auto critical_path_cycles =
    metric_of({.key = "critical_path_cycles",
               .pointer = "/critical_path/cycles",
               .unit = Unit::cycles,
               .description = "cycles of the critical path (the total)"},
              [](const auto& r) { return r.critical_path.total(); });
inline constexpr std::string_view kPathKindNames[] = {"compute", "dram", "noc", "token", "other"};

// Power over time (runs with --power; absent otherwise): read from the
// report's PowerReport (power.h).
inline constexpr auto power_peak_w = metric_of(
    {.key = "power_peak_w",
     .pointer = "/power/package/peak_w",
     .unit = Unit::watts,
     .description = "the package's peak power: its most energetic window over its length",
     .plot = true,
     .group = "power"},
    [](const auto& p) { return p.package.peak_w; });
inline constexpr auto power_average_w =
    metric_of({.key = "power_average_w",
               .pointer = "/power/package/average_w",
               .unit = Unit::watts,
               .description = "the package's average power: its energy over the run's time",
               .plot = true,
               .group = "power"},
              [](const auto& p) { return p.package.average_w; });
inline constexpr auto die_power_peak_w =
    metric_of({.key = "die_power_peak_w",
               .pointer = "/power/die_peak_w",
               .unit = Unit::watts,
               .description = "the hottest die's peak power (DRAM not included)",
               .plot = true,
               .group = "power"},
              [](const auto& p) { return p.die_peak_w(); });
inline constexpr auto die_power_average_w =
    metric_of({.key = "die_power_average_w",
               .pointer = "/power/die_average_w",
               .unit = Unit::watts,
               .description = "the highest average power of a die (DRAM not included)",
               .plot = true,
               .group = "power"},
              [](const auto& p) { return p.die_average_w(); });
inline constexpr auto power_window_ns =
    metric_of({.key = "power_window_ns",
               .pointer = "/power/window_ns",
               .unit = Unit::nanoseconds,
               .description = "the power windows' length"},
              [](const auto& p) { return p.window_ns; });

// Per core, in each element of kCoresPointer.
inline constexpr std::string_view kCoresPointer = "/cores";
inline constexpr auto core_finish = metric_of({.key = "finish_cycles",
                                               .pointer = "/finish_cycles",
                                               .unit = Unit::cycles,
                                               .description = "cycles until the core finished"},
                                              [](const auto& c) { return c.finish_cycles; });
inline constexpr auto core_busy =
    share_of({.key = "compute_share",
              .pointer = "/busy_cycles",
              .description = "cores' busy (compute) cycles / their cycles until finished"},
             [](const auto& c) { return c.compute; });
inline constexpr auto stall_dram =
    share_of({.key = "stall_dram_share",
              .pointer = "/stall/dram",
              .description = "cores' cycles stalled on DRAM / their cycles"},
             [](const auto& c) { return c.dram; });
inline constexpr auto stall_noc =
    share_of({.key = "stall_noc_share",
              .pointer = "/stall/noc",
              .description = "cores' cycles stalled on the NoC / their cycles"},
             [](const auto& c) { return c.noc; });
inline constexpr auto stall_token =
    share_of({.key = "stall_token_share",
              .pointer = "/stall/token",
              .description = "cores' cycles waiting for another core's data / their cycles"},
             [](const auto& c) { return c.token; });
inline constexpr auto stall_l2_space =
    share_of({.key = "stall_l2_space_share",
              .pointer = "/stall/l2_space",
              .description = "cores' cycles waiting for L2 space / their cycles"},
             [](const auto& c) { return c.l2_space; });
inline constexpr auto stall_other = share_of({.key = "stall_other_share",
                                              .pointer = "/stall/other",
                                              .description = "cores' other stalls / their cycles"},
                                             [](const auto& c) { return c.other; });

}  // namespace metric

// Every top-level figure, and the stall causes in the order of the core's
// `stall` object: what the test checks and the writers walk.
inline constexpr std::tuple kReportMetrics{
    &metric::total_cycles,      &metric::time_us,
    &metric::dram_bytes,        &metric::dram_gbps,
    &metric::dram_peak_gbps,    &metric::noc_bytes,
    &metric::noc_link_util_max, &metric::noc_link_util_mean,
    &metric::energy_pj,         &metric::edp,
    &metric::functional_passed, &metric::functional_mismatches};
inline constexpr std::tuple kCoreStalls{&metric::stall_dram, &metric::stall_noc,
                                        &metric::stall_token, &metric::stall_l2_space,
                                        &metric::stall_other};

// Calls f(*m) for every declaration of a tuple above, in order.
template <class Tuple, class F>
constexpr void for_each_metric(const Tuple& metrics, F&& f) {
  std::apply([&](const auto*... m) { (f(*m), ...); }, metrics);
}

// Each energy component (energy_table.h) of the run: a member of the
// total's object named after it; the sweep's column "energy_<name>_pj".
struct EnergyComponentMetric {
  std::string key, pointer;
};
inline EnergyComponentMetric energy_component(Component c) {
  const std::string_view total = metric::energy_pj.pointer;
  return {std::string("energy_") + to_string(c) + "_pj",
          std::string(total.substr(0, total.rfind('/') + 1)) + to_string(c)};
}

}  // namespace gemini::sim
