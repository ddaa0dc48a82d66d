#pragma once
// The configuration reader is ir's (gemini/ir/params.h: ParamInfo, Param,
// ParamReader); the simulator's components and models read their sections
// through it. Here: the helpers of the DRAM and NoC model registries.

#include <string>
#include <string_view>
#include <vector>

#include "gemini/ir/params.h"
#include "gemini/sim/unit.h"

namespace gemini::sim {

using ir::Param;
using ir::ParamInfo;
using ir::ParamReader;

// For the DRAM and NoC registries (Info: `name`, `configure(ParamReader&)`).
// The models other than `except` that declare `key`, comma-separated, for
// a "does not apply" message.
template <typename Info>
std::string models_declaring(const std::vector<Info>& models, const std::string& component,
                             const std::string& kind, std::string_view key,
                             const std::string& except) {
  std::string out;
  for (const Info& m : models) {
    if (m.name == except) continue;
    ParamReader r(component);
    r.begin_model(kind, m.name);
    m.configure(r);
    for (const ParamInfo& p : r.declared())
      if (p.name == key) {
        out += (out.empty() ? "" : ", ") + m.name;
        break;
      }
  }
  return out;
}
// `own` (the component's own declarations), then each model's.
template <typename Info>
std::vector<ParamInfo> with_model_params(std::vector<ParamInfo> own,
                                         const std::vector<Info>& models,
                                         const std::string& component, const std::string& kind) {
  for (const Info& m : models) {
    ParamReader r(component);
    r.begin_model(kind, m.name);
    m.configure(r);
    own.insert(own.end(), r.declared().begin(), r.declared().end());
  }
  return own;
}

}  // namespace gemini::sim
