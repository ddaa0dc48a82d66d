// The `silicon` section and the area model (silicon.h, docs/silicon.md).
// The figures are the Gemini scheduler's (GEMINI-HPCA2024 src/main.cpp,
// "DIE AREA", and the tech / IO_type / DDR_type branches before it).
#include "gemini/sim/silicon.h"

#include <array>
#include <cmath>

namespace gemini::sim {
namespace {

// The process nodes of the scheduler's cost tables (src/cost.cpp).
struct Node {
  int nm;
  double defect_per_cm2;
  double wafer_usd;
};
constexpr std::array<Node, 9> kNodes{{{3, 0.2, 30000},
                                      {5, 0.11, 16988},
                                      {7, 0.09, 9346},
                                      {12, 0.08, 5992},
                                      {14, 0.08, 3984},
                                      {20, 0.07, 3677},
                                      {28, 0.07, 2891},
                                      {40, 0.07, 2274},
                                      {55, 0.07, 1937}}};

const Node* find_node(int nm) {
  for (const Node& n : kNodes)
    if (n.nm == nm) return &n;
  return nullptr;
}

// The scheduler's density scale by node (main.cpp: "7" -> 0.7, "12" -> 1);
// 0 where it gives none.
double default_area_scale(int nm) { return nm == 12 ? 1.0 : nm == 7 ? 0.7 : 0.0; }

constexpr double kMaxArea = 1e12;  // µm² per unit: a generous bound

// The node, the package and the DRAM type, which the defaults below follow.
void read_choices(ParamReader& r, SiliconParams& p) {
  const std::size_t before = r.error_count();
  p.process_nm = r.param<int>("process_nm")
                     .unit(Unit::nanometres)
                     .range(3, 55)
                     .fallback(12)
                     .describe(
                         "process node: 3, 5, 7, 12, 14, 20, 28, 40 or 55 (wafer cost and "
                         "defect density; area_scale at 7 and 12)")
                     .get();
  if (r.error_count() == before && !find_node(p.process_nm)) {
    r.fail("process_nm",
           "expected one of 3, 5, 7, 12, 14, 20, 28, 40, 55, got " + std::to_string(p.process_nm));
    p.process_nm = 12;
  }
  p.package = r.param<std::string>("package")
                  .choices({"OS", "FO", "SI"})
                  .fallback("OS")
                  .describe("organic substrate, fan-out RDL or silicon interposer")
                  .get();
  p.dram_type = r.param<std::string>("dram_type")
                    .choices({"GDDR6X", "HBM"})
                    .fallback("GDDR6X")
                    .describe("the DRAM: its PHY area on the IO die and its price")
                    .get();
}

double read_area(ParamReader& r, const char* key, Unit unit, double fallback, const char* what) {
  return r.param<double>(key).unit(unit).range(0, kMaxArea).fallback(fallback).describe(what).get();
}

void read_area_params(ParamReader& r, const boost::json::object* section, SiliconParams& p) {
  const double scale = default_area_scale(p.process_nm);
  p.area_scale = r.param<double>("area_scale")
                     .unit(Unit::ratio)
                     .range(1e-3, 100)
                     .fallback(scale > 0 ? scale : 1)
                     .describe(
                         "factor on the SRAM, MAC and NoC densities (default 1 at 12 nm, "
                         "0.7 at 7 nm; other nodes must give it)")
                     .get();
  if (scale == 0 && section && !section->contains("area_scale"))
    r.fail("area_scale", "process_nm " + std::to_string(p.process_nm) +
                             " has no default (the scheduler scales 12 nm by 1 and 7 nm by "
                             "0.7): give area_scale");
  p.sram_um2_per_bit = read_area(r, "sram_um2_per_bit", Unit::um2_per_bit, 0.0964,
                                 "SRAM area per bit at 12 nm (times area_scale)");
  p.mac_um2 = read_area(r, "mac_um2", Unit::um2, 57.9, "one 8-bit MAC at 12 nm (times area_scale)");
  p.lr_mac_area_ratio = r.param<double>("lr_mac_area_ratio")
                            .unit(Unit::ratio)
                            .range(0, 1e3)
                            .fallback(8)
                            .describe(
                                "an FP16 low-rate MAC's area in 8-bit MACs (rows*cols of "
                                "them per core)")
                            .get();
  p.noc_um2_per_gbps =
      read_area(r, "noc_um2_per_gbps", Unit::um2_per_gbps, 16781.312,
                "a core's router per GB/s of NoC link at 12 nm (times area_scale)");
  p.post_layout_scale = r.param<double>("post_layout_scale")
                            .unit(Unit::ratio)
                            .range(1e-3, 100)
                            .fallback(2.2)
                            .describe("post-layout factor on a core's synthesized area")
                            .get();
  p.control_unit_factor = r.param<double>("control_unit_factor")
                              .unit(Unit::ratio)
                              .range(1, 100)
                              .fallback(1.05)
                              .describe("factor on every die's area for its control unit")
                              .get();
  p.dft_factor = r.param<double>("dft_factor")
                     .unit(Unit::ratio)
                     .range(1, 100)
                     .fallback(1.05)
                     .describe("factor on every die's area for design-for-test")
                     .get();
  const bool hbm = p.dram_type == "HBM";
  p.dram_phy_um2_per_gbps =
      read_area(r, "dram_phy_um2_per_gbps", Unit::um2_per_gbps, hbm ? 613 : 204187,
                "DRAM PHY on the IO die per GB/s of DRAM (GDDR6X 204187, "
                "HBM 613; not scaled)");
  p.pcie_um2_per_gbps = read_area(r, "pcie_um2_per_gbps", Unit::um2_per_gbps, 3e6 / 128,
                                  "PCIe on the IO die per GB/s of DRAM (not scaled)");
  p.dram_usd_per_gbps = r.param<double>("dram_usd_per_gbps")
                            .unit(Unit::usd_per_gbps)
                            .range(0, 1e6)
                            .fallback(hbm ? 320.0 / 819 : 3.5 / 32)
                            .describe("DRAM price per GB/s (GDDR6X 3.5/32, HBM 320/819)")
                            .get();
}

double read_number(ParamReader& r, const char* key, Unit unit, double lo, double hi,
                   double fallback, const char* what) {
  return r.param<double>(key).unit(unit).range(lo, hi).fallback(fallback).describe(what).get();
}

void read_wafer_params(ParamReader& r, SiliconParams& p) {
  const Node& n = *find_node(p.process_nm);
  p.wafer_usd = read_number(r, "wafer_usd", Unit::usd, 0, 1e9, n.wafer_usd,
                            "a processed wafer (default by process_nm)");
  p.defect_per_cm2 = read_number(r, "defect_per_cm2", Unit::per_cm2, 0, 100, n.defect_per_cm2,
                                 "defect density of the dies (default by process_nm)");
  p.wafer_diameter_mm =
      read_number(r, "wafer_diameter_mm", Unit::millimetres, 10, 1000, 300, "wafer diameter");
  p.scribe_lane_mm =
      read_number(r, "scribe_lane_mm", Unit::millimetres, 0, 10, 0.2, "scribe lane around a die");
  p.edge_loss_mm =
      read_number(r, "edge_loss_mm", Unit::millimetres, 0, 100, 5, "unusable wafer rim");
  if (p.edge_loss_mm * 2 >= p.wafer_diameter_mm)
    r.fail("edge_loss_mm", "the rim leaves no wafer: must be below half of wafer_diameter_mm");
  p.critical_level = read_number(r, "critical_level", Unit::ratio, 0.1, 1000, 10,
                                 "clustering parameter of the dies' negative-binomial yield");
}

void read_package_params(ParamReader& r, SiliconParams& p) {
  p.os_area_factor = read_number(r, "os_area_factor", Unit::ratio, 1, 100, 4,
                                 "substrate area / the dies' (or the interposer's) area");
  p.os_usd_per_mm2 = read_number(r, "os_usd_per_mm2", Unit::usd_per_mm2, 0, 1e3, 0.005,
                                 "organic substrate price (times 1, 1.5, 1.75 or 2 by size)");
  p.c4_bump_usd_per_mm2 = read_number(r, "c4_bump_usd_per_mm2", Unit::usd_per_mm2, 0, 1e3, 0.005,
                                      "C4 bumps, per mm² of die (OS) or interposer (FO, SI)");
  p.os_bonding_yield = read_number(r, "os_bonding_yield", Unit::fraction, 1e-3, 1, 0.99,
                                   "yield of bonding one die (OS) or the interposer (FO, SI)");
  p.u_bump_usd_per_mm2 = read_number(r, "u_bump_usd_per_mm2", Unit::usd_per_mm2, 0, 1e3, 0.01,
                                     "micro bumps per mm² of die (FO, SI)");
  p.rdl_wafer_usd = read_number(r, "rdl_wafer_usd", Unit::usd, 0, 1e9, 1200, "FO: an RDL wafer");
  p.rdl_defect_per_cm2 =
      read_number(r, "rdl_defect_per_cm2", Unit::per_cm2, 0, 100, 0.05, "FO: RDL defect density");
  p.rdl_area_factor =
      read_number(r, "rdl_area_factor", Unit::ratio, 1, 100, 1.2, "FO: RDL area / the dies' area");
  p.rdl_critical_level = read_number(r, "rdl_critical_level", Unit::ratio, 0.1, 1000, 3,
                                     "FO: clustering parameter of the RDL yield");
  p.rdl_bonding_yield = read_number(r, "rdl_bonding_yield", Unit::fraction, 1e-3, 1, 0.98,
                                    "FO: yield of bonding one die");
  p.si_wafer_usd = read_number(r, "si_wafer_usd", Unit::usd, 0, 1e9, 1937,
                               "SI: an interposer wafer (a 55 nm wafer)");
  p.si_defect_per_cm2 = read_number(r, "si_defect_per_cm2", Unit::per_cm2, 0, 100, 0.06,
                                    "SI: interposer defect density");
  p.si_area_factor = read_number(r, "si_area_factor", Unit::ratio, 1, 100, 1.1,
                                 "SI: interposer area / the dies' area");
  p.si_critical_level = read_number(r, "si_critical_level", Unit::ratio, 0.1, 1000, 6,
                                    "SI: clustering parameter of the interposer yield");
  p.si_bonding_yield = read_number(r, "si_bonding_yield", Unit::fraction, 1e-3, 1, 0.95,
                                   "SI: yield of bonding one die");
}

SiliconParams read_all(ParamReader& r, const boost::json::object* section) {
  SiliconParams p;
  read_choices(r, p);
  read_area_params(r, section, p);
  read_wafer_params(r, p);
  read_package_params(r, p);
  return p;
}

}  // namespace

std::optional<SiliconParams> read_silicon_params(const ir::RawComponent& silicon,
                                                 ir::ConfigErrors& errors) {
  const std::size_t before = errors.size();
  ParamReader r(silicon, "silicon", errors);
  const SiliconParams p = read_all(r, &silicon.json);
  r.finish();
  if (errors.size() != before) return std::nullopt;
  return p;
}

std::vector<ParamInfo> silicon_params() {
  ParamReader r("silicon");
  read_all(r, nullptr);
  return r.declared();
}

std::optional<double> scheduler_d2d_phy_um2_per_gbps(const std::string& interface, int process_nm,
                                                     const std::string& package) {
  // main.cpp, IO_type: a PHY macro's area over its GB/s. The 7 nm XSR/USR
  // and the UCIe quotients are integer divisions there: kept truncated.
  const double serdes_12nm = 960.816 * 1339.008;
  if (interface == "XSR" || interface == "USR") {
    const double lane_gbps = interface == "XSR" ? 112 : 56;
    if (process_nm == 12) return serdes_12nm / lane_gbps;
    if (process_nm == 7) return std::trunc(1020.0 * 1060 / lane_gbps);
    return std::nullopt;
  }
  if (interface == "UCIe") {
    if (package == "OS") return std::trunc(1e6 / 145);
    if (package == "FO") return std::trunc(1e6 / 631);
    if (package == "SI") return std::trunc(1e6 / 947);
  }
  return std::nullopt;
}

double core_area_um2(const SiliconParams& p, const SiliconInputs& in) {
  // main.cpp: al1 = V KiB, wl1 = 4*V*L/64 KiB, ol1 = 2*L/8 KiB (integer
  // KiB arithmetic there), 16 copies of the L1 set, plus the L2.
  const std::int64_t v = in.pe_rows, l = in.pe_cols;
  const std::int64_t l1_bytes = (v + 4 * l * v / 64 + 2 * l / 8) * 1024;
  const double sram_bits = static_cast<double>(in.l2_bytes + l1_bytes * 16) * 8;
  const double sram = sram_bits * p.sram_um2_per_bit * p.area_scale;
  const double mac = p.mac_um2 * p.area_scale;
  const double macs = static_cast<double>(in.pe_lanes * v * l) * mac +
                      static_cast<double>(v * l) * mac * p.lr_mac_area_ratio;
  const double noc = in.noc_link_gbps * p.noc_um2_per_gbps * p.area_scale;
  return (sram + macs + noc) * p.post_layout_scale;
}

double compute_die_mm2(const SiliconParams& p, const SiliconInputs& in) {
  const std::int32_t dies = in.x_cut * in.y_cut;
  const double x_step = static_cast<double>(in.xlen) / in.x_cut;
  const double y_step = static_cast<double>(in.ylen) / in.y_cut;
  // PHYs per GB/s of D2D link, by the cores along the die's cut edges: two
  // dies share the one edge across the cut, and every die of three or more
  // carries them on all four sides (one die design for all positions).
  double edge_cores = 0;
  if (dies == 2) edge_cores = 2 * (in.x_cut == 2 ? y_step : x_step);
  if (dies > 2) edge_cores = 2 * x_step + 2 * y_step;
  const double d2d = edge_cores * in.d2d_phy_um2_per_gbps * in.d2d_gbps;
  const double um2 = core_area_um2(p, in) * x_step * y_step + d2d;
  return um2 * p.control_unit_factor * p.dft_factor / 1e6;
}

double io_die_mm2(const SiliconParams& p, const SiliconInputs& in) {
  const bool chiplets = in.x_cut * in.y_cut > 1;
  const double d2d = chiplets ? in.d2d_phy_um2_per_gbps * in.d2d_gbps * in.ylen * 2 : 0;
  const double um2 = in.dram_gbps * (p.dram_phy_um2_per_gbps + p.pcie_um2_per_gbps) + d2d;
  return um2 * p.control_unit_factor * p.dft_factor / 1e6;
}

}  // namespace gemini::sim
