#pragma once
// Timing formulas of the on-core units (docs/timing-model.md): the L2 port
// rate under bank conflicts, the PE array, the vector processor and WL0.
// All results are in core cycles.

#include <cstdint>

#include "gemini/ir/hw_config.h"

namespace gemini::sim {

// Bytes per cycle one engine's L2 port achieves while `streams` engines of
// the core access L2 at once. A port needs m = port_bytes / bank_bytes
// consecutive banks per cycle, so L2 has G = banks / m bank groups; with k
// streams choosing groups uniformly, G * (1 - (1 - 1/G)^k) groups are served
// per cycle, shared evenly:
//   rate(k) = port_bytes * G * (1 - (1 - 1/G)^k) / k        (rate(1) = port_bytes)
double l2_port_rate(const ir::L2Config& l2, std::int32_t streams);

// One pe_run: an ofmap tile of n x k x h x w (batch, output channels, rows,
// columns) from `cin` input channels with an r x s kernel. The array computes
// `rows` output channels x `cols` output pixels (of the n * h * w of the tile,
// in any arrangement) x `lanes` input channels per cycle:
//   compute = ceil(n * h * w / cols) * ceil(k / rows) * ceil(cin / lanes) * r * s
// Weights stream through WL0 at wl0.bytes_per_cycle; the ifmap is read and
// the ofmap written through the PE's L2 port. The run takes
//   max(compute, ceil(weight_bytes / wl0_rate), ceil((ifmap + ofmap bytes) / l2_rate))
//   + pipeline_cycles
struct PeTile {
  std::int64_t n = 1, k = 1, h = 1, w = 1, cin = 1;
  std::int64_t r = 1, s = 1;
  std::int64_t ifmap_bytes = 0, weight_bytes = 0, ofmap_bytes = 0;
};
std::int64_t pe_compute_cycles(const ir::PeConfig& pe, const PeTile& t);
std::int64_t pe_run_cycles(const ir::HardwareConfig& hw, const PeTile& t, double l2_rate);

// One vp_run over `elements` element operations (pooling: output elements x
// window^2; add: output elements x 2; copy and transpose: input elements)
// moving `l2_bytes` through the VP's L2 port:
//   max(ceil(elements / lanes), ceil(l2_bytes / l2_rate)) + pipeline_cycles
std::int64_t vp_run_cycles(const ir::VpConfig& vp, std::int64_t elements, std::int64_t l2_bytes,
                           double l2_rate);

// A WL0 fill from L2: ceil(bytes / min(wl0 rate, l2_rate)) + l2 latency.
std::int64_t wl0_fill_cycles(const ir::HardwareConfig& hw, std::int64_t bytes, double l2_rate);

}  // namespace gemini::sim
