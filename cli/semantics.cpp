#include "semantics.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "common.h"
#include "gemini/model/geometry.h"

namespace gemini::cli {

void add_semantics_options(CLI::App& cmd, SemanticsOptions& o, bool with_seed) {
  cmd.add_option("--model", o.model,
                 "layer-semantics model file (ARK format): check the IR against it and compute "
                 "with its exact geometry");
  if (with_seed)
    cmd.add_option("--seed", o.seed, "seed of the generated inputs and weights (default 1)");
}

bool Semantics::apply(ir::Model& m, ir::Diagnostics& d) const {
  quirks = model::correct_quirks(m, net, d);
  model::check_semantics(m, net, d);
  return quirks.structure_changed;
}

std::unique_ptr<Semantics> load_semantics(const SemanticsOptions& o, int& status) {
  ir::Diagnostics d(100);
  auto net = model::load_network(o.model, d);
  if (!net) {
    print_diagnostics(std::cerr, o.model, d, 20);
    std::cerr << o.model << ": the model file is invalid\n";
    status = kExitInvalid;
    return nullptr;
  }
  auto s = std::make_unique<Semantics>();
  s->net = std::move(*net);
  s->ref = model::compute_reference(s->net, o.seed);
  s->geometry = model::geometry_table(s->net, s->ref.numerics);
  status = kExitOk;
  return s;
}

}  // namespace gemini::cli
