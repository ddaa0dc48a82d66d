#include "value_reader.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "gemini/ir/json_document.h"

namespace gemini::ir::detail {
namespace json = boost::json;

std::string escape_token(std::string_view key) { return json_pointer_token(key); }

std::string Where::str() const {
  std::string s = paths->pointer(loc);
  if (!key.empty()) s.append("/").append(escape_token(key));
  if (i >= 0) s.append("/").append(std::to_string(i));
  if (j >= 0) s.append("/").append(std::to_string(j));
  return s;
}

bool read_int_element(ReadContext& c, const json::value& v, const Where& where, std::int64_t lo,
                      std::int64_t hi, std::int64_t& out) {
  if (v.is_int64()) {
    out = v.get_int64();
  } else if (v.is_uint64()) {
    c.diags.report(Check::out_of_range, where.str(),
                   "integer " + std::to_string(v.get_uint64()) + " does not fit (at most " +
                       std::to_string(hi) + ")");
    return false;
  } else {
    c.diags.report(Check::wrong_type, where.str(), "expected an integer, got " + kind_name(v));
    return false;
  }
  if (out < lo) {
    c.diags.report(lo == 0 ? Check::negative_value : Check::out_of_range, where.str(),
                   "expected an integer >= " + std::to_string(lo) + ", got " + std::to_string(out));
    return false;
  }
  if (out > hi) {
    c.diags.report(
        Check::out_of_range, where.str(),
        "integer " + std::to_string(out) + " does not fit (at most " + std::to_string(hi) + ")");
    return false;
  }
  return true;
}

ObjReader::ObjReader(ReadContext& ctx, const json::object& o, Loc loc,
                     std::span<const std::string_view> known)
    : c_(ctx), o_(o), loc_(loc), known_(known) {
  if (known.size() > slots_.size()) {
    std::fprintf(stderr, "gemini: internal error: ObjReader key list too long\n");
    std::abort();
  }
  for (const auto& kv : o_) {
    const std::string_view k(kv.key().data(), kv.key().size());
    std::size_t i = 0;
    while (i < known.size() && !(known[i].size() == k.size() && known[i] == k)) ++i;
    if (i < known.size()) {
      slots_[i] = &kv.value();
    } else {
      c_.diags.report(Check::unknown_key, ptr(k), "unknown key \"" + std::string(k) + "\" ignored");
    }
  }
}

const json::value* ObjReader::get(std::string_view key, Need need, std::string_view expected) {
  const json::value* v = raw(key);
  if (!v && need == Need::required)
    c_.diags.report(Check::missing_key, c_.paths.pointer(loc_),
                    "missing required key \"" + std::string(key) + "\" (expected " +
                        std::string(expected) + ")");
  return v;
}

bool ObjReader::int_value(const json::value& v, const Where& where, std::int64_t lo,
                          std::int64_t hi, std::int64_t& out) {
  return read_int_element(c_, v, where, lo, hi, out);
}

std::optional<std::int64_t> ObjReader::integer(std::string_view key, Need need, std::int64_t lo,
                                               std::int64_t hi) {
  const json::value* v = get(key, need, "an integer");
  if (!v) return std::nullopt;
  std::int64_t out = 0;
  if (!int_value(*v, where(key), lo, hi, out)) return std::nullopt;
  return out;
}

std::optional<std::int32_t> ObjReader::i32(std::string_view key, Need need, std::int32_t lo) {
  auto v = integer(key, need, lo, INT32_MAX);
  if (!v) return std::nullopt;
  return static_cast<std::int32_t>(*v);
}

std::optional<std::int64_t> ObjReader::i64(std::string_view key, Need need, std::int64_t lo) {
  return integer(key, need, lo, kMaxIrInteger);
}

std::optional<double> ObjReader::number(std::string_view key, Need need) {
  const json::value* v = get(key, need, "a number");
  if (!v) return std::nullopt;
  if (v->is_double()) {
    if (!std::isfinite(v->get_double())) {
      c_.diags.report(Check::out_of_range, ptr(key), "expected a finite number");
      return std::nullopt;
    }
    return v->get_double();
  }
  if (v->is_int64()) return static_cast<double>(v->get_int64());
  if (v->is_uint64()) return static_cast<double>(v->get_uint64());
  c_.diags.report(Check::wrong_type, ptr(key), "expected a number, got " + kind_name(*v));
  return std::nullopt;
}

std::optional<bool> ObjReader::boolean(std::string_view key, Need need) {
  const json::value* v = get(key, need, "true or false");
  if (!v) return std::nullopt;
  if (!v->is_bool()) {
    c_.diags.report(Check::wrong_type, ptr(key), "expected true or false, got " + kind_name(*v));
    return std::nullopt;
  }
  return v->get_bool();
}

std::optional<std::string> ObjReader::string(std::string_view key, Need need) {
  const json::value* v = get(key, need, "a string");
  if (!v) return std::nullopt;
  if (!v->is_string()) {
    c_.diags.report(Check::wrong_type, ptr(key), "expected a string, got " + kind_name(*v));
    return std::nullopt;
  }
  return std::string(v->get_string().data(), v->get_string().size());
}

std::optional<std::int64_t> ObjReader::nullable_i64(std::string_view key) {
  const json::value* v = raw(key);
  if (!v || v->is_null()) return std::nullopt;
  std::int64_t out = 0;
  if (!int_value(*v, where(key), 0, INT64_MAX, out)) return std::nullopt;
  return out;
}

std::optional<std::size_t> ObjReader::choice(std::string_view key, Need need,
                                             std::initializer_list<std::string_view> allowed) {
  return choice(key, need, std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

std::optional<std::size_t> ObjReader::choice(std::string_view key, Need need,
                                             std::span<const std::string_view> allowed) {
  const json::value* v = get(key, need, "a string");
  if (!v) return std::nullopt;
  if (v->is_string()) {
    const std::string_view sv(v->get_string().data(), v->get_string().size());
    std::size_t i = 0;
    for (auto a : allowed) {
      if (a == sv) return i;
      ++i;
    }
  }
  std::string expected = "one of";
  for (auto a : allowed) expected += " \"" + std::string(a) + "\"";
  auto s = string(key, need);
  if (!s) return std::nullopt;
  c_.diags.report(Check::bad_enum, ptr(key), "expected " + expected + ", got \"" + *s + "\"");
  return std::nullopt;
}

std::optional<std::vector<std::int64_t>> ObjReader::id_list(std::string_view key, Need need,
                                                            bool* nested) {
  const json::value* v = get(key, need, "an array of transfer ids");
  if (!v) return std::nullopt;
  if (!v->is_array()) {
    c_.diags.report(Check::wrong_type, ptr(key),
                    "expected an array of transfer ids, got " + kind_name(*v));
    return std::nullopt;
  }
  std::vector<std::int64_t> out;
  out.reserve(v->get_array().size());
  bool ok = true;
  std::size_t i = 0;
  for (const json::value& e : v->get_array()) {
    const Where at = where(key).at(static_cast<int>(i++));
    if (e.is_array()) {
      if (nested) *nested = true;
      std::size_t j = 0;
      for (const json::value& x : e.get_array()) {
        std::int64_t id = 0;
        if (read_int_element(c_, x, at.at(static_cast<int>(j++)), 0, INT64_MAX, id)) {
          out.push_back(id);
        } else {
          ok = false;
        }
      }
      continue;
    }
    std::int64_t id = 0;
    if (read_int_element(c_, e, at, 0, INT64_MAX, id)) {
      out.push_back(id);
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

std::optional<Box> ObjReader::box(std::string_view lo_key, std::string_view hi_key,
                                  bool allow_scalar) {
  const char* expected =
      allow_scalar ? "an array of 4 integers or an integer" : "an array of 4 integers";
  const json::value* lo = get(lo_key, Need::required, expected);
  const json::value* hi = get(hi_key, Need::required, expected);
  if (!lo || !hi) return std::nullopt;
  Box b;
  if (allow_scalar && !lo->is_array() && !hi->is_array()) {
    std::int64_t l = 0, h = 0;
    bool ok = int_value(*lo, where(lo_key), 0, INT32_MAX, l);
    ok = int_value(*hi, where(hi_key), 0, INT32_MAX, h) && ok;
    if (!ok) return std::nullopt;
    b.rank = 1;
    b.scalar = true;
    b.lo[0] = static_cast<std::int32_t>(l);
    b.hi[0] = static_cast<std::int32_t>(h);
  } else {
    bool ok = true;
    for (auto [key, v] : {std::pair{lo_key, lo}, std::pair{hi_key, hi}}) {
      if (!v->is_array()) {
        c_.diags.report(Check::wrong_type, ptr(key),
                        std::string("expected ") + expected + ", got " + kind_name(*v));
        ok = false;
      } else if (v->get_array().size() != 4 && v->get_array().size() != 3) {
        c_.diags.report(Check::bad_rank, ptr(key),
                        "expected 4 entries [N,C,H,W] / [K,C,R,S], got " +
                            std::to_string(v->get_array().size()));
        ok = false;
      }
    }
    if (!ok) return std::nullopt;
    const auto& la = lo->get_array();
    const auto& ha = hi->get_array();
    if (la.size() != ha.size()) {
      c_.diags.report(Check::bad_rank, ptr(hi_key),
                      "lower has " + std::to_string(la.size()) + " entries but upper has " +
                          std::to_string(ha.size()));
      return std::nullopt;
    }
    b.rank = static_cast<std::uint8_t>(la.size());
    for (std::size_t d = 0; d < la.size(); ++d) {
      std::int64_t l = 0, h = 0;
      ok = int_value(la[d], where(lo_key).at(static_cast<int>(d)), 0, INT32_MAX, l) && ok;
      ok = int_value(ha[d], where(hi_key).at(static_cast<int>(d)), 0, INT32_MAX, h) && ok;
      b.lo[d] = static_cast<std::int32_t>(l);
      b.hi[d] = static_cast<std::int32_t>(h);
    }
    if (!ok) return std::nullopt;
    if (b.rank == 3)
      c_.diags.report(Check::short_box, ptr(lo_key),
                      "box has 3 entries; kept as given (the 4th dimension is unknown)");
  }
  for (int d = 0; d < b.rank; ++d) {
    if (b.lo[d] > b.hi[d]) {
      c_.diags.report(
          Check::inverted_box, ptr(hi_key),
          "lower > upper in dimension " + std::to_string(d) + " of box " + to_string(b));
      return std::nullopt;
    }
  }
  return b;
}

}  // namespace gemini::ir::detail
