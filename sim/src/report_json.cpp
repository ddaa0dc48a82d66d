// The JSON report (report.h, write_report_json): one function per top-level
// section, each writing exactly the keys it names, in the order the report
// has always had (goldens and users' scripts read it). The figures other
// programs read are written through their declarations (report_metrics.h).
#include <cstdint>
#include <ostream>
#include <string_view>
#include <type_traits>

#include "critical_path_report.h"
#include "gemini/ir/json_writer.h"
#include "gemini/sim/report.h"
#include "gemini/sim/report_metrics.h"
#include "json_kv.h"
#include "report_energy.h"
#include "report_power.h"

namespace gemini::sim {

namespace {

// The run as a whole: totals, energy, expectations, deadlock.
void write_summary_json(ir::JsonWriter& w, const Report& r) {
  const JsonKv kv{w};
  kv(metric::total_cycles, r);
  kv(metric::time_us, r);
  kv("input", std::string_view(r.input));
  kv("hw", std::string_view(r.hw_name));
  kv("xlen", r.xlen);
  kv("ylen", r.ylen);
  kv("frequency_mhz", r.frequency_mhz);
  kv("instructions", r.instructions);
  kv("predicted_cycles_sum", r.predicted_total());
  if (const std::int64_t roof = r.roofline_total(); roof > 0) kv("roofline_cycles_sum", roof);
  if (const std::int64_t roof = r.roofline_segments_total(); roof > 0)
    kv("roofline_segments_cycles_sum", roof);
  write_energy_json(w, r);
  if (r.expect_cycles) {
    kv("expect_cycles", *r.expect_cycles);
    kv("simulated_over_expected",
       *r.expect_cycles > 0 ? static_cast<double>(r.total_cycles) / *r.expect_cycles : 0.0);
  }
  kv("deadlock", r.deadlock);
  kv("stopped", r.stopped);
  if (r.deadlock) {
    w.key("blocked");
    w.begin_array();
    for (const std::string& b : r.blocked) w.value(std::string_view(b));
    w.end_array();
  }
}

// "cores": per core finish, busy and stall cycles, energy.
void write_cores_json(ir::JsonWriter& w, const Report& r) {
  const JsonKv kv{w};
  w.key("cores");
  w.begin_array();
  for (const CoreReport& c : r.cores) {
    w.begin_object();
    kv("core_id", c.core_id);
    kv(metric::core_finish, c);
    kv(metric::core_busy, c);
    kv("stall_cycles", c.stall());
    w.key("stall");
    w.begin_object();
    for_each_metric(kCoreStalls, [&](const auto& m) { kv(m, c); });
    w.end_object();
    w.key("energy_pj");
    write_energy(w, c.energy);
    kv("instructions", c.instructions);
    kv("retired", c.retired);
    kv("peak_l2_bytes", c.peak_l2_bytes);
    w.end_object();
  }
  w.end_array();
}

// "dram": totals and per port.
void write_dram_json(ir::JsonWriter& w, const Report& r) {
  const JsonKv kv{w};
  w.key("dram");
  w.begin_object();
  kv("model", std::string_view(r.dram_model));
  kv(metric::dram_bytes, r);
  kv("read_bytes", r.dram_read_bytes);
  kv("unique_read_bytes", r.dram_unique_read_bytes);
  kv(metric::dram_gbps, r);
  kv(metric::dram_peak_gbps, r);
  w.key("row_hit_rate");
  if (r.dram_has_rows())
    w.value(r.dram_row_hit_rate);
  else
    w.null();
  w.key("ports");
  w.begin_array();
  for (const DramPortReport& p : r.dram_ports) {
    w.begin_object();
    kv("row", p.row);
    kv("side", std::string_view(p.side));
    // Its model's counters, as its statistics group has them.
    kv("group", std::string_view(r.stats.at(p.stats).name));  // in /stats/groups
    for (const StatValue& v : r.stats.at(p.stats).values) kv(v.name, v.value);
    kv("busy_cycles", p.busy_cycles);
    kv("achieved_gbps", p.achieved_gbps);
    kv("peak_gbps", p.peak_gbps);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

// "chiplets": the D2D links of a cut mesh, per link and in total.
void write_chiplets_json(ir::JsonWriter& w, const Report& r) {
  const JsonKv kv{w};
  const ChipletReport& c = *r.chiplets;
  w.key("chiplets");
  w.begin_object();
  kv("x_cut", c.x_cut);
  kv("y_cut", c.y_cut);
  kv("interface", std::string_view(c.interface));
  kv("d2d_gbps", c.d2d_gbps);
  kv("d2d_latency_ns", c.d2d_latency_ns);
  kv("io_die", c.io_die);
  kv(metric::d2d_links, c);
  kv("lanes_per_link", c.lanes_per_link);
  kv("lanes_static_mw", c.static_mw);
  kv(metric::d2d_byte_hops, r);  // the run's events (bytes x D2D / on-chip links)
  kv("noc_byte_hops", r.events[static_cast<std::size_t>(Event::noc_byte_hop)]);
  kv(metric::d2d_link_util_max, c);
  kv("link_utilisation_mean", c.link_util_mean);
  kv("busiest_link", std::string_view(c.busiest_link));
  w.key("per_link");
  w.begin_array();
  for (const D2dLinkReport& l : c.per_link) {
    w.begin_object();
    kv("from", std::string_view(l.from));
    kv("to", std::string_view(l.to));
    kv("bytes", l.bytes);
    kv("utilisation", l.utilisation);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

// "silicon": the dies' area and the cost (silicon.h).
void write_silicon_json(ir::JsonWriter& w, const Report& r) {
  const JsonKv kv{w};
  const SiliconReport& s = *r.silicon;
  w.key("silicon");
  w.begin_object();
  kv("compute_dies", s.compute_dies);
  kv("core_mm2", s.core_mm2);
  kv("compute_die_mm2", s.compute_die_mm2);
  kv("io_die_mm2", s.io_die_mm2);
  kv(metric::silicon_total_die_mm2, s);
  kv("chip_usd", s.chip_usd);
  kv("package_usd", s.package_usd);
  kv("system_package_usd", s.system_package_usd);
  kv("dram_usd", s.dram_usd);
  kv(metric::silicon_overall_usd, s);
  kv(metric::cost_edp, r);
  w.end_object();
}

// "noc" and "l2".
void write_noc_l2_json(ir::JsonWriter& w, const Report& r) {
  const JsonKv kv{w};
  w.key("noc");
  w.begin_object();
  kv("packets", r.noc_packets);
  kv(metric::noc_bytes, r);
  kv("links", r.noc_links);
  kv(metric::noc_link_util_max, r);
  kv(metric::noc_link_util_mean, r);
  kv("busiest_link", std::string_view(r.noc_busiest_link));
  w.end_object();
  if (r.chiplets) write_chiplets_json(w, r);
  if (r.silicon) write_silicon_json(w, r);
  w.key("l2");
  w.begin_object();
  kv("peak_bytes", r.peak_l2_bytes);
  if (const auto& a = r.l2_allocation) {
    w.key("allocation");
    w.begin_object();
    kv("strategy", std::string_view(a->strategy));
    kv("loads", a->loads);
    kv("war_waits", a->waits);
    kv("war_forced", a->forced);
    kv("war_waits_tight", a->waits_tight);
    kv("war_forced_tight", a->forced_tight);
    kv("alloc_peak_bytes", a->alloc_peak);
    kv("buffer_bytes", a->buffer);
    kv("live_peak_bytes", a->live_peak);
    w.end_object();
  }
  w.end_object();
}

// "layers": simulated against predicted cycles, energy.
void write_layers_json(ir::JsonWriter& w, const Report& r) {
  const JsonKv kv{w};
  w.key("layers");
  w.begin_array();
  for (const LayerReport& l : r.layers) {
    w.begin_object();
    kv("name", std::string_view(l.name));
    kv("workloads", l.workloads);
    kv("predicted_cycles", l.predicted_cycles);
    kv("simulated_cycles", l.simulated_cycles);
    kv("ratio", l.ratio());
    w.key("energy_pj");
    write_energy(w, l.energy);
    kv("first_start", l.first_start);
    kv("last_end", l.last_end);
    if (const auto& roof = l.roofline) {
      w.key("roofline");
      w.begin_object();
      kv("bound_cycles", roof->bound_cycles());
      kv("limit", std::string_view(roof->limit()));
      kv("compute_cycles", roof->compute_cycles);
      kv("link_cycles", roof->link_cycles);
      kv("link_bytes", roof->link_bytes);
      kv("link", std::string_view(roof->link));
      if (roof->link_d2d) kv("link_d2d", true);
      kv("dram_cycles", roof->dram_cycles);
      kv("dram_bytes", roof->dram_bytes);
      w.end_object();
    }
    w.end_object();
  }
  w.end_array();
  if (r.roofline_segments.empty()) return;
  w.key("roofline_segments");
  w.begin_array();
  for (const SegmentRoofline& s : r.roofline_segments) {
    w.begin_object();
    kv("bound_cycles", s.bound_cycles());
    kv("limit", std::string_view(s.limit()));
    kv("stages", s.stages);
    kv("layer_cycles", s.layer_cycles);
    kv("link_cycles", s.link_cycles);
    kv("link", std::string_view(s.link));
    kv("dram_cycles", s.dram_cycles);
    w.key("layers");
    w.begin_array();
    for (const std::string& l : s.layers) w.value(std::string_view(l));
    w.end_array();
    w.end_object();
  }
  w.end_array();
}

// "critical_path", when traced.
void write_critical_path_json(ir::JsonWriter& w, const Report& r) {
  const JsonKv kv{w};
  if (r.critical_path.traced) {
    const CriticalPath& p = r.critical_path;
    static_assert(std::size(metric::kPathKindNames) == kPathKinds,
                  "report_metrics.h names every kind of the critical path");
    auto kinds = [&](const std::array<std::int64_t, kPathKinds>& c) {
      for (std::size_t k = 0; k < kPathKinds; ++k) kv(metric::kPathKindNames[k], c[k]);
    };
    w.key("critical_path");
    w.begin_object();
    kv(metric::critical_path_cycles, r);
    kinds(p.cycles);
    kv("instructions", p.steps);
    write_path_waits_json(w, p);
    w.key("segments");
    w.begin_array();
    for (const PathSegment& s : p.segments) {
      w.begin_object();
      kv("core_id", s.core_id);
      kv("workload_id", s.workload_id);
      kv("layer", std::string_view(s.layer));
      kv("start", s.start);
      kv("end", s.end);
      kinds(s.cycles);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
}

// A layer's "provenance": where its first wrong value came from.
void write_provenance_json(ir::JsonWriter& w, const Provenance& p) {
  const JsonKv kv{w};
  auto writer = [&](const Provenance::Writer& x) {
    w.begin_object();
    kv("none", x.none);
    if (!x.none) {
      kv("core_id", x.core_id);
      kv("pc", static_cast<std::int64_t>(x.pc));
      kv("opcode", std::string_view(x.opcode));
      kv("workload_id", x.workload_id);
      kv("layer", std::string_view(x.layer));
      if (x.transfer >= 0) kv("transfer", x.transfer);
      if (x.dram >= 0) kv("dram_address", x.dram);
    }
    w.end_object();
  };
  w.key("provenance");
  w.begin_object();
  kv("core_id", p.core_id);
  kv("pc", static_cast<std::int64_t>(p.pc));
  kv("opcode", std::string_view(p.opcode));
  kv("inputs_read", p.inputs_read);
  kv("inputs_differing", p.inputs_differing);
  w.key("differing_by_operand");
  w.begin_object();
  for (const auto& [operand, n] : p.differing_by_operand) kv(operand.c_str(), n);
  w.end_object();
  w.key("examples");
  w.begin_array();
  for (const Provenance::Input& x : p.examples) {
    w.begin_object();
    kv("operand", std::string_view(x.operand));
    w.key("at");
    w.begin_array();
    for (std::int32_t v : x.at) w.value(std::int64_t{v});
    w.end_array();
    kv("got", x.got);
    w.key("want");
    w.begin_array();
    for (std::int32_t v : x.want) w.value(std::int64_t{v});
    w.end_array();
    w.key("writer");
    writer(x.writer);
    w.end_object();
  }
  w.end_array();
  w.key("writers");
  w.begin_array();
  for (const auto& [x, n] : p.writers) {
    w.begin_object();
    kv("count", n);
    w.key("writer");
    writer(x);
    w.end_object();
  }
  w.end_array();
  kv("verdict", std::string_view(p.verdict));
  w.end_object();
}

// "functional", when the run computed data.
void write_functional_json(ir::JsonWriter& w, const Report& r) {
  const JsonKv kv{w};
  if (r.functional.enabled) {
    const FunctionalReport& f = r.functional;
    w.key("functional");
    w.begin_object();
    kv("seed", static_cast<std::int64_t>(f.seed));
    kv(metric::functional_passed, r);
    kv("incomplete_layers", f.incomplete());
    kv("elements", f.elements());
    kv(metric::functional_mismatches, r);
    kv("faults", f.fault_count);
    kv("bytes_moved", f.bytes_moved);
    kv("macs", f.macs);
    w.key("quirks");
    w.begin_object();
    for (const auto& [quirk, n] : f.quirks) kv(quirk.c_str(), n);
    w.end_object();
    w.key("layers");
    w.begin_array();
    for (const LayerCheck& l : f.layers) {
      w.begin_object();
      kv("name", std::string_view(l.layer));
      kv("tile_elements", l.tile_elements);
      kv("tile_mismatches", l.tile_mismatches);
      kv("dram_elements", l.dram_elements);
      kv("dram_mismatches", l.dram_mismatches);
      kv("max_abs_diff", l.max_abs_diff);
      kv("defined_elements", l.defined);
      kv("computed_elements", l.computed);
      kv("reference_crc32", std::string_view(l.reference_digest));
      w.key("dram_crc32");
      if (l.dram_digest.empty())
        w.null();
      else
        w.value(std::string_view(l.dram_digest));
      w.key("first_mismatch");
      if (l.first) {
        w.begin_object();
        w.key("nkhw");
        w.begin_array();
        for (std::int32_t v : {l.first->n, l.first->k, l.first->h, l.first->w})
          w.value(std::int64_t{v});
        w.end_array();
        kv("core_id", l.first->core_id);
        kv("workload_id", l.first->workload_id);
        kv("where", std::string_view(l.first->where));
        kv("got", l.first->got);
        kv("want", l.first->want);
        w.end_object();
      } else {
        w.null();
      }
      if (l.provenance) write_provenance_json(w, *l.provenance);
      w.end_object();
    }
    w.end_array();
    w.key("origins");
    w.begin_array();
    for (const std::string& o : f.origins) w.value(std::string_view(o));
    w.end_array();
    w.key("fault_list");
    w.begin_array();
    for (const FunctionalFault& x : f.faults) {
      w.begin_object();
      kv("core_id", x.core_id);
      kv("instruction", static_cast<std::int64_t>(x.instruction));
      kv("workload_id", x.workload_id);
      kv("layer", std::string_view(x.layer));
      kv("message", std::string_view(x.message));
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
}

}  // namespace

void write_report_json(std::ostream& os, const Report& r, bool host) {
  ir::JsonWriter w(os);
  const JsonKv kv{w};
  w.begin_object();
  write_summary_json(w, r);
  write_cores_json(w, r);
  write_dram_json(w, r);
  write_noc_l2_json(w, r);
  write_stats_json(w, r);
  write_layers_json(w, r);
  write_critical_path_json(w, r);
  write_functional_json(w, r);
  if (r.power) write_power_json(w, *r.power);
  if (host) {
    w.key("host");
    w.begin_object();
    kv("wall_seconds", r.wall_seconds);
    kv("simulated_cycles_per_second",
       r.wall_seconds > 0 ? static_cast<double>(r.total_cycles) / r.wall_seconds : 0.0);
    w.end_object();
  }
  w.end_object();
  w.flush();
  os << "\n";
}

}  // namespace gemini::sim
