#include "gemini/model/layer_semantics.h"

#include "gemini/model/geometry.h"

namespace gemini::model {

std::unique_ptr<LayerSemantics> LayerSemantics::load(const std::string& path, std::uint64_t seed,
                                                     ir::Diagnostics& d, unsigned threads) {
  auto net = load_network(path, d);
  if (!net) return nullptr;
  auto s = std::make_unique<LayerSemantics>();
  s->net = std::move(*net);
  s->ref = compute_reference(s->net, seed, threads);
  s->geometry = geometry_table(s->net, s->ref.numerics);
  return s;
}

bool LayerSemantics::apply(ir::Model& m, ir::Diagnostics& d) const {
  quirks = correct_quirks(m, net, d);
  check_semantics(m, net, d);
  return quirks.structure_changed;
}

}  // namespace gemini::model
