#include "gemini/sim/energy.h"

namespace gemini::sim {
namespace {

struct EventInfo {
  const char* name;
  Component component;
  const char* unit;
  double ir::EnergyConfig::*cost;
};

// One row per Event, in its order.
constexpr EventInfo kInfo[kEvents] = {
    {"macs", Component::mac, "core", &ir::EnergyConfig::mac_pj},
    {"vp_ops", Component::mac, "core", &ir::EnergyConfig::vp_op_pj},
    {"al1_read_bytes", Component::core_buffers, "core", &ir::EnergyConfig::al1_read_pj_per_byte},
    {"al1_write_bytes", Component::core_buffers, "core", &ir::EnergyConfig::al1_write_pj_per_byte},
    {"ol1_read_bytes", Component::core_buffers, "core", &ir::EnergyConfig::ol1_read_pj_per_byte},
    {"ol1_write_bytes", Component::core_buffers, "core", &ir::EnergyConfig::ol1_write_pj_per_byte},
    {"ol2_read_bytes", Component::core_buffers, "core", &ir::EnergyConfig::ol2_read_pj_per_byte},
    {"ol2_write_bytes", Component::core_buffers, "core", &ir::EnergyConfig::ol2_write_pj_per_byte},
    {"read_bytes", Component::l2, "l2", &ir::EnergyConfig::l2_read_pj_per_byte},
    {"write_bytes", Component::l2, "l2", &ir::EnergyConfig::l2_write_pj_per_byte},
    {"read_bytes", Component::wl0, "wl0", &ir::EnergyConfig::wl0_read_pj_per_byte},
    {"write_bytes", Component::wl0, "wl0", &ir::EnergyConfig::wl0_write_pj_per_byte},
    {"noc_byte_hops", Component::noc, "core", &ir::EnergyConfig::noc_pj_per_byte_hop},
    {"dram_bytes", Component::dram, "core", &ir::EnergyConfig::dram_pj_per_byte},
};

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

const char* stat_name(Event e) { return kInfo[static_cast<std::size_t>(e)].name; }
Component component_of(Event e) { return kInfo[static_cast<std::size_t>(e)].component; }
const char* unit_of(Event e) { return kInfo[static_cast<std::size_t>(e)].unit; }

const char* to_string(Component c) {
  switch (c) {
    case Component::mac:
      return "mac";
    case Component::core_buffers:
      return "core_buffers";
    case Component::l2:
      return "l2";
    case Component::wl0:
      return "wl0";
    case Component::noc:
      return "noc";
    case Component::dram:
      return "dram";
    case Component::leakage:
    case Component::kCount:
      break;
  }
  return "static";
}

double Energy::total() const {
  double t = 0;
  for (double x : pj) t += x;
  return t;
}

Energy price(const EventCounts& n, const ir::EnergyConfig& e) {
  Energy out;
  for (std::size_t i = 0; i < kEvents; ++i)
    out.pj[static_cast<std::size_t>(kInfo[i].component)] +=
        static_cast<double>(n[i]) * (e.*kInfo[i].cost);
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
