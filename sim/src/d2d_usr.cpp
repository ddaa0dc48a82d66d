// The USR D2D interface: an ultra-short-reach parallel link (chiplets.h),
// priced per byte per D2D link crossed. Defaults: 2.4 pJ/bit in 12 nm (the
// Gemini scheduler's src/main.cpp, 66f7314; 1.7 pJ/bit in 7 nm), PHY
// 960.816 x 1339.008 um^2 per 56 Gbit/s.
#include "gemini/sim/chiplets.h"
#include "gemini/sim/silicon.h"

namespace gemini::sim {
namespace {

D2dInterface configure(ParamReader& r) {
  D2dInterface d;
  d.pj_per_byte = read_pj_per_byte(r, 2.4 * 8, "12 nm; 7 nm: 13.6");
  d.phy_um2_per_gbps =
      read_phy_um2_per_gbps(r, scheduler_d2d_phy_um2_per_gbps("USR", 12, "OS").value_or(0.0),
                            "12 nm; 7 nm: 1020 x 1060 / 56");
  return d;
}

}  // namespace

D2dInterfaceInfo usr_d2d_interface() {
  return {"USR", "ultra-short-reach parallel links: energy per byte and link", configure};
}

}  // namespace gemini::sim
