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

namespace {

// One member's JSON pointer token (RFC 6901).
std::string token(std::string_view key) { return ir::json_pointer_token(key); }

struct Reader {
  std::string file;  // the sweep file, for messages
  fs::path dir;      // relative paths start here
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
  // sweep file's folder.
  std::optional<std::string> path(const std::string& pointer, const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
      if (s.compare(i, 2, "${") != 0) {
        out += s[i++];
        continue;
      }
      const std::size_t end = s.find('}', i);
      if (end == std::string::npos) {
        fail(pointer, "unterminated ${ in \"" + s + "\"");
        return std::nullopt;
      }
      std::string var = s.substr(i + 2, end - i - 2), fallback;
      bool has_fallback = false;
      if (const std::size_t d = var.find(":-"); d != std::string::npos) {
        fallback = var.substr(d + 2);
        var = var.substr(0, d);
        has_fallback = true;
      }
      const char* v = std::getenv(var.c_str());
      if (v && *v) {
        out += v;
      } else if (has_fallback) {
        out += fallback;
      } else {
        fail(pointer, std::string("environment variable ")
                          .append(var)
                          .append(" is not set (in \"")
                          .append(s)
                          .append("\")"));
        return std::nullopt;
      }
      i = end + 1;
    }
    fs::path p(out);
    if (p.is_relative()) p = dir / p;
    return p.lexically_normal().string();
  }

  void load_hw(const json::value* v, SweepSpec& spec) {
    if (!v) {
      spec.base_hw_origin = "(gemini's defaults)";
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
    std::vector<std::string> errs;
    if (!detail::hw_ok(options.check_hw, json::serialize(spec.base_hw), spec.base_hw_origin, errs))
      for (const std::string& e : errs) errors.push_back(e);
  }

  // A configuration by name or path: its JSON object and where it is.
  std::optional<std::pair<json::object, std::string>> config(const std::string& pointer,
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

  void load_inputs(const json::value* v, SweepSpec& spec);
  void load_axes(const json::value* v, SweepSpec& spec);
  bool axis_values(const std::string& pointer, const std::string& name, const json::value& v,
                   Axis& axis);
  // Checks each value of `axis` on the base configuration; a value of a
  // zip group's axis that fails alone is checked again with the group's
  // other parameters at the same index (a DRAM model and its parameters).
  void check_axis(const std::string& pointer, Axis& axis, const SweepSpec& spec);
  bool zipped_ok(const Axis& axis, std::size_t i, const SweepSpec& spec);
};

// The manifest's rows by file name (the corpus manifest.csv: file, ...,
// set_latency_cycles, ...).
using Manifest = std::map<std::string, std::map<std::string, std::string>>;

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else if (c != '\r') {
      cells.back() += c;
    }
  }
  return cells;
}

bool read_manifest(const std::string& path, Manifest& m, std::string& error) {
  std::string text;
  if (!detail::read_text(path, text, error)) return false;
  std::vector<std::string> header;
  std::size_t line_no = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.empty()) continue;
    std::vector<std::string> cells = split_csv_line(line);
    if (header.empty()) {
      header = cells;
      if (std::find(header.begin(), header.end(), "file") == header.end()) {
        error = path + ":1: the manifest has no \"file\" column";
        return false;
      }
      continue;
    }
    if (cells.size() != header.size()) {
      error = path + ":" + std::to_string(line_no) + ": " + std::to_string(cells.size()) +
              " cells, the header has " + std::to_string(header.size());
      return false;
    }
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < cells.size(); ++i) row[header[i]] = cells[i];
    m[row["file"]] = std::move(row);
  }
  return true;
}

std::string label_of(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  for (const char* ext : {".gz", ".json"})
    if (name.size() > std::string_view(ext).size() &&
        name.compare(name.size() - std::string_view(ext).size(), std::string::npos, ext) == 0)
      name.resize(name.size() - std::string_view(ext).size());
  return name;
}

