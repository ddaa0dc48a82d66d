// The `chiplets` section and the D2D interface registry (chiplets.h).
#include "gemini/sim/chiplets.h"

#include <cmath>

namespace gemini::sim {

// The built-in interfaces, each defined in its own file.
D2dInterfaceInfo xsr_d2d_interface();   // d2d_xsr.cpp
D2dInterfaceInfo usr_d2d_interface();   // d2d_usr.cpp
D2dInterfaceInfo ucie_d2d_interface();  // d2d_ucie.cpp

std::int64_t D2dInterface::lanes(double gbps) const {
  if (lane_gbps <= 0) return 0;
  return static_cast<std::int64_t>(std::ceil(gbps * 8.0 / lane_gbps - 1e-9));
}

double read_pj_per_byte(ParamReader& r, double fallback, const std::string& elsewhere) {
  return r.param<double>("pj_per_byte")
      .unit(Unit::pj_per_byte)
      .range(0, 1e6)
      .fallback(fallback)
      .describe("energy per byte per D2D link crossed (" + elsewhere + ")")
      .get();
}

double read_phy_um2_per_gbps(ParamReader& r, double fallback, const std::string& elsewhere) {
  return r.param<double>("phy_um2_per_gbps")
      .unit(Unit::um2_per_gbps)
      .range(0, 1e9)
      .fallback(fallback)
      .describe("PHY area per GB/s of link (" + elsewhere + ")")
      .get();
}

ModelRegistry<D2dInterfaceInfo>& d2d_interfaces() {
  static ModelRegistry<D2dInterfaceInfo> r(
      "D2D interface", {xsr_d2d_interface(), usr_d2d_interface(), ucie_d2d_interface()});
  return r;
}

namespace {

// The section's own parameters, the interface first; false when the
// interface is not a registered name (already reported).
bool read_own(ParamReader& r, ChipletSetup& s, std::string& interface) {
  const std::size_t before = r.error_count();
  interface = r.param<std::string>("interface")
                  .choices(d2d_interfaces().names())
                  .fallback("XSR")
                  .describe("the D2D interface: its energy and PHY area (below)")
                  .get();
  const bool ok = r.error_count() == before;
  s.x_cut = r.param<std::int32_t>("x_cut")
                .unit(Unit::dies)
                .range(1, 1024)
                .fallback(1)
                .describe("dies across the mesh's columns (it must divide xlen)")
                .get();
  s.y_cut = r.param<std::int32_t>("y_cut")
                .unit(Unit::dies)
                .range(1, 1024)
                .fallback(1)
                .describe("dies across the mesh's rows (it must divide ylen)")
                .get();
  s.d2d_gbps = r.param<double>("d2d_gbps")
                   .unit(Unit::gbps)
                   .range(1e-3, 1e6)
                   .fallback(16.0)
                   .describe("a D2D link's bandwidth, per direction")
                   .get();
  s.d2d_latency_ns = r.param<double>("d2d_latency_ns")
                         .unit(Unit::nanoseconds)
                         .range(0, 1e6)
                         .fallback(0.0)
                         .describe("a packet header's flight over one D2D link, beyond a router's")
                         .get();
  return ok;
}

}  // namespace

std::optional<ChipletSetup> read_chiplet_setup(const ir::RawComponent& chiplets,
                                               ir::ConfigErrors& errors) {
  const std::size_t before = errors.size();
  ParamReader r(chiplets, "chiplets", errors);
  ChipletSetup s;
  std::string name;
  if (!read_own(r, s, name)) return std::nullopt;
  s.interface = d2d_interfaces().configure(r, "chiplets", name);
  s.interface.name = name;
  if (errors.size() != before) return std::nullopt;
  return s;
}

std::vector<ParamInfo> chiplet_params() {
  ChipletSetup s;
  std::string name;
  ParamReader own("chiplets");
  read_own(own, s, name);
  return d2d_interfaces().params(own.declared(), "chiplets");
}

bool check_cut(const ChipletSetup& c, std::int32_t xlen, std::int32_t ylen, std::string& error) {
  auto bad = [&](const char* key, std::int32_t cut, std::int32_t len, const char* what) {
    error = std::string("chiplets.") + key + " = " + std::to_string(cut) +
            " does not divide the mesh's " + std::to_string(len) + " " + what + " into equal dies";
    return false;
  };
  if (xlen % c.x_cut != 0) return bad("x_cut", c.x_cut, xlen, "columns");
  if (ylen % c.y_cut != 0) return bad("y_cut", c.y_cut, ylen, "rows");
  return true;
}

}  // namespace gemini::sim
