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
  d.pj_per_byte = r.param<double>("pj_per_byte")
                      .unit("pJ/byte")
                      .range(0, 1e6)
                      .fallback(2.4 * 8)
                      .describe("energy per byte per D2D link crossed (12 nm; 7 nm: 13.6)")
                      .get();
  d.phy_um2_per_gbps = r.param<double>("phy_um2_per_gbps")
                           .unit("um^2/(GB/s)")
                           .range(0, 1e9)
                           .fallback(*scheduler_d2d_phy_um2_per_gbps("USR", 12, "OS"))
                           .describe("PHY area per GB/s of link (12 nm; 7 nm: 1020 x 1060 / 56)")
                           .get();
  return d;
}

}  // namespace

D2dInterfaceInfo usr_d2d_interface() {
  return {"USR", "ultra-short-reach parallel links: energy per byte and link", configure};
}

}  // namespace gemini::sim
