#pragma once
// The results of a sweep: one row per point of the plan, written as
// DIR/results.csv and DIR/results.json. The columns are the point's id and
// input, every axis, its status, then the metrics of metric_columns(), each
// with a unit, then one column per statistic of the points' reports;
// results.json also lists the columns with their units and meaning (the
// plot script labels its axes from it). The metrics read the sim report
// through the figures it declares (sim/schema/gemini/sim/report_metrics.h):
// a figure renamed there is renamed here, and one removed fails to compile.
// An energy component is a column by its row in the energy table; a
// statistic by its add() line in its unit.

#include <boost/json/value.hpp>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "gemini/sweep/plan.h"
#include "gemini/sweep/point.h"

namespace gemini::sweep {

struct MetricColumn {
  std::string name;
  std::string unit;     // "cycles", "us", "bytes", "GB/s", "fraction", "s", "MB", "" (none)
  std::string meaning;  // one line, for results.json and docs/sweeps.md
  bool plot = false;    // worth a plot against each axis
  std::string group;    // columns plotted together as one figure's panels ("" alone)
  // The value for a point (null when the point has none: failed, or not
  // functional).
  std::function<boost::json::value(const PointRecord& r, const Point& p)> get;
};
// Every sweep's metrics: the report's declared figures (time, DRAM, NoC,
// the cores' time by cause, energy and each of its components, the
// functional verdict) and the sweep's own (the estimate, host resources).
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
