#include "inspect.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <fstream>

#include "gemini/ir/loader.h"
#include "gemini/ir/summary.h"
#include "gemini/ir/validator.h"
#include "gemini/model/network.h"
#include "gemini/model/semantics.h"
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

// A model file that cannot be read: an empty or missing file, as the CLI's
// exit 2.
bool readable(const std::string& path, std::string& why) {
  std::ifstream in(path, std::ios::binary);
  if (in && in.peek() != std::ifstream::traits_type::eof()) return true;
  why = in ? path + ": the model file is empty" : path + ": cannot read the model file";
  return false;
}

// "origin:pointer: message" (sim::parse_hw_config's wording) -> pointer and
// message; a line without a pointer keeps all of it as the message.
Diagnostic hw_problem(const std::string& line, const std::string& origin) {
  Diagnostic d;
  d.code = "HW";
  d.name = "hardware configuration";
  d.severity = "error";
  std::string rest = line.starts_with(origin + ":") ? line.substr(origin.size() + 1) : line;
  const std::size_t colon = rest.find(": ");
  if (rest.starts_with("/") && colon != std::string::npos) {
    d.pointer = rest.substr(0, colon);
    d.message = rest.substr(colon + 2);
  } else {
    d.message = rest.starts_with(" ") ? rest.substr(1) : rest;
  }
  return d;
}

}  // namespace

std::vector<Diagnostic> check_hw(const std::string& text) {
  static const std::string origin = "<hw>";
  std::vector<std::string> errors;
  std::vector<Diagnostic> out;
  if (!sim::parse_hw_config(text, origin, errors) && errors.empty())
    errors.push_back(origin + ": the configuration is invalid");
  for (const std::string& e : errors) out.push_back(hw_problem(e, origin));
  return out;
}

Validation validate_file(const std::string& path, const std::string& model,
                         const std::string& dialect, const std::string& hw_json,
                         std::size_t max_kept) {
  Validation v;
  v.file = path;
  ir::HardwareConfig hw;
  if (!hw_json.empty()) {
    std::vector<std::string> errors;
    auto parsed = sim::parse_hw_config(hw_json, "<hw>", errors);
    if (!parsed) {
      v.status = "unreadable";
      for (const std::string& e : errors) v.diagnostics.push_back(hw_problem(e, "<hw>"));
      v.errors = v.diagnostics.size();
      return v;
    }
    hw = std::move(*parsed);
  }
  std::optional<model::Network> net;
  if (!model.empty()) {
    std::string why;
    ir::Diagnostics md(max_kept);
    if (!readable(model, why)) {
      v.status = "unreadable";
      v.diagnostics.push_back(file_problem(why));
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
  ir::CheckedFile checked = ir::load_and_validate(path, lo, hw, diags);
  // As gemini validate --model: the semantics once the file itself is clean.
  if (net && checked.semantic_checks_ran && diags.errors() == 0)
    model::correct_and_check(checked.load.model, *net, diags, &hw);
  const ir::LoadResult& res = checked.load;
  v.status = res.status == ir::LoadStatus::unreadable ? "unreadable"
             : diags.errors() > 0                     ? "invalid"
                                                      : "valid";
  if (res.status == ir::LoadStatus::ok) v.dialect = ir::to_string(res.model.dialect);
  v.errors = diags.errors();
  v.warnings = diags.warnings();
  v.not_shown = diags.dropped();
  v.semantic_checks = checked.semantic_checks_ran;
  v.diagnostics = convert_all(diags);
  return v;
}

Info info_file(const std::string& path, const std::string& dialect) {
  Info info;
  ir::Diagnostics diags(20);
  ir::LoadOptions lo;
  lo.dialect = dialect_of(dialect);
  ir::LoadResult res = ir::load_file(path, diags, lo);
  info.diagnostics = convert_all(diags);
  if (res.status != ir::LoadStatus::ok || diags.errors() > 0) return info;
  const ir::Model& m = res.model;
  const ir::Summary s = ir::summarize(m);
  // The CLI's `info --json` object, and three figures the text prints.
  boost::json::object o = ir::summary_json(m, s, path);
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
