#include "gemini/ir/params.h"

#include <boost/json/serialize.hpp>
#include <cstdio>

#include "gemini/ir/json_document.h"

namespace gemini::ir {
namespace json = boost::json;

namespace {

std::string show(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

ParamReader::ParamReader(const RawComponent& raw, std::string component,
                         ConfigErrors& errors)
    : ParamReader(&raw.json, raw.origin, raw.pointer, std::move(component),
                  std::make_shared<Shared>()) {
  shared_->errors = &errors;
}

ParamReader::ParamReader(const json::object* section, std::string origin, std::string component,
                         ConfigErrors& errors)
    : ParamReader(section, std::move(origin), "/" + json_pointer_token(component), component,
                  std::make_shared<Shared>()) {
  shared_->errors = &errors;
}

ParamReader::ParamReader(std::string component)
    : ParamReader(nullptr, "", "/" + component, std::move(component), std::make_shared<Shared>()) {}

ParamReader::ParamReader(const json::object* section, std::string origin, std::string pointer,
                         std::string component, std::shared_ptr<Shared> shared)
    : section_(section),
      origin_(std::move(origin)),
      pointer_(std::move(pointer)),
      component_(std::move(component)),
      shared_(std::move(shared)) {}

void ParamReader::begin_model(std::string kind, std::string name) {
  model_kind_ = std::move(kind);
  model_ = std::move(name);
}

std::size_t ParamReader::error_count() const {
  return shared_->errors ? shared_->errors->size() : 0;
}

const json::value* ParamReader::declare(ParamInfo& info) {
  names_.push_back(info.name);
  info.model = model_;
  shared_->decls.push_back(info);
  shared_->decls.back().name = prefix_ + info.name;
  return section_ ? section_->if_contains(info.name) : nullptr;
}

void ParamReader::fail(std::string_view name, const std::string& what) {
  if (!shared_->errors) return;
  std::string about = "parameter \"" + std::string(name) + "\" of component \"" + component_ + "\"";
  if (!model_.empty()) about += " (" + model_kind_ + " \"" + model_ + "\")";
  config_error(*shared_->errors, origin_, pointer_ + "/" + json_pointer_token(name),
                   about + ": " + what);
}

JsonReader ParamReader::values(const std::string& name) {
  return JsonReader([this, name](const std::string&, const std::string& m) { fail(name, m); });
}

std::int64_t ParamReader::read_integer(ParamInfo info, std::int64_t lo, std::int64_t hi,
                                       std::int64_t fallback, std::optional<std::int64_t> also) {
  info.type = "integer";
  info.range = (also ? std::to_string(*also) + " or [" : std::string("[")) + std::to_string(lo) +
               ", " + std::to_string(hi) + "]";
  info.fallback = std::to_string(fallback);
  const json::value* v = declare(info);
  if (!v) return fallback;
  if (also) {
    const std::optional<std::int64_t> x = integer_value(*v);
    if (x && (*x == *also || (*x >= lo && *x <= hi))) return *x;
    // JsonReader's words, the sentinel before them: "expected -1 or an integer in [1, 16]".
    fail(info.name, "expected " + std::to_string(*also) + " or " +
                        JsonReader::expected_integer(lo, hi).substr(9) + ", got " +
                        kind_name(*v));
    return fallback;
  }
  return values(info.name).integer(*v, info.name, lo, hi).value_or(fallback);
}

double ParamReader::read_number(ParamInfo info, double lo, double hi, bool zero_ok,
                                double fallback) {
  info.type = "number";
  info.range = std::string(zero_ok ? "0 or " : "") + "[" + show(lo) + ", " + show(hi) + "]";
  info.fallback = show(fallback);
  const json::value* v = declare(info);
  if (!v) return fallback;
  return values(info.name).number(*v, info.name, lo, hi, zero_ok).value_or(fallback);
}

void ParamReader::elsewhere(const LoweringParam& p) {
  ParamInfo info;
  info.name = p.name;
  info.type = "true / false";
  info.fallback = p.fallback ? "true" : "false";
  info.description = p.description;
  declare(info);  // ir reads and checks the value
}

bool ParamReader::read_flag(ParamInfo info, bool fallback) {
  info.type = "true / false";
  info.fallback = fallback ? "true" : "false";
  const json::value* v = declare(info);
  if (!v) return fallback;
  return values(info.name).boolean(*v, info.name).value_or(fallback);
}

std::string ParamReader::read_choice(ParamInfo info, const std::vector<std::string>& choices,
                                     const std::string& fallback) {
  info.type = "string";
  info.range = joined(choices);
  info.fallback = "\"" + fallback + "\"";
  const json::value* v = declare(info);
  if (!v) return fallback;
  if (choices.empty()) return values(info.name).string(*v, info.name).value_or(fallback);
  const auto i = values(info.name).choice(*v, info.name, choices);
  return i ? choices[*i] : fallback;
}

const json::value* ParamReader::declare_value(const std::string& name, const char* type,
                                              const char* empty, std::string description) {
  ParamInfo info;
  info.name = name;
  info.type = type;
  info.fallback = empty;
  info.description = std::move(description);
  return declare(info);
}

const json::object* ParamReader::object(const std::string& name, std::string description,
                                        const char* what) {
  return values(name).object(declare_value(name, "object", "{}", std::move(description)), name,
                             what);
}

const json::array* ParamReader::list(const std::string& name, std::string description,
                                     const char* what) {
  return values(name).array(declare_value(name, "list", "[]", std::move(description)), name, what);
}

bool ParamReader::reading() const { return shared_->errors != nullptr; }

std::string ParamReader::read_text(ParamInfo info, const std::string& fallback) {
  info.type = "string";
  info.fallback = "\"" + fallback + "\"";
  const json::value* v = declare(info);
  if (!v) return fallback;
  return values(info.name).string(*v, info.name).value_or(fallback);
}

std::vector<std::string> ParamReader::keys() const {
  std::vector<std::string> out;
  if (section_)
    for (const auto& kv : *section_) out.emplace_back(kv.key());
  return out;
}

const json::value* ParamReader::peek(const std::string& key) const {
  return section_ ? section_->if_contains(key) : nullptr;
}

ParamReader ParamReader::section(const std::string& name, std::string description) {
  const json::object* inner = object(name, std::move(description), "an object of parameters");
  ParamReader child(inner, origin_, pointer_ + "/" + json_pointer_token(name),
                    component_ + "/" + name, shared_);
  child.model_kind_ = model_kind_;
  child.model_ = model_;
  child.prefix_ = prefix_ + name + ".";
  return child;
}

void ParamReader::finish(const std::function<std::string(std::string_view key)>& elsewhere) {
  if (!section_ || !shared_->errors) return;
  const std::string known = joined(names_);
  for (const auto& kv : *section_) {
    const std::string_view key = kv.key();
    bool declared = false;
    for (const std::string& n : names_) declared = declared || n == key;
    if (declared) continue;
    // Named without the model: the message says which model it is about.
    const std::string model = model_;
    model_.clear();
    if (model.empty()) {
      fail(key, "unknown parameter of component \"" + component_ + "\" (known: " + known + ")");
    } else {
      const std::string other = elsewhere ? elsewhere(key) : std::string();
      const std::string which = model_kind_ + " \"" + model + "\"";
      fail(key, other.empty()
                    ? "unknown parameter of " + which + " (it has: " + known + ")"
                    : "does not apply to " + which + " (only to " + other + "); it has: " + known);
    }
    model_ = model;
  }
}

}  // namespace gemini::ir
