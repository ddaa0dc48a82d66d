// noc.model "router": its parameters and its registration (router_noc.h).
#include <memory>
#include <string>

#include "router_noc.h"

namespace gemini::sim {

namespace {

using router::RouterNoc;
using router::RouterNocParams;

NocBuilder configure(ParamReader& r) {
  RouterNocParams p;
  p.mesh = read_mesh_noc_params(r);
  p.num_vcs = r.param<std::int32_t>("num_vcs")
                  .unit(Unit::virtual_channels)
                  .range(1, 64)
                  .fallback(1)
                  .describe("virtual channels per router input, each a buffer of buffer_packets")
                  .get();
  p.copies = r.param<bool>("multicast_copies")
                 .fallback(false)
                 .describe(
                     "a multicast packet goes as one unicast per destination, one after the "
                     "other from the source, as booksim2 sends it (for comparing the two)")
                 .get();
  p.flit_bytes = r.param<std::int32_t>("flit_bytes")
                     .unit(Unit::bytes)
                     .range(0, 1 << 20)
                     .fallback(0)
                     .describe(
                         "a link carries whole flits of this many bytes: a packet's time on it is "
                         "its flits' (0: its bytes', as the mesh's)")
                     .get();
  return [p](const NocLayout& l, std::string& error) -> std::unique_ptr<NocModel> {
    // Three words per buffer (link x VC): a bound that keeps them in memory.
    const double buffers =
        static_cast<double>(l.xlen + 2) * l.ylen * static_cast<int>(MeshLinks::kDirs) * p.num_vcs;
    if (buffers > static_cast<double>(std::int64_t{1} << 28)) {
      error = "parameter \"num_vcs\" of component \"noc\" (NoC model \"router\"): " +
              std::to_string(p.num_vcs) + " VCs on every link of a " + std::to_string(l.xlen) +
              "x" + std::to_string(l.ylen) + " mesh are more buffers than it keeps (2^28)";
      return nullptr;
    }
    for (const NodePos& q : l.ports)
      if ((q.x != -1 && q.x != l.xlen) || q.y < 0 || q.y >= l.ylen) {
        error = "noc.model \"router\": a DRAM port at (" + std::to_string(q.x) + ", " +
                std::to_string(q.y) + ") is not at a row end of the " + std::to_string(l.xlen) +
                "x" + std::to_string(l.ylen) + " mesh";
        return nullptr;
      }
    return std::make_unique<RouterNoc>(p, l);
  };
}

}  // namespace

NocModelInfo router_noc_model() {
  return {"router",
          "2-D mesh of input-queued routers, packet by packet, closed loop: per-VC input "
          "buffers, head-of-line blocking, round-robin outputs, credits, multicast forks",
          configure};
}

}  // namespace gemini::sim
