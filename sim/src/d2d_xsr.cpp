// The XSR D2D interface: SerDes lanes (chiplets.h). Each direction of a D2D
// link runs ceil(d2d_gbps * 8 / lane_gbps) lanes, each burning lane_mw for
// as long as the system runs, whatever crosses it (a SerDes keeps its
// clock-data recovery locked); no energy per byte beyond that. Defaults:
// 112 Gbit/s XSR lanes at 97.44 mW in 12 nm (the Gemini scheduler's
// src/main.cpp, 66f7314), PHY 960.816 x 1339.008 um^2 per 112 Gbit/s lane.
#include "gemini/sim/chiplets.h"
#include "gemini/sim/silicon.h"

namespace gemini::sim {
namespace {

D2dInterface configure(ParamReader& r) {
  D2dInterface d;
  d.lane_gbps = r.param<double>("lane_gbps")
                    .unit(Unit::gbit_per_s)
                    .range(1e-3, 1e6)
                    .fallback(112.0)
                    .describe("one SerDes lane's rate")
                    .get();
  d.lane_mw = r.param<double>("lane_mw")
                  .unit(Unit::milliwatts)
                  .range(0, 1e6)
                  .fallback(97.44)
                  .describe("one lane's power, for the whole run (12 nm; 7 nm: 69.6)")
                  .get();
  d.pj_per_byte = read_pj_per_byte(r, 0.0, "beyond the lanes' power");
  d.phy_um2_per_gbps =
      read_phy_um2_per_gbps(r, scheduler_d2d_phy_um2_per_gbps("XSR", 12, "OS").value_or(0.0),
                            "12 nm; 7 nm: 1020 x 1060 / 112");
  return d;
}

}  // namespace

D2dInterfaceInfo xsr_d2d_interface() {
  return {"XSR", "extra-short-reach SerDes lanes: static power for the whole run", configure};
}

}  // namespace gemini::sim
