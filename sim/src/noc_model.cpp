#include "gemini/sim/noc_model.h"

#include <stdexcept>

#include "gemini/sim/mesh_noc.h"

namespace gemini::sim {

namespace {
std::unique_ptr<NocModel> make_mesh(const NocParams& p) {
  return std::make_unique<MeshNoc>(p.xlen, p.ylen, p.link_gbps, p.router_ps, p.buffer_packets);
}

struct NocEntry {
  const char* name;
  std::unique_ptr<NocModel> (*make)(const NocParams&);
};
// Every NoC model, by name.
constexpr NocEntry kNocModels[] = {
    {"mesh", make_mesh},
};
}  // namespace

std::vector<std::string> noc_model_names() {
  std::vector<std::string> out;
  for (const NocEntry& e : kNocModels) out.emplace_back(e.name);
  return out;
}

std::unique_ptr<NocModel> make_noc_model(const std::string& name, const NocParams& p) {
  for (const NocEntry& e : kNocModels)
    if (name == e.name) return e.make(p);
  throw std::invalid_argument("unknown NoC model \"" + name + "\"");
}

}  // namespace gemini::sim
