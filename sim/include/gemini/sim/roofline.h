#pragma once
// Each layer's roofline under the scheduler's own cost rules, worked out
// from the IR and the hardware alone, without simulating
// (docs/timing-model.md, "Layer roofline"). A layer takes at least the
// largest of
//   compute: the longest predicted `time` of its workloads (the scheduler's
//            per-tile time; the layer's workloads run on their cores side
//            by side),
//   links:   the bytes of the layer's traffic on its most loaded NoC link,
//            at the link's rate,
//   dram:    the layer's DRAM bytes on its most loaded DRAM port, at the
//            port's rate.
// A layer's traffic is every transfer its workloads receive, counted once
// per (transfer, receiving core) -- ofmaps of other cores and DRAM reads --
// and every ofmap its workloads store to DRAM. Routes run X first, then Y
// (MeshNoc's and the scheduler's routing); a transfer that several of the
// layer's cores receive loads each link of its XY tree once when the
// configuration multicasts it (noc.multicast for ofmaps, dram.multicast for
// DRAM reads: the scheduler's multicastCalc), else once per receiver. A
// DRAM access is spread evenly over every port with dram.interleave, else
// it goes through the ports of the cores taking part (each core's own).
//
// On a mesh cut into chiplets a die-to-die link (and with the DRAM ports on
// an IO die, a port's link) carries the D2D rate, as the Gemini scheduler
// prices its NoP links at their own bandwidth; a layer's link bound is its
// slowest link: bytes over that link's rate.
//
// The scheduler charges compute and DRAM layer by layer but the links once
// per segment, on the segment's summed loads; the sum of these bounds over
// the layers is its estimate with every layer's links charged in the layer
// that moves the bytes.
//
// Segments (the Gemini scheduler's, docs/timing-model.md "Layer roofline"):
// every core runs at most one layer of a segment, segment after segment,
// so where every layer is at the same place in the order of layers of
// every core that runs it, that place is its segment. The scheduler prices
// a segment at the largest of its stages times its largest layer time, and
// its layers' traffic summed on its most loaded link and busiest port;
// its stages are the longest chain of core-to-core transfers among its
// layers. SegmentRoofline is that rule with each layer's bound above.

#include <cstdint>
#include <string>
#include <vector>

#include "gemini/ir/model.h"
#include "gemini/sim/noc_model.h"

namespace gemini::sim {

struct RooflineInput {
  std::int32_t xlen = 0, ylen = 0;
  double link_bytes_per_cycle = 0;  // one NoC link, one direction
  double port_bytes_per_cycle = 0;  // one DRAM port
  std::vector<NodePos> ports;       // the DRAM ports (x = -1 or xlen)
  // Per core id (y * xlen + x): the index into `ports` of its own port.
  std::vector<std::int32_t> core_port;
  bool interleave = false, noc_multicast = false, dram_multicast = false;
  // A cut mesh (chiplets.h): its die-to-die links at d2d_bytes_per_cycle.
  std::int32_t x_cut = 1, y_cut = 1;
  bool io_die = false;              // the DRAM ports' links are D2D links too
  double d2d_bytes_per_cycle = 0;   // 0: link_bytes_per_cycle
};

struct LayerRoofline {
  std::string name;
  std::int64_t compute_cycles = 0, link_cycles = 0, dram_cycles = 0;
  std::int64_t link_bytes = 0;  // on the most loaded link
  std::string link;             // that link, "(x,y)->(x',y')"; empty without traffic
  bool link_d2d = false;        // that link is a die-to-die link
  std::int64_t dram_bytes = 0;  // read and written, over all ports
  std::int64_t bound_cycles() const;
  // "compute", "links" or "dram": what sets the bound (the first of them on
  // a tie).
  const char* limit() const;
};

// A segment under the Gemini scheduler's rule (above).
struct SegmentRoofline {
  std::vector<std::string> layers;  // in the order layer_roofline lists them
  std::int32_t stages = 1;
  std::int64_t layer_cycles = 0;  // its layers' largest bound
  std::int64_t link_cycles = 0, dram_cycles = 0;
  std::string link;  // its most loaded link (by time)
  std::int64_t bound_cycles() const;
  // "stages", "links" or "dram": what sets the bound (the first on a tie).
  const char* limit() const;
};

// The layers in order of their first workload in the file (core by core).
// Transfers without a producer (an invalid file) carry nothing. With
// `segments`, the file's segments too (left empty when the order of layers
// on the cores does not give them).
std::vector<LayerRoofline> layer_roofline(const ir::Model& m, const RooflineInput& in,
                                          std::vector<SegmentRoofline>* segments = nullptr);

}  // namespace gemini::sim
