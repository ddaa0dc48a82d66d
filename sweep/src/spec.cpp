// The sweep file (spec.h): its members, the base configuration (`hw`) and
// the inputs (IR globs, models, manifests); the reader's other parts are
// expand.cpp (paths), axes.cpp (axes) and manifest.cpp (manifests).
#include "gemini/sweep/spec.h"

#include <glob.h>

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "axis_values.h"
#include "gemini/ir/json_document.h"
#include "gemini/ir/json_reader.h"
#include "json_io.h"
#include "manifest.h"
#include "spec_reader.h"

namespace gemini::sweep {
namespace json = boost::json;
namespace fs = std::filesystem;

std::string find_config(const std::string& name, const std::vector<std::string>& dirs) {
  std::error_code ec;
  if (fs::is_regular_file(name, ec)) return name;
  if (name.empty() || fs::path(name).is_absolute()) return "";
  for (const std::string& d : dirs)
    for (const std::string& candidate : {name, name + ".json"})
      if (fs::is_regular_file(fs::path(d) / candidate, ec))
        return (fs::path(d) / candidate).string();
  return "";
}

namespace detail {

std::string token(std::string_view key) { return ir::json_pointer_token(key); }

void Reader::load_hw(const json::value* v, SweepSpec& spec) {
  if (!v) {
    spec.base_hw_origin = ir::kDefaultsOrigin;
    return;
  }
  if (v->is_object()) {
    spec.base_hw = v->get_object();
    spec.base_hw_origin = file + ":/hw";
  } else if (v->is_string()) {
    auto loaded = config("/hw", std::string(v->get_string()));
    if (!loaded) return;
    spec.base_hw = std::move(loaded->first);
    spec.base_hw_origin = loaded->second;
  } else {
    fail("/hw", "expected a configuration name, a file or an object, got " + json::serialize(*v));
    return;
  }
  ir::ConfigErrors errs;
  if (!detail::hw_ok(options.check_hw, json::serialize(spec.base_hw), spec.base_hw_origin, {},
                     errs))
    for (const ir::Diagnostic& e : errs) errors.push_back(ir::config_text(e));
}

std::optional<std::pair<json::object, std::string>> Reader::config(const std::string& pointer,
                                                                   const std::string& name) {
  std::vector<std::string> dirs{dir.string()};
  dirs.insert(dirs.end(), options.config_dirs.begin(), options.config_dirs.end());
  const auto expanded = path(pointer, name);
  if (!expanded) return std::nullopt;
  std::string found = find_config(*expanded, {});
  if (found.empty()) found = find_config(name, dirs);
  if (found.empty()) {
    std::string where;
    for (const std::string& d : dirs) where += (where.empty() ? "" : ", ") + d;
    fail(pointer,
         "no hardware configuration \"" + name + "\" (a file, or a name in " + where + ")");
    return std::nullopt;
  }
  json::value cv;
  std::string error;
  if (!detail::read_json(found, cv, error)) {
    fail(pointer, error);
    return std::nullopt;
  }
  if (!cv.is_object()) {
    fail(pointer, found + ": expected a JSON object of components");
    return std::nullopt;
  }
  return std::make_pair(std::move(cv.get_object()), found);
}

std::optional<std::pair<json::object, std::string>> Reader::input_hw(const std::string& pointer,
                                                                     const json::value& v) {
  std::optional<std::pair<json::object, std::string>> c;
  if (v.is_object()) {
    c = std::make_pair(v.get_object(), file + ":" + pointer);
  } else if (v.is_string()) {
    c = config(pointer, std::string(v.get_string()));
  } else {
    fail(pointer, "expected a configuration name, a file or an object, got " + json::serialize(v));
  }
  if (!c) return std::nullopt;
  ir::ConfigErrors errs;
  if (!detail::hw_ok(options.check_hw, json::serialize(c->first), c->second, {}, errs)) {
    for (const ir::Diagnostic& e : errs) errors.push_back(ir::config_text(e));
    return std::nullopt;
  }
  return c;
}

bool Reader::hardware_point(const std::string& at, Input& in, const std::string& dialect,
                            Manifest::const_iterator row, Manifest::const_iterator none,
                            const SweepSpec& spec) {
  const std::string name = fs::path(in.ir).filename().string();
  if (row == none) {
    fail(at + "/manifest", "the manifest has no row for " + name +
                               " (its hardware point: \"hardware\": \"" + dialect + "\")");
    return false;
  }
  in.hardware = dialect;
  in.manifest_row = row->second;
  std::string error;
  const auto p =
      gemini_hardware_point(in.manifest_row, in.base_hw ? *in.base_hw : spec.base_hw, error);
  if (!p) {
    fail(at + "/manifest", name + ": " + error);
    return false;
  }
  in.scheduler = p->figures;
  return true;
}

// One entry of `inputs`: a pattern, or an object's members; false where
// it names no file pattern (reported).
bool Reader::input_entry(const std::string& at, const json::value& v, InputEntry& e) {
  if (v.is_string()) {
    e.ir_pattern = std::string(v.get_string());
    return true;
  }
  if (!v.is_object()) {
    fail(at, "expected an IR file, a glob or an object {\"ir\": ..., \"model\": ...}");
    return false;
  }
  for (const auto& kv : v.get_object()) {
    const std::string k(kv.key());
    const json::value& x = kv.value();
    const std::string kat = at + "/" + token(k);
    if (k == "ir" || k == "model" || k == "manifest" || k == "estimate_column" || k == "hardware") {
      auto str = values().string(x, kat);
      if (!str) continue;
      (k == "ir"                ? e.ir_pattern
       : k == "model"           ? e.model_pattern
       : k == "manifest"        ? e.manifest_path
       : k == "estimate_column" ? e.estimate_column
                                : e.hardware) = std::move(*str);
    } else if (k == "estimate_cycles") {
      if (auto n = values().integer(x, kat, 0)) e.estimate = *n;
    } else if (k == "hw") {
      e.own_hw = input_hw(kat, x);
    } else {
      fail(kat, "unknown member \"" + k +
                    "\" of an input (known: ir, model, manifest, estimate_column, "
                    "estimate_cycles, hw, hardware)");
    }
  }
  if (e.ir_pattern.empty()) fail(at, "an input needs \"ir\" (an IR file or a glob)");
  if (!e.hardware.empty() && e.hardware != kGeminiHardware)
    fail(at + "/hardware", "expected \"" + std::string(kGeminiHardware) +
                               "\" (the Gemini scheduler's manifest columns), got \"" + e.hardware +
                               "\"");
  if (!e.hardware.empty() && e.manifest_path.empty())
    fail(at + "/hardware", "the hardware points come from a manifest: give \"manifest\"");
  return !e.ir_pattern.empty();
}

// The regular files `pattern` matches, sorted (none: reported).
std::vector<std::string> Reader::matching_files(const std::string& at, const std::string& pattern) {
  std::vector<std::string> files;
  glob_t g{};
  const int rc = ::glob(pattern.c_str(), GLOB_NOSORT | GLOB_BRACE, nullptr, &g);
  if (rc == 0)
    for (std::size_t k = 0; k < g.gl_pathc; ++k) files.emplace_back(g.gl_pathv[k]);
  globfree(&g);
  std::sort(files.begin(), files.end());
  std::error_code ec;
  files.erase(std::remove_if(files.begin(), files.end(),
                             [&](const std::string& f) { return !fs::is_regular_file(f, ec); }),
              files.end());
  if (files.empty()) fail(at, "\"" + pattern + "\" matches no file");
  return files;
}

// The input of file `f` of entry `e` (its manifest row, estimate, hardware
// point and model); false where it is none (reported).
bool Reader::input_of(const std::string& at, const InputEntry& e, const std::string& f,
                      const Manifest& manifest, const SweepSpec& spec, Input& in) {
  in.ir = fs::absolute(f).lexically_normal().string();
  in.label = label_of(f);
  std::map<std::string, std::string> vars{{"stem", in.label},
                                          {"name", fs::path(f).filename().string()}};
  const auto row = manifest.find(fs::path(f).filename().string());
  if (row != manifest.end()) vars.insert(row->second.begin(), row->second.end());
  in.estimate_cycles = e.estimate;
  if (e.own_hw) {
    in.base_hw = e.own_hw->first;
    in.base_hw_origin = e.own_hw->second;
  }
  if (!e.hardware.empty() && !hardware_point(at, in, e.hardware, row, manifest.end(), spec))
    return false;
  if (!in.estimate_cycles && in.scheduler && in.scheduler->cycles && e.estimate_column.empty())
    in.estimate_cycles = std::llround(*in.scheduler->cycles);
  if (!in.estimate_cycles && row != manifest.end()) {
    const std::string column = e.estimate_column.empty() ? "set_latency_cycles" : e.estimate_column;
    const auto c = row->second.find(column);
    if (c == row->second.end()) {
      fail(at + "/manifest", "the manifest has no column \"" + column + "\"");
    } else {
      char* end = nullptr;
      const long long n = std::strtoll(c->second.c_str(), &end, 10);
      if (end && *end == '\0' && !c->second.empty() && n >= 0) in.estimate_cycles = n;
    }
  }
  if (e.model_pattern.empty()) return true;
  std::string missing;
  const auto m = substitute(e.model_pattern, vars, missing);
  if (!m) {
    fail(at + "/model", "no value for {" + missing + "} for " + in.label +
                            " ({stem}, {name} or a column of the manifest row)");
    return false;
  }
  const auto mp = path(at + "/model", *m);
  if (!mp) return false;
  std::error_code ec;
  if (!fs::is_regular_file(*mp, ec)) {
    fail(at + "/model", "model file " + *mp + " (for " + in.label + ") does not exist");
    return false;
  }
  in.model = fs::absolute(*mp).lexically_normal().string();
  return true;
}

void Reader::load_inputs(const json::value* v, SweepSpec& spec) {
  if (!v || !v->is_array() || v->get_array().empty()) {
    fail("/inputs", "expected a non-empty list of inputs (IR files or globs)");
    return;
  }
  std::set<std::string> seen;
  const json::array& a = v->get_array();
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string at = "/inputs/" + std::to_string(i);
    InputEntry e;
    if (!input_entry(at, a[i], e)) continue;
    const auto pattern = path(at, e.ir_pattern);
    if (!pattern) continue;
    const std::vector<std::string> files = matching_files(at, *pattern);
    if (files.empty()) continue;
    Manifest manifest;
    if (!e.manifest_path.empty()) {
      const auto mp = path(at + "/manifest", e.manifest_path);
      std::string error;
      if (!mp) continue;
      if (!read_manifest(*mp, manifest, error)) {
        fail(at + "/manifest", error);
        continue;
      }
    }
    if (e.estimate && files.size() > 1)
      fail(at + "/estimate_cycles", "one estimate for " + std::to_string(files.size()) +
                                        " files: give each its own input, or a manifest");
    for (const std::string& f : files) {
      const std::string abs = fs::absolute(f).lexically_normal().string();
      if (!seen.insert(abs).second) {
        fail(at, abs + " is an input twice");
        continue;
      }
      Input in;
      if (input_of(at, e, f, manifest, spec, in)) spec.inputs.push_back(std::move(in));
    }
  }
}

}  // namespace detail

