#pragma once
// The results of a sweep: one row per point of the plan, written as
// DIR/results.csv and DIR/results.json. The columns are the point's id and
// input, every axis, its status, then the metrics of the table below, each
// with a unit; results.json also lists the columns with their units and
// meaning (the plot script labels its axes from it). A metric is one entry
// of metric_columns(): a new kind of number in the sim report (energy, for
// one) becomes a column, and a plot, by adding its entry there.

#include <boost/json/value.hpp>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "gemini/sweep/plan.h"
#include "gemini/sweep/point.h"

namespace gemini::sweep {

struct MetricColumn {
  const char* name;
  const char* unit;     // "cycles", "us", "bytes", "GB/s", "fraction", "s", "MB", "" (none)
  const char* meaning;  // one line, for results.json and docs/sweeps.md
  bool plot;            // worth a plot against each axis
  const char* group;    // columns plotted together as one figure's panels ("" alone)
  // The value for a point (null when the point has none: failed, or not
  // functional).
  boost::json::value (*get)(const PointRecord& r, const Point& p);
};
const std::vector<MetricColumn>& metric_columns();

// One row: the plan's point and its record (absent: not run yet).
struct Row {
  const Point* point = nullptr;
  std::optional<PointRecord> record;
};

struct Tally {
  std::size_t ok = 0, failed = 0, missing = 0;
};
Tally tally(const std::vector<Row>& rows);

// Writes DIR/results.csv and DIR/results.json (each atomically).
bool write_results(const std::string& dir, const Plan& plan, const std::vector<Row>& rows,
                   std::string& error);

// Reads every point's record from DIR/points.
std::vector<Row> collect(const std::string& dir, const Plan& plan);

// "dram.multicast=true, seed=2" (the point's axis values).
std::string describe(const Point& p);

}  // namespace gemini::sweep
