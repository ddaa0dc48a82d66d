#include "gemini/sim/compute_timing.h"

#include <algorithm>
#include <cmath>

namespace gemini::sim {
namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
std::int64_t ceil_bytes(std::int64_t bytes, double rate) {
  return bytes <= 0
             ? 0
             : static_cast<std::int64_t>(std::ceil(static_cast<double>(bytes) / rate - 1e-9));
}
}  // namespace

double l2_port_rate(const ir::L2Config& l2, std::int32_t streams) {
  const double port = l2.port_bytes;
  if (streams <= 1) return port;
  const double m = std::max(1.0, port / l2.bank_bytes);
  const double groups = std::max(1.0, l2.banks / m);
  const double k = streams;
  const double served = groups * (1.0 - std::pow(1.0 - 1.0 / groups, k));
  return std::min(port, port * served / k);
}

std::int64_t pe_compute_cycles(const ir::PeConfig& pe, const PeTile& t) {
  return ceil_div(t.n * t.h * t.w, pe.cols) * ceil_div(t.k, pe.rows) * ceil_div(t.cin, pe.lanes) *
         t.r * t.s;
}

std::int64_t pe_run_cycles(const ir::HardwareConfig& hw, const PeTile& t, double l2_rate) {
  const std::int64_t compute = pe_compute_cycles(hw.pe, t);
  const std::int64_t weights = ceil_bytes(t.weight_bytes, hw.wl0.bytes_per_cycle);
  const std::int64_t l2 = ceil_bytes(t.ifmap_bytes + t.ofmap_bytes, l2_rate);
  return std::max({compute, weights, l2}) + hw.pe.pipeline_cycles;
}

std::int64_t vp_run_cycles(const ir::VpConfig& vp, std::int64_t elements, std::int64_t l2_bytes,
                           double l2_rate) {
  return std::max(ceil_div(elements, vp.lanes), ceil_bytes(l2_bytes, l2_rate)) + vp.pipeline_cycles;
}

std::int64_t wl0_fill_cycles(const ir::HardwareConfig& hw, std::int64_t bytes, double l2_rate) {
  return ceil_bytes(bytes, std::min<double>(hw.wl0.bytes_per_cycle, l2_rate)) +
         hw.l2.latency_cycles;
}

}  // namespace gemini::sim
