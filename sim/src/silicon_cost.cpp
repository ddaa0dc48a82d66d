// The cost model (silicon.h, docs/silicon.md): dies per wafer, die yield,
// known-good-die cost and the OS / FO / SI packages, after the Gemini
// scheduler's src/cost.cpp (Chip, OS, Advanced, FO, SI, calculate_cost),
// and the whole model, silicon_model().
#include <cmath>
#include <limits>
#include <numbers>

#include "gemini/sim/silicon.h"

namespace gemini::sim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Wafer cost over `units` units, +infinity when fewer than one fits.
double per_unit(double wafer_usd, double units) { return units >= 1 ? wafer_usd / units : kInf; }

// `usd` x `loss`, 0 for no loss (also of an infinite cost).
double lost(double usd, double loss) { return loss > 0 ? usd * loss : 0; }

double group_area(const std::vector<DieGroup>& dies) {
  double a = 0;
  for (const DieGroup& d : dies) a += d.area_mm2 * d.count;
  return a;
}

int group_count(const std::vector<DieGroup>& dies) {
  int n = 0;
  for (const DieGroup& d : dies) n += d.count;
  return n;
}

// The dies' wafer share plus `bump_usd_per_mm2` of their area (raw), and
// KGD - raw (defect), summed over the groups.
void price_dies(const SiliconParams& p, const std::vector<DieGroup>& dies, double bump_usd_per_mm2,
                PackageCost& c) {
  for (const DieGroup& d : dies) {
    const double n = dies_per_wafer(p, d.area_mm2);
    const double raw = per_unit(p.wafer_usd, n);
    const double kgd =
        per_unit(p.wafer_usd, n * die_yield(d.area_mm2, p.defect_per_cm2, p.critical_level));
    c.chips_raw += (raw + d.area_mm2 * bump_usd_per_mm2) * d.count;
    c.chips_defect += (std::isinf(kgd) ? kgd : kgd - raw) * d.count;  // inf - inf: NaN
  }
}

// Organic substrate (cost.cpp OS): the substrate is os_area_factor x the
// dies' area, priced at os_usd_per_mm2 times 1 (one die), 1.5, 1.75 (above
// 17x17 mm²) or 2 (above 30x30 mm²); C4 bumps on the dies; each die's
// bonding fails with 1 - os_bonding_yield, losing package and dies.
PackageCost os_package(const SiliconParams& p, const std::vector<DieGroup>& dies) {
  PackageCost c;
  price_dies(p, dies, p.c4_bump_usd_per_mm2, c);
  const int n = group_count(dies);
  const double area = group_area(dies) * p.os_area_factor;
  double factor = 1.5;
  if (n == 1)
    factor = 1.0;
  else if (area > 30.0 * 30.0)
    factor = 2.0;
  else if (area > 17.0 * 17.0)
    factor = 1.75;
  c.package_raw = area * p.os_usd_per_mm2 * factor;
  const double loss = 1 / std::pow(p.os_bonding_yield, n) - 1;
  c.package_defect = lost(c.package_raw, loss);
  c.wasted = lost(c.chip_usd(), loss);
  return c;
}

// The interposer of an advanced package (cost.cpp Advanced), chip last.
struct Interposer {
  double wafer_usd, defect_per_cm2, area_factor, critical_level, bonding_yield;
};

// Fan-out RDL or silicon interposer (cost.cpp Advanced, chip last, which
// both FO and SI are there): the interposer is area_factor x the dies'
// area, made on its own wafer with its own yield, with C4 bumps; the
// substrate under it is os_area_factor x the interposer at os_usd_per_mm2;
// micro bumps on the dies. Interposer yield y1, bonding the dies y2 (each
// with bonding_yield), bonding the interposer y3 (os_bonding_yield).
PackageCost advanced_package(const SiliconParams& p, const std::vector<DieGroup>& dies,
                             const Interposer& ip) {
  PackageCost c;
  price_dies(p, dies, p.u_bump_usd_per_mm2, c);
  const double area = group_area(dies) * ip.area_factor;
  const double n = dies_per_wafer(p, area);  // the interposer's wafer: same geometry
  const double interposer = per_unit(ip.wafer_usd, n) + area * p.c4_bump_usd_per_mm2;
  const double substrate = area * p.os_area_factor * p.os_usd_per_mm2;
  const double y1 = die_yield(area, ip.defect_per_cm2, ip.critical_level);
  const double y2 = std::pow(ip.bonding_yield, group_count(dies));
  const double y3 = p.os_bonding_yield;
  c.package_raw = interposer + substrate;
  c.package_defect = lost(interposer, 1 / (y1 * y2 * y3) - 1) + lost(substrate, 1 / y3 - 1);
  c.wasted = lost(c.chip_usd(), 1 / (y2 * y3) - 1);
  return c;
}

}  // namespace

double die_yield(double area_mm2, double defect_per_cm2, double critical_level) {
  // defect_per_cm2 / 100: per mm².
  return std::pow(1 + defect_per_cm2 / 100 * area_mm2 / critical_level, -critical_level);
}

double dies_per_wafer(const SiliconParams& p, double area_mm2) {
  const double s = p.scribe_lane_mm;
  const double a = area_mm2 + 2 * s * std::sqrt(area_mm2) + s * s;  // with its scribe lane
  const double r = p.wafer_diameter_mm / 2 - p.edge_loss_mm;
  const double pi = std::numbers::pi;
  return pi * r * r / a - pi * (p.wafer_diameter_mm - 2 * p.edge_loss_mm) / std::sqrt(2 * a);
}

PackageCost package_cost(const SiliconParams& p, const std::vector<DieGroup>& dies) {
  if (p.package == "FO")
    return advanced_package(p, dies,
                            {p.rdl_wafer_usd, p.rdl_defect_per_cm2, p.rdl_area_factor,
                             p.rdl_critical_level, p.rdl_bonding_yield});
  if (p.package == "SI")
    return advanced_package(p, dies,
                            {p.si_wafer_usd, p.si_defect_per_cm2, p.si_area_factor,
                             p.si_critical_level, p.si_bonding_yield});
  return os_package(p, dies);
}

SiliconReport silicon_model(const SiliconParams& p, const SiliconInputs& in) {
  SiliconReport r;
  r.compute_dies = in.x_cut * in.y_cut;
  r.core_mm2 = core_area_um2(p, in) / 1e6;
  r.compute_die_mm2 = compute_die_mm2(p, in);
  r.io_die_mm2 = io_die_mm2(p, in);
  r.total_die_mm2 = r.compute_die_mm2 * r.compute_dies + r.io_die_mm2;
  // main.cpp "COST CALC": one die is packaged alone; several with the IO
  // die as four quarters.
  std::vector<DieGroup> dies{{r.compute_die_mm2, r.compute_dies}};
  if (r.compute_dies > 1) dies.push_back({r.io_die_mm2 / 4, 4});
  const PackageCost c = package_cost(p, dies);
  r.chip_usd = c.chip_usd();
  r.package_usd = c.package_usd();
  r.system_package_usd = r.chip_usd + r.package_usd;
  r.dram_usd = in.dram_gbps * p.dram_usd_per_gbps;
  r.overall_usd = r.system_package_usd + r.dram_usd;
  return r;
}

}  // namespace gemini::sim
