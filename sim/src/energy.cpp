#include "gemini/sim/energy.h"

namespace gemini::sim {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

double Energy::total() const {
  double t = 0;
  for (double x : pj) t += x;
  return t;
}

Energy price(const EventCounts& n, const ir::EnergyConfig& e) {
  Energy out;
  for (std::size_t i = 0; i < kEvents; ++i)
    out.pj[static_cast<std::size_t>(kEventTable[i].component)] +=
        static_cast<double>(n[i]) * (e.*kEventTable[i].cost);
  return out;
}

double static_pj(const ir::EnergyConfig& e, std::int64_t cores, double ns) {
  return e.static_mw_per_core * static_cast<double>(cores) * ns;
}

void pe_run_events(const ir::HardwareConfig& hw, const PeTile& t, EventCounts& n) {
  const std::int64_t elem = (hw.l2.bitwidth + 7) / 8;
  const std::int64_t pixels = t.n * t.h * t.w;
  const std::int64_t window = t.r * t.s;
  auto at = [&](Event e) -> std::int64_t& { return n[static_cast<std::size_t>(e)]; };
  at(Event::mac) += pixels * t.k * t.cin * window;
  at(Event::al1_write) += t.ifmap_bytes;
  at(Event::al1_read) += pixels * t.cin * window * ceil_div(t.k, hw.pe.rows) * elem;
  const std::int64_t psums = pixels * t.k * window * ceil_div(t.cin, hw.pe.lanes) * elem;
  at(Event::ol1_write) += psums;
  at(Event::ol1_read) += psums + pixels * t.k * elem;
  at(Event::ol2_write) += t.ofmap_bytes;
  at(Event::ol2_read) += t.ofmap_bytes;
  at(Event::l2_read) += t.ifmap_bytes;
  at(Event::l2_write) += t.ofmap_bytes;
  if (t.weight_bytes > 0) {  // streamed from L2 through WL0
    at(Event::l2_read) += t.weight_bytes;
    at(Event::wl0_write) += t.weight_bytes;
    at(Event::wl0_read) += t.weight_bytes;
  } else {  // held in WL0
    at(Event::wl0_read) += t.k * t.cin * window * elem;
  }
}

}  // namespace gemini::sim
