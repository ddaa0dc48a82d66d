#include "system.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "critical_path.h"
#include "gemini/sim/sim_config.h"

namespace gemini::sim {

namespace {

// The DRAM ports (by dram.placement) and each core's nearest one.
bool place_ports(const std::string& placement, const assembler::Program& program, Params& p,
                 std::string& error) {
  const bool row0 = placement == "west_east_row0";
  for (std::int32_t y = 0; y < (row0 ? 1 : p.ylen); ++y)
    for (bool east : {false, true}) {
      p.port_rows.push_back(y);
      p.port_east.push_back(east);
    }
  for (const auto& c : program.cores) {
    const std::int32_t id = c.program.core_id;
    if (id < 0 || id >= p.xlen * p.ylen) {
      error = "core " + std::to_string(id) + " is outside the " + std::to_string(p.xlen) + "x" +
              std::to_string(p.ylen) + " mesh";
      return false;
    }
    const std::int32_t x = id % p.xlen, y = id / p.xlen;
    const bool east = 2 * x >= p.xlen;
    p.core_port.push_back((row0 ? 0 : 2 * y) + (east ? 1 : 0));
  }
  return true;
}

// Builds the NoC model and one DRAM model per port.
bool build_models(const ir::HardwareConfig& hw, const DramSetup& dram, const NocSetup& noc,
                  Params& p, std::string& error) {
  DramContext dc;
  dc.mesh_tops = static_cast<double>(p.xlen) * p.ylen * hw.pe.macs_per_cycle() * 2.0 *
                 hw.clock.frequency_mhz / 1e6;
  dc.ports = static_cast<std::int32_t>(p.port_rows.size());
  for (std::size_t i = 0; i < p.port_rows.size(); ++i) {
    p.dram.push_back(dram.build(dc, error));
    if (!p.dram.back()) return false;
  }
  NocLayout layout;
  layout.xlen = p.xlen;
  layout.ylen = p.ylen;
  layout.period = p.period;
  for (std::size_t i = 0; i < p.port_rows.size(); ++i) layout.ports.push_back(p.port_pos(i));
  layout.x_cut = p.chiplets.x_cut;
  layout.y_cut = p.chiplets.y_cut;
  layout.io_die = p.io_die;
  layout.d2d_gbps = p.chiplets.d2d_gbps;
  layout.d2d_latency = static_cast<Tick>(std::llround(p.chiplets.d2d_latency_ns * 1000.0));
  layout.packet_bytes = noc.packet_bytes;
  p.noc = noc.build(layout, error);
  return p.noc != nullptr;
}

}  // namespace

bool resolve_params(const ir::HardwareConfig& hw, const assembler::Program& program,
                    std::int32_t xlen, std::int32_t ylen, Params& p, std::string& error) {
  if (hw.mesh.xlen > 0) xlen = hw.mesh.xlen;
  if (hw.mesh.ylen > 0) ylen = hw.mesh.ylen;
  if (xlen <= 0 || ylen <= 0) {
    error = "the mesh size is unknown (neither the IR nor --hw gives xlen and ylen)";
    return false;
  }
  // The simulator's sections, as every command's configuration check
  // reads them (sim_config.h).
  ir::ConfigErrors errors;
  std::optional<SimSections> sections = read_sim_sections(hw, errors);
  if (!sections) {
    for (const ir::Diagnostic& e : errors)
      error += (error.empty() ? "" : "; ") + ir::config_text(e);
    return false;
  }
  if (!check_cut(sections->chiplets, xlen, ylen, error)) return false;
  const DramSetup* dram = &sections->dram;
  const NocSetup* noc = &sections->noc;
  const ChipletSetup* chiplets = &sections->chiplets;
  p.hw = &hw;
  p.xlen = xlen;
  p.ylen = ylen;
  p.period = std::max<Tick>(1, std::llround(1e6 / hw.clock.frequency_mhz));
  p.packet_bytes = noc->packet_bytes;
  p.control_bytes = noc->control_bytes;
  p.l2_latency = hw.l2.latency_cycles * p.period;
  p.dram_model = dram->model;
  p.dram_interleave = dram->interleave;
  p.dram_in_order = dram->in_order;
  p.energy = sections->energy;
  p.energy.pj_per_event[static_cast<std::size_t>(Event::d2d_byte_hop)] =
      chiplets->interface.pj_per_byte;
  p.chiplets = *chiplets;
  p.io_die = dram->placement == "io_die";
  p.silicon = std::move(sections->silicon);
  return place_ports(dram->placement, program, p, error) && build_models(hw, *dram, *noc, p, error);
}

System::System(const sc_core::sc_module_name& name, const assembler::Program& program,
               const std::vector<CoreImage>& images, SimContext& ctx)
    : sc_core::sc_module(name), program_(program), ctx_(ctx) {
  noc_ = std::make_unique<NocModule>("noc", ctx_);
  // The wiring: each DRAM port reports to the NoC (memory_port.h), each
  // core sends on the NoC and hears from it (network_port.h).
  std::vector<MemoryPort*> ports;
  for (std::size_t i = 0; i < ctx_.params.port_rows.size(); ++i) {
    const std::string n = std::string("dram_") + (ctx_.params.port_east[i] ? "east" : "west") +
                          std::to_string(ctx_.params.port_rows[i]);
    ports_.push_back(std::make_unique<DramModule>(n.c_str(), static_cast<std::int32_t>(i),
                                                  std::move(ctx_.params.dram[i]), ctx_, *noc_));
    ports.push_back(ports_.back().get());
  }
  std::vector<NetworkClient*> cores;
  std::vector<std::int32_t> nodes;
  for (std::size_t c = 0; c < images.size(); ++c) {
    const std::string n = "core_" + std::to_string(images[c].core_id);
    cores_.push_back(std::make_unique<CoreModule>(n.c_str(), static_cast<std::int32_t>(c),
                                                  images[c], program_.cores[c].program, ctx_,
                                                  *noc_));
    cores.push_back(cores_.back().get());
    nodes.push_back(images[c].core_id);
  }
  noc_->attach(std::move(cores), std::move(nodes), std::move(ports));
}

namespace {
std::int64_t to_cycles(Tick t, Tick period) { return (t + period - 1) / period; }
std::string link_name(NodePos a, NodePos b) {
  return "(" + std::to_string(a.x) + "," + std::to_string(a.y) + ")->(" + std::to_string(b.x) +
         "," + std::to_string(b.y) + ")";
}
}  // namespace

void System::run_and_report(const WorkloadTable& workloads, Tick until, Report& r) {
  if (until > 0) {
    // Events at exactly `until` happen too: run to just past it.
    sc_core::sc_start(ps(until + 1));
  } else {
    sc_core::sc_start();
  }
  if (!ctx_.stall.empty()) return;  // a model stopped the run: no report
  const Tick period = ctx_.params.period;
  Tick end = 0;
  for (const auto& c : cores_) end = std::max(end, c->finish_time());
  bool all_done = true;
  for (const auto& c : cores_)
    if (!c->done()) {
      all_done = false;
      c->describe_blocked(r.blocked);
    }
  r.stopped = !all_done && until > 0 && sc_core::sc_pending_activity();
  r.deadlock = !all_done && !r.stopped;
  if (!all_done) end = std::max(end, until > 0 ? std::min(now_ps(), until) : now_ps());
  r.total_cycles = to_cycles(end, period);
  r.xlen = ctx_.params.xlen;
  r.ylen = ctx_.params.ylen;
  r.frequency_mhz = ctx_.params.hw->clock.frequency_mhz;
  r.hw_name = ctx_.params.hw->name;
  r.dram_model = ctx_.params.dram_model;

  report_stats(r);
  report_cores(r, end);
  report_dram(r, end);
  report_noc(r, end);
  report_energy(r, end);
  if (ctx_.power) report_power(r, end);
  report_workloads(workloads, r);
  if (all_done) {
    std::vector<PathCore> pcs;
    for (const auto& c : cores_)
      pcs.push_back({&c->image(), &c->op_times(), &c->causes(), c->finish_time(), &c->op_waits()});
    const NocModel& noc = noc_->noc();
    r.critical_path = trace_critical_path(
        pcs, period, static_cast<std::uint32_t>(ctx_.params.hw->core.dispatch_per_cycle),
        InFlight(ctx_.params.hw->core), workloads,
        [&noc](std::int32_t l) { return noc.link_name(l); });
  }
  report_layers(r);
}

// Per core: finish, cycles by cause (adding up to the finish exactly),
// instructions, L2 peak, energy; the run's event counts.
void System::report_cores(Report& r, Tick end) const {
  const Tick period = ctx_.params.period;
  for (const auto& c : cores_) {
    CoreReport cr;
    cr.core_id = c->image().core_id;
    cr.finish_cycles = to_cycles(c->finish_time(), period);
    // Whole cycles per cause that add up to the finish cycle exactly:
    // floors, then the leftover cycles to the largest remainders.
    const auto& a = c->activity();
    constexpr CoreModule::Act kCauses[] = {CoreModule::kCompute, CoreModule::kDram,
                                           CoreModule::kNoc,     CoreModule::kToken,
                                           CoreModule::kSpace,   CoreModule::kOther};
    std::int64_t cyc[6], sum = 0;
    for (int k = 0; k < 6; ++k) sum += cyc[k] = a[kCauses[k]] / period;
    for (std::int64_t left = cr.finish_cycles - sum; left > 0; --left) {
      int best = 0;
      for (int k = 1; k < 6; ++k)
        if (a[kCauses[k]] - cyc[k] * period > a[kCauses[best]] - cyc[best] * period) best = k;
      ++cyc[best];
    }
    cr.compute = cyc[0];
    cr.dram = cyc[1];
    cr.noc = cyc[2];
    cr.token = cyc[3];
    cr.l2_space = cyc[4];
    cr.other = cyc[5];
    cr.instructions = c->instructions();
    cr.retired = c->retired();
    cr.peak_l2_bytes = c->peak_l2();
    cr.energy = price(c->events(), ctx_.params.energy);
    cr.energy.pj[static_cast<std::size_t>(Component::leakage)] =
        static_pj(ctx_.params.energy, 1, static_cast<double>(end) / 1000.0);
    for (std::size_t k = 0; k < kEvents; ++k) r.events[k] += c->events()[k];
    r.instructions += cr.instructions;
    r.peak_l2_bytes = std::max(r.peak_l2_bytes, cr.peak_l2_bytes);
    r.cores.push_back(cr);
  }
}

// Per DRAM port and in total: bytes, bandwidth and, where the model counts
// rows, the row-hit rate; from each port's statistics group (report_stats).
void System::report_dram(Report& r, Tick end) const {
  const Tick period = ctx_.params.period;
  const double seconds_ns = end > 0 ? static_cast<double>(end) / 1000.0 : 0;  // ns
  std::int64_t hits = 0, bursts = 0;
  for (std::size_t i = 0; i < ports_.size(); ++i) {
    const DramModel& m = ports_[i]->model();
    const std::string& group = ports_[i]->stats().name();
    DramPortReport pr;
    pr.row = ctx_.params.port_rows[i];
    pr.side = ctx_.params.port_east[i] ? "east" : "west";
    pr.stats = r.stats.size();
    for (std::size_t g = 0; g < r.stats.size(); ++g)
      if (r.stats[g].name == group) pr.stats = g;
    const StatSnapshot& s = r.stats.at(pr.stats);
    pr.bytes_read = s.value_or("bytes_read", 0);
    pr.bytes_written = s.value_or("bytes_written", 0);
    pr.busy_cycles = to_cycles(s.value_or("data_busy_ps", 0), period);
    pr.peak_gbps = m.peak_gbps();
    pr.achieved_gbps = seconds_ns > 0 ? (pr.bytes_read + pr.bytes_written) / seconds_ns : 0;
    if (const StatValue* h = s.find("row_hits")) {
      const std::int64_t b =
          h->value + s.value_or("row_misses", 0) + s.value_or("row_conflicts", 0);
      pr.has_rows = true;
      if (b > 0) pr.row_hit_rate = static_cast<double>(h->value) / static_cast<double>(b);
      hits += h->value;
      bursts += b;
    }
    r.dram_bytes += pr.bytes_read + pr.bytes_written;
    r.dram_read_bytes += pr.bytes_read;
    r.dram_peak_gbps += pr.peak_gbps;
    r.dram_ports.push_back(pr);
  }
  r.dram_achieved_gbps = seconds_ns > 0 ? r.dram_bytes / seconds_ns : 0;
  r.dram_row_hit_rate = bursts > 0 ? static_cast<double>(hits) / bursts : 0;
}

// The NoC's packets, bytes and link utilisation.
void System::report_noc(Report& r, Tick end) const {
  const NocModel& mesh = noc_->noc();
  const NocModel::LinkUse use = mesh.router_link_use();
  r.noc_packets = mesh.packets();
  r.noc_peak_link_gbps = mesh.peak_link_gbps();
  r.noc_bytes = mesh.bytes();
  r.noc_links = use.links;
  r.noc_link_util_max = end > 0 ? static_cast<double>(use.max_busy) / end : 0;
  r.noc_link_util_mean = end > 0 ? use.mean_busy / end : 0;
  if (use.max_busy > 0) r.noc_busiest_link = link_name(use.max_from, use.max_to);
  if (ctx_.params.chiplets.cut()) report_chiplets(r, end);
}

// The D2D links of a cut mesh: per link and in total; the SerDes lanes.
void System::report_chiplets(Report& r, Tick end) const {
  const NocModel& mesh = noc_->noc();
  const ChipletSetup& c = ctx_.params.chiplets;
  const NocModel::LinkUse use = mesh.d2d_link_use();
  ChipletReport cr;
  cr.x_cut = c.x_cut;
  cr.y_cut = c.y_cut;
  cr.interface = c.interface.name;
  cr.d2d_gbps = c.d2d_gbps;
  cr.d2d_latency_ns = c.d2d_latency_ns;
  cr.io_die = ctx_.params.io_die;
  cr.links = use.links;
  cr.lanes_per_link = c.interface.lanes(c.d2d_gbps);
  cr.static_mw = static_cast<double>(cr.links * cr.lanes_per_link) * c.interface.lane_mw;
  cr.link_util_max = end > 0 ? static_cast<double>(use.max_busy) / end : 0;
  cr.link_util_mean = end > 0 ? use.mean_busy / end : 0;
  if (use.max_busy > 0) cr.busiest_link = link_name(use.max_from, use.max_to);
  for (const NocModel::LinkLoad& l : mesh.d2d_link_loads())
    cr.per_link.push_back({"(" + std::to_string(l.from.x) + "," + std::to_string(l.from.y) + ")",
                           "(" + std::to_string(l.to.x) + "," + std::to_string(l.to.y) + ")",
                           l.bytes, end > 0 ? static_cast<double>(l.busy) / end : 0});
  r.chiplets = std::move(cr);
}

// The run's energy and every unit's statistics.
void System::report_energy(Report& r, Tick end) const {
  // Energy: the run's events priced once (the components add up to the
  // total exactly), static for every core over the whole run.
  const EnergyCosts& energy = ctx_.params.energy;
  r.energy = price(r.events, energy);
  r.energy.pj[static_cast<std::size_t>(Component::leakage)] = static_pj(
      energy, static_cast<std::int64_t>(cores_.size()), static_cast<double>(end) / 1000.0);
  EventCounts none{};
  for (const auto& c : cores_)
    for (std::size_t k = 0; k < kEvents; ++k) none[k] += c->no_workload()[k];
  r.unattributed = price(none, energy);
  if (const auto& s = ctx_.params.silicon) {
    SiliconInputs in;
    in.xlen = ctx_.params.xlen;
    in.ylen = ctx_.params.ylen;
    in.x_cut = ctx_.params.chiplets.x_cut;
    in.y_cut = ctx_.params.chiplets.y_cut;
    in.pe_rows = ctx_.params.hw->pe.rows;
    in.pe_cols = ctx_.params.hw->pe.cols;
    in.pe_lanes = ctx_.params.hw->pe.lanes;
    in.l2_bytes = ctx_.params.hw->l2.size_bytes;
    // Widths: bytes per core cycle (silicon.h).
    const double ghz = ctx_.params.hw->clock.frequency_mhz / 1000.0;
    in.noc_link_gbps = r.noc_peak_link_gbps / ghz;
    in.d2d_gbps = ctx_.params.chiplets.d2d_gbps / ghz;
    in.dram_gbps = r.dram_peak_gbps / ghz;
    in.d2d_phy_um2_per_gbps = ctx_.params.chiplets.interface.phy_um2_per_gbps;
    r.silicon = silicon_model(*s, in);
  }
  // The SerDes lanes of the D2D links, for the whole run: no workload's.
  if (r.chiplets) {
    const double lanes_pj = r.chiplets->static_mw * static_cast<double>(end) / 1000.0;
    r.energy.pj[static_cast<std::size_t>(Component::d2d)] += lanes_pj;
    r.unattributed.pj[static_cast<std::size_t>(Component::d2d)] += lanes_pj;
  }
}

// Power over time (power.h): the recorder's windows per core, die, DRAM and
// package; the static power of the cores and of each die's halves of its
// D2D links' SerDes lanes.
void System::report_power(Report& r, Tick end) const {
  PowerLayout layout;
  const ChipletSetup& c = ctx_.params.chiplets;
  layout.xlen = ctx_.params.xlen;
  layout.ylen = ctx_.params.ylen;
  layout.x_cut = c.x_cut;
  layout.y_cut = c.y_cut;
  for (const auto& core : cores_) layout.core_ids.push_back(core->image().core_id);
  layout.leakage_w_per_core = ctx_.params.energy.static_mw_per_core / 1000.0;
  layout.lanes_w_per_die.assign(static_cast<std::size_t>(c.dies()), 0.0);
  if (c.cut()) {
    layout.io_die = ctx_.params.io_die;
    const double lane_w =
        static_cast<double>(c.interface.lanes(c.d2d_gbps)) * c.interface.lane_mw / 1000.0;
    const std::int32_t die_w = layout.xlen / c.x_cut, die_h = layout.ylen / c.y_cut;
    auto half_to = [&](NodePos n) {
      if (n.x < 0 || n.x >= layout.xlen)
        layout.lanes_w_io += lane_w / 2;
      else
        layout.lanes_w_per_die[static_cast<std::size_t>((n.y / die_h) * c.x_cut + n.x / die_w)] +=
            lane_w / 2;
    };
    for (const NocModel::LinkLoad& l : noc_->noc().d2d_link_loads()) {
      half_to(l.from);
      half_to(l.to);
    }
  }
  r.power = make_power_report(*ctx_.power, layout, end, 0.0);
}

// Every unit's statistics group: the cores' (engines, L2, WL0), the NoC's,
// the DRAM ports'.
void System::report_stats(Report& r) const {
  for (const auto& c : cores_)
    for (const StatGroup* g : c->stat_groups()) r.stats.push_back(g->snapshot());
  r.stats.push_back(noc_->stats().snapshot());
  for (const auto& p : ports_) r.stats.push_back(p->stats().snapshot());
}

// Every workload's span and energy, in order of compute start.
void System::report_workloads(const WorkloadTable& workloads, Report& r) const {
  const Tick period = ctx_.params.period;
  const EnergyCosts& energy = ctx_.params.energy;
  for (const auto& c : cores_) {
    const CoreImage& img = c->image();
    auto table = workloads.find(img.core_id);
    for (std::size_t w = 0; w < img.workload_ids.size(); ++w) {
      WorkloadReport wr;
      wr.core_id = img.core_id;
      wr.workload_id = img.workload_ids[w];
      if (table != workloads.end()) {
        auto it = table->second.find(wr.workload_id);
        if (it != table->second.end()) {
          wr.layer = it->second.layer;
          wr.predicted_cycles = it->second.predicted_cycles;
        }
      }
      const Tick first = c->wl_first()[w];
      const Tick comp = c->wl_compute()[w];
      wr.first_start = first == kNever ? 0 : first / period;
      wr.compute_start = comp == kNever ? wr.first_start : comp / period;
      wr.end = to_cycles(c->wl_end()[w], period);
      wr.energy = price(c->wl_events()[w], energy);
      r.workloads.push_back(wr);
    }
  }
  std::sort(r.workloads.begin(), r.workloads.end(), [](const auto& a, const auto& b) {
    return a.compute_start != b.compute_start ? a.compute_start < b.compute_start
           : a.core_id != b.core_id           ? a.core_id < b.core_id
                                              : a.workload_id < b.workload_id;
  });
}

// Layers in order of first appearance, summed over their workloads.
void System::report_layers(Report& r) {
  std::map<std::string, std::size_t> layer_index;
  for (const WorkloadReport& w : r.workloads) {
    auto [it, fresh] = layer_index.emplace(w.layer, r.layers.size());
    if (fresh) {
      LayerReport l;
      l.name = w.layer;
      l.first_start = w.compute_start;
      r.layers.push_back(l);
    }
    LayerReport& l = r.layers[it->second];
    ++l.workloads;
    l.predicted_cycles += w.predicted_cycles;
    l.simulated_cycles += w.simulated_cycles();
    l.first_start = std::min(l.first_start, w.compute_start);
    l.last_end = std::max(l.last_end, w.end);
    for (std::size_t k = 0; k < kComponents; ++k) l.energy.pj[k] += w.energy.pj[k];
  }
}

}  // namespace gemini::sim
