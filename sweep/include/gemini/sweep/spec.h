#pragma once
// A sweep file (docs/sweeps.md): the inputs, a base hardware configuration
// and the axes whose product is the grid of points. load_sweep() reads and
// checks it; nothing is run. Every problem is reported with the file and
// the JSON pointer of the member, and every axis value is checked the way
// `--hw` checks a configuration (LoadOptions::check_hw), so a path the
// configuration does not know or a value it would reject is an error that
// names the axis and the value, before any point runs.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/diagnostics.h"
#include "gemini/sweep/scheduler_point.h"

namespace gemini::sweep {

// One schedule to simulate: an IR file (a glob in the sweep file expands to
// one Input per match, sorted), with its optional model file and the
// scheduler's whole-network estimate when the sweep file gives one. An
// input may bring its own base configuration (`hw`), and the hardware
// point its schedule was made for (`hardware`: its manifest row, converted
// by gemini_hardware_point), applied on that base before the axes; the
// scheduler's figures for that point are then the results' `scheduler_*`
// columns.
struct Input {
  std::string ir;     // absolute path
  std::string label;  // the file name without .gz / .json: a results column and a plot line
  std::string model;  // absolute path; empty: none
  std::optional<std::int64_t> estimate_cycles;
  std::optional<boost::json::object> base_hw;  // its own base; none: the sweep's
  std::string base_hw_origin;
  std::string hardware;                             // the manifest's dialect ("gemini"); empty: none
  std::map<std::string, std::string> manifest_row;  // with `hardware`: its row
  std::optional<SchedulerFigures> scheduler;        // with `hardware`: the scheduler's figures
};

// An axis: a hardware parameter by its configuration path ("dram.model",
// "dram.timing.cl"), or one of the run settings "hw" (a whole configuration
// by name or path), "functional" and "seed". Axes of one zip group (same
// `zip` > 0) vary together; every other axis multiplies the grid.
struct Axis {
  std::string name;
  std::vector<boost::json::value> values;
  int zip = 0;
  // For the "hw" axis: each value's configuration, as JSON.
  std::vector<boost::json::object> hw_configs;
  std::vector<std::string> hw_origins;  // and the file each came from
  bool is_setting() const { return name == "hw" || name == "functional" || name == "seed"; }
};

// Checks a configuration's JSON text (`origin` names it in messages): false
// with one diagnostic per problem (its file `origin`, its pointer).
using HwCheck = std::function<bool(const std::string& text, const std::string& origin,
                                   ir::ConfigErrors& errors)>;

struct SweepSpec {
  std::string path;  // the sweep file as given
  std::string name, description;
  boost::json::object base_hw;  // the base configuration, as JSON
  std::string base_hw_origin;   // where it came from (a file, or the sweep file)
  std::vector<Input> inputs;
  std::vector<Axis> axes;  // in the file's order: the first varies slowest
  HwCheck check_hw;        // LoadOptions::check_hw, for expand()
};

struct LoadOptions {
  // Where configurations named without a path ("set-polar") are looked up,
  // in order (the installed configs/ folder of the running gemini).
  std::vector<std::string> config_dirs;
  // How a configuration is checked. Empty: ir::parse_hw_config, which
  // leaves the simulator's `dram`, `noc` and `energy` parameters unchecked; the gemini
  // executable passes sim::parse_hw_config, which checks them too.
  HwCheck check_hw;
};

// Reads and checks a sweep file. On failure returns nullopt and fills
// `errors` with one line per problem ("file:pointer: message").
std::optional<SweepSpec> load_sweep(const std::string& path, const LoadOptions& options,
                                    std::vector<std::string>& errors);

// Finds a configuration: an existing file, else NAME or NAME.json in
// `dirs`. Empty when there is none.
std::string find_config(const std::string& name_or_path, const std::vector<std::string>& dirs);

}  // namespace gemini::sweep
