#pragma once
// The hardware configuration as the simulator takes it: ir's reading
// (ir::parse_hw_config) and the simulator's own components, `dram` (the
// ports and the DRAM model), `noc` (the NoC model) and `energy` (the energy
// table's costs), read and checked with their declarations (params.h,
// dram_model.h, noc_model.h, energy_table.h). Every gemini command loads
// configurations through these, so a bad DRAM, NoC or energy parameter is
// an error before anything runs, worded as ir's are:
//   configs/x.json:/dram/queue_depth: parameter "queue_depth" of component
//   "dram": does not apply to DRAM model "simple" (only to banked); it has: ...

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gemini/ir/hw_config.h"
#include "gemini/sim/chiplets.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/energy.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/silicon.h"

namespace gemini::sim {

// As ir::load_hw_config / ir::parse_hw_config, then check_hw_config.
std::optional<ir::HardwareConfig> load_hw_config(const std::string& path,
                                                 std::vector<std::string>& errors);
std::optional<ir::HardwareConfig> parse_hw_config(const std::string& text,
                                                  const std::string& origin,
                                                  std::vector<std::string>& errors);
// The simulator's sections of a configuration, each read and checked by
// its one reader: the DRAM ports and model, the NoC and its model, the
// energy costs, the chiplet cut and D2D interface, and the silicon model
// when the configuration has one. nullopt with one line per problem
// ("file:pointer: message"); a cut that does not divide the mesh is one
// when the configuration gives the mesh (simulate() checks it again on
// the IR's mesh).
struct SimSections {
  DramSetup dram;
  NocSetup noc;
  EnergyCosts energy;
  ChipletSetup chiplets;
  std::optional<SiliconParams> silicon;
};
std::optional<SimSections> read_sim_sections(const ir::HardwareConfig& hw,
                                             std::vector<std::string>& errors);
// read_sim_sections(hw, errors) has a value.
bool check_hw_config(const ir::HardwareConfig& hw, std::vector<std::string>& errors);

// Every parameter the `dram` and `noc` components and their models declare,
// then the `energy` costs, one line each under a heading per component and
// model (gemini sim --list-params).
void print_params(std::ostream& os);

}  // namespace gemini::sim
