#pragma once
// A registry of models by name, for a component kind whose models are chosen
// by a parameter (`dram.model`, `noc.model`, `chiplets.interface`). `Info` is
// the kind's description of one model: it has `name` and a non-null
// `configure` (params.h: it declares and reads the model's parameters).
//
// Contract: the built-in models are given when the registry is first used;
// a model defined elsewhere (e.g. in a test) is added with add(), before the
// configuration that names it is read. A name added twice, or a model
// without configure, is an internal error (the program stops, saying so).

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace gemini::sim {

template <typename Info>
class ModelRegistry {
 public:
  ModelRegistry(const char* kind, std::vector<Info> builtin) : kind_(kind) {
    for (Info& i : builtin) add(std::move(i));
  }
  void add(Info info) {
    if (find(info.name) || !info.configure) {
      std::fprintf(stderr, "gemini: internal error: %s \"%s\" registered twice or empty\n", kind_,
                   info.name.c_str());
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
  // Their names, in registration order.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Info& m : models_) out.push_back(m.name);
    return out;
  }

 private:
  const char* kind_;
  std::vector<Info> models_;
};

}  // namespace gemini::sim
