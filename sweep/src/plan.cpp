#include "gemini/sweep/plan.h"

#include <boost/json/serialize.hpp>
#include <filesystem>
#include <map>

#include "axis_values.h"
#include "json_io.h"

namespace gemini::sweep {
namespace json = boost::json;
namespace fs = std::filesystem;

std::vector<std::string> Point::sim_args(const std::string& dir, const std::string& report) const {
  // --progress: a line every few seconds in the point's log, so that a
  // long point shows how far it has got (`tail -f DIR/logs/ID.log`).
  std::vector<std::string> a{"sim",      input.ir, "--hw",    (fs::path(dir) / hw_file).string(),
                             "--report", report,   "--quiet", "--power", "--progress"};
  if (!input.model.empty()) {
    a.push_back("--model");
    a.push_back(input.model);
  }
  if (functional) a.push_back("--functional");
  if (seed) {
    a.push_back("--seed");
    a.push_back(std::to_string(*seed));
  }
  return a;
}

json::object identity(const Point& p) {
  json::object o;
  o["id"] = p.id;
  o["label"] = p.input.label;
  o["input"] = p.input.ir;
  json::object params;
  for (const auto& [name, v] : p.params) params[name] = v;
  o["params"] = std::move(params);
  return o;
}

json::object scheduler_json(const SchedulerFigures& f) {
  json::object o;
  auto opt = [&](const char* k, const std::optional<double>& v) {
    o[k] = v ? json::value(*v) : json::value();
  };
  opt("cycles", f.cycles);
  opt("time_us", f.time_us);
  opt("energy_pj", f.energy_pj);
  opt("overall_usd", f.overall_usd);
  json::object parts;
  for (const auto& [name, v] : f.energy_components) parts[name] = v;
  o["energy_components_pj"] = std::move(parts);
  return o;
}

SchedulerFigures scheduler_figures(const json::object& o) {
  SchedulerFigures f;
  auto opt = [&](const char* k) -> std::optional<double> {
    const json::value* v = o.if_contains(k);
    return v && v->is_number() ? std::optional<double>(v->to_number<double>()) : std::nullopt;
  };
  f.cycles = opt("cycles");
  f.time_us = opt("time_us");
  f.energy_pj = opt("energy_pj");
  f.overall_usd = opt("overall_usd");
  if (const json::value* parts = o.if_contains("energy_components_pj"); parts && parts->is_object())
    for (const auto& kv : parts->get_object())
      if (kv.value().is_number())
        f.energy_components.emplace_back(std::string(kv.key()), kv.value().to_number<double>());
  return f;
}

const Point* Plan::find(const std::string& id) const {
  for (const Point& p : points)
    if (p.id == id) return &p;
  return nullptr;
}

namespace {
// A dimension of the grid: one axis, or a zip group's axes.
struct Dimension {
  std::vector<const Axis*> axes;
  std::size_t size() const { return axes.front()->values.size(); }
};

std::vector<Dimension> dimensions(const SweepSpec& spec) {
  std::vector<Dimension> dims;
  std::map<int, std::size_t> zip_dim;
  for (const Axis& a : spec.axes) {
    if (a.zip > 0) {
      auto [it, fresh] = zip_dim.emplace(a.zip, dims.size());
      if (fresh) dims.emplace_back();
      dims[it->second].axes.push_back(&a);
    } else {
      dims.push_back(Dimension{{&a}});
    }
  }
  return dims;
}
}  // namespace

std::optional<Plan> expand(const SweepSpec& spec, std::vector<std::string>& errors) {
  const std::size_t before = errors.size();
  Plan plan;
  plan.name = spec.name;
  plan.description = spec.description;
  plan.sweep_file = fs::absolute(spec.path).lexically_normal().string();
  for (const Axis& a : spec.axes) plan.axes.push_back(a.name);
  const std::vector<Dimension> dims = dimensions(spec);
  std::size_t combos = 1;
  for (const Dimension& d : dims) combos *= d.size();
  std::map<std::string, std::string> digests;
  auto digest = [&](const std::string& path) -> const std::string& {
    auto it = digests.find(path);
    if (it == digests.end()) it = digests.emplace(path, detail::file_digest(path)).first;
    return it->second;
  };
  for (const Input& in : spec.inputs) {
    for (std::size_t c = 0; c < combos; ++c) {
      Point p;
      p.index = plan.points.size();
      p.input = in;
      // Decompose c: the last dimension varies fastest.
      std::vector<std::size_t> pick(dims.size());
      for (std::size_t d = dims.size(), rest = c; d-- > 0;) {
        pick[d] = rest % dims[d].size();
        rest /= dims[d].size();
      }
      json::object hw = in.base_hw ? *in.base_hw : spec.base_hw;
      std::string origin = in.base_hw ? in.base_hw_origin : spec.base_hw_origin;
      ir::ConfigOverrides given;  // in the order they are set
      std::vector<std::pair<const Axis*, std::size_t>> chosen;
      for (std::size_t d = 0; d < dims.size(); ++d)
        for (const Axis* a : dims[d].axes) chosen.emplace_back(a, pick[d]);
      // In the sweep's axis order, for the columns.
      for (const Axis& a : spec.axes)
        for (const auto& [ax, i] : chosen)
          if (ax == &a) p.params.emplace_back(a.name, a.values[i]);
      for (const auto& [a, i] : chosen)
        if (a->name == "hw") {
          hw = a->hw_configs[i];
          origin = a->hw_origins[i];
        }
      std::string error;
      bool ok = true;
      if (!in.hardware.empty()) {
        const auto point = gemini_hardware_point(in.manifest_row, hw, error);
        if (point) p.hardware = point->params;
        ok = point.has_value();
        for (const auto& [path, v] : p.hardware) {
          ok = ok && detail::set_param(hw, path, v, error);
          given.push_back({ir::path_pointer(path), "the manifest's \"", "\""});
        }
      }
      for (const auto& [a, i] : chosen) {
        if (a->name == "functional") {
          p.functional = a->values[i].get_bool();
        } else if (a->name == "seed") {
          p.seed = static_cast<std::uint64_t>(a->values[i].get_int64());
        } else if (a->name != "hw") {
          ok = ok && detail::set_param(hw, a->name, a->values[i], error);
          given.push_back(detail::axis_override(a->name));
        }
      }
      ir::ConfigErrors errs;
      if (ok && !detail::hw_ok(spec.check_hw, json::serialize(hw), origin, given, errs)) ok = false;
      if (!ok) {
        std::vector<std::string> lines;
        for (const ir::Diagnostic& e : errs) lines.push_back(ir::config_text(e));
        if (lines.empty()) lines.push_back(error);
        std::string what = in.label;
        for (const auto& [name, v] : p.params) what += ", " + name + "=" + detail::cell(v);
        for (const std::string& e : lines)
          errors.push_back(spec.path + ": point (" + what + "): " + e);
        if (errors.size() - before >= 20) {
          errors.push_back(spec.path + ": (more points fail; fix these first)");
          return std::nullopt;
        }
        continue;
      }
      const std::string hw_canonical = detail::canonical(hw);
      p.hw_json = detail::pretty(hw);
      p.hw_file = "hw/" + detail::stable_id(hw_canonical) + ".json";
      json::object key;
      key["input"] = digest(in.ir);
      key["model"] = in.model.empty() ? std::string() : digest(in.model);
      key["hw"] = hw_canonical;
      key["functional"] = p.functional;
      if (p.seed) key["seed"] = *p.seed;
      p.id = detail::stable_id(detail::canonical(key));
      plan.points.push_back(std::move(p));
    }
  }
  if (errors.size() != before) return std::nullopt;
  return plan;
}

bool write_plan(const std::string& dir, const Plan& plan, std::string& error) {
  std::map<std::string, const std::string*> hw_files;
  for (const Point& p : plan.points) hw_files.emplace(p.hw_file, &p.hw_json);
  for (const auto& [file, text] : hw_files) {
    const fs::path path = fs::path(dir) / file;
    std::string existing, ignored;
    if (detail::read_text(path.string(), existing, ignored) && existing == *text) continue;
    if (!detail::write_atomic(path.string(), *text, error)) return false;
  }
  json::object o;
  o["sweep"] = plan.name;
  o["description"] = plan.description;
  o["sweep_file"] = plan.sweep_file;
  o["axes"] = detail::strings(plan.axes);
  json::array points;
  for (const Point& p : plan.points) {
    json::object x = identity(p);
    x["index"] = p.index;
    x["model"] = p.input.model.empty() ? json::value() : json::value(p.input.model);
    x["estimate_cycles"] =
        p.input.estimate_cycles ? json::value(*p.input.estimate_cycles) : json::value();
    x["functional"] = p.functional;
    x["seed"] = p.seed ? json::value(*p.seed) : json::value();
    x["hw"] = p.hw_file;
    if (!p.hardware.empty()) {
      json::object h;
      for (const auto& [path, v] : p.hardware) h[path] = v;
      x["hardware"] = std::move(h);
    }
    if (p.input.scheduler) x["scheduler"] = scheduler_json(*p.input.scheduler);
    points.emplace_back(std::move(x));
  }
  o["points"] = std::move(points);
  return detail::write_atomic((fs::path(dir) / "plan.json").string(), detail::pretty(o), error);
}

std::optional<Plan> read_plan(const std::string& dir, std::string& error) {
  const std::string path = (fs::path(dir) / "plan.json").string();
  json::value v;
  if (!detail::read_json(path, v, error)) {
    error += " (a sweep directory has the plan.json that `gemini sweep run|slurm` wrote)";
    return std::nullopt;
  }
  try {
    const json::object& o = v.as_object();
    Plan plan;
    plan.name = std::string(o.at("sweep").as_string());
    plan.description = std::string(o.at("description").as_string());
    plan.sweep_file = std::string(o.at("sweep_file").as_string());
    for (const json::value& a : o.at("axes").as_array()) plan.axes.emplace_back(a.as_string());
    for (const json::value& pv : o.at("points").as_array()) {
      const json::object& x = pv.as_object();
      Point p;
      p.id = std::string(x.at("id").as_string());
      p.index = static_cast<std::size_t>(x.at("index").to_number<std::int64_t>());
      p.input.ir = std::string(x.at("input").as_string());
      p.input.label = std::string(x.at("label").as_string());
      if (x.at("model").is_string()) p.input.model = std::string(x.at("model").as_string());
      if (!x.at("estimate_cycles").is_null())
        p.input.estimate_cycles = x.at("estimate_cycles").to_number<std::int64_t>();
      for (const auto& kv : x.at("params").as_object())
        p.params.emplace_back(std::string(kv.key()), kv.value());
      p.functional = x.at("functional").as_bool();
      if (!x.at("seed").is_null()) p.seed = x.at("seed").to_number<std::uint64_t>();
      p.hw_file = std::string(x.at("hw").as_string());
      if (const json::value* h = x.if_contains("hardware"))
        for (const auto& kv : h->as_object()) p.hardware.emplace_back(std::string(kv.key()), kv.value());
      if (const json::value* f = x.if_contains("scheduler"))
        p.input.scheduler = scheduler_figures(f->as_object());
      plan.points.push_back(std::move(p));
    }
    return plan;
  } catch (const std::exception& e) {
    error = path + ": not a plan gemini wrote (" + e.what() + ")";
    return std::nullopt;
  }
}

}  // namespace gemini::sweep
