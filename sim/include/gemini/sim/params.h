#pragma once
// Parameters a simulator component declares and reads from its section of
// the hardware configuration (a JSON object ir keeps raw, ir::RawComponent).
// The DRAM ports, the NoC and every registered DRAM or NoC model read theirs
// through a ParamReader.
//
// Contract: a parameter is declared once, where it is read, with its name,
// type, default, range or choices, unit and a one-line description:
//
//   const double latency_ns = r.param<double>("latency_ns")
//                                 .unit("ns").range(0, 1e9).fallback(50)
//                                 .describe("fixed access latency").get();
//
// get() returns the section's value, or the default when the key is absent
// or its value is bad. A bad value is an error naming the file, the JSON
// pointer, the component, the model (once begin_model() named one) and the
// parameter, in the words of ir's hardware-configuration errors:
//
//   configs/x.json:/dram/latency_ns: parameter "latency_ns" of component
//   "dram" (DRAM model "simple"): expected a number in [0, 1e+09], got string "x"
//
// finish() reports every key of the section that nothing declared: with a
// model named, as one that does not apply to that model. Declarations are
// kept in order (declared()) for listings: gemini sim --list-params and
// configs/README.md. Parameters are read once, when a configuration is
// checked or a simulation is set up; models keep the values in plain members.

#include <boost/json/object.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "gemini/ir/hw_config.h"
#include "gemini/ir/json_reader.h"

namespace gemini::sim {

// One declared parameter, as listings show it.
struct ParamInfo {
  std::string name;         // nested ones as "timing.cl", the sweep's path below the component
  std::string type;         // "integer", "number", "true / false", "string", "object"
  std::string range;        // "[1, 65536]", "0 or [0.001, 1e+06]", "simple, banked"; "" any
  std::string unit;         // "ns", "bytes", ...; "" none
  std::string fallback;     // the default, as JSON text
  std::string description;  // one line
  std::string model;        // the model that declared it; "" the component's own
};

class ParamReader;

// One parameter being declared: say what it is, then get() its value. T is
// an integer type, double, bool or std::string (with choices()).
template <typename T>
class Param {
 public:
  Param(ParamReader& r, std::string name) : r_(r), name_(std::move(name)) {}
  Param& describe(std::string d) {
    desc_ = std::move(d);
    return *this;
  }
  Param& unit(std::string u) {
    unit_ = std::move(u);
    return *this;
  }
  // Integers and numbers: the accepted values, both ends included.
  Param& range(T lo, T hi) {
    lo_ = lo;
    hi_ = hi;
    return *this;
  }
  // Numbers: exactly 0 is accepted too, outside the range ("0: unused").
  Param& or_zero() {
    zero_ok_ = true;
    return *this;
  }
  // Integers: exactly `v` is accepted too, outside the range (another
  // tool's sentinel, e.g. BookSim's -1: "unbounded").
  Param& or_value(T v) {
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "an integer's sentinel");
    also_ = v;
    return *this;
  }
  // Strings: the accepted values (none: any string).
  Param& choices(std::vector<std::string> c) {
    choices_ = std::move(c);
    return *this;
  }
  Param& fallback(T v) {
    fallback_ = std::move(v);
    return *this;
  }
  T get();

 private:
  ParamReader& r_;
  std::string name_, desc_, unit_;
  T lo_ = lowest(), hi_ = highest();
  bool zero_ok_ = false;
  std::optional<T> also_;
  std::vector<std::string> choices_;
  T fallback_{};
  static T lowest() {
    if constexpr (std::is_arithmetic_v<T>) return std::numeric_limits<T>::lowest();
    return T{};
  }
  static T highest() {
    if constexpr (std::is_arithmetic_v<T>) return std::numeric_limits<T>::max();
    return T{};
  }
};

class ParamReader {
 public:
  // Reads `raw` as component `component`; errors go to `errors`.
  ParamReader(const ir::RawComponent& raw, std::string component, ir::ConfigErrors& errors);
  // Declares without reading (no section, no errors): for listings.
  explicit ParamReader(std::string component);

  // Parameters declared from now on are the model's: `kind` "DRAM model",
  // `name` "simple"; messages name it.
  void begin_model(std::string kind, std::string name);

  template <typename T>
  Param<T> param(std::string name) {
    return Param<T>(*this, std::move(name));
  }
  // A key of this section that ir reads for the lowering (`multicast`,
  // ir::kLoweringParams): declared for finish() and the listings with ir's
  // default and description, not read again here.
  void elsewhere(const ir::LoweringParam& p);
  // A nested object of parameters ("timing" of "dram"), read by the
  // returned reader (its own finish()); declared here as type "object".
  ParamReader section(const std::string& name, std::string description);

