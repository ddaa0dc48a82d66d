#pragma once
// Checked integer arithmetic for values that come from input files (IR,
// model files, plans, hardware configurations, programs, command lines).
// Every helper returns nullopt (or false) where the exact result does not
// fit its type, so that a reader turns an overflow into a diagnostic that
// names the value, never into undefined behaviour or a wrapped number that
// runs. This is the one place such arithmetic lives; readers bound what
// they accept with these and the code after them may then compute freely.

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

namespace gemini::ir {

template <class T>
concept CheckedInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// a + b, a - b, a * b, or nullopt when the exact result does not fit T.
template <CheckedInteger T>
constexpr std::optional<T> checked_add(T a, T b) {
  T r{};
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
template <CheckedInteger T>
constexpr std::optional<T> checked_sub(T a, T b) {
  T r{};
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}
template <CheckedInteger T>
constexpr std::optional<T> checked_mul(T a, T b) {
  T r{};
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// The product of all values (a shape's volume), or nullopt on overflow.
template <CheckedInteger T>
constexpr std::optional<T> checked_product(std::initializer_list<T> values) {
  T r = 1;
  for (T v : values) {
    if (__builtin_mul_overflow(r, v, &r)) return std::nullopt;
  }
  return r;
}

// `v` as To, or nullopt when its value does not fit To.
template <CheckedInteger To, CheckedInteger From>
constexpr std::optional<To> checked_cast(From v) {
  if (!std::in_range<To>(v)) return std::nullopt;
  return static_cast<To>(v);
}

// ceil(a / b) for a >= 0 and b > 0, without the overflow of (a + b - 1) / b.
template <CheckedInteger T>
constexpr T ceil_div(T a, T b) {
  return static_cast<T>(a / b + (a % b != 0 ? 1 : 0));
}

// A finite double rounded up to an int64, or nullopt when it is not finite
// or outside [INT64_MIN, INT64_MAX] (a cast would be undefined).
inline std::optional<std::int64_t> checked_ceil_i64(double v) {
  if (!std::isfinite(v)) return std::nullopt;
  const double c = std::ceil(v);
  // 2^63 is exactly representable; every double below it fits an int64.
  if (c >= 9223372036854775808.0 || c < -9223372036854775808.0) return std::nullopt;
  return static_cast<std::int64_t>(c);
}

// A running sum or product that remembers an overflow: `ok()` is false
// once any step did not fit (the value is then meaningless).
class CheckedI64 {
 public:
  constexpr CheckedI64() = default;
  constexpr explicit CheckedI64(std::int64_t v) : v_(v) {}
  constexpr CheckedI64& operator+=(std::int64_t x) {
    ok_ = ok_ && !__builtin_add_overflow(v_, x, &v_);
    return *this;
  }
  constexpr CheckedI64& operator-=(std::int64_t x) {
    ok_ = ok_ && !__builtin_sub_overflow(v_, x, &v_);
    return *this;
  }
  constexpr CheckedI64& operator*=(std::int64_t x) {
    ok_ = ok_ && !__builtin_mul_overflow(v_, x, &v_);
    return *this;
  }
  constexpr CheckedI64& operator+=(const CheckedI64& x) {
    ok_ = ok_ && x.ok_;
    return *this += x.v_;
  }
  constexpr bool ok() const { return ok_; }
  // The value, or nullopt after an overflow.
  constexpr std::optional<std::int64_t> get() const {
    return ok_ ? std::optional<std::int64_t>(v_) : std::nullopt;
  }
  // The value, or `fallback` after an overflow.
  constexpr std::int64_t value_or(std::int64_t fallback) const { return ok_ ? v_ : fallback; }

 private:
  std::int64_t v_ = 0;
  bool ok_ = true;
};

}  // namespace gemini::ir
