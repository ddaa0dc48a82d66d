// The sweep file's `axes` (spec_reader.h): each axis's values (a list or
// a range), zip groups of axes that vary together, and every value checked
// on the base configuration before anything runs.
#include <boost/json/serialize.hpp>
#include <set>

#include "axis_values.h"
#include "spec_reader.h"

namespace gemini::sweep::detail {
namespace json = boost::json;

bool Reader::axis_values(const std::string& pointer, const std::string& name, const json::value& v,
                         Axis& axis) {
  axis.name = name;
  std::string error;
  if (!detail::expand_values(v, axis.values, error)) {
    fail(pointer, "axis \"" + name + "\": " + error);
    return false;
  }
  return true;
}

void Reader::check_axis(const std::string& pointer, Axis& axis, const SweepSpec& spec) {
  for (std::size_t i = 0; i < axis.values.size(); ++i) {
    const json::value& v = axis.values[i];
    const std::string at = pointer + "/" + std::to_string(i);
    const std::string head = "axis \"" + axis.name + "\", value " + json::serialize(v) + ": ";
    if (axis.name == "functional") {
      values(head).boolean(v, at);
    } else if (axis.name == "seed") {
      values(head).integer(v, at, 0);
    } else if (axis.name == "hw") {
      const auto name = values(head + "a configuration name or file: ").string(v, at);
      if (!name) continue;
      auto c = config(at, *name);
      if (!c) continue;
      ir::ConfigErrors errs;
      if (!detail::hw_ok(options.check_hw, json::serialize(c->first), c->second, {}, errs))
        for (const ir::Diagnostic& e : errs) fail(at, head + ir::config_text(e));
      axis.hw_configs.push_back(std::move(c->first));
      axis.hw_origins.push_back(std::move(c->second));
    } else {
      json::object hw = spec.base_hw;
      std::string error;
      ir::ConfigErrors errs;
      if (!detail::set_param(hw, axis.name, v, error))
        fail(at, head + error);
      else if (!detail::hw_ok(options.check_hw, json::serialize(hw), spec.base_hw_origin,
                              {detail::axis_override(axis.name, ", value " + json::serialize(v))},
                              errs) &&
               !zipped_ok(axis, i, spec))
        // The axis's value names itself (`axis "noc.num_vcs", value 0: ...`);
        // another is the base's, which this value made wrong (a parameter
        // of the model it replaced), at its place in the base.
        for (const ir::Diagnostic& e : errs)
          fail(at, e.given ? ir::config_text(e) : head + ir::config_text(e));
    }
  }
}

bool Reader::zipped_ok(const Axis& axis, std::size_t i, const SweepSpec& spec) {
  if (axis.zip == 0) return false;
  json::object hw = spec.base_hw;
  std::string error;
  for (const Axis& a : spec.axes)
    if (a.zip == axis.zip && !a.is_setting() &&
        (i >= a.values.size() || !detail::set_param(hw, a.name, a.values[i], error)))
      return false;
  ir::ConfigErrors errs;
  return detail::hw_ok(options.check_hw, json::serialize(hw), spec.base_hw_origin, {}, errs);
}

void Reader::load_axes(const json::value* v, SweepSpec& spec) {
  if (!v) return;  // no axes: one point per input
  if (!v->is_object()) {
    fail("/axes", "expected an object of axes {\"dram.multicast\": [false, true], ...}");
    return;
  }
  std::set<std::string> names;
  std::vector<std::string> ats;  // per axis of spec.axes: its pointer
  int zips = 0;
  auto add = [&](const std::string& at, const std::string& name, const json::value& values,
                 int zip) {
    Axis axis;
    if (!names.insert(name).second) {
      fail(at, "axis \"" + name + "\" is given twice");
      return;
    }
    if (!axis_values(at, name, values, axis)) return;
    axis.zip = zip;
    if (zip == 0) check_axis(at, axis, spec);  // a zip group's: once it is whole
    spec.axes.push_back(std::move(axis));
    ats.push_back(at);
  };
  for (const auto& kv : v->get_object()) {
    const std::string k(kv.key());
    const std::string at = "/axes/" + token(k);
    if (k != "zip") {
      add(at, k, kv.value(), 0);
      continue;
    }
    std::vector<std::pair<std::string, const json::object*>> groups;
    if (kv.value().is_object()) {
      groups.emplace_back(at, &kv.value().get_object());
    } else if (kv.value().is_array()) {
      for (std::size_t g = 0; g < kv.value().get_array().size(); ++g) {
        const json::value& x = kv.value().get_array()[g];
        if (x.is_object())
          groups.emplace_back(at + "/" + std::to_string(g), &x.get_object());
        else
          fail(at + "/" + std::to_string(g), "expected an object of axes that vary together");
      }
    } else {
      fail(at, "expected an object of axes that vary together (or a list of such objects)");
    }
    for (const auto& [gat, group] : groups) {
      const int zip = ++zips;
      const std::size_t first = spec.axes.size();
      for (const auto& m : *group)
        add(gat + "/" + token(m.key()), std::string(m.key()), m.value(), zip);
      for (std::size_t i = first + 1; i < spec.axes.size(); ++i)
        if (spec.axes[i].values.size() != spec.axes[first].values.size())
          fail(gat, "the axes of a zip group need as many values each: \"" + spec.axes[first].name +
                        "\" has " + std::to_string(spec.axes[first].values.size()) + ", \"" +
                        spec.axes[i].name + "\" " + std::to_string(spec.axes[i].values.size()));
      for (std::size_t i = first; i < spec.axes.size(); ++i) check_axis(ats[i], spec.axes[i], spec);
    }
  }
}

}  // namespace gemini::sweep::detail
