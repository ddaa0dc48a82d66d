#pragma once
// A design point of the Gemini scheduler's co-exploration (docs/chiplets.md,
// "A study"): the hardware one of its schedules was made for, read from a
// row of its manifest (the columns of ../shared/ir-corpus/gemini/manifest.csv)
// and converted to gemini's configuration, and the scheduler's own figures
// for that point (latency, energy, cost), which a study's results show
// beside ours.
//
// The one conversion of the scheduler's units (docs/chiplets.md, "Where we
// follow the scheduler"): it counts bandwidths in bytes per cycle of its
// clock and prints its latency in ns, so at `freq_mhz` its NoC, D2D and DRAM
// figures are x freq_mhz / 1000 GB/s and its latency x freq_mhz / 1000
// cycles. Used by `gemini sweep` for an input with `"hardware": "gemini"`,
// and through it by scripts/calibrate_chiplets.py.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gemini::sweep {

// The scheduler's figures for its point; a figure its manifest lacks is
// absent.
struct SchedulerFigures {
  std::optional<double> cycles;       // its latency, in cycles of its clock
  std::optional<double> time_us;      // the same in us
  std::optional<double> energy_pj;    // its whole energy
  std::optional<double> overall_usd;  // its cost_overall
  // Its energy by component, under our components' names where they are
  // the same thing: l2 (its Ubuf), buffers (its Buf: our core_buffers +
  // wl0), mac, noc, d2d (its NoP), dram.
  std::vector<std::pair<std::string, double>> energy_components;
};

// The scheduler's energy components a manifest may give: (our name, its
// column). `buffers` is its Buf: our core_buffers and wl0.
inline constexpr std::pair<const char*, const char*> kSchedulerEnergyComponents[] = {
    {"mac", "e_mac"}, {"buffers", "e_core_buffers"}, {"l2", "e_l2"},
    {"noc", "e_noc"}, {"d2d", "e_nop"},              {"dram", "e_dram"}};

struct HardwarePoint {
  // Configuration parameters by path, in order, applied on top of the base
  // configuration (a null value removes one: its default applies).
  std::vector<std::pair<std::string, boost::json::value>> params;
  SchedulerFigures figures;
};

// The manifest dialects a sweep input's `hardware` member names.
inline constexpr const char* kGeminiHardware = "gemini";

// The Gemini scheduler's row (column -> cell) as parameters on top of
// `base` (the configuration the point starts from, as JSON):
//   noc.link_gbps      = noc_gbps x f            (f = freq_mhz / 1000)
//   chiplets.x_cut     = xcut, chiplets.y_cut = ycut
//   chiplets.d2d_gbps  = nop_gbps x f
//   chiplets.interface = d2d (XSR, USR, UCIe); where it is not the base's,
//                        the base's interface parameters are removed, so the
//                        interface's own defaults apply
//   dram.gbps_per_tops = dram_gbps / (xlen x ylen x MACs per core x 2 / 1000)
//                        (dram_gbps: all controllers, bytes per cycle; the
//                        per-TOPS figure is the same at any clock), and
//                        dram.port_gbps removed
//   clock.frequency_mhz = freq_mhz
// `tech` must be the base's silicon.process_nm when the base has one (the
// scheduler scales its energies and lanes by process node: a 7 nm point
// needs a 7 nm base, configs/gemini-hpca24-7nm.json). nullopt with `error`
// naming the column when a cell is missing or not a number, or the tech
// does not match.
std::optional<HardwarePoint> gemini_hardware_point(const std::map<std::string, std::string>& row,
                                                   const boost::json::object& base,
                                                   std::string& error);

}  // namespace gemini::sweep
