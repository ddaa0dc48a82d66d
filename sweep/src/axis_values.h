#pragma once
// An axis's values (a list, or a range), and setting one hardware parameter
// by its configuration path in a configuration's JSON.
#include <boost/json/value.hpp>
#include <string>
#include <vector>

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
// when it is empty.
bool hw_ok(const HwCheck& check, const std::string& text, const std::string& origin,
           ir::ConfigErrors& errors);

// A configuration error without its file ("/dram/latency_ns: ...": the
// configuration a sweep builds from its axes has none).
std::string without_file(const ir::Diagnostic& e);

}  // namespace gemini::sweep::detail
