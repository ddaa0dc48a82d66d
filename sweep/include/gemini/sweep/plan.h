#pragma once
// The plan of a sweep: every point of the grid with everything needed to
// run it, written to DIR/plan.json so that `gemini sweep point DIR ID` (on
// this machine or on a cluster node sharing DIR) needs nothing else. A
// point's id is a hash of what determines its result: the input's and
// model's bytes, the effective hardware configuration, and the functional
// settings; an interrupted or extended sweep reruns exactly the points
// whose id has no result yet.

#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gemini/sweep/spec.h"

namespace gemini::sweep {

struct Point {
  std::string id;  // 16 hex digits
  std::size_t index = 0;
  Input input;
  // The axis values of this point, in the sweep's axis order.
  std::vector<std::pair<std::string, boost::json::value>> params;
  // The input's hardware point (Input::hardware), as applied to this
  // point's base before the axes: parameters by path.
  std::vector<std::pair<std::string, boost::json::value>> hardware;
  bool functional = false;
  std::optional<std::uint64_t> seed;  // --seed when given
  std::string hw_file;                // relative to the sweep directory: "hw/<hash>.json"
  std::string hw_json;                // the effective configuration
  // The `gemini sim` arguments after the executable, with the sweep
  // directory's files under `dir` and the JSON report written to `report`.
  std::vector<std::string> sim_args(const std::string& dir, const std::string& report) const;
};

// A point's id, input (path and label) and axis values as JSON: the head
// of its record and of its row in results.json.
boost::json::object identity(const Point& p);

// The scheduler's figures of a point as plan.json and results.json hold
// them ({"cycles", "time_us", "energy_pj", "overall_usd",
// "energy_components_pj": {...}}; null where the manifest lacks one), and back.
boost::json::object scheduler_json(const SchedulerFigures& f);
SchedulerFigures scheduler_figures(const boost::json::object& o);

struct Plan {
  std::string name, description, sweep_file;
  std::vector<std::string> axes;  // names, in order
  std::vector<Point> points;
  const Point* find(const std::string& id) const;
};

// Expands the grid (inputs x axes, zip groups together) and checks every
// point's configuration as a whole (values that pass alone may clash, e.g.
// trfc and trefi). A point's configuration is its base (an `hw` axis's
// value, else its input's own `hw`, else the sweep's), then its input's
// hardware point, then the other axes' values. Returns nullopt with
// `errors` naming the point's values.
std::optional<Plan> expand(const SweepSpec& spec, std::vector<std::string>& errors);

// DIR/plan.json and DIR/hw/*.json (written atomically).
bool write_plan(const std::string& dir, const Plan& plan, std::string& error);
std::optional<Plan> read_plan(const std::string& dir, std::string& error);

}  // namespace gemini::sweep
