#include "inspect.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "gemini/ir/config_override.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/summary.h"
#include "gemini/ir/validator.h"
#include "gemini/model/check_file.h"
#include "gemini/model/network.h"
#include "gemini/sim/sim_config.h"

namespace gemini::python {
namespace {

Diagnostic convert(const ir::Diagnostic& x) {
  Diagnostic d;
  d.code = x.code();
  d.name = ir::info(x.check).name;
  d.severity = ir::to_string(x.severity);
  d.pointer = x.pointer;
  d.line = x.line;
  d.column = x.column;
  d.message = x.message;
  d.file = x.file;
  d.given = x.given;
  return d;
}

std::vector<Diagnostic> convert_all(const ir::Diagnostics& ds) {
  std::vector<Diagnostic> out;
  out.reserve(ds.items().size());
  for (const ir::Diagnostic& x : ds.items()) out.push_back(convert(x));
  return out;
}

std::optional<ir::Dialect> dialect_of(const std::string& s) {
  if (s == "full") return ir::Dialect::full;
  if (s == "set") return ir::Dialect::set;
  return std::nullopt;
}

Diagnostic file_problem(const std::string& message) {
  Diagnostic d;
  d.code = "IO";
  d.name = "unreadable";
  d.severity = "error";
  d.message = message;
  return d;
}

}  // namespace

std::vector<Diagnostic> check_hw(const std::string& text,
                                 const std::vector<std::string>& set_paths) {
  ir::ConfigErrors errors;
  sim::parse_hw_config(text, "<hw>", errors);
  ir::ConfigOverrides given;
  for (const std::string& path : set_paths)
    given.push_back({ir::path_pointer(path), "set[\"", "\"]"});
  ir::attribute_overrides(errors, given);
  std::vector<Diagnostic> out;
  for (const ir::Diagnostic& e : errors) out.push_back(convert(e));
  return out;
}

Validation validate_file(const std::string& path, const std::string& model,
                         const std::string& dialect, const std::string& hw_json,
                         std::size_t max_kept) {
  Validation v;
  v.file = path;
  ir::HardwareConfig hw;
  if (!hw_json.empty()) {
    ir::ConfigErrors errors;
    auto parsed = sim::parse_hw_config(hw_json, "<hw>", errors);
    if (!parsed) {
      v.status = "unreadable";
      for (const ir::Diagnostic& e : errors) v.diagnostics.push_back(convert(e));
      v.errors = v.diagnostics.size();
      return v;
    }
    hw = std::move(*parsed);
  }
  std::optional<model::Network> net;
  if (!model.empty()) {
    ir::Diagnostics md(max_kept);
    if (const auto why = model::unreadable_model_file(model)) {
      v.status = "unreadable";
      v.diagnostics.push_back(file_problem(model + ": " + *why));
    } else if (!(net = model::load_network(model, md))) {
      v.status = "invalid";
      v.diagnostics = convert_all(md);
      if (v.diagnostics.empty()) v.diagnostics.push_back(file_problem(model + ": invalid"));
    }
    if (!net) {
      v.errors = v.diagnostics.size();
      return v;
    }
  }
  ir::Diagnostics diags(max_kept, max_kept);
  ir::LoadOptions lo;
  lo.dialect = dialect_of(dialect);
  // As gemini validate: the one check (model/check_file.h).
  const model::FileCheck fc = model::check_ir_file(path, lo, hw, net ? &*net : nullptr, diags);
  const ir::LoadResult& res = fc.checked.load;
  v.status = model::to_string(fc.verdict);
  if (res.status == ir::LoadStatus::ok) v.dialect = ir::to_string(res.model.dialect);
  v.errors = diags.errors();
  v.warnings = diags.warnings();
  v.not_shown = diags.dropped();
  v.semantic_checks = fc.checked.semantic_checks_ran;
  v.diagnostics = convert_all(diags);
  return v;
}

Info info_file(const std::string& path, const std::string& dialect) {
  Info info;
  ir::Diagnostics diags(20);
  ir::LoadOptions lo;
  lo.dialect = dialect_of(dialect);
  // As gemini info: the one loading and summary (ir/summary.h).
  const ir::SummarizedFile f = ir::summarize_file(path, lo, diags);
  info.diagnostics = convert_all(diags);
  if (!f.summary) return info;
  const ir::Summary& s = *f.summary;
  // The CLI's `info --json` object, and three figures the text prints.
  boost::json::object o = ir::summary_json(f.load.model, s, path);
  boost::json::object layer_kinds;
  for (auto& [k, n] : s.layers_by_kind) layer_kinds[k] = n;
  o["layers_by_kind"] = layer_kinds;
  o["cores_with_work"] = s.cores_with_work;
  o["max_core_time"] = s.max_core_time;
  info.ok = true;
  info.json = boost::json::serialize(o);
  return info;
}

}  // namespace gemini::python
