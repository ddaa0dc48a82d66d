#include "gemini/model/layer_semantics.h"

#include "gemini/model/geometry.h"

namespace gemini::model {

std::unique_ptr<LayerSemantics> LayerSemantics::load(const std::string& path, std::uint64_t seed,
                                                     ir::Diagnostics& d, unsigned threads,
                                                     const ir::MemoryLimit& limit) {
  auto net = load_network(path, d);
  if (!net) return nullptr;
  std::string detail;
  const std::optional<std::int64_t> bytes = reference_bytes(*net, &detail);
  if (auto why = ir::exceeds(limit, bytes, "computing the reference", detail)) {
    d.report(ir::Check::model_file, "", *why);
    return nullptr;
  }
  auto s = std::make_unique<LayerSemantics>();
  s->net = std::move(*net);
  s->ref = compute_reference(s->net, seed, threads);
  s->geometry = geometry_table(s->net, s->ref.numerics);
  return s;
}

bool LayerSemantics::apply(ir::Model& m, ir::Diagnostics& d, const ir::HardwareConfig* hw) const {
  // correct_and_check without its IR checks: the caller runs them.
  quirks = correct_quirks(m, net, d, hw);
  check_semantics(m, net, d);
  return quirks.structure_changed;
}

}  // namespace gemini::model
