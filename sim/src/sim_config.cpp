#include "gemini/sim/sim_config.h"

#include "gemini/sim/chiplets.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/energy.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/silicon.h"

namespace gemini::sim {

std::optional<SimSections> read_sim_sections(const ir::HardwareConfig& hw,
                                             ir::ConfigErrors& errors) {
  const std::size_t before = errors.size();
  std::optional<DramSetup> dram = read_dram_setup(hw.dram.raw, errors);
  std::optional<NocSetup> noc = read_noc_setup(hw.noc.raw, errors);
  std::optional<EnergyCosts> energy = read_energy_costs(hw.energy, errors);
  std::optional<ChipletSetup> chiplets = read_chiplet_setup(hw.chiplets, errors);
  std::optional<SiliconParams> silicon;
  if (!hw.silicon.json.empty()) silicon = read_silicon_params(hw.silicon, errors);
  std::string error;
  if (chiplets && hw.mesh.xlen > 0 && hw.mesh.ylen > 0 &&
      !check_cut(*chiplets, hw.mesh.xlen, hw.mesh.ylen, error))
    ir::config_error(errors, hw.chiplets.origin, "/chiplets", error);
  if (errors.size() != before || !dram || !noc || !energy || !chiplets) return std::nullopt;
  return SimSections{std::move(*dram), std::move(*noc), *energy, std::move(*chiplets),
                     std::move(silicon)};
}

bool check_hw_config(const ir::HardwareConfig& hw, ir::ConfigErrors& errors) {
  return read_sim_sections(hw, errors).has_value();
}

std::optional<ir::HardwareConfig> load_hw_config(const std::string& path,
                                                 ir::ConfigErrors& errors) {
  auto hw = ir::load_hw_config(path, errors);
  if (hw && !check_hw_config(*hw, errors)) return std::nullopt;
  return hw;
}

std::optional<ir::HardwareConfig> parse_hw_config(const std::string& text,
                                                  const std::string& origin,
                                                  ir::ConfigErrors& errors) {
  auto hw = ir::parse_hw_config(text, origin, errors);
  if (hw && !check_hw_config(*hw, errors)) return std::nullopt;
  return hw;
}

namespace {

void print_param(std::ostream& os, const ParamInfo& p) {
  os << "  " << p.name << "  " << p.type;
  if (!p.range.empty()) os << " " << p.range;
  if (p.unit != Unit::none) os << ", " << to_string(p.unit);
  os << ", default " << p.fallback << ": " << p.description << "\n";
}

// One component's parameters: its own, then each model's under a heading.
template <typename Info>
void print_component(std::ostream& os, const std::string& component, const std::string& kind,
                     const std::vector<ParamInfo>& params, const std::vector<Info>& models) {
  os << component << ":\n";
  for (const ParamInfo& p : params)
    if (p.model.empty()) print_param(os, p);
  for (const Info& m : models) {
    os << component << ", " << kind << " \"" << m.name << "\": " << m.description << "\n";
    for (const ParamInfo& p : params)
      if (p.model == m.name) print_param(os, p);
  }
}

}  // namespace

void print_params(std::ostream& os) {
  // ir's own components (hw_config.h), then the simulator's sections.
  for (const auto& [component, params] : ir::hw_config_params()) {
    os << (component.empty() ? std::string("(top level)") : component) << ":\n";
    for (const ParamInfo& p : params) print_param(os, p);
  }
  print_component(os, "dram", "DRAM model", dram_params(), dram_models());
  print_component(os, "noc", "NoC model", noc_params(), noc_models());
  os << "energy:\n";  // one cost per row of the energy table, no models
  for (const ParamInfo& p : energy_params()) print_param(os, p);
  print_component(os, "chiplets", "D2D interface", chiplet_params(), d2d_interfaces().models());
  os << "silicon:\n";
  for (const ParamInfo& p : silicon_params()) print_param(os, p);
}

}  // namespace gemini::sim
