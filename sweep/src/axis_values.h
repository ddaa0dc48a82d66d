#pragma once
// An axis's values (a list, or a range), and setting one hardware parameter
// by its configuration path in a configuration's JSON.
#include <boost/json/value.hpp>
#include <string>
#include <vector>

#include "gemini/ir/config_override.h"
#include "gemini/sweep/spec.h"

namespace gemini::sweep::detail {

// A non-empty list of values, or a range: {"from", "to", "step"} (every
// step from `from` up to `to`), {"from", "to", "times"} (multiplying) or
// {"from", "to", "count"} (evenly spaced, both ends included). A range
// of integers gives integers.
bool expand_values(const boost::json::value& v, std::vector<boost::json::value>& out,
                   std::string& error);

// Sets "dram.timing.cl" in `hw` (creating the component objects on the
// way), or removes it for a null value (its default applies: a model
// switched by another axis takes no parameter of the one before); false
// when a component on the path is not an object.
bool set_param(boost::json::object& hw, const std::string& path, const boost::json::value& v,
               std::string& error);

// Checks a configuration's JSON text with `check`, or ir::parse_hw_config
// when it is empty: the configuration of `origin` with `given` set over
// it, each error of a value given named by it (ir/config_override.h), the
// others by `origin`.
bool hw_ok(const HwCheck& check, const std::string& text, const std::string& origin,
           const ir::ConfigOverrides& given, ir::ConfigErrors& errors);

// How an axis's value is named where it is refused: `axis "noc.num_vcs"`
// and `suffix` (`, value 0`).
ir::ConfigOverride axis_override(const std::string& name, const std::string& suffix = "");

}  // namespace gemini::sweep::detail
