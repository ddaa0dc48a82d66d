#include "axis_values.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cmath>

#include "gemini/ir/hw_config.h"

namespace gemini::sweep::detail {
namespace json = boost::json;

namespace {
constexpr std::size_t kMaxValues = 100000;

bool number(const json::object& o, const char* key, double& out, bool& integral,
            std::string& error) {
  const json::value* v = o.if_contains(key);
  if (!v || !v->is_number()) {
    error = std::string("range member \"") + key + "\" must be a number";
    return false;
  }
  out = v->to_number<double>();
  integral = integral && v->is_int64();
  return true;
}
}  // namespace

bool expand_values(const json::value& v, std::vector<json::value>& out, std::string& error) {
  out.clear();
  if (v.is_array()) {
    if (v.get_array().empty()) {
      error = "expected at least one value";
      return false;
    }
    out.assign(v.get_array().begin(), v.get_array().end());
    return true;
  }
  if (!v.is_object()) {
    error = "expected a list of values or a range {\"from\", \"to\", \"step\"|\"times\"|\"count\"}";
    return false;
  }
  const json::object& o = v.get_object();
  for (const auto& kv : o)
    if (kv.key() != "from" && kv.key() != "to" && kv.key() != "step" && kv.key() != "times" &&
        kv.key() != "count") {
      error = "unknown range member \"" + std::string(kv.key()) +
              "\" (known: from, to, step, times, count)";
      return false;
    }
  const int kinds = int{o.contains("step")} + int{o.contains("times")} + int{o.contains("count")};
  if (kinds != 1) {
    error = "a range needs exactly one of \"step\", \"times\", \"count\"";
    return false;
  }
  double from = 0, to = 0, by = 0;
  bool integral = true;
  if (!number(o, "from", from, integral, error) || !number(o, "to", to, integral, error))
    return false;
  if (to < from) {
    error = "range: \"to\" is below \"from\"";
    return false;
  }
  const char* kind = o.contains("step") ? "step" : o.contains("times") ? "times" : "count";
  if (!number(o, kind, by, integral, error)) return false;
  std::vector<double> xs;
  const double tolerance = 1e-9 * std::max(1.0, std::fabs(to));
  if (std::string_view(kind) == "step") {
    if (by <= 0) {
      error = "range: \"step\" must be above 0";
      return false;
    }
    for (std::size_t i = 0; xs.size() <= kMaxValues; ++i) {
      const double x = from + static_cast<double>(i) * by;
      if (x > to + tolerance) break;
      xs.push_back(x);
    }
  } else if (std::string_view(kind) == "times") {
    if (by <= 1 || from <= 0) {
      error = "range: \"times\" needs a factor above 1 and \"from\" above 0";
      return false;
    }
    for (double x = from; x <= to * (1 + 1e-9) && xs.size() <= kMaxValues; x *= by) xs.push_back(x);
  } else {
    if (by < 1 || by != std::floor(by)) {
      error = "range: \"count\" must be an integer >= 1";
      return false;
    }
    const auto n = static_cast<std::size_t>(by);
    if (n > kMaxValues) {
      error = "range: more than " + std::to_string(kMaxValues) + " values";
      return false;
    }
    for (std::size_t i = 0; i < n; ++i)
      xs.push_back(n == 1 ? from : from + (to - from) * static_cast<double>(i) / (n - 1));
    integral =
        integral && std::all_of(xs.begin(), xs.end(), [](double x) { return x == std::floor(x); });
  }
  if (xs.size() > kMaxValues) {
    error = "range: more than " + std::to_string(kMaxValues) + " values";
    return false;
  }
  for (double x : xs) {
    if (integral)
      out.emplace_back(static_cast<std::int64_t>(std::llround(x)));
    else
      out.emplace_back(x);
  }
  return true;
}

bool set_param(json::object& hw, const std::string& path, const json::value& v,
               std::string& error) {
  if (path.empty() || path.front() == '.' || path.back() == '.' ||
      path.find("..") != std::string::npos) {
    error = std::string(1, '"').append(path).append(
        "\" is not a parameter path (component.parameter, e.g. dram.multicast)");
    return false;
  }
  json::object* o = &hw;
  std::size_t pos = 0;
  for (std::size_t dot; (dot = path.find('.', pos)) != std::string::npos; pos = dot + 1) {
    const std::string part = path.substr(pos, dot - pos);
    json::value& next = (*o)[part];
    if (next.is_null()) next = json::object();
    if (!next.is_object()) {
      error = std::string(1, '"')
                  .append(path, 0, dot)
                  .append("\" is ")
                  .append(json::serialize(next))
                  .append(" in the configuration, not a component with parameters");
      return false;
    }
    o = &next.get_object();
  }
  if (v.is_null())
    o->erase(path.substr(pos));  // the parameter's default
  else
    (*o)[path.substr(pos)] = v;
  return true;
}

bool hw_ok(const HwCheck& check, const std::string& text, const std::string& origin,
           const ir::ConfigOverrides& given, ir::ConfigErrors& errors) {
  const bool ok =
      check ? check(text, origin, errors) : ir::parse_hw_config(text, origin, errors).has_value();
  ir::attribute_overrides(errors, given);
  return ok;
}

ir::ConfigOverride axis_override(const std::string& name, const std::string& suffix) {
  return {ir::path_pointer(name), "axis \"", "\"" + suffix};
}

}  // namespace gemini::sweep::detail
