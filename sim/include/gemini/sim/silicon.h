#pragma once
// The silicon's area and monetary cost (docs/silicon.md): the area of a core,
// of a compute die (a chiplet: x_step x y_step cores plus its die-to-die
// PHYs) and of the IO die (DRAM PHYs, PCIe, the PHYs facing the compute
// dies), and what the dies, their package and the DRAM cost in USD. Plain
// functions of plain values: the `silicon` section's parameters
// (SiliconParams, read once with read_silicon_params) and what the rest of
// the configuration says (SiliconInputs). The formulas are the Gemini
// scheduler's (GEMINI-HPCA2024, src/main.cpp "DIE AREA" / "COST CALC" and
// src/cost.cpp); docs/silicon.md gives each with its source and the few
// places where we differ.
//
// Units: areas in µm² inside the area model, mm² in every result; bandwidths
// in GB/s; money in USD; defect densities per cm².

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/hw_config.h"
#include "gemini/sim/params.h"

namespace gemini::sim {

// What the rest of the configuration says. Bandwidths are widths: bytes per
// core cycle, i.e. GB/s at 1 GHz (the scheduler's unit: a router's and a
// PHY's area follow how many bytes they move per cycle; at 1.3 GHz a 41.6
// GB/s link is 32). Preconditions: every count >= 1,
// x_cut divides xlen and y_cut divides ylen, bandwidths >= 0.
struct SiliconInputs {
  std::int32_t xlen = 1, ylen = 1, x_cut = 1, y_cut = 1;  // the mesh, its cuts
  std::int32_t pe_rows = 8, pe_cols = 8, pe_lanes = 16;   // MACs = rows*cols*lanes
  std::int64_t l2_bytes = 1 << 20;                        // per core
  // Bytes per cycle (no defaults: the run's models give them): a NoC link's
  // (NocModel::peak_link_gbps), a D2D link's, the whole mesh's DRAM.
  double noc_link_gbps = 0, d2d_gbps = 0, dram_gbps = 0;
  double d2d_phy_um2_per_gbps = 0;  // the chosen D2D interface's PHY area
};

// The `silicon` section. Densities are the 12 nm values, multiplied by
// area_scale (which defaults by process); the DRAM figures default by
// dram_type, the wafer figures by process_nm. docs/silicon.md lists each.
struct SiliconParams {
  int process_nm = 12;               // one of 3, 5, 7, 12, 14, 20, 28, 40, 55
  std::string package = "OS";        // "OS" organic substrate, "FO" fan-out RDL, "SI" interposer
  std::string dram_type = "GDDR6X";  // "GDDR6X" or "HBM"

  // Area (µm², at 12 nm before area_scale).
  double area_scale = 1;                // 12 nm: 1, 7 nm: 0.7 (the scheduler's)
  double sram_um2_per_bit = 0.0964;     // scaled
  double mac_um2 = 57.9;                // one 8-bit MAC, scaled
  double lr_mac_area_ratio = 8;         // an FP16 low-rate MAC in 8-bit MACs
  double noc_um2_per_gbps = 16781.312;  // a core's router, per GB/s of link, scaled
  double post_layout_scale = 2.2;
  double control_unit_factor = 1.05, dft_factor = 1.05;  // every die
  double dram_phy_um2_per_gbps = 204187;                 // IO die, per GB/s of DRAM; not scaled
  double pcie_um2_per_gbps = 23437.5;                    // IO die: 3e6 µm² per 128 GB/s of DRAM
  double dram_usd_per_gbps = 3.5 / 32;

  // Wafers and dies.
  double wafer_usd = 5992, defect_per_cm2 = 0.08;  // by process_nm
  double wafer_diameter_mm = 300, scribe_lane_mm = 0.2, edge_loss_mm = 5;
  double critical_level = 10;

  // Packages.
  double os_area_factor = 4, os_usd_per_mm2 = 0.005, c4_bump_usd_per_mm2 = 0.005;
  double os_bonding_yield = 0.99;
  double u_bump_usd_per_mm2 = 0.01;  // FO and SI
  double rdl_wafer_usd = 1200, rdl_defect_per_cm2 = 0.05, rdl_area_factor = 1.2;
  double rdl_critical_level = 3, rdl_bonding_yield = 0.98;
  double si_wafer_usd = 1937, si_defect_per_cm2 = 0.06, si_area_factor = 1.1;
  double si_critical_level = 6, si_bonding_yield = 0.95;
};

// Reads `silicon` (ir keeps it raw). A bad value or an unknown key is an
// error naming the component and the parameter (params.h); so is a process
// node without a default area_scale (only 7 and 12 nm have one) when the
// section gives none. nullopt with one line per problem.
std::optional<SiliconParams> read_silicon_params(const ir::RawComponent& silicon,
                                                 std::vector<std::string>& errors);
// The section's parameters, in order, with the 12 nm GDDR6X defaults.
std::vector<ParamInfo> silicon_params();

// The scheduler's D2D PHY area in µm² per GB/s for `interface` ("XSR",
// "USR", "UCIe") at `process_nm` in `package`: XSR and USR are given at 7
// and 12 nm, UCIe by package. nullopt where it gives none.
std::optional<double> scheduler_d2d_phy_um2_per_gbps(const std::string& interface, int process_nm,
                                                     const std::string& package);

struct SiliconReport {
  std::int32_t compute_dies = 1;
  double core_mm2 = 0, compute_die_mm2 = 0, io_die_mm2 = 0, total_die_mm2 = 0;
  double chip_usd = 0, package_usd = 0, system_package_usd = 0, dram_usd = 0, overall_usd = 0;
};

// The whole model. total_die_mm2 = compute_die_mm2 x compute_dies + io_die_mm2.
// With one compute die the package holds that die alone (the IO die is in
// the area, not in the cost: the scheduler's); with several it holds them
// and the IO die as 4 quarter dies. A die too large to fit a wafer costs
// +infinity.
SiliconReport silicon_model(const SiliconParams& p, const SiliconInputs& in);

// ---- The pieces, for tests and docs/silicon.md. ----

// One core, µm² (post-layout).
double core_area_um2(const SiliconParams& p, const SiliconInputs& in);
// One compute die and the IO die, mm² (control unit and DFT included).
double compute_die_mm2(const SiliconParams& p, const SiliconInputs& in);
double io_die_mm2(const SiliconParams& p, const SiliconInputs& in);

// The negative-binomial yield of `area_mm2` of silicon.
double die_yield(double area_mm2, double defect_per_cm2, double critical_level);
// Gross dies of `area_mm2` per wafer (scribe lane and edge loss included);
// may be below 1 (or negative) for a die too large.
double dies_per_wafer(const SiliconParams& p, double area_mm2);

// `count` identical dies of `area_mm2` in one package.
struct DieGroup {
  double area_mm2 = 0;
  int count = 1;
};
// What a package of `dies` costs (the scheduler's Package::cost_RE).
struct PackageCost {
  double chips_raw = 0, chips_defect = 0;  // wafer share, bumps; KGD - raw
  double package_raw = 0, package_defect = 0, wasted = 0;
  double chip_usd() const { return chips_raw + chips_defect; }
  double package_usd() const { return package_raw + package_defect + wasted; }
};
PackageCost package_cost(const SiliconParams& p, const std::vector<DieGroup>& dies);

}  // namespace gemini::sim
