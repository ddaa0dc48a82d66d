#pragma once
// The sweep file's reader (spec.h, load_sweep), shared by the files that
// read its parts: spec.cpp (the file, `hw`, `inputs`), expand.cpp (${VAR}
// and {column} expansion in paths), axes.cpp (`axes` and zip groups);
// manifest.h reads an input's manifest.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gemini/ir/json_reader.h"
#include "gemini/sweep/spec.h"
#include "manifest.h"

namespace gemini::sweep::detail {

// One member's JSON pointer token (RFC 6901).
std::string token(std::string_view key);

struct Reader {
  std::string file;           // the sweep file, for messages
  std::filesystem::path dir;  // relative paths start here
  LoadOptions options;
  std::vector<std::string>& errors;

  void fail(const std::string& pointer, const std::string& what) {
    errors.push_back(file + ":" + pointer + ": " + what);
  }
  // Every value's type and range, through the one JSON reader; `head`
  // prefixes its messages (an axis value's name).
  ir::JsonReader values(std::string head = {}) {
    return ir::JsonReader(
        [this, head](const std::string& at, const std::string& m) { fail(at, head + m); });
  }

  // ${VAR} and ${VAR:-default} from the environment; then relative to the
  // sweep file's folder (expand.cpp).
  std::optional<std::string> path(const std::string& pointer, const std::string& s);
  void load_hw(const boost::json::value* v, SweepSpec& spec);
  // A configuration by name or path: its JSON object and where it is.
  std::optional<std::pair<boost::json::object, std::string>> config(const std::string& pointer,
                                                                    const std::string& name);
  void load_inputs(const boost::json::value* v, SweepSpec& spec);
  // An entry of `inputs` as written (spec.cpp).
  struct InputEntry {
    std::string ir_pattern, model_pattern, manifest_path, estimate_column, hardware;
    std::optional<std::int64_t> estimate;
    std::optional<std::pair<boost::json::object, std::string>> own_hw;
  };
  bool input_entry(const std::string& at, const boost::json::value& v, InputEntry& e);
  std::vector<std::string> matching_files(const std::string& at, const std::string& pattern);
  bool input_of(const std::string& at, const InputEntry& e, const std::string& f,
                const Manifest& manifest, const SweepSpec& spec, Input& in);
  // An input's own base configuration (its `hw`: a name, a file or an
  // object), checked; nullopt when it is not one (reported).
  std::optional<std::pair<boost::json::object, std::string>> input_hw(const std::string& pointer,
                                                                      const boost::json::value& v);
  // The hardware point of `in` from its manifest row (`dialect`: the
  // columns), checked on its base; false when it has none (reported).
  bool hardware_point(const std::string& at, Input& in, const std::string& dialect,
                      Manifest::const_iterator row, Manifest::const_iterator none,
                      const SweepSpec& spec);
  void load_axes(const boost::json::value* v, SweepSpec& spec);  // axes.cpp
  bool axis_values(const std::string& pointer, const std::string& name, const boost::json::value& v,
                   Axis& axis);
  // Checks each value of `axis` on the base configuration; a value of a
  // zip group's axis that fails alone is checked again with the group's
  // other parameters at the same index (a DRAM model and its parameters).
  void check_axis(const std::string& pointer, Axis& axis, const SweepSpec& spec);
  bool zipped_ok(const Axis& axis, std::size_t i, const SweepSpec& spec);
};

// An input's name: its file name without .json / .gz (expand.cpp).
std::string label_of(const std::string& path);
// "{stem}", "{name}" and the manifest row's columns in `s` (a model path);
// nullopt with the first unknown name in `missing` (expand.cpp).
std::optional<std::string> substitute(const std::string& s,
                                      const std::map<std::string, std::string>& vars,
                                      std::string& missing);

}  // namespace gemini::sweep::detail