// "{stem}", "{name}" and the manifest row's columns, in a model path.
std::optional<std::string> substitute(const std::string& s,
                                      const std::map<std::string, std::string>& vars,
                                      std::string& missing) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t end = s.find('}', i);
    if (s[i] != '{' || end == std::string::npos) {
      out += s[i++];
      continue;
    }
    if (i > 0 && s[i - 1] == '$') {  // ${VAR}: the environment's, expanded later
      out += s.substr(i, end + 1 - i);
      i = end + 1;
      continue;
    }
    const std::string key = s.substr(i + 1, end - i - 1);
    const auto it = vars.find(key);
    if (it == vars.end()) {
      missing = key;
      return std::nullopt;
    }
    out += it->second;
    i = end + 1;
  }
  return out;
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
    std::string ir_pattern, model_pattern, manifest_path, estimate_column = "set_latency_cycles";
    std::optional<std::int64_t> estimate;
    if (a[i].is_string()) {
      ir_pattern = std::string(a[i].get_string());
    } else if (a[i].is_object()) {
      const json::object& o = a[i].get_object();
      for (const auto& kv : o) {
        const std::string k(kv.key());
        const json::value& x = kv.value();
        const std::string kat = at + "/" + token(k);
        if (k == "ir" || k == "model" || k == "manifest" || k == "estimate_column") {
          auto str = values().string(x, kat);
          if (!str) continue;
          (k == "ir"         ? ir_pattern
           : k == "model"    ? model_pattern
           : k == "manifest" ? manifest_path
                             : estimate_column) = std::move(*str);
        } else if (k == "estimate_cycles") {
          if (auto e = values().integer(x, kat, 0)) estimate = *e;
        } else {
          fail(kat, "unknown member \"" + k +
                        "\" of an input (known: ir, model, manifest, estimate_column, "
                        "estimate_cycles)");
        }
      }
      if (ir_pattern.empty()) fail(at, "an input needs \"ir\" (an IR file or a glob)");
    } else {
      fail(at, "expected an IR file, a glob or an object {\"ir\": ..., \"model\": ...}");
      continue;
    }
    if (ir_pattern.empty()) continue;
    const auto pattern = path(at, ir_pattern);
    if (!pattern) continue;
    std::vector<std::string> files;
    glob_t g{};
    const int rc = ::glob(pattern->c_str(), GLOB_NOSORT | GLOB_BRACE, nullptr, &g);
    if (rc == 0)
      for (std::size_t k = 0; k < g.gl_pathc; ++k) files.emplace_back(g.gl_pathv[k]);
    globfree(&g);
    std::sort(files.begin(), files.end());
    std::error_code ec;
    files.erase(std::remove_if(files.begin(), files.end(),
                               [&](const std::string& f) { return !fs::is_regular_file(f, ec); }),
                files.end());
    if (files.empty()) {
      fail(at, "\"" + *pattern + "\" matches no file");
      continue;
    }
    Manifest manifest;
    if (!manifest_path.empty()) {
      const auto mp = path(at + "/manifest", manifest_path);
      std::string error;
      if (!mp) continue;
      if (!read_manifest(*mp, manifest, error)) {
        fail(at + "/manifest", error);
        continue;
      }
    }
    if (estimate && files.size() > 1)
      fail(at + "/estimate_cycles", "one estimate for " + std::to_string(files.size()) +
                                        " files: give each its own input, or a manifest");
    for (const std::string& f : files) {
      Input in;
      in.ir = fs::absolute(f).lexically_normal().string();
      in.label = label_of(f);
      if (!seen.insert(in.ir).second) {
        fail(at, in.ir + " is an input twice");
        continue;
      }
      std::map<std::string, std::string> vars{{"stem", in.label},
                                              {"name", fs::path(f).filename().string()}};
      const auto row = manifest.find(fs::path(f).filename().string());
      if (row != manifest.end()) vars.insert(row->second.begin(), row->second.end());
      in.estimate_cycles = estimate;
      if (!in.estimate_cycles && row != manifest.end()) {
        const auto e = row->second.find(estimate_column);
        if (e == row->second.end()) {
          fail(at + "/manifest", "the manifest has no column \"" + estimate_column + "\"");
        } else {
          char* end = nullptr;
          const long long n = std::strtoll(e->second.c_str(), &end, 10);
          if (end && *end == '\0' && !e->second.empty() && n >= 0) in.estimate_cycles = n;
        }
      }
      if (!model_pattern.empty()) {
        std::string missing;
        const auto m = substitute(model_pattern, vars, missing);
        if (!m) {
          fail(at + "/model", "no value for {" + missing + "} for " + in.label +
                                  " ({stem}, {name} or a column of the manifest row)");
          continue;
        }
        const auto mp = path(at + "/model", *m);
        if (!mp) continue;
        if (!fs::is_regular_file(*mp, ec)) {
          fail(at + "/model", "model file " + *mp + " (for " + in.label + ") does not exist");
          continue;
        }
        in.model = fs::absolute(*mp).lexically_normal().string();
      }
      spec.inputs.push_back(std::move(in));
    }
  }
}

bool Reader::axis_values(const std::string& pointer, const std::string& name, const json::value& v,
                         Axis& axis) {
  axis.name = name;
  std::string error;
  if (!detail::expand_values(v, axis.values, error)) {
    fail(pointer, "axis \"" + name + "\": " + error);
    return false;
  }
  return true;
}

