// The text report (print_report) and the per-workload CSV
// (write_workload_csv): report.h.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <string>

#include "critical_path_report.h"
#include "gemini/ir/json_writer.h"
#include "gemini/sim/report.h"
#include "report_energy.h"
#include "report_power.h"
#include "text_format.h"

namespace gemini::sim {
namespace {

// Per layer: simulated against predicted cycles, and its roofline when the
// run had the IR.
void print_layer_table(std::ostream& os, const Report& r) {
  const std::int64_t roof_total = r.roofline_total();
  const bool roof = roof_total > 0;
  os << "\nper layer (simulated = sum of workload spans; predicted = sum of the IR's time"
     << (roof ? "; roofline = the layer's bound by the scheduler's cost rules, and what sets it"
              : "")
     << "):\n";
  os << fmt("%-32s %6s %14s %14s %9s", "layer", "wls", "predicted", "simulated", "sim/pred");
  os << (roof ? fmt(" %12s %s\n", "roofline", "limit") : std::string("\n"));
  for (const LayerReport& l : r.layers) {
    os << fmt("%-32s %6" PRId64 " %14" PRId64 " %14" PRId64 " %9.3f", l.name.c_str(), l.workloads,
              l.predicted_cycles, l.simulated_cycles, l.ratio());
    if (roof && l.roofline)
      os << fmt(" %12" PRId64 " %s", l.roofline->bound_cycles(), l.roofline->limit());
    os << "\n";
  }
  std::int64_t sim = 0;
  for (const LayerReport& l : r.layers) sim += l.simulated_cycles;
  const std::int64_t pred = r.predicted_total();
  os << fmt("%-32s %6zu %14" PRId64 " %14" PRId64 " %9.3f", "(all)", r.workloads.size(), pred, sim,
            pred > 0 ? static_cast<double>(sim) / pred : 0.0);
  os << (roof ? fmt(" %12" PRId64 "\n", roof_total) : std::string("\n"));
}

}  // namespace

void print_report(std::ostream& os, const Report& r) {
  os << fmt("%s: %dx%d mesh, %s, %g MHz, DRAM %s\n", r.input.c_str(), r.xlen, r.ylen,
            r.hw_name.c_str(), r.frequency_mhz, r.dram_model.c_str());
  os << fmt("total: %" PRId64 " cycles = %.3f us (%" PRId64 " instructions)\n", r.total_cycles,
            r.time_us(), r.instructions);
  if (r.expect_cycles)
    os << fmt("scheduler estimate: %" PRId64 " cycles; simulated / estimate = %.3f\n",
              *r.expect_cycles,
              *r.expect_cycles > 0 ? static_cast<double>(r.total_cycles) / *r.expect_cycles : 0.0);
  if (const std::int64_t roof = r.roofline_total(); roof > 0) {
    os << fmt("layer roofline (the scheduler's cost rules, layer by layer): %" PRId64
              " cycles; simulated / roofline = %.3f",
              roof, static_cast<double>(r.total_cycles) / static_cast<double>(roof));
    if (r.expect_cycles && *r.expect_cycles > 0)
      os << fmt("; roofline / estimate = %.3f",
                static_cast<double>(roof) / static_cast<double>(*r.expect_cycles));
    os << "\n";
  }
  if (const std::int64_t roof = r.roofline_segments_total(); roof > 0) {
    os << fmt(
        "segment roofline (the same rules, the scheduler's %zu segments: stages x their "
        "largest layer, or their summed traffic): %" PRId64
        " cycles; simulated / segment roofline = %.3f",
        r.roofline_segments.size(), roof,
        static_cast<double>(r.total_cycles) / static_cast<double>(roof));
    if (r.expect_cycles && *r.expect_cycles > 0)
      os << fmt("; segment roofline / estimate = %.3f",
                static_cast<double>(roof) / static_cast<double>(*r.expect_cycles));
    os << "\n";
  }
  if (r.deadlock) {
    os << "DEADLOCK: nothing can progress; blocked instructions:\n";
    for (const std::string& b : r.blocked) os << "  " << b << "\n";
  }
  if (r.stopped) {
    os << "stopped at cycle " << r.total_cycles << " with work left; waiting instructions:\n";
    for (const std::string& b : r.blocked) os << "  " << b << "\n";
  }
  os << "\nper core (cycles; busy = compute, the rest is stall by cause):\n";
  os << fmt("%5s %12s %12s %12s %12s %12s %12s %12s %10s\n", "core", "finish", "compute", "dram",
            "noc", "token", "l2_space", "other", "peak_L2");
  for (const CoreReport& c : r.cores)
    os << fmt("%5d %12" PRId64 " %12" PRId64 " %12" PRId64 " %12" PRId64 " %12" PRId64 " %12" PRId64
              " %12" PRId64 " %10" PRId64 "\n",
              c.core_id, c.finish_cycles, c.compute, c.dram, c.noc, c.token, c.l2_space, c.other,
              c.peak_l2_bytes);
  os << fmt("\nDRAM: %" PRId64
            " bytes over %zu ports; %.3f GB/s achieved of %.3f GB/s peak "
            "(%.1f%%); ",
            r.dram_bytes, r.dram_ports.size(), r.dram_achieved_gbps, r.dram_peak_gbps,
            r.dram_peak_gbps > 0 ? 100.0 * r.dram_achieved_gbps / r.dram_peak_gbps : 0.0);
  if (r.dram_has_rows())
    os << fmt("row-hit rate %.1f%%\n", 100.0 * r.dram_row_hit_rate);
  else
    os << "row-hit rate n/a (the " << r.dram_model << " model has no rows)\n";
  os << fmt(
      "  read %" PRId64 " bytes; the schedule's unique reads (each DRAM out entry once) %" PRId64
      " bytes: %.3fx\n",
      r.dram_read_bytes, r.dram_unique_read_bytes,
      r.dram_unique_read_bytes > 0
          ? static_cast<double>(r.dram_read_bytes) / static_cast<double>(r.dram_unique_read_bytes)
          : 0.0);
  if (r.dram_ports.size() > 1) {
    os << fmt("  %-12s %14s %14s %9s %8s\n", "port", "read", "written", "GB/s", "hits");
    for (const DramPortReport& p : r.dram_ports) {
      const std::string name = p.side + " " + std::to_string(p.row);
      const std::string hits = p.row_hit_rate ? fmt("%.1f%%", 100.0 * *p.row_hit_rate) : "-";
      os << fmt("  %-12s %14" PRId64 " %14" PRId64 " %9.3f %8s\n", name.c_str(), p.bytes_read,
                p.bytes_written, p.achieved_gbps, hits.c_str());
    }
  }
  os << fmt("NoC: %" PRId64 " packets, %" PRId64
            " bytes; link utilisation max %.1f%%%s%s, mean "
            "%.1f%% over %d links\n",
            r.noc_packets, r.noc_bytes, 100.0 * r.noc_link_util_max,
            r.noc_busiest_link.empty() ? "" : " on ", r.noc_busiest_link.c_str(),
            100.0 * r.noc_link_util_mean, r.noc_links);
  if (const auto& c = r.chiplets) {
    os << fmt(
        "chiplets: %d x %d dies, %s D2D links of %.6g GB/s%s; %d links, utilisation max "
        "%.1f%%%s%s, mean %.1f%%; %" PRId64 " D2D byte-hops (on-chip: %" PRId64 ")",
        c->x_cut, c->y_cut, c->interface.c_str(), c->d2d_gbps,
        c->io_die ? ", DRAM on the IO die" : "", c->links, 100.0 * c->link_util_max,
        c->busiest_link.empty() ? "" : " on ", c->busiest_link.c_str(), 100.0 * c->link_util_mean,
        r.events[static_cast<std::size_t>(Event::d2d_byte_hop)],
        r.events[static_cast<std::size_t>(Event::noc_byte_hop)]);
    if (c->lanes_per_link > 0)
      os << fmt("; %" PRId64 " SerDes lanes per link, %.1f mW", c->lanes_per_link, c->static_mw);
    os << "\n";
  }
  if (const auto& s = r.silicon; s && !std::isfinite(s->overall_usd))
    os << fmt(
        "silicon: %d compute die%s of %.3f mm^2 + IO die %.3f mm^2 = %.3f mm^2; no cost: a "
        "die does not fit a wafer (silicon.wafer_diameter_mm)\n",
        s->compute_dies, s->compute_dies == 1 ? "" : "s", s->compute_die_mm2, s->io_die_mm2,
        s->total_die_mm2);
  else if (const auto& s = r.silicon)
    os << fmt(
        "silicon: %d compute die%s of %.3f mm^2 + IO die %.3f mm^2 = %.3f mm^2; cost %.2f "
        "USD (dies %.2f, package %.2f, DRAM %.2f); cost x EDP %.4e USD x pJ x cycles\n",
        s->compute_dies, s->compute_dies == 1 ? "" : "s", s->compute_die_mm2, s->io_die_mm2,
        s->total_die_mm2, s->overall_usd, s->chip_usd, s->package_usd, s->dram_usd, r.cost_edp());
  os << fmt("L2: peak occupancy %" PRId64 " bytes\n", r.peak_l2_bytes);
  if (const auto& a = r.l2_allocation)
    os << fmt("L2 allocation %s: %" PRId64 " of %" PRId64
              " loads wait for the workload before them to free their bytes (tight packing: "
              "%" PRId64 "), %" PRId64 " forced by capacity (tight: %" PRId64
              "); allocated peak %" PRId64 " of %" PRId64 " bytes, live-data peak %" PRId64 "\n",
              a->strategy.c_str(), a->waits, a->loads, a->waits_tight, a->forced, a->forced_tight,
              a->alloc_peak, a->buffer, a->live_peak);
  print_energy_summary(os, r);
  print_layer_table(os, r);
  print_energy_tables(os, r);
  if (r.power) print_power(os, *r.power);
  print_critical_path(os, r.critical_path);
  print_stats(os, r);
  print_functional(os, r.functional);
}

void write_workload_csv(std::ostream& os, const Report& r) {
  os << "core,workload,layer,predicted_cycles,first_start,compute_start,end,simulated_cycles,"
        "ratio"
     << energy_csv_header() << "\n";
  for (const WorkloadReport& w : r.workloads) {
    std::string layer = w.layer;
    if (layer.find_first_of(",\"") != std::string::npos) {
      std::string q = "\"";
      for (char ch : layer) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
      layer = q + "\"";
    }
    os << w.core_id << ',' << w.workload_id << ',' << layer << ',' << w.predicted_cycles << ','
       << w.first_start << ',' << w.compute_start << ',' << w.end << ',' << w.simulated_cycles()
       << ','
       << fmt("%.4f", w.predicted_cycles > 0
                          ? static_cast<double>(w.simulated_cycles()) / w.predicted_cycles
                          : 0.0)
       << energy_csv(w.energy) << "\n";
  }
}

}  // namespace gemini::sim
