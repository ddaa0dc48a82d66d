#include "gemini/sim/energy.h"

namespace gemini::sim {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

double read_cost(ParamReader& r, const CostParam& c) {
  return r.param<double>(c.key)
      .unit(c.unit)
      .range(0, kMaxCost)
      .fallback(c.fallback)
      .describe(c.description)
      .get();
}

// Every cost parameter, declared from the table's rows, in their order.
EnergyCosts read_costs(ParamReader& r) {
  EnergyCosts e;
  for (std::size_t i = 0; i < kEvents; ++i)
    if (kEventTable[i].cost.key) e.pj_per_event[i] = read_cost(r, kEventTable[i].cost);
  e.static_mw_per_core = read_cost(r, kStaticCost);
  return e;
}

}  // namespace

std::optional<EnergyCosts> read_energy_costs(const ir::RawComponent& energy,
                                             ir::ConfigErrors& errors) {
  const std::size_t before = errors.size();
  ParamReader r(energy, "energy", errors);
  const EnergyCosts e = read_costs(r);
  r.finish();
  if (errors.size() != before) return std::nullopt;
  return e;
}

std::vector<ParamInfo> energy_params() {
  ParamReader r("energy");
  read_costs(r);
  return r.declared();
}

double Energy::total() const {
  double t = 0;
  for (double x : pj) t += x;
  return t;
}

Energy price(const EventCounts& n, const EnergyCosts& e) {
  Energy out;
  for (std::size_t i = 0; i < kEvents; ++i)
    out.pj[static_cast<std::size_t>(kEventTable[i].component)] +=
        static_cast<double>(n[i]) * e.pj_per_event[i];
  return out;
}

double static_pj(const EnergyCosts& e, std::int64_t cores, double ns) {
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
