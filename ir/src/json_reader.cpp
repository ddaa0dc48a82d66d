#include "gemini/ir/json_reader.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cmath>
#include <cstdio>

#include "gemini/ir/json_document.h"

namespace gemini::ir {
namespace json = boost::json;

std::string kind_name(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return "null";
    case json::kind::bool_:
      return v.get_bool() ? "true" : "false";
    case json::kind::int64:
      return "integer " + std::to_string(v.get_int64());
    case json::kind::uint64:
      return "integer " + std::to_string(v.get_uint64());
    case json::kind::double_:
      return "number " + json::serialize(v);
    case json::kind::string: {
      std::string s(v.get_string().data(), std::min<std::size_t>(v.get_string().size(), 40));
      return "string \"" + s + (v.get_string().size() > 40 ? "...\"" : "\"");
    }
    case json::kind::array:
      return "an array of " + std::to_string(v.get_array().size());
    case json::kind::object:
      return "an object";
  }
  return "?";
}

std::optional<std::int64_t> integer_value(const json::value& v) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(v.get_uint64());
  return std::nullopt;
}

std::string member_pointer(const std::string& base, std::string_view key) {
  return base + "/" + json_pointer_token(key);
}

std::string JsonReader::expected_integer(std::int64_t lo, std::int64_t hi) {
  if (lo == std::numeric_limits<std::int64_t>::min() && hi == kNoMax) return "expected an integer";
  if (hi == kNoMax) return "expected an integer >= " + std::to_string(lo);
  return "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

const json::value* JsonReader::member(const json::object& o, const std::string& at,
                                      std::string_view key, bool required) {
  const json::value* v = o.if_contains(key);
  if (!v && required) error(at, "missing required key \"" + std::string(key) + "\"");
  return v;
}

std::optional<std::int64_t> JsonReader::integer(const json::value& v, const std::string& at,
                                                std::int64_t lo, std::int64_t hi) {
  const std::optional<std::int64_t> x = integer_value(v);
  if (!x || *x < lo || *x > hi) {
    error(at, expected_integer(lo, hi) + ", got " + kind_name(v));
    return std::nullopt;
  }
  return x;
}

std::optional<std::int64_t> JsonReader::integer(const json::object& o, const std::string& at,
                                                std::string_view key, std::int64_t lo,
                                                std::int64_t hi, bool required) {
  const json::value* v = member(o, at, key, required);
  if (!v) return std::nullopt;
  return integer(*v, member_pointer(at, key), lo, hi);
}

namespace {
std::string show(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}
}  // namespace

std::optional<double> JsonReader::number(const json::value& v, const std::string& at, double lo,
                                         double hi, bool zero_ok) {
  const double x = v.is_number() ? v.to_number<double>() : 0;
  if (!v.is_number() || !std::isfinite(x) || !((x >= lo && x <= hi) || (zero_ok && x == 0))) {
    error(at, "expected a number in [" + show(lo) + ", " + show(hi) + "]" +
                  (zero_ok ? " or 0" : "") + ", got " + kind_name(v));
    return std::nullopt;
  }
  return x;
}

std::optional<bool> JsonReader::boolean(const json::value& v, const std::string& at) {
  if (!v.is_bool()) {
    error(at, "expected true or false, got " + kind_name(v));
    return std::nullopt;
  }
  return v.get_bool();
}

std::optional<std::string> JsonReader::string(const json::value& v, const std::string& at) {
  if (!v.is_string()) {
    error(at, "expected a string, got " + kind_name(v));
    return std::nullopt;
  }
  return std::string(v.get_string());
}

std::optional<std::size_t> JsonReader::choice(const json::value& v, const std::string& at,
                                              const std::vector<std::string>& allowed) {
  if (v.is_string()) {
    const std::string_view s(v.get_string().data(), v.get_string().size());
    for (std::size_t i = 0; i < allowed.size(); ++i)
      if (allowed[i] == s) return i;
  }
  std::string list;
  for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
  error(at, "expected one of " + list + ", got " + kind_name(v));
  return std::nullopt;
}

const json::object* JsonReader::object(const json::value* v, const std::string& at,
                                       std::string_view what) {
  if (!v) return nullptr;
  if (!v->is_object()) {
    error(at, "expected " + std::string(what) + " (an object), got " + kind_name(*v));
    return nullptr;
  }
  return &v->get_object();
}

const json::array* JsonReader::array(const json::value* v, const std::string& at,
                                     std::string_view what) {
  if (!v) return nullptr;
  if (!v->is_array()) {
    error(at, "expected " + std::string(what) + " (an array), got " + kind_name(*v));
    return nullptr;
  }
  return &v->get_array();
}

bool JsonReader::integers(const json::value& v, const std::string& at,
                          std::vector<std::int64_t>& out, std::int64_t lo, std::int64_t hi) {
  const json::array* a = array(&v, at, "a list of integers");
  if (!a) return false;
  out.clear();
  for (std::size_t i = 0; i < a->size(); ++i) {
    const auto x = integer((*a)[i], at + "/" + std::to_string(i), lo, hi);
    if (!x) return false;
    out.push_back(*x);
  }
  return true;
}

}  // namespace gemini::ir
