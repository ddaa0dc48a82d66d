#pragma once
// Chiplets (docs/chiplets.md): the `chiplets` section of a hardware
// configuration. The xlen x ylen mesh is cut into x_cut x y_cut equal
// compute dies; a NoC link between two dies is a die-to-die (D2D) link with
// its own bandwidth (d2d_gbps, its serialisation), latency and energy, and
// with `dram.placement` "io_die" the DRAM ports sit on an IO die whose links
// into a cut mesh are D2D links too. x_cut = y_cut = 1 (or no section) is
// one monolithic die: nothing changes.
//
// The D2D interface (`chiplets.interface`) is a registered model with its
// own parameters: it prices the D2D links' energy -- per byte per D2D link
// crossed (parallel interfaces: USR, UCIe), and/or the static power of the
// SerDes lanes, burnt for as long as the system runs (XSR) -- and states its
// PHY area per GB/s for the silicon model (silicon.h).
//
// Contract: read_chiplet_setup reads and checks the section (every value
// through ParamReader, errors naming the parameter and the interface);
// check_cut says whether the cut divides a mesh, naming the parameter.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/hw_config.h"
#include "gemini/sim/model_registry.h"
#include "gemini/sim/params.h"

namespace gemini::sim {

// A D2D interface's figures, as its parameters give them.
struct D2dInterface {
  std::string name;
  double pj_per_byte = 0;       // per byte per D2D link crossed
  double lane_gbps = 0;         // a SerDes lane's rate, Gbit/s (0: no lanes)
  double lane_mw = 0;           // a lane's power while the system runs
  double phy_um2_per_gbps = 0;  // PHY area per GB/s of link, one end

  // SerDes lanes one direction of a link of `gbps` GB/s needs:
  // ceil(gbps * 8 / lane_gbps); 0 without lanes.
  std::int64_t lanes(double gbps) const;
};

// A registered interface: `configure` declares and reads its parameters.
struct D2dInterfaceInfo {
  std::string name;
  std::string description;  // one line, for listings
  D2dInterface (*configure)(ParamReader& r) = nullptr;
};

// The two parameters every interface declares, each declared here once,
// with the interface's default (`fallback`): its energy per byte per D2D
// link crossed, and its PHY area per GB/s (the built-ins: the scheduler's
// at 12 nm on an organic substrate, scheduler_d2d_phy_um2_per_gbps in
// silicon.h). `elsewhere` gives the values at other process nodes or
// packages, for the description.
double read_pj_per_byte(ParamReader& r, double fallback, const std::string& elsewhere);
double read_phy_um2_per_gbps(ParamReader& r, double fallback, const std::string& elsewhere);

// The registry (built-ins: XSR, USR, UCIe, each in its own file).
ModelRegistry<D2dInterfaceInfo>& d2d_interfaces();

// The section read.
struct ChipletSetup {
  std::int32_t x_cut = 1, y_cut = 1;
  double d2d_gbps = 16;       // per D2D link and direction
  double d2d_latency_ns = 0;  // a packet header's flight over one D2D link
  D2dInterface interface;

  bool cut() const { return x_cut * y_cut > 1; }
  std::int32_t dies() const { return x_cut * y_cut; }
};

// Reads and checks the `chiplets` component ir keeps raw; nullopt with one
// error per problem ("file:pointer: message").
std::optional<ChipletSetup> read_chiplet_setup(const ir::RawComponent& chiplets,
                                               std::vector<std::string>& errors);
// Every declared parameter: the section's own, then each interface's.
std::vector<ParamInfo> chiplet_params();
// Whether the cut divides an xlen x ylen mesh; otherwise false with `error`
// naming the parameter ("chiplets.x_cut = 3 does not divide the mesh's 4
// columns").
bool check_cut(const ChipletSetup& c, std::int32_t xlen, std::int32_t ylen, std::string& error);

}  // namespace gemini::sim