  // A free-form object (another tool's configuration passed through, e.g.
  // Ramulator's), declared as type "object": the section's value, or null
  // when absent or not an object (reported). Its keys are not checked here.
  const boost::json::object* object(const std::string& name, std::string description,
                                    const char* what = "an object");
  // False for a reader that only declares (listings): a model may skip
  // checks that cost more than reading its values.
  bool reading() const;
  // An error about parameter `name` found by the component itself (e.g. two
  // values that clash), worded as a bad value is.
  void fail(std::string_view name, const std::string& what);
  // Each key of the section nothing declared is an error. `elsewhere(key)`
  // names the other models that have it, if any ("banked").
  void finish(const std::function<std::string(std::string_view key)>& elsewhere = {});

  // The errors reported so far (for a caller that stops at the first).
  std::size_t error_count() const;
  // A free-form section (e.g. another simulator's keys, noc.booksim): the
  // keys it holds, in order, and a key's raw value (null when absent), so
  // that the component can declare each as what it is.
  std::vector<std::string> keys() const;
  const boost::json::value* peek(const std::string& key) const;
  // Every parameter declared so far, this reader's and its sections'.
  const std::vector<ParamInfo>& declared() const { return shared_->decls; }

  // Used by Param::get().
  std::int64_t read_integer(ParamInfo info, std::int64_t lo, std::int64_t hi,
                            std::int64_t fallback, std::optional<std::int64_t> also = {});
  double read_number(ParamInfo info, double lo, double hi, bool zero_ok, double fallback);
  bool read_flag(ParamInfo info, bool fallback);
  std::string read_choice(ParamInfo info, const std::vector<std::string>& choices,
                          const std::string& fallback);
  std::string read_text(ParamInfo info, const std::string& fallback);

 private:
  struct Shared {
    ir::ConfigErrors* errors = nullptr;  // null: listing
    std::vector<ParamInfo> decls;
  };
  ParamReader(const boost::json::object* section, std::string origin, std::string pointer,
              std::string component, std::shared_ptr<Shared> shared);
  // The value of `name` in the section, after declaring it; null if absent.
  const boost::json::value* declare(ParamInfo& info);
  // The one JSON reader (ir/json_reader.h), its messages reported as
  // parameter `name` of this component.
  ir::JsonReader values(const std::string& name);

  const boost::json::object* section_;
  std::string origin_, pointer_, component_;
  std::string model_kind_, model_;  // empty until begin_model()
  std::string prefix_;              // a section's: "timing."
  std::shared_ptr<Shared> shared_;
  std::vector<std::string> names_;  // declared here, in order
};

// For the DRAM and NoC registries (Info: `name`, `configure(ParamReader&)`).
// The models other than `except` that declare `key`, comma-separated, for
// a "does not apply" message.
template <typename Info>
std::string models_declaring(const std::vector<Info>& models, const std::string& component,
                             const std::string& kind, std::string_view key,
                             const std::string& except) {
  std::string out;
  for (const Info& m : models) {
    if (m.name == except) continue;
    ParamReader r(component);
    r.begin_model(kind, m.name);
    m.configure(r);
    for (const ParamInfo& p : r.declared())
      if (p.name == key) {
        out += (out.empty() ? "" : ", ") + m.name;
        break;
      }
  }
  return out;
}
// `own` (the component's own declarations), then each model's.
template <typename Info>
std::vector<ParamInfo> with_model_params(std::vector<ParamInfo> own,
                                         const std::vector<Info>& models,
                                         const std::string& component, const std::string& kind) {
  for (const Info& m : models) {
    ParamReader r(component);
    r.begin_model(kind, m.name);
    m.configure(r);
    own.insert(own.end(), r.declared().begin(), r.declared().end());
  }
  return own;
}

template <typename T>
T Param<T>::get() {
  ParamInfo info;
  info.name = name_;
  info.unit = unit_;
  info.description = desc_;
  if constexpr (std::is_same_v<T, bool>) {
    return r_.read_flag(std::move(info), fallback_);
  } else if constexpr (std::is_integral_v<T>) {
    std::optional<std::int64_t> also;
    if (also_) also = static_cast<std::int64_t>(*also_);
    return static_cast<T>(r_.read_integer(std::move(info), lo_, hi_, fallback_, also));
  } else if constexpr (std::is_floating_point_v<T>) {
    return r_.read_number(std::move(info), lo_, hi_, zero_ok_, fallback_);
  } else {
    static_assert(std::is_same_v<T, std::string>,
                  "a parameter is an integer, number, flag or string");
    return choices_.empty() ? r_.read_text(std::move(info), fallback_)
                            : r_.read_choice(std::move(info), choices_, fallback_);
  }
}

}  // namespace gemini::sim
