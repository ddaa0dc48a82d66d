// The DRAM model registry and the `dram` section: the ports' own parameters,
// then the chosen model's (dram_model.h).
#include "gemini/sim/dram_model.h"

#include "gemini/sim/model_registry.h"

namespace gemini::sim {

// The built-in models, each defined in its own file. A model defined
// elsewhere registers itself instead (DramModelRegistration).
DramModelInfo simple_dram_model();  // dram_simple.cpp
DramModelInfo banked_dram_model();  // dram_banked.cpp
// dram_ramulator2.cpp, or dram_ramulator2_absent.cpp (saying why) in a build
// without Ramulator 2.
DramModelInfo ramulator2_dram_model();

void DramModel::register_stats(StatGroup& g) const {
  g.owned_by(stat_owner_);
  g.add("bytes_read", &stats_.bytes_read, Unit::bytes, "bytes read at the port");
  g.add("bytes_written", &stats_.bytes_written, Unit::bytes, "bytes written at the port");
  g.add("requests", &stats_.requests, Unit::count, "requests the port served");
  g.add("data_busy_ps", &stats_.data_busy, Unit::picoseconds, "time the data bus carried data");
  add_stats(g);
}

namespace {

ModelRegistry<DramModelInfo>& registry() {
  static ModelRegistry<DramModelInfo> r(
      "DRAM model", {simple_dram_model(), banked_dram_model(), ramulator2_dram_model()});
  return r;
}

// The ports' own parameters, the model first; false when the model is not
// one of the registered names (already reported).
bool read_port_params(ParamReader& r, DramSetup& s) {
  const std::size_t before = r.error_count();
  s.model = r.param<std::string>("model")
                .choices(dram_model_names())
                .fallback("simple")
                .describe("the model of every port's controller (below)")
                .get();
  const bool model_ok = r.error_count() == before;
  s.placement = r.param<std::string>("placement")
                    .choices({"west_east", "west_east_row0", "io_die"})
                    .fallback("west_east")
                    .describe(
                        "a port at the west and east end of every row, or of row 0 only; "
                        "io_die: at every row end on an IO die, its links into a cut mesh "
                        "die-to-die links (chiplets)")
                    .get();
  for (const ir::LoweringParam& p : ir::kLoweringParams)
    if (std::string_view(p.component) == "dram") r.elsewhere(p);
  s.interleave = r.param<bool>("interleave")
                     .fallback(false)
                     .describe("every access spread over all ports in equal shares")
                     .get();
  s.in_order = r.param<bool>("in_order")
                   .fallback(false)
                   .describe("a core's reads reach DRAM in the order it issued them")
                   .get();
  return model_ok;
}

}  // namespace

void register_dram_model(DramModelInfo info) { registry().add(std::move(info)); }

const std::vector<DramModelInfo>& dram_models() { return registry().models(); }

std::vector<std::string> dram_model_names(bool builtin_only) {
  return registry().names(builtin_only);
}

std::optional<DramSetup> read_dram_setup(const ir::RawComponent& dram, ir::ConfigErrors& errors) {
  const std::size_t before = errors.size();
  ParamReader r(dram, "dram", errors);
  DramSetup s;
  // An unknown model (reported) has no parameters to check the rest against.
  if (!read_port_params(r, s)) return std::nullopt;
  s.build = registry().configure(r, "dram", s.model);
  if (errors.size() != before) return std::nullopt;
  return s;
}

std::vector<ParamInfo> dram_params() {
  DramSetup s;
  ParamReader own("dram");
  read_port_params(own, s);
  return registry().params(own.declared(), "dram");
}

std::unique_ptr<DramModel> make_dram_model(const boost::json::object& dram, const DramContext& ctx,
                                           std::string& error) {
  ir::ConfigErrors errors;
  const auto setup = read_dram_setup(ir::RawComponent{dram, "", "/dram"}, errors);
  if (!setup) {
    error = errors.empty() ? "the dram section does not read" : ir::config_text(errors.front());
    return nullptr;
  }
  return setup->build(ctx, error);
}

}  // namespace gemini::sim
