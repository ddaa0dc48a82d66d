#pragma once
// A registry of models by name, for a component kind whose models are chosen
// by a parameter (`dram.model`, `noc.model`, `chiplets.interface`). `Info` is
// the kind's description of one model: it has `name` and a non-null
// `configure` (params.h: it declares and reads the model's parameters).
//
// configure() reads the chosen model's parameters after the component's own
// (its messages name the model, a key nothing declared names the models
// that have it); params() lists every parameter for --list-params.
//
// Contract: the built-in models are given when the registry is first used;
// a model defined elsewhere (e.g. in a test) is added with add(), before the
// configuration that names it is read. A name added twice, or a model
// without configure, is an internal error (the program stops, saying so).

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gemini/sim/params.h"

namespace gemini::sim {

template <typename Info>
class ModelRegistry {
 public:
  ModelRegistry(const char* kind, std::vector<Info> builtin) : kind_(kind) {
    for (Info& i : builtin) add(std::move(i));
    builtin_ = models_.size();
  }
  void add(Info info) {
    if (find(info.name) || !info.configure) {
      std::fprintf(stderr, "gemini: internal error: %s \"%s\" registered twice or empty\n",
                   kind_.c_str(), info.name.c_str());
      std::abort();
    }
    models_.push_back(std::move(info));
  }
  const Info* find(const std::string& name) const {
    for (const Info& m : models_)
      if (m.name == name) return &m;
    return nullptr;
  }
  const std::vector<Info>& models() const { return models_; }
  // The model `name` (registered: the component's own `choices` checked it)
  // configured from `r`, which has read the component's own parameters;
  // then every key of the section nothing declared is an error.
  auto configure(ParamReader& r, const std::string& component, const std::string& name) const {
    r.begin_model(kind_, name);
    auto out = find(name)->configure(r);
    r.finish([&](std::string_view key) {
      return models_declaring(models_, component, kind_, key, name);
    });
    return out;
  }
  // `own` (the component's parameters), then each model's.
  std::vector<ParamInfo> params(std::vector<ParamInfo> own, const std::string& component) const {
    return with_model_params(std::move(own), models_, component, kind_);
  }
  // Their names, in registration order; `builtin_only`: the models gemini
  // ships (not those a test or another program added).
  std::vector<std::string> names(bool builtin_only = false) const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < (builtin_only ? builtin_ : models_.size()); ++i)
      out.push_back(models_[i].name);
    return out;
  }

 private:
  std::string kind_;  // "DRAM model": how messages name one
  std::vector<Info> models_;
  std::size_t builtin_ = 0;
};

}  // namespace gemini::sim
