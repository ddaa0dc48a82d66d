#pragma once
// Parameters a component declares and reads from its section of the
// hardware configuration: the one configuration reader. ir reads its own
// components through it (mesh, clock, l2, wl0, pe, vp, core:
// hw_config.cpp), the simulator the sections ir keeps raw (RawComponent:
// the DRAM ports, the NoC and every registered DRAM or NoC model, energy,
// chiplets, silicon).
//
// Contract: a parameter is declared once, where it is read, with its name,
// type, default, range or choices, unit and a one-line description:
//
//   const double latency_ns = r.param<double>("latency_ns")
//                                 .unit(Unit::nanoseconds).range(0, 1e9).fallback(50)
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

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/json_reader.h"
#include "gemini/ir/unit.h"

namespace gemini::ir {

// A component whose parameters belong to the simulator (gemini/sim/params.h:
// the registered models of dram_model.h and noc_model.h, the energy table
// of energy_table.h): ir reads only what the
// lowering needs and keeps the JSON object as written, with where it is, for
// the simulator to read, check and name in its messages.
struct RawComponent {
  boost::json::object json;  // empty when the configuration has no such component
  std::string origin;        // the file (or text) it came from; "" when built in code
  std::string pointer;       // its JSON pointer: "/noc", "/dram"
};

// The keys of the simulator's `noc` and `dram` sections that ir reads for
// the lowering (the simulator acknowledges them, ParamReader::elsewhere,
// and lists them with this description and default): each declared here
// once, read by read_raw in hw_config.cpp.
struct LoweringParam {
  const char* component;  // "noc", "dram"
  const char* name;
  bool fallback;
  const char* description;
};

// One declared parameter, as listings show it.
struct ParamInfo {
  std::string name;         // nested ones as "timing.cl", the sweep's path below the component
  std::string type;         // "integer", "number", "true / false", "string", "object"
  std::string range;        // "[1, 65536]", "0 or [0.001, 1e+06]", "simple, banked"; "" any
  Unit unit = Unit::none;   // of the one vocabulary (unit.h); none for what is not a number
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
  Param& unit(Unit u) {
    unit_ = u;
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
  std::string name_, desc_;
  Unit unit_ = Unit::none;
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
  ParamReader(const RawComponent& raw, std::string component, ConfigErrors& errors);
  // Reads `section` (null: absent) of `origin` as component `component`
  // at JSON pointer "/component".
  ParamReader(const boost::json::object* section, std::string origin, std::string component,
              ConfigErrors& errors);
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
  // kLoweringParams): declared for finish() and the listings with ir's
  // default and description, not read again here.
  void elsewhere(const LoweringParam& p);
  // A nested object of parameters ("timing" of "dram"), read by the
  // returned reader (its own finish()); declared here as type "object".
  ParamReader section(const std::string& name, std::string description);

  // A free-form object (another tool's configuration passed through, e.g.
  // Ramulator's), declared as type "object": the section's value, or null
  // when absent or not an object (reported). Its keys are not checked here.
  const boost::json::object* object(const std::string& name, std::string description,
                                    const char* what = "an object");
  // A list (e.g. l2.ring_regions), declared as type "list": the section's
  // value, or null when absent or not an array (reported as expected
  // `what`). Its elements are the component's to check (fail()).
  const boost::json::array* list(const std::string& name, std::string description,
                                 const char* what);
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
    ConfigErrors* errors = nullptr;  // null: listing
    std::vector<ParamInfo> decls;
  };
  ParamReader(const boost::json::object* section, std::string origin, std::string pointer,
              std::string component, std::shared_ptr<Shared> shared);
  // The value of `name` in the section, after declaring it; null if absent.
  const boost::json::value* declare(ParamInfo& info);
  // A free-form value (an object, a list) declared as `type`, its default
  // `empty`: declare()'s.
  const boost::json::value* declare_value(const std::string& name, const char* type,
                                          const char* empty, std::string description);
  // The one JSON reader (ir/json_reader.h), its messages reported as
  // parameter `name` of this component.
  JsonReader values(const std::string& name);

  const boost::json::object* section_;
  std::string origin_, pointer_, component_;
  std::string model_kind_, model_;  // empty until begin_model()
  std::string prefix_;              // a section's: "timing."
  std::shared_ptr<Shared> shared_;
  std::vector<std::string> names_;  // declared here, in order
};

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

}  // namespace gemini::ir
