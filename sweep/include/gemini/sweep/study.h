#pragma once
// A study (docs/sweeps.md, "Studies"; docs/chiplets.md, "A study"): the
// points of a sweep whose inputs bring the scheduler's own figures
// (Input::scheduler), each design point's latency, energy, cost, EDP and
// cost x EDP ours beside the scheduler's, the points ranked both ways with
// the rank correlations (Spearman's rho, Kendall's tau-b) and whether the
// best point agrees, and per point what its time and energy went to (the
// critical path's kinds, the NoC, D2D and DRAM energy shares). Made from
// the results' columns (results.h, metric_columns), so it reads the
// reports exactly as results.csv does. Points with other axis values are
// ranked apart, one ranking per combination.

#include <array>
#include <boost/json/object.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "gemini/sim/unit.h"
#include "gemini/sweep/results.h"

namespace gemini::sweep {

// What a study ranks by, lower is better: latency (us), energy (pJ), cost
// (USD), EDP (pJ x ns) and cost x EDP (USD x pJ x ns: the Gemini
// scheduler's objective).
inline constexpr std::size_t kStudyMetrics = 5;
struct StudyMetricInfo {
  const char* key;    // "latency", "energy", "cost", "edp", "cost_edp"
  const char* title;  // for tables and plots
  sim::Unit unit;
};
extern const std::array<StudyMetricInfo, kStudyMetrics> kStudyMetricTable;

struct StudyPoint {
  std::string id, label;
  std::string design;  // "3x3 dies, XSR 16 GB/s" (from its hardware point), else its label
  std::array<std::optional<double>, kStudyMetrics> ours, scheduler;
  std::array<int, kStudyMetrics> rank_ours{}, rank_scheduler{};  // 1 = best; 0: unranked
  // Why: the critical path's cycles by kind over its cycles (compute,
  // dram, noc, token, other: report_metrics.h's kPathKindNames), and the
  // NoC, D2D and DRAM energy over the total.
  std::array<double, 5> path{};
  double noc_share = 0, d2d_share = 0, dram_share = 0;
  std::optional<double> d2d_link_util_max;
  // Power over time (the points run with --power): the package's peak and
  // average, the hottest die's peak (W).
  std::optional<double> power_peak_w, power_average_w, die_power_peak_w;
};

struct StudyRanking {
  std::size_t metric = 0;
  std::size_t points = 0;                         // ranked (both figures known)
  std::optional<double> spearman, kendall;        // none below 2 points
  std::string best_ours, best_scheduler;          // point labels
  bool agree = false;                             // the same best point
  // Ours for the scheduler's best over ours for our best (>= 1): how much
  // worse, simulated, the scheduler's pick is than the best simulated.
  std::optional<double> pick_over_best;
};

struct StudyGroup {
  std::string axes;  // the other axes' values ("dram.gbps_per_tops=0.5"), "" without
  std::vector<StudyPoint> points;
  std::array<StudyRanking, kStudyMetrics> rankings;
};

struct Study {
  std::string sweep;
  std::vector<StudyGroup> groups;
  std::size_t left_out = 0;  // points without both figures (failed, missing, no scheduler's)
};

// The study of a sweep's results; nullopt when no point has the
// scheduler's figures (not a study).
std::optional<Study> make_study(const Plan& plan, const std::vector<Row>& rows);

// Text: the figures, the ranks and the why, as markdown tables.
void print_study(std::ostream& os, const Study& s);
// DIR/study.json's content (the plot script draws from it).
boost::json::object study_json(const Study& s);
// Writes DIR/study.json and DIR/study.md (atomically).
bool write_study(const std::string& dir, const Study& s, std::string& error);

// Rank correlations of two equally long lists of values (ties get their
// mean rank; Kendall's tau-b): none below 2 values or when one list is
// constant.
std::optional<double> spearman_rho(const std::vector<double>& a, const std::vector<double>& b);
std::optional<double> kendall_tau_b(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace gemini::sweep
