#include "gemini/sim/report.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <string>

#include "critical_path_report.h"
#include "gemini/ir/json_writer.h"
#include "report_energy.h"

namespace gemini::sim {
namespace {

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

std::string describe(const Provenance::Writer& w) {
  if (w.none) return "no instruction (never written before the read)";
  std::string s = fmt("core %d #%u %s", w.core_id, w.pc, w.opcode.c_str());
  std::string what;
  if (w.workload_id >= 0)
    what =
        fmt("workload %" PRId64 "%s%s", w.workload_id, w.layer.empty() ? "" : " ", w.layer.c_str());
  if (w.transfer >= 0) what += fmt("%stransfer %" PRId64, what.empty() ? "" : ", ", w.transfer);
  if (w.dram >= 0)
    what +=
        fmt("%sfrom DRAM 0x%" PRIx64, what.empty() ? "" : ", ", static_cast<std::uint64_t>(w.dram));
  if (w.opcode == "noc_send") what += " (received from that core)";
  return what.empty() ? s : s + " (" + what + ")";
}

std::string show_at(const std::int32_t at[4]) {
  return fmt("[%d,%d,%d,%d]", at[0], at[1], at[2], at[3]);
}

void print_provenance(std::ostream& os, const LayerCheck& l) {
  if (!l.provenance || !l.first) return;
  const Provenance& p = *l.provenance;
  os << fmt(
      "where the first wrong value of %s came from: [%d,%d,%d,%d] on core %d, #%u %s "
      "(workload %" PRId64 "): %d, want %d\n",
      l.layer.c_str(), l.first->n, l.first->k, l.first->h, l.first->w, p.core_id, p.pc,
      p.opcode.c_str(), l.first->workload_id, l.first->got, l.first->want);
  std::string by;
  for (const auto& [operand, n] : p.differing_by_operand)
    by += fmt("%s%s %" PRId64, by.empty() ? " (" : ", ", operand.c_str(), n);
  if (!by.empty()) by += ")";
  os << fmt("  it read %" PRId64 " input elements; %" PRId64 " differ from the reference%s\n",
            p.inputs_read, p.inputs_differing, by.c_str());
  for (const Provenance::Input& x : p.examples) {
    std::string want;
    for (std::size_t i = 0; i < x.want.size(); ++i)
      want += (i ? " or " : "") + std::to_string(x.want[i]);
    os << fmt("    %s %s: %d, want %s; last written by %s\n", x.operand.c_str(),
              show_at(x.at).c_str(), x.got, want.c_str(), describe(x.writer).c_str());
  }
  if (!p.writers.empty()) os << "  last writers of the differing inputs:\n";
  for (const auto& [w, n] : p.writers) os << fmt("    %8" PRId64 "  %s\n", n, describe(w).c_str());
  os << "  => " << p.verdict << "\n";
}

}  // namespace

std::int64_t FunctionalReport::mismatches() const {
  std::int64_t n = 0;
  for (const LayerCheck& l : layers) n += l.mismatches();
  return n;
}

std::int64_t FunctionalReport::incomplete() const {
  std::int64_t n = 0;
  for (const LayerCheck& l : layers) n += !l.complete();
  return n;
}

std::int64_t FunctionalReport::elements() const {
  std::int64_t n = 0;
  for (const LayerCheck& l : layers) n += l.elements();
  return n;
}

void print_functional(std::ostream& os, const FunctionalReport& f) {
  if (!f.enabled) return;
  std::int64_t layers = 0;
  for (const LayerCheck& l : f.layers) layers += l.elements() > 0;
  os << fmt("\nfunctional (seed %" PRIu64 ", %s): %" PRId64 " elements of %" PRId64
            " layers checked against the reference, %" PRId64 " mismatches, %" PRId64
            " faults; %" PRId64 " bytes moved, %.3f GMAC\n",
            f.seed, f.model.c_str(), f.elements(), layers, f.mismatches(), f.fault_count,
            f.bytes_moved, static_cast<double>(f.macs) / 1e9);
  const auto model_layers = static_cast<std::int64_t>(f.layers.size());
  os << fmt("coverage: %" PRId64 " of the model's %" PRId64
            " layers computed whole (every element of their output)\n",
            model_layers - f.incomplete(), model_layers);
  for (const auto& [quirk, n] : f.quirks)
    os << fmt("  corrected from the model: %s x %" PRId64 "\n", quirk.c_str(), n);
  os << fmt("%-32s %9s %12s %10s %12s %10s %8s  %s\n", "layer", "computed", "tile elems",
            "mismatch", "DRAM elems", "mismatch", "max|d|",
            "first mismatch [n,k,h,w] (core, workload)");
  for (const LayerCheck& l : f.layers) {
    if (l.elements() == 0 && l.complete()) continue;
    const std::string computed =
        l.complete() ? std::string("100%")
                     : fmt("%.1f%%", l.defined > 0 ? 100.0 * static_cast<double>(l.computed) /
                                                         static_cast<double>(l.defined)
                                                   : 0.0);
    std::string first = "-";
    if (l.first)
      first = fmt("[%d,%d,%d,%d] %s on core %d, workload %" PRId64 ": %d, want %d", l.first->n,
                  l.first->k, l.first->h, l.first->w, l.first->where.c_str(), l.first->core_id,
                  l.first->workload_id, l.first->got, l.first->want);
    os << fmt("%-32s %9s %12" PRId64 " %10" PRId64 " %12" PRId64 " %10" PRId64 " %8d  %s\n",
              l.layer.c_str(), computed.c_str(), l.tile_elements, l.tile_mismatches,
              l.dram_elements, l.dram_mismatches, l.max_abs_diff, first.c_str());
  }
  for (const FunctionalFault& x : f.faults)
    os << fmt("fault: core %d #%u workload %" PRId64 " (%s): %s\n", x.core_id, x.instruction,
              x.workload_id, x.layer.c_str(), x.message.c_str());
  if (f.fault_count > static_cast<std::int64_t>(f.faults.size()))
    os << fmt("... %" PRId64 " more faults\n",
              f.fault_count - static_cast<std::int64_t>(f.faults.size()));
  for (const std::string& o : f.origins)
    os << "wrong values start at layer " << o
       << " (every layer it reads matched the reference): look at its workloads\n";
  for (const std::string& o : f.origins)
    for (const LayerCheck& l : f.layers)
      if (l.layer == o) print_provenance(os, l);
  os << (f.passed() ? "functional: PASS (bit-exact)\n" : "functional: FAIL\n");
}

const char* to_string(PathKind k) {
  switch (k) {
    case PathKind::compute:
      return "compute";
    case PathKind::dram:
      return "dram";
    case PathKind::noc:
      return "noc";
    case PathKind::token:
      return "token";
    case PathKind::other:
    case PathKind::kCount:
      break;
  }
  return "other";
}

std::int64_t CriticalPath::total() const {
  std::int64_t s = 0;
  for (std::int64_t c : cycles) s += c;
  return s;
}

namespace {

std::string kinds_text(const std::array<std::int64_t, kPathKinds>& c, std::int64_t of) {
  std::string out;
  for (std::size_t k = 0; k < kPathKinds; ++k) {
    if (of > 0 ? c[k] * 2000 < of : c[k] == 0) continue;  // under 0.05%
    if (!out.empty()) out += ", ";
    out += fmt("%s %.1f%%", to_string(static_cast<PathKind>(k)),
               of > 0 ? 100.0 * static_cast<double>(c[k]) / static_cast<double>(of) : 0.0);
  }
  return out.empty() ? "-" : out;
}

// The critical path in a few lines: where its time goes, the layers it
// spends it in, and its longest segments.
void print_critical_path(std::ostream& os, const CriticalPath& p) {
  if (!p.traced) return;
  const std::int64_t total = p.total();
  std::set<std::int32_t> cores;
  for (const PathSegment& s : p.segments) cores.insert(s.core_id);
  os << fmt("\ncritical path (the chain of operations and waits that sets the total): %" PRId64
            " cycles, %zu segments on %zu cores, %" PRId64 " instructions\n",
            total, p.segments.size(), cores.size(), p.steps);
  os << "  " << kinds_text(p.cycles, total) << "\n";
  print_path_waits(os, p);
  struct Layer {
    std::string name;
    std::int64_t cycles = 0, segments = 0;
    std::array<std::int64_t, kPathKinds> kinds{};
    std::set<std::int32_t> cores;
  };
  std::vector<Layer> layers;
  std::map<std::string, std::size_t> index;
  for (const PathSegment& s : p.segments) {
    const std::string name = s.layer.empty() ? "(no workload)" : s.layer;
    auto [it, fresh] = index.emplace(name, layers.size());
    if (fresh) layers.push_back(Layer{name, 0, 0, {}, {}});
    Layer& l = layers[it->second];
    ++l.segments;
    l.cores.insert(s.core_id);
    for (std::size_t k = 0; k < kPathKinds; ++k) {
      l.kinds[k] += s.cycles[k];
      l.cycles += s.cycles[k];
    }
  }
  std::stable_sort(layers.begin(), layers.end(),
                   [](const Layer& a, const Layer& b) { return a.cycles > b.cycles; });
  constexpr std::size_t kShown = 12;
  os << fmt("  %-28s %12s %7s %9s %6s  %s\n", "layer on the path", "cycles", "share", "segments",
            "cores", "by kind");
  for (std::size_t i = 0; i < layers.size() && i < kShown; ++i) {
    const Layer& l = layers[i];
    os << fmt("  %-28s %12" PRId64 " %6.1f%% %9" PRId64 " %6zu  %s\n", l.name.c_str(), l.cycles,
              total > 0 ? 100.0 * static_cast<double>(l.cycles) / static_cast<double>(total) : 0.0,
              l.segments, l.cores.size(), kinds_text(l.kinds, l.cycles).c_str());
  }
  if (layers.size() > kShown) os << fmt("  ... %zu more layers\n", layers.size() - kShown);
  std::vector<const PathSegment*> longest;
  for (const PathSegment& s : p.segments) longest.push_back(&s);
  std::stable_sort(longest.begin(), longest.end(), [](const PathSegment* a, const PathSegment* b) {
    return a->end - a->start > b->end - b->start;
  });
  if (longest.size() > 8) longest.resize(8);
  os << "  longest segments (core, workload, layer: cycles [from, to], by kind):\n";
  for (const PathSegment* s : longest) {
    std::int64_t len = 0;
    for (std::int64_t c : s->cycles) len += c;
    os << fmt("    core %d, workload %" PRId64 ", %s: %" PRId64 " [%" PRId64 ", %" PRId64 "], %s\n",
              s->core_id, s->workload_id, s->layer.empty() ? "-" : s->layer.c_str(), len, s->start,
              s->end, kinds_text(s->cycles, len).c_str());
  }
}

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

std::int64_t Report::predicted_total() const {
  std::int64_t s = 0;
  for (const LayerReport& l : layers) s += l.predicted_cycles;
  return s;
}

std::int64_t Report::roofline_total() const {
  std::int64_t s = 0;
  for (const LayerReport& l : layers)
    if (l.roofline) s += l.roofline->bound_cycles();
  return s;
}

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
      const std::int64_t bursts = p.row_hits + p.row_misses + p.row_conflicts;
      const std::string name = p.side + " " + std::to_string(p.row);
      const std::string hits =
          r.dram_has_rows() && bursts > 0 ? fmt("%.1f%%", 100.0 * p.row_hits / bursts) : "-";
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
