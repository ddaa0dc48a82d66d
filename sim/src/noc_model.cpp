// The NoC model registry and the `noc` section: the NoC's own parameters,
// then the chosen model's (noc_model.h).
#include "gemini/sim/noc_model.h"

#include <cstdio>
#include <cstdlib>

#include "gemini/sim/model_registry.h"

namespace gemini::sim {

void NocCounters::add_to(StatGroup& g) const {
  g.add("packets", &packets, Unit::count, "packets: data, tokens, DMA requests, write acks");
  g.add("bytes", &bytes, Unit::bytes, "bytes of every packet");
  g.add("byte_hops", &byte_hops, Unit::byte_hops, "bytes x router-to-router links crossed");
  g.add("d2d_byte_hops", &d2d_byte_hops, Unit::byte_hops,
        "bytes x die-to-die links crossed (of byte_hops)");
}

// The built-in models, each defined in its own file. A model defined
// elsewhere registers itself instead (NocModelRegistration).
NocModelInfo mesh_noc_model();      // mesh_noc.cpp
NocModelInfo booksim2_noc_model();  // booksim2_noc.cpp
NocModelInfo router_noc_model();    // router_noc.cpp

namespace {

ModelRegistry<NocModelInfo>& registry() {
  static ModelRegistry<NocModelInfo> r(
      "NoC model", {mesh_noc_model(), booksim2_noc_model(), router_noc_model()});
  return r;
}

// The NoC's own parameters, the model first; false when the model is not one
// of the registered names (already reported).
bool read_own_params(ParamReader& r, NocSetup& s) {
  const std::size_t before = r.error_count();
  s.model = r.param<std::string>("model")
                .choices(noc_model_names())
                .fallback("mesh")
                .describe("the NoC model (below)")
                .get();
  const bool model_ok = r.error_count() == before;
  s.packet_bytes = r.param<std::int32_t>("packet_bytes")
                       .unit(Unit::bytes)
                       .range(1, 1 << 20)
                       .fallback(512)
                       .describe("payload per packet; messages are split")
                       .get();
  s.control_bytes = r.param<std::int32_t>("control_bytes")
                        .unit(Unit::bytes)
                        .range(1, 1 << 16)
                        .fallback(16)
                        .describe("a token, DMA read request or write acknowledgement")
                        .get();
  for (const ir::LoweringParam& p : ir::kLoweringParams)
    if (std::string_view(p.component) == "noc") r.elsewhere(p);
  return model_ok;
}

}  // namespace

void ClosedLoopNocModel::misuse(const char* what) const {
  std::fprintf(stderr, "gemini: internal error: %s on the closed-loop %s NoC model\n", what,
               name().c_str());
  std::abort();
}

NocModel::LinkUse link_use_of(const std::vector<NocModel::LinkLoad>& loads) {
  NocModel::LinkUse u;
  double sum = 0;
  for (const NocModel::LinkLoad& l : loads) {
    if (l.busy > u.max_busy) {
      u.max_busy = l.busy;
      u.max_from = l.from;
      u.max_to = l.to;
    }
    sum += static_cast<double>(l.busy);
    ++u.links;
  }
  u.mean_busy = u.links ? sum / u.links : 0;
  return u;
}

void register_noc_model(NocModelInfo info) { registry().add(std::move(info)); }

const std::vector<NocModelInfo>& noc_models() { return registry().models(); }

std::vector<std::string> noc_model_names(bool builtin_only) {
  return registry().names(builtin_only);
}

std::optional<NocSetup> read_noc_setup(const ir::RawComponent& noc, ir::ConfigErrors& errors) {
  const std::size_t before = errors.size();
  ParamReader r(noc, "noc", errors);
  NocSetup s;
  // An unknown model (reported) has no parameters to check the rest against.
  if (!read_own_params(r, s)) return std::nullopt;
  s.build = registry().configure(r, "noc", s.model);
  if (errors.size() != before) return std::nullopt;
  return s;
}

std::vector<ParamInfo> noc_params() {
  NocSetup s;
  ParamReader own("noc");
  read_own_params(own, s);
  return registry().params(own.declared(), "noc");
}

std::unique_ptr<NocModel> make_noc_model(const boost::json::object& noc, const NocLayout& layout,
                                         std::string& error) {
  ir::ConfigErrors errors;
  const auto setup = read_noc_setup(ir::RawComponent{noc, "", "/noc"}, errors);
  if (!setup) {
    error = errors.empty() ? "the noc section does not read" : ir::config_text(errors.front());
    return nullptr;
  }
  return setup->build(layout, error);
}

}  // namespace gemini::sim
