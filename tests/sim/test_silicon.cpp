// The silicon area and cost model (sim/include/gemini/sim/silicon.h,
// docs/silicon.md): each piece pinned by hand, the scheduler's eight
// printed figures of the corpus manifest (as constants: the test reads no
// file) and the `silicon` section's parameters.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gemini/sim/silicon.h"

namespace gemini::sim {
namespace {

// 4x4 mesh cut 2x2, 16 GB/s XSR D2D links, 32 GB/s NoC links, 16 GB/s of
// DRAM, 12 nm: the manifest's resnet_b1_4x4_c2x2_nop16_noc32.
SiliconInputs mesh_4x4_c2x2() {
  SiliconInputs in;
  in.xlen = in.ylen = 4;
  in.x_cut = in.y_cut = 2;
  in.d2d_gbps = 16;
  in.noc_link_gbps = 32;
  in.dram_gbps = 16;
  in.d2d_phy_um2_per_gbps = *scheduler_d2d_phy_um2_per_gbps("XSR", 12, "OS");
  return in;
}

void expect_rel(double got, double want, double rel) {
  EXPECT_NEAR(got, want, std::abs(want) * rel) << "want " << want;
}

TEST(Silicon, CoreAreaOfA1024MacPolarCore) {
  // SRAM: L2 1 MiB + 16 x (al1 8 KiB + wl1 4*8*8/64 = 4 KiB + ol1 2*8/8 =
  //   2 KiB) = 1048576 + 16*14336 = 1277952 bytes = 10223616 bits
  //   x 0.0964 µm²/bit                           =  985556.5824 µm²
  // MACs: 16*8*8 = 1024 x 57.9 = 59289.6, plus 8*8 FP16 MACs x 8*57.9 =
  //   29644.8                                    =   88934.4
  // NoC: 32 GB/s x 16781.312                     =  537001.984
  // (985556.5824 + 88934.4 + 537001.984) x 2.2   = 3545284.52608 µm²
  const SiliconParams p;
  expect_rel(core_area_um2(p, mesh_4x4_c2x2()), 3545284.52608, 1e-12);
  // 7 nm: every term x 0.7.
  SiliconParams p7;
  p7.area_scale = 0.7;
  expect_rel(core_area_um2(p7, mesh_4x4_c2x2()), 3545284.52608 * 0.7, 1e-12);
}

TEST(Silicon, DieAreasOfA4x4MeshCut2x2) {
  // XSR PHY at 12 nm: 960.816 x 1339.008 / 112 = 11486.967058 µm² per GB/s.
  // Compute die: 2x2 cores = 4 x 3545284.52608 = 14181138.104 µm², plus
  //   D2D PHYs on all four sides (4 dies): (2*2 + 2*2) x 11486.967 x 16
  //   = 1470331.783; x 1.05 x 1.05 / 1e6 = 17.255746 mm².
  // IO die: 16 GB/s x 204187 = 3266992 (GDDR6X PHY) + 16 x 3e6/128 = 375000
  //   (PCIe) + 11486.967 x 16 x 4 (ylen) x 2 = 1470331.783; x 1.1025 / 1e6
  //   = 5.636337 mm².
  // Total: 4 x 17.255746 + 5.636337 = 74.659319 mm².
  const SiliconParams p;
  const SiliconInputs in = mesh_4x4_c2x2();
  EXPECT_NEAR(*scheduler_d2d_phy_um2_per_gbps("XSR", 12, "OS"), 11486.967058285716, 1e-9);
  EXPECT_NEAR(compute_die_mm2(p, in), 17.255745551278, 1e-9);
  EXPECT_NEAR(io_die_mm2(p, in), 5.636336971265, 1e-9);
  const SiliconReport r = silicon_model(p, in);
  EXPECT_EQ(r.compute_dies, 4);
  EXPECT_NEAR(r.core_mm2, 3.54528452608, 1e-9);
  EXPECT_NEAR(r.total_die_mm2, 74.659319176378, 1e-9);
}

TEST(Silicon, TwoDiesCarryPhysAlongTheirOneCutEdge) {
  // 4x4 cut 2x1: each die is 2x4 cores, its cut edge 4 cores long:
  // 2 x 4 x 11486.967 x 16 PHY µm². Cut 1x2 instead: the edge is x_step = 4
  // cores too, so the two orientations agree on a square mesh ...
  const SiliconParams p;
  SiliconInputs in = mesh_4x4_c2x2();
  in.y_cut = 1;
  const double phy = 2 * 4 * in.d2d_phy_um2_per_gbps * 16;
  EXPECT_NEAR(compute_die_mm2(p, in), (8 * 3545284.52608 + phy) * 1.1025 / 1e6, 1e-9);
  std::swap(in.x_cut, in.y_cut);
  EXPECT_NEAR(compute_die_mm2(p, in), (8 * 3545284.52608 + phy) * 1.1025 / 1e6, 1e-9);
  // ... and differ on a 4x2 mesh: cut 1x2, the edge is the 4-core x side
  // (the scheduler would take y_step = 1 core).
  in.ylen = 2;
  EXPECT_NEAR(compute_die_mm2(p, in), (4 * 3545284.52608 + phy) * 1.1025 / 1e6, 1e-9);
}

TEST(Silicon, YieldAndDiesPerWaferOfTheComputeDie) {
  // A = 17.255746 mm², 12 nm: D = 0.08/cm² = 0.0008/mm².
  // yield = (1 + 0.0008 x 17.255746 / 10)^-10 = 0.98629964
  // with scribe: A' = A + 2 x 0.2 x sqrt(A) + 0.04 = 18.957347 mm²
  // dies = pi x 145² / A' - pi x 290 / sqrt(2 A') = 3484.2 - 148.0 = 3336.2821
  const SiliconParams p;
  const double a = 17.255745551278;
  EXPECT_NEAR(die_yield(a, 0.08, 10), 0.9862996391773843, 1e-12);
  EXPECT_NEAR(dies_per_wafer(p, a), 3336.282131220492, 1e-8);
}

TEST(Silicon, OsPackageOfFourComputeDiesAndFourIoQuarters) {
  // Compute die: raw 5992 / 3336.2821 = 1.796011, KGD 1.796011 / 0.986300 =
  //   1.820959; IO quarter (1.409084 mm²): 33867.82 per wafer, yield
  //   0.998873, raw 0.176923, KGD 0.177123.
  // chips raw = 4 x (1.796011 + 17.255746 x 0.005 C4) + 4 x (0.176923 +
  //   1.409084 x 0.005) = 8.265034; defect = 4 x 0.024948 + 4 x 0.000200
  //   = 0.100589; chip = 8.365623.
  // substrate: 4 x 74.659319 = 298.637 mm² > 17² -> x 1.75: 298.637 x 0.005
  //   x 1.75 = 2.613076; 8 bondings: k = 1/0.99^8 - 1 = 0.083723;
  //   package = 2.613076 x (1 + k) + 8.365623 x k = 3.532250.
  const SiliconParams p;
  const std::vector<DieGroup> dies{{17.255745551278, 4}, {5.636336971265 / 4, 4}};
  const PackageCost c = package_cost(p, dies);
  EXPECT_NEAR(c.chips_raw, 8.26503373096778, 1e-9);
  EXPECT_NEAR(c.chips_defect, 0.10058934327657754, 1e-9);
  EXPECT_NEAR(c.package_raw, 2.6130761711732164, 1e-9);
  EXPECT_NEAR(c.chip_usd(), 8.365623074244358, 1e-9);
  EXPECT_NEAR(c.package_usd(), 3.5322499904434963, 1e-9);
}

TEST(Silicon, OnePackagedDieAndTheAdvancedPackages) {
  // One 100 mm² die at 12 nm: 571.7124 per wafer, yield 0.9234102;
  // raw 10.480794, defect 0.869301.
  // OS: chip = 10.480794 + 100 x 0.005 + 0.869301 = 11.850095; substrate
  //   400 mm² x 0.005 x 1 (one die) = 2; package = 2 x (1/0.99) + 11.850095
  //   x (1/0.99 - 1) = 2.139900.
  // FO: micro bumps 100 x 0.01: chip 12.350095. RDL 120 mm²: 473.1172 per
  //   1200 USD wafer + 120 x 0.005 = 3.136369; substrate 480 x 0.005 = 2.4;
  //   y1 = (1 + 0.0005 x 120 / 3)^-3 = 0.942322, y2 = 0.98, y3 = 0.99;
  //   package = 5.536369 + 3.136369 (1/(y1 y2 y3) - 1) + 2.4 (1/y3 - 1)
  //   + 12.350095 (1/(y2 y3) - 1) = 6.234151.
  // SI: interposer 110 mm² on a 1937 USD wafer, 0.06/cm², level 6, 0.95:
  //   package = 7.874223.
  SiliconParams p;
  const std::vector<DieGroup> one{{100, 1}};
  PackageCost c = package_cost(p, one);
  EXPECT_NEAR(c.chip_usd(), 11.850094771066082, 1e-9);
  EXPECT_NEAR(c.package_usd(), 2.1398999471824864, 1e-9);
  p.package = "FO";
  c = package_cost(p, one);
  EXPECT_NEAR(c.chip_usd(), 12.350094771066082, 1e-9);
  EXPECT_NEAR(c.package_raw, 5.5363693097142885, 1e-9);
  EXPECT_NEAR(c.package_usd(), 6.234150717997371, 1e-9);
  p.package = "SI";
  c = package_cost(p, one);
  EXPECT_NEAR(c.package_usd(), 7.8742231397331, 1e-9);
}

TEST(Silicon, OneDieLeavesTheIoDieOutOfTheCost) {
  const SiliconParams p;
  SiliconInputs in = mesh_4x4_c2x2();
  in.x_cut = in.y_cut = 1;
  const SiliconReport r = silicon_model(p, in);
  EXPECT_NEAR(r.total_die_mm2, r.compute_die_mm2 + r.io_die_mm2, 1e-12);
  const PackageCost c = package_cost(p, {{r.compute_die_mm2, 1}});
  EXPECT_DOUBLE_EQ(r.chip_usd, c.chip_usd());
  EXPECT_DOUBLE_EQ(r.package_usd, c.package_usd());
  EXPECT_DOUBLE_EQ(r.dram_usd, 16 * 3.5 / 32);
  EXPECT_DOUBLE_EQ(r.overall_usd, r.system_package_usd + r.dram_usd);
}

TEST(Silicon, ADieLargerThanTheWaferCostsInfinity) {
  const SiliconParams p;
  EXPECT_LT(dies_per_wafer(p, 1e5), 1);
  for (const char* package : {"OS", "FO", "SI"}) {
    SiliconParams q = p;
    q.package = package;
    const PackageCost c = package_cost(q, {{1e5, 1}});
    EXPECT_TRUE(std::isinf(c.chip_usd())) << package;
    EXPECT_TRUE(std::isinf(c.package_usd())) << package;
  }
}

// The scheduler's printed figures (corpus manifest.csv; OS package, XSR,
// polar 1024-MAC cores, 1 MiB L2, GDDR6X). Areas and costs are printed to
// 3 decimals, the overall cost to 5.
struct ManifestRow {
  const char* name;
  int nm, xlen, ylen, x_cut, y_cut;
  double nop_gbps, noc_gbps, dram_gbps;
  double compute, io, total, chip, package, system, overall;
};
constexpr ManifestRow kManifest[] = {
    {"resnet 4x4 c1x1 nop32", 12, 4, 4, 1, 1, 32, 32, 16, 62.539, 4.015, 66.554, 7.120, 1.335,
     8.455, 10.20543},
    {"resnet 4x4 c2x2 nop16", 12, 4, 4, 2, 2, 16, 32, 16, 17.256, 5.636, 74.659, 8.366, 3.532,
     11.898, 13.64787},
    {"resnet 4x4 c2x2 nop32", 12, 4, 4, 2, 2, 32, 32, 16, 18.877, 7.257, 82.765, 9.259, 3.914,
     13.173, 14.92298},
    {"goog 4x4 c2x1 nop16", 12, 4, 4, 2, 1, 16, 32, 16, 32.890, 5.636, 71.417, 8.030, 2.775, 10.805,
     12.55454},
    {"bert 4x4 c2x2 nop16", 12, 4, 4, 2, 2, 16, 32, 16, 17.256, 5.636, 74.659, 8.366, 3.532, 11.898,
     13.64787},
    {"darknet19 8x8 c4x4 nop16", 12, 8, 8, 4, 4, 16, 32, 64, 17.256, 19.303, 295.395, 32.755,
     21.739, 54.494, 61.49369},
    {"vgg 4x4 c4x4 nop16", 12, 4, 4, 4, 4, 16, 32, 16, 4.719, 5.636, 81.143, 9.508, 5.589, 15.098,
     16.84755},
    {"resnet 6x6 c3x3 nop16 7nm", 7, 6, 6, 3, 3, 16, 32, 36, 12.307, 11.078, 121.836, 20.986, 7.789,
     28.775, 32.71240},
};

TEST(Silicon, ReproducesTheSchedulersManifestFigures) {
  for (const ManifestRow& m : kManifest) {
    SCOPED_TRACE(m.name);
    SiliconParams p;
    p.process_nm = m.nm;
    p.area_scale = m.nm == 7 ? 0.7 : 1;
    p.wafer_usd = m.nm == 7 ? 9346 : 5992;
    p.defect_per_cm2 = m.nm == 7 ? 0.09 : 0.08;
    SiliconInputs in;
    in.xlen = m.xlen;
    in.ylen = m.ylen;
    in.x_cut = m.x_cut;
    in.y_cut = m.y_cut;
    in.d2d_gbps = m.nop_gbps;
    in.noc_link_gbps = m.noc_gbps;
    in.dram_gbps = m.dram_gbps;
    in.d2d_phy_um2_per_gbps = *scheduler_d2d_phy_um2_per_gbps("XSR", m.nm, "OS");
    const SiliconReport r = silicon_model(p, in);
    const std::pair<double, double> printed[] = {
        {r.compute_die_mm2, m.compute}, {r.io_die_mm2, m.io},
        {r.total_die_mm2, m.total},     {r.chip_usd, m.chip},
        {r.package_usd, m.package},     {r.system_package_usd, m.system}};
    for (const auto& [ours, theirs] : printed) {
      expect_rel(ours, theirs, 0.02);     // the requirement
      EXPECT_NEAR(ours, theirs, 0.0006);  // in fact: equal to the printed 3 decimals
    }
    expect_rel(r.overall_usd, m.overall, 0.02);
    EXPECT_NEAR(r.overall_usd, m.overall, 6e-6);
  }
}

TEST(Silicon, SchedulerPhyAreas) {
  EXPECT_NEAR(*scheduler_d2d_phy_um2_per_gbps("USR", 12, "OS"), 960.816 * 1339.008 / 56, 1e-9);
  // Integer quotients in the scheduler: 1081200/112, 1081200/56, 1e6/145...
  EXPECT_EQ(*scheduler_d2d_phy_um2_per_gbps("XSR", 7, "OS"), 9653);
  EXPECT_EQ(*scheduler_d2d_phy_um2_per_gbps("USR", 7, "FO"), 19307);
  EXPECT_EQ(*scheduler_d2d_phy_um2_per_gbps("UCIe", 12, "OS"), 6896);
  EXPECT_EQ(*scheduler_d2d_phy_um2_per_gbps("UCIe", 5, "FO"), 1584);
  EXPECT_EQ(*scheduler_d2d_phy_um2_per_gbps("UCIe", 7, "SI"), 1055);
  EXPECT_FALSE(scheduler_d2d_phy_um2_per_gbps("XSR", 5, "OS"));
  EXPECT_FALSE(scheduler_d2d_phy_um2_per_gbps("PCIe", 12, "OS"));
}

ir::RawComponent section(boost::json::object o) { return {std::move(o), "x.json", "/silicon"}; }

TEST(SiliconParams, DefaultsAreThe12nmGddr6xOs) {
  ir::ConfigErrors errors;
  const auto p = read_silicon_params(section({}), errors);
  ASSERT_TRUE(p) << (errors.empty() ? "" : ir::config_text(errors.front()));
  EXPECT_EQ(p->process_nm, 12);
  EXPECT_EQ(p->package, "OS");
  EXPECT_EQ(p->dram_type, "GDDR6X");
  EXPECT_EQ(p->area_scale, 1);
  EXPECT_EQ(p->wafer_usd, 5992);
  EXPECT_EQ(p->defect_per_cm2, 0.08);
  EXPECT_EQ(p->dram_phy_um2_per_gbps, 204187);
  EXPECT_EQ(p->dram_usd_per_gbps, 3.5 / 32);
  EXPECT_EQ(p->pcie_um2_per_gbps, 23437.5);
  EXPECT_EQ(p->si_wafer_usd, 1937);
  const std::vector<ParamInfo> listed = silicon_params();
  EXPECT_EQ(listed.size(), 35u);
  EXPECT_EQ(listed.front().name, "process_nm");
}

TEST(SiliconParams, DefaultsFollowTheNodeAndTheDram) {
  ir::ConfigErrors errors;
  auto p = read_silicon_params(
      section({{"process_nm", 7}, {"dram_type", "HBM"}, {"package", "SI"}}), errors);
  ASSERT_TRUE(p) << (errors.empty() ? "" : ir::config_text(errors.front()));
  EXPECT_EQ(p->area_scale, 0.7);
  EXPECT_EQ(p->wafer_usd, 9346);
  EXPECT_EQ(p->defect_per_cm2, 0.09);
  EXPECT_EQ(p->dram_phy_um2_per_gbps, 613);
  EXPECT_EQ(p->dram_usd_per_gbps, 320.0 / 819);
  EXPECT_EQ(p->package, "SI");
  p = read_silicon_params(section({{"process_nm", 5}, {"area_scale", 0.5}}), errors);
  ASSERT_TRUE(p) << (errors.empty() ? "" : ir::config_text(errors.front()));
  EXPECT_EQ(p->wafer_usd, 16988);
  EXPECT_EQ(p->area_scale, 0.5);
  p = read_silicon_params(section({{"wafer_usd", 1000}, {"mac_um2", 50}}), errors);
  ASSERT_TRUE(p) << (errors.empty() ? "" : ir::config_text(errors.front()));
  EXPECT_EQ(p->wafer_usd, 1000);
  EXPECT_EQ(p->mac_um2, 50);
}

// One bad section: exactly one error, naming `param`.
void expect_error(boost::json::object o, const std::string& param) {
  ir::ConfigErrors errors;
  EXPECT_FALSE(read_silicon_params(section(std::move(o)), errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(ir::config_text(errors[0]).find("parameter \"" + param + "\" of component \"silicon\""),
            std::string::npos)
      << ir::config_text(errors[0]);
  EXPECT_NE(ir::config_text(errors[0]).find("x.json:/silicon/" + param), std::string::npos)
      << ir::config_text(errors[0]);
}

TEST(SiliconParams, BadValuesNameTheParameter) {
  expect_error({{"process_nm", 10}}, "process_nm");
  expect_error({{"process_nm", "12"}}, "process_nm");
  expect_error({{"process_nm", 5}}, "area_scale");  // no default scale at 5 nm
  expect_error({{"package", "CoWoS"}}, "package");
  expect_error({{"dram_type", "LPDDR5"}}, "dram_type");
  expect_error({{"area_scale", -1}}, "area_scale");
  expect_error({{"sram_um2_per_bit", "big"}}, "sram_um2_per_bit");
  expect_error({{"os_bonding_yield", 1.5}}, "os_bonding_yield");
  expect_error({{"edge_loss_mm", 100}, {"wafer_diameter_mm", 150}}, "edge_loss_mm");
  expect_error({{"dft_factor", 0.5}}, "dft_factor");
  expect_error({{"wafer_cost", 1}}, "wafer_cost");  // unknown key
}

}  // namespace
}  // namespace gemini::sim
