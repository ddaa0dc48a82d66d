#include "functional_case.h"

#include <gtest/gtest.h>

#include "fixture.h"

namespace gemini::test {

FunctionalCase prepare_functional(const char* ir, const char* model) {
  FunctionalCase x;
  ir::Diagnostics d(100);
  x.semantics = model::LayerSemantics::load((data_dir() / model).string(), 1, d);
  EXPECT_TRUE(x.semantics);
  if (!x.semantics) return x;
  assembler::AssembleOptions ao;
  ao.lower.geometry = &x.semantics->geometry;
  ao.semantics = [s = x.semantics.get()](ir::Model& m, ir::Diagnostics& dd) {
    return s->apply(m, dd);
  };
  x.file = assembler::assemble_file((data_dir() / ir).string(), set_polar(), {}, d, {}, {}, ao);
  EXPECT_TRUE(x.file.program);
  return x;
}

sim::Report simulate_functional(const FunctionalCase& x, sim::TileHook* hook) {
  sim::SimOptions o;
  o.xlen = x.file.model.xlen;
  o.ylen = x.file.model.ylen;
  o.network = &x.semantics->net;
  o.reference = &x.semantics->ref;
  o.tiles = hook;
  sim::Report r;
  std::string error;
  EXPECT_TRUE(
      sim::simulate(*x.file.program, set_polar(), sim::workload_table(x.file.model), o, r, error))
      << error;
  return r;
}

}  // namespace gemini::test
