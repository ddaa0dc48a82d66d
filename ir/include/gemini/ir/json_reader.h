#pragma once
// JsonReader: the one diagnosing reader of JSON values for every input
// format read whole -- hardware configurations, model files, plan files,
// sweep files (the IR's streaming loader reads through ObjReader, whose
// checks and words are these). Each getter checks one value's type and
// range and, when it is wrong, reports one message at the value's JSON
// pointer, in the same words whatever the format:
//
//   missing required key "Tile"
//   expected an integer in [1, 65535], got integer 70000
//   expected an integer >= 0, got string "soon"
//   expected a number in [0.001, 1e+06], got number 0
//   expected true or false, got integer 1
//   expected one of simple, banked, got string "fast"
//   expected the task groups (an array), got an object
//
// and returns nullopt / nullptr; ok() says whether anything was reported.
// Where a message goes is the format's choice: a Diagnostics with the
// format's check code (M001, P001, ...), or any sink.

#include <boost/json/value.hpp>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gemini/ir/diagnostics.h"

namespace gemini::ir {

// The one description of a JSON value in messages: `null`, `true`,
// `integer 7`, `number 1.5`, `string "abc"` (cut after 40 characters),
// `an array of 3`, `an object`.
std::string kind_name(const boost::json::value& v);

// The value as an int64 if it is an integer that fits one.
std::optional<std::int64_t> integer_value(const boost::json::value& v);

// `base` + "/" + the pointer token of `key` (RFC 6901).
std::string member_pointer(const std::string& base, std::string_view key);

class JsonReader {
 public:
  using Sink = std::function<void(const std::string& pointer, const std::string& message)>;
  static constexpr std::int64_t kNoMax = std::numeric_limits<std::int64_t>::max();

  explicit JsonReader(Sink sink) : sink_(std::move(sink)) {}
  // Reports into `d` as `code` (an error).
  JsonReader(Diagnostics& d, Check code)
      : sink_([&d, code](const std::string& at, const std::string& m) { d.report(code, at, m); }) {}

  bool ok() const { return ok_; }
  void error(const std::string& at, const std::string& message) {
    ok_ = false;
    sink_(at, message);
  }

  // o's member `key`, or nullptr (reported when `required`).
  const boost::json::value* member(const boost::json::object& o, const std::string& at,
                                   std::string_view key, bool required = true);
  // An integer in [lo, hi] (hi = kNoMax: no upper bound).
  std::optional<std::int64_t> integer(const boost::json::value& v, const std::string& at,
                                      std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                                      std::int64_t hi = kNoMax);
  // The same for member `key` of `o`: absent gives nullopt (reported when required).
  std::optional<std::int64_t> integer(const boost::json::object& o, const std::string& at,
                                      std::string_view key, std::int64_t lo, std::int64_t hi,
                                      bool required = true);
  // A number (integer or not) in [lo, hi] (or exactly 0 where `zero_ok`:
  // a parameter's "unused").
  std::optional<double> number(const boost::json::value& v, const std::string& at, double lo,
                               double hi, bool zero_ok = false);
  std::optional<bool> boolean(const boost::json::value& v, const std::string& at);
  std::optional<std::string> string(const boost::json::value& v, const std::string& at);
  // One of `allowed`: its index.
  std::optional<std::size_t> choice(const boost::json::value& v, const std::string& at,
                                    const std::vector<std::string>& allowed);
  // An object / an array (`what` names it in the message); nullptr for a
  // null `v` without a message (the caller reported the missing member).
  const boost::json::object* object(const boost::json::value* v, const std::string& at,
                                    std::string_view what);
  const boost::json::array* array(const boost::json::value* v, const std::string& at,
                                  std::string_view what);
  // An array of integers (each in [lo, hi]), into `out`.
  bool integers(const boost::json::value& v, const std::string& at, std::vector<std::int64_t>& out,
                std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                std::int64_t hi = kNoMax);

  // The words of integer() for a value out of [lo, hi]: what ObjReader and
  // the components' parameter readers say too.
  static std::string expected_integer(std::int64_t lo, std::int64_t hi);

 private:
  Sink sink_;
  bool ok_ = true;
};

}  // namespace gemini::ir
