#include "gemini/sim/simulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "functional.h"
#include "power_recorder.h"
#include "system.h"
#include "trace_writer.h"

namespace gemini::sim {
namespace {

// A fresh SystemC simulation context per run: the kernel keeps its modules,
// processes and time in one global context, which cannot be restarted. The
// library's own static objects belong to the context that was current when
// it loaded, so that one is kept and restored, never deleted.
class KernelScope {
 public:
  KernelScope() : saved_(sc_core::sc_get_curr_simcontext()) {
    sc_core::sc_curr_simcontext = new sc_core::sc_simcontext;
    sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  }
  ~KernelScope() {
    delete sc_core::sc_curr_simcontext;
    sc_core::sc_curr_simcontext = saved_;
    sc_core::sc_default_global_context = saved_;
  }
  KernelScope(const KernelScope&) = delete;
  KernelScope& operator=(const KernelScope&) = delete;

 private:
  sc_core::sc_simcontext* saved_;
};

// Each layer's roofline (roofline.h) for the run's mesh, ports and rates.
void attach_rooflines(const ir::Model& m, const assembler::Program& program, const Params& p,
                      Report& r) {
  RooflineInput in;
  in.xlen = p.xlen;
  in.ylen = p.ylen;
  const double ghz = p.hw->clock.frequency_mhz / 1000.0;
  in.link_bytes_per_cycle = r.noc_peak_link_gbps / ghz;
  in.port_bytes_per_cycle =
      p.port_rows.empty() ? 0 : r.dram_peak_gbps / static_cast<double>(p.port_rows.size()) / ghz;
  for (std::size_t i = 0; i < p.port_rows.size(); ++i) in.ports.push_back(p.port_pos(i));
  in.core_port.assign(static_cast<std::size_t>(p.xlen) * p.ylen, 0);
  for (std::size_t i = 0; i < program.cores.size() && i < p.core_port.size(); ++i)
    in.core_port[static_cast<std::size_t>(program.cores[i].program.core_id)] = p.core_port[i];
  in.interleave = p.dram_interleave;
  in.noc_multicast = p.hw->noc.multicast;
  in.dram_multicast = p.hw->dram.multicast;
  in.x_cut = p.chiplets.x_cut;
  in.y_cut = p.chiplets.y_cut;
  in.io_die = p.io_die;
  in.d2d_bytes_per_cycle = p.chiplets.cut() ? p.chiplets.d2d_gbps / ghz : 0;
  std::vector<LayerRoofline> roofs = layer_roofline(m, in, &r.roofline_segments);
  for (LayerReport& l : r.layers)
    for (LayerRoofline& x : roofs)
      if (x.name == l.name) {
        l.roofline = std::move(x);
        break;
      }
}

// The workloads of the run that have instructions, over every core.
std::int64_t workload_count(const std::vector<CoreImage>& images) {
  std::int64_t n = 0;
  for (const CoreImage& c : images) {
    std::vector<bool> seen(c.workload_ids.size(), false);
    for (const OpRec& o : c.ops)
      if (o.wl >= 0 && !seen[static_cast<std::size_t>(o.wl)]) {
        seen[static_cast<std::size_t>(o.wl)] = true;
        ++n;
      }
  }
  return n;
}

}  // namespace

bool simulate(const assembler::Program& program, const ir::HardwareConfig& hw,
              const WorkloadTable& workloads, const SimOptions& options, Report& report,
              std::string& error) {
  const auto t0 = std::chrono::steady_clock::now();
  SimContext ctx;
  if (!resolve_params(hw, program, options.xlen, options.ylen, ctx.params, error)) return false;
  std::vector<CoreImage> images;
  if (!build_images(program, images, error)) return false;
  std::int64_t total = 0;
  for (const CoreImage& c : images) total += static_cast<std::int64_t>(c.ops.size());
  std::unique_ptr<Functional> functional;
  if (options.network && options.reference) {
    functional = Functional::create(program, *options.network, *options.reference,
                                    options.memory_limit, error);
    if (!functional) return false;
    functional->set_tile_hook(options.tiles);
    ctx.functional = functional.get();
  }
  ctx.tracing = !options.trace_path.empty();
  ctx.dram_tracing = !options.dram_trace_path.empty();
  std::unique_ptr<PowerRecorder> power;
  if (options.power.enabled) {
    power = std::make_unique<PowerRecorder>(
        images.size(), ctx.params.energy,
        static_cast<Tick>(std::llround(std::max(0.0, options.power.window_ns) * 1000.0)));
    ctx.power = power.get();
  }
  ctx.progress = Progress(options.progress, total, workload_count(images), ctx.params.period,
                          options.progress_since);
  report = Report{};
  report.input = options.input_name;
  {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    KernelScope kernel;
    {
      System top("gemini", program, images, ctx);
      // A limit beyond what picoseconds can hold is no limit.
      const bool limited =
          options.until_cycles > 0 && options.until_cycles < (kNever - 1) / ctx.params.period;
      top.run_and_report(workloads, limited ? options.until_cycles * ctx.params.period : 0, report);
    }
  }
  ctx.progress.done();
  if (!ctx.stall.empty()) {
    error = ctx.stall;
    return false;
  }
  if (options.model) attach_rooflines(*options.model, program, ctx.params, report);
  if (report.power) report.power->asked_window_ns = options.power.window_ns;
  for (const StatGroup* g : options.stat_groups) report.stats.push_back(g->snapshot());
  report.dram_unique_read_bytes = unique_dram_reads(images);
  if (functional) report.functional = functional->finish();
  if (ctx.tracing && !write_chrome_trace(options.trace_path, ctx, images, report.power, error)) return false;
  // Ports receive requests at their own times: in arrival order, ports in
  // order at one time.
  std::stable_sort(ctx.dram_trace.begin(), ctx.dram_trace.end(),
                   [](const DramTraceRecord& a, const DramTraceRecord& b) {
                     return a.arrival < b.arrival;
                   });
  if (ctx.dram_tracing &&
      !write_dram_trace(options.dram_trace_path, ctx.dram_trace,
                        static_cast<std::int32_t>(ctx.params.port_rows.size()), 64, error))
    return false;
  report.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

}  // namespace gemini::sim
