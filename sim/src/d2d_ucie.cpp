// The UCIe D2D interface (chiplets.h), priced per byte per D2D link
// crossed. Defaults are the standard package's (organic substrate): 1
// pJ/bit and 145 GB/s per mm^2 of PHY (the Gemini scheduler's src/main.cpp,
// 66f7314; advanced packages: fan-out 0.6 pJ/bit and 631 GB/s/mm^2,
// silicon interposer 0.3 pJ/bit and 947 GB/s/mm^2).
#include "gemini/sim/chiplets.h"
#include "gemini/sim/silicon.h"

namespace gemini::sim {
namespace {

D2dInterface configure(ParamReader& r) {
  D2dInterface d;
  d.pj_per_byte = read_pj_per_byte(r, 1.0 * 8, "OS; FO 4.8, SI 2.4");
  d.phy_um2_per_gbps =
      read_phy_um2_per_gbps(r, scheduler_d2d_phy_um2_per_gbps("UCIe", 12, "OS").value_or(0.0),
                            "OS; FO 1e6/631, SI 1e6/947");
  return d;
}

}  // namespace

D2dInterfaceInfo ucie_d2d_interface() {
  return {"UCIe", "Universal Chiplet Interconnect Express: energy per byte and link", configure};
}

}  // namespace gemini::sim
