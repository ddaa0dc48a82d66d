#pragma once
// ObjReader: typed, diagnosing access to one JSON object of the IR. Every
// getter reports what is wrong (missing key, wrong type, out of range) with
// the member's JSON pointer and returns false / nullopt, so conversion carries
// on and one run reports every problem. Unknown keys are reported once per
// object by check_unknown().

#include <array>
#include <boost/json/value.hpp>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gemini/ir/box.h"
#include "gemini/ir/diagnostics.h"
#include "gemini/ir/json_reader.h"
#include "gemini/ir/path_table.h"

namespace gemini::ir::detail {

// The largest integer an IR value may hold (2^48: sizes and addresses of
// 256 TiB, 2^48 cycles). Sums over a file's values then stay far inside an
// int64; ids and sizes in real files have at most a dozen digits.
inline constexpr std::int64_t kMaxIrInteger = std::int64_t{1} << 48;

// The one description of a value in messages (json_reader.h).
using gemini::ir::kind_name;
std::string escape_token(std::string_view key);

// A JSON pointer built only when a diagnostic needs it: loading a 100 MB file
// must not format a string per value.
struct Where {
  const PathTable* paths = nullptr;
  Loc loc = kRootLoc;
  std::string_view key;  // empty: the object at loc itself
  int i = -1, j = -1;    // array indices below key, -1 when absent
  Where at(int index) const {
    Where w = *this;
    (w.i < 0 ? w.i : w.j) = index;
    return w;
  }
  std::string str() const;
};

struct ReadContext {
  PathTable& paths;
  Diagnostics& diags;
  std::string member(Loc loc, std::string_view key) const {
    std::string suffix("/");
    suffix += escape_token(key);
    return paths.pointer(loc, suffix);
  }
};

enum class Need : std::uint8_t { required, optional };

class ObjReader {
 public:
  // Scans `o` once, matching every member against `known` (the keys this kind
  // of object may have); the others are reported as unknown (S007).
  ObjReader(ReadContext& ctx, const boost::json::object& o, Loc loc,
            std::span<const std::string_view> known);

  Loc loc() const { return loc_; }
  const boost::json::object& object() const { return o_; }
  bool has(std::string_view key) const { return raw(key) != nullptr; }
  // The member's value, or nullptr; `key` must be one of the known keys.
  const boost::json::value* raw(std::string_view key) const {
    for (std::size_t i = 0; i < known_.size(); ++i)
      if (known_[i].size() == key.size() && known_[i] == key) return slots_[i];
    return o_.if_contains(key);
  }
  std::string ptr(std::string_view key) const { return c_.member(loc_, key); }
  Where where(std::string_view key) const { return Where{&c_.paths, loc_, key}; }

  // The member, or nullptr (reporting S001 when required).
  const boost::json::value* get(std::string_view key, Need need, std::string_view expected);

  // Integer in [lo, hi]; S002 for a non-integer, S005 below 0 when lo == 0,
  // S006 otherwise.
  std::optional<std::int64_t> integer(std::string_view key, Need need, std::int64_t lo,
                                      std::int64_t hi);
  std::optional<std::int32_t> i32(std::string_view key, Need need, std::int32_t lo = 0);
  // An integer in [lo, kMaxIrInteger].
  std::optional<std::int64_t> i64(std::string_view key, Need need, std::int64_t lo = 0);
  std::optional<double> number(std::string_view key, Need need);
  std::optional<bool> boolean(std::string_view key, Need need);
  std::optional<std::string> string(std::string_view key, Need need);
  // A nullable integer: absent and null both give nullopt.
  std::optional<std::int64_t> nullable_i64(std::string_view key);
  // One of `allowed`; returns its index.
  std::optional<std::size_t> choice(std::string_view key, Need need,
                                    std::initializer_list<std::string_view> allowed);
  std::optional<std::size_t> choice(std::string_view key, Need need,
                                    std::span<const std::string_view> allowed);
  // Fixed-length integer tuple, e.g. tile_padding_tblr.
  template <std::size_t N>
  std::optional<std::array<std::int32_t, N>> tuple(std::string_view key, Need need);
  // transfer_id lists: flat, or nested one level (flattened). `nested` is set
  // when nesting was seen.
  std::optional<std::vector<std::int64_t>> id_list(std::string_view key, Need need, bool* nested);

  // A box from two members. allow_scalar accepts two integers (rank 1).
  std::optional<Box> box(std::string_view lo_key, std::string_view hi_key, bool allow_scalar);

 private:
  bool int_value(const boost::json::value& v, const Where& where, std::int64_t lo, std::int64_t hi,
                 std::int64_t& out);
  ReadContext& c_;
  const boost::json::object& o_;
  Loc loc_;
  std::span<const std::string_view> known_;
  std::array<const boost::json::value*, 24> slots_{};
};

// Integer checks for array elements, shared by tuple() and box().
bool read_int_element(ReadContext& c, const boost::json::value& v, const Where& where,
                      std::int64_t lo, std::int64_t hi, std::int64_t& out);

template <std::size_t N>
std::optional<std::array<std::int32_t, N>> ObjReader::tuple(std::string_view key, Need need) {
  const boost::json::value* v = get(key, need, "an array");
  if (!v) return std::nullopt;
  if (!v->is_array()) {
    c_.diags.report(
        Check::wrong_type, ptr(key),
        "expected an array of " + std::to_string(N) + " integers, got " + kind_name(*v));
    return std::nullopt;
  }
  const auto& a = v->get_array();
  if (a.size() != N) {
    c_.diags.report(Check::bad_rank, ptr(key),
                    "expected " + std::to_string(N) + " entries, got " + std::to_string(a.size()));
    return std::nullopt;
  }
  std::array<std::int32_t, N> out{};
  bool ok = true;
  for (std::size_t i = 0; i < N; ++i) {
    std::int64_t x = 0;
    if (read_int_element(c_, a[i], where(key).at(static_cast<int>(i)), 0, INT32_MAX, x)) {
      out[i] = static_cast<std::int32_t>(x);
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace gemini::ir::detail