void Reader::check_axis(const std::string& pointer, Axis& axis, const SweepSpec& spec) {
  for (std::size_t i = 0; i < axis.values.size(); ++i) {
    const json::value& v = axis.values[i];
    const std::string at = pointer + "/" + std::to_string(i);
    const std::string head = "axis \"" + axis.name + "\", value " + json::serialize(v) + ": ";
    if (axis.name == "functional") {
      values(head).boolean(v, at);
    } else if (axis.name == "seed") {
      values(head).integer(v, at, 0);
    } else if (axis.name == "hw") {
      const auto name = values(head + "a configuration name or file: ").string(v, at);
      if (!name) continue;
      auto c = config(at, *name);
      if (!c) continue;
      std::vector<std::string> errs;
      if (!detail::hw_ok(options.check_hw, json::serialize(c->first), c->second, errs))
        for (const std::string& e : errs) fail(at, head + e);
      axis.hw_configs.push_back(std::move(c->first));
    } else {
      json::object hw = spec.base_hw;
      std::string error;
      std::vector<std::string> errs;
      if (!detail::set_param(hw, axis.name, v, error))
        fail(at, head + error);
      else if (!detail::hw_ok(options.check_hw, json::serialize(hw), "", errs) &&
               !zipped_ok(axis, i, spec))
        for (const std::string& e : errs) fail(at, head + detail::strip_origin(e));
    }
  }
}

bool Reader::zipped_ok(const Axis& axis, std::size_t i, const SweepSpec& spec) {
  if (axis.zip == 0) return false;
  json::object hw = spec.base_hw;
  std::string error;
  for (const Axis& a : spec.axes)
    if (a.zip == axis.zip && !a.is_setting() &&
        (i >= a.values.size() || !detail::set_param(hw, a.name, a.values[i], error)))
      return false;
  std::vector<std::string> errs;
  return detail::hw_ok(options.check_hw, json::serialize(hw), "", errs);
}

void Reader::load_axes(const json::value* v, SweepSpec& spec) {
  if (!v) return;  // no axes: one point per input
  if (!v->is_object()) {
    fail("/axes", "expected an object of axes {\"dram.multicast\": [false, true], ...}");
    return;
  }
  std::set<std::string> names;
  std::vector<std::string> ats;  // per axis of spec.axes: its pointer
  int zips = 0;
  auto add = [&](const std::string& at, const std::string& name, const json::value& values,
                 int zip) {
    Axis axis;
    if (!names.insert(name).second) {
      fail(at, "axis \"" + name + "\" is given twice");
      return;
    }
    if (!axis_values(at, name, values, axis)) return;
    axis.zip = zip;
    if (zip == 0) check_axis(at, axis, spec);  // a zip group's: once it is whole
    spec.axes.push_back(std::move(axis));
    ats.push_back(at);
  };
  for (const auto& kv : v->get_object()) {
    const std::string k(kv.key());
    const std::string at = "/axes/" + token(k);
    if (k != "zip") {
      add(at, k, kv.value(), 0);
      continue;
    }
    std::vector<std::pair<std::string, const json::object*>> groups;
    if (kv.value().is_object()) {
      groups.emplace_back(at, &kv.value().get_object());
    } else if (kv.value().is_array()) {
      for (std::size_t g = 0; g < kv.value().get_array().size(); ++g) {
        const json::value& x = kv.value().get_array()[g];
        if (x.is_object())
          groups.emplace_back(at + "/" + std::to_string(g), &x.get_object());
        else
          fail(at + "/" + std::to_string(g), "expected an object of axes that vary together");
      }
    } else {
      fail(at, "expected an object of axes that vary together (or a list of such objects)");
    }
    for (const auto& [gat, group] : groups) {
      const int zip = ++zips;
      const std::size_t first = spec.axes.size();
      for (const auto& m : *group)
        add(gat + "/" + token(m.key()), std::string(m.key()), m.value(), zip);
      for (std::size_t i = first + 1; i < spec.axes.size(); ++i)
        if (spec.axes[i].values.size() != spec.axes[first].values.size())
          fail(gat, "the axes of a zip group need as many values each: \"" + spec.axes[first].name +
                        "\" has " + std::to_string(spec.axes[first].values.size()) + ", \"" +
                        spec.axes[i].name + "\" " + std::to_string(spec.axes[i].values.size()));
      for (std::size_t i = first; i < spec.axes.size(); ++i) check_axis(ats[i], spec.axes[i], spec);
    }
  }
}

}  // namespace

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