using detail::label_of;
using detail::Reader;
using detail::token;

std::optional<SweepSpec> load_sweep(const std::string& path, const LoadOptions& options,
                                    std::vector<std::string>& errors) {
  const std::size_t before = errors.size();
  json::value root;
  std::string error;
  if (!detail::read_json(path, root, error)) {
    errors.push_back(error);
    return std::nullopt;
  }
  if (!root.is_object()) {
    errors.push_back(path + ": expected a JSON object (docs/sweeps.md)");
    return std::nullopt;
  }
  Reader r{path, fs::absolute(path).parent_path(), options, errors};
  SweepSpec spec;
  spec.path = path;
  spec.name = label_of(path);
  spec.check_hw = options.check_hw;
  const json::object& o = root.get_object();
  for (const auto& kv : o) {
    const std::string k(kv.key());
    if (k == "name" || k == "description") {
      if (auto str = r.values().string(kv.value(), "/" + k))
        (k == "name" ? spec.name : spec.description) = std::move(*str);
    } else if (k != "hw" && k != "inputs" && k != "axes") {
      r.fail("/" + token(k),
             "unknown member \"" + k + "\" (known: name, description, hw, inputs, axes)");
    }
  }
  r.load_hw(o.if_contains("hw"), spec);
  r.load_inputs(o.if_contains("inputs"), spec);
  // Inputs of one name in different folders: their folder tells them apart.
  std::map<std::string, int> uses;
  for (const Input& in : spec.inputs) ++uses[in.label];
  for (Input& in : spec.inputs)
    if (uses[in.label] > 1)
      in.label = fs::path(in.ir).parent_path().filename().string() + "/" + in.label;
  if (errors.size() == before) r.load_axes(o.if_contains("axes"), spec);
  for (const Axis& a : spec.axes) {
    if (a.name != "functional") continue;
    const bool any = std::any_of(a.values.begin(), a.values.end(),
                                 [](const json::value& v) { return v.is_bool() && v.get_bool(); });
    std::string without;
    for (const Input& in : spec.inputs)
      if (in.model.empty()) without += (without.empty() ? "" : ", ") + in.label;
    if (any && !without.empty())
      r.fail("/axes/functional",
             "a functional run needs each input's model file; these have none: " + without);
  }
  if (errors.size() != before) return std::nullopt;
  return spec;
}

}  // namespace gemini::sweep
