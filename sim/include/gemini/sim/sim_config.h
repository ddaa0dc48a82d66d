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

namespace gemini::sim {

// As ir::load_hw_config / ir::parse_hw_config, then check_hw_config.
std::optional<ir::HardwareConfig> load_hw_config(const std::string& path,
                                                 std::vector<std::string>& errors);
std::optional<ir::HardwareConfig> parse_hw_config(const std::string& text,
                                                  const std::string& origin,
                                                  std::vector<std::string>& errors);
// Reads the `dram`, `noc` and `energy` components ir keeps raw; false with one line
// per problem ("file:pointer: message"). simulate() checks them too.
bool check_hw_config(const ir::HardwareConfig& hw, std::vector<std::string>& errors);

// Every parameter the `dram` and `noc` components and their models declare,
// then the `energy` costs, one line each under a heading per component and
// model (gemini sim --list-params).
void print_params(std::ostream& os);

}  // namespace gemini::sim
