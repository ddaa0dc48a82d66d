// BookSim 2's configuration for a gemini NoC (booksim2_config.h).
#include "gemini/sim/booksim2_config.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "booksim2_keys.h"
#include "gemini/sim/mesh_links.h"
#include "text_format.h"

namespace gemini::sim {

namespace {

// BookSim's fastest router hop: one cycle of (speculative) allocation, one
// of switch traversal, one of channel.
constexpr std::int32_t kMinHop = 3;

}  // namespace

bool booksim2_config(const Booksim2Params& p, const NocLayout& layout, Booksim2Setup& out,
                     std::string& error) {
  out = Booksim2Setup{};
  if (p.router_cycles < 1) {
    error =
        "parameter \"router_cycles\" of component \"noc\" (NoC model \"booksim2\"): BookSim 2's "
        "routers take at least one cycle per hop; got 0";
    return false;
  }
  out.xlen = layout.xlen;
  out.ylen = layout.ylen;
  out.period = layout.period;
  for (const NodePos& q : layout.ports) {
    out.port_x.push_back(q.x);
    out.port_y.push_back(q.y);
  }
  const bool ports = !layout.ports.empty();
  out.column_offset = ports ? 1 : 0;
  out.k = std::max(layout.xlen + (ports ? 2 : 0), layout.ylen);
  // The clock: the smallest ratio whose hop fits BookSim's fastest router,
  // unless given.
  std::int32_t ratio = p.clock_ratio;
  if (ratio <= 0) {
    ratio = 1;
    while (p.router_cycles * ratio < kMinHop) ++ratio;
  }
  out.clock_ratio = ratio;
  out.flit_bytes = p.link_gbps * static_cast<double>(layout.period) / 1000.0 / ratio;
  out.packet_flits = out.flits(layout.packet_bytes);
  const std::int32_t routing_delay =
      p.routing_delay >= 0 ? p.routing_delay : std::max(0, p.router_cycles * ratio - kMinHop);
  const std::int32_t alloc = p.speculative ? std::max(p.vc_alloc_delay, p.sw_alloc_delay)
                                           : p.vc_alloc_delay + p.sw_alloc_delay;
  out.hop_cycles = routing_delay + alloc + p.st_prepare_delay + p.st_final_delay + 1;
  const std::int64_t depth =
      static_cast<std::int64_t>(p.buffer_packets > 0 ? p.buffer_packets : p.deep_packets) *
      out.packet_flits;
  // BookSim counts a port's buffer, every VC's, in an int (buffer.cpp:
  // num_vcs x vc_buf_size); 2^30 keeps it, and its sums, in range.
  if (depth * p.num_vcs > (std::int64_t{1} << 30)) {
    error = std::string("parameter \"") + (p.buffer_packets > 0 ? "buffer_packets" : "deep_packets") +
            "\" of component \"noc\" (NoC model \"booksim2\"): " + std::to_string(depth) +
            " flits per VC buffer x " + std::to_string(p.num_vcs) +
            " VCs is more than BookSim 2 counts (2^30 flits per port)";
    return false;
  }

  // The chiplet cut: D2D links at the on-chip rate, their latency in whole
  // BookSim cycles.
  if (layout.x_cut * layout.y_cut > 1) {
    if (std::abs(layout.d2d_gbps - p.link_gbps) > 1e-9 * p.link_gbps) {
      error =
          "parameter \"d2d_gbps\" of component \"chiplets\": noc.model \"booksim2\" cannot "
          "give die-to-die links another rate than noc.link_gbps (BookSim 2's channels all "
          "carry one flit per cycle): got " +
          fmt("%g", layout.d2d_gbps) + " GB/s against " + fmt("%g", p.link_gbps) +
          "; set chiplets.d2d_gbps to noc.link_gbps, or use noc.model \"mesh\"";
      return false;
    }
    const double cycles =
        static_cast<double>(layout.d2d_latency) * ratio / static_cast<double>(layout.period);
    if (std::abs(cycles - std::round(cycles)) > 1e-9) {
      error =
          "parameter \"d2d_latency_ns\" of component \"chiplets\": noc.model \"booksim2\" "
          "takes a die-to-die latency in whole BookSim cycles (" +
          fmt("%g", static_cast<double>(layout.period) / ratio / 1000.0) + " ns); got " +
          fmt("%g", static_cast<double>(layout.d2d_latency) / 1000.0) + " ns";
      return false;
    }
    out.d2d_cycles = static_cast<std::int32_t>(std::llround(cycles));
  }
  // The links that cross a die boundary, as the mesh has them (none without
  // a cut); the ports' links with an IO die only where BookSim has ports.
  const MeshLinks links(layout.xlen, layout.ylen);
  out.d2d_links = links.d2d_flags(layout.x_cut, layout.y_cut, layout.io_die && ports);
  links.for_each_link([&](std::int32_t link, NodePos from, NodePos to) {
    if (out.d2d_links[static_cast<std::size_t>(link)] == 0) return;
    const std::int32_t ch = out.channel(from, to);
    out.d2d_channels.emplace_back(ch / 4, ch % 4);
  });

  // BookSim's keys: those the table says gemini writes, in its order.
  out.routing_delay = routing_delay;
  out.vc_buf_size = depth;
  for (const Booksim2Key& k : booksim2_keys())
    if (k.role == Booksim2Key::Role::written) out.keys.push_back({k.key, k.write(p, out), k.kind});
  out.own_keys = out.keys.size();
  out.keys.insert(out.keys.end(), p.extra.begin(), p.extra.end());
  return true;
}

}  // namespace gemini::sim
