#pragma once
// Energy (docs/timing-model.md, "Energy"): the events the simulator counts as
// it runs, what each costs (the cost parameter of its row) and the component
// it belongs to: one row each in the tables of energy_table.h. Plain C++;
// the units count events into EventCounts, the report prices them with the
// costs read from the configuration's `energy` section (EnergyCosts).
//
// Events and where they are counted:
//   mac            PE multiply-accumulates of a pe_run: n*k*h*w*cin*r*s
//   vp_op          VP element operations of a vp_run (its lane work)
//   al1_*, ol1_*,  the PE array's internal buffers, from the dataflow of
//   ol2_*          pe_run_events() below
//   l2_read/write  bytes through L2: a pe_run's ifmap (read) and ofmap
//                  (write), a vp_run's operands and result (read: the VP's
//                  traffic is counted at the read cost, the instruction does
//                  not split it), a WL0 fill from L2 (read), a dma_in
//                  (write), a dma_out (read), a noc_send (read at the
//                  sender, written at every receiver)
//   wl0_read/write a pe_run's weights (read once per run: they stream into
//                  the array, which holds them for the run; weights the
//                  run streams from L2 pass through WL0: L2 read, WL0
//                  write and read); a WL0 fill (write)
//   noc_byte_hop   every byte of every packet (data, tokens, requests,
//                  acks) times the router-to-router links it crosses; a
//                  multicast crosses each link of its XY tree once
//   dram_byte      every byte read or written at a DRAM port; a multicast
//                  read once
// Static energy is static_mw_per_core x the run's time, per core.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/hw_config.h"
#include "gemini/sim/compute_timing.h"
#include "gemini/sim/energy_table.h"
#include "gemini/sim/params.h"

namespace gemini::sim {

using EventCounts = std::array<std::int64_t, kEvents>;

// Energy in pJ by component; total() adds them in component order.
struct Energy {
  std::array<double, kComponents> pj{};
  double total() const;
  double operator[](Component c) const { return pj[static_cast<std::size_t>(c)]; }
};
// The costs of the configuration's `energy` section, by event: what the
// report prices with. Read once, before a simulation (Params::energy).
struct EnergyCosts {
  std::array<double, kEvents> pj_per_event{};  // each row's cost parameter
  double static_mw_per_core = 0;               // kStaticCost
};
// Reads `energy` (ir keeps it raw): each event row's cost parameter and
// kStaticCost, declared from the table, numbers in [0, kMaxCost]; a bad
// value or an unknown key is an error naming the component and the
// parameter (params.h). nullopt with one line per problem.
std::optional<EnergyCosts> read_energy_costs(const ir::RawComponent& energy,
                                             ir::ConfigErrors& errors);
// The section's declarations, in table order (gemini sim --list-params).
std::vector<ParamInfo> energy_params();

// The dynamic energy of `n` (static is 0).
Energy price(const EventCounts& n, const EnergyCosts& e);
// Static energy of `cores` cores over `ns` nanoseconds (mW x ns = pJ).
double static_pj(const EnergyCosts& e, std::int64_t cores, double ns);

// The PE array's dataflow: the weights of a pe_run are held in the array for
// the run; each activation read from AL1 feeds the `rows` output channels
// of one row group; the array reduces `lanes` input channels per step and
// writes each partial sum to OL1 once per step, reading it back for the next
// step and once more to move the final sum to OL2, from where it goes to L2.
// Per pe_run, with E = ceil(l2.bitwidth / 8) bytes per element:
//   mac       = n*k*h*w*cin*r*s
//   al1_write = ifmap_bytes                     (the tile, loaded once)
//   al1_read  = n*h*w*cin*r*s * ceil(k/rows) * E
//   ol1_write = n*h*w*k*r*s * ceil(cin/lanes) * E
//   ol1_read  = ol1_write + n*h*w*k * E
//   ol2_write = ol2_read = ofmap_bytes
//   l2_read   = ifmap_bytes, l2_write = ofmap_bytes
//   weights streamed from L2 (weight_bytes > 0): l2_read, wl0_write and
//   wl0_read += weight_bytes; held in WL0 (weight_bytes = 0): wl0_read +=
//   k*cin*r*s * E
void pe_run_events(const ir::HardwareConfig& hw, const PeTile& t, EventCounts& n);

}  // namespace gemini::sim
