#include "semantics.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "common.h"

namespace gemini::cli {

void add_semantics_options(CLI::App& cmd, SemanticsOptions& o, bool with_seed) {
  cmd.add_option("--model", o.model,
                 "layer-semantics model file (ARK format): correct and check the IR against it "
                 "and compute with its exact geometry");
  if (with_seed)
    add_unsigned_option(cmd, "--seed", o.seed, 0, UINT64_MAX,
                        "seed of the generated inputs and weights (default 1)");
  add_memory_limit_option(cmd, o.memory_limit);
}

std::unique_ptr<Semantics> load_semantics(const SemanticsOptions& o, int& status) {
  status = kExitUnreadable;
  if (!model_file_readable(o.model)) return nullptr;
  ir::Diagnostics d(100);
  auto s = Semantics::load(o.model, o.seed, d, 0, o.memory_limit);
  if (!s) {
    print_diagnostics(std::cerr, o.model, d, 20, 20);
    std::cerr << o.model << ": the model file is invalid\n";
    status = kExitInvalid;
    return nullptr;
  }
  status = kExitOk;
  return s;
}

}  // namespace gemini::cli
