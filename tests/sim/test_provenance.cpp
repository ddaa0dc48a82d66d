// Where a wrong value came from (sim --functional, docs/isa.md
// "Provenance"): programs of the small fixtures with one instruction
// changed after assembly, so that the first wrong value has a known cause --
// a computation configured wrong on right inputs, or a load landing where
// the tile does not read -- and the report must say which.
#include <gtest/gtest.h>

#include <sstream>

#include "fixture.h"
#include "functional_case.h"
#include "gemini/sim/report.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

using Prepared = test::FunctionalCase;
Prepared prepare(const char* ir, const char* model) { return test::prepare_functional(ir, model); }
sim::Report simulate(const Prepared& x) { return test::simulate_functional(x); }

// The first instruction with opcode `op` on any core: (core, index).
std::pair<std::size_t, std::size_t> first_of(assembler::Program& p, assembler::Opcode op) {
  for (std::size_t c = 0; c < p.cores.size(); ++c)
    for (std::size_t i = 0; i < p.cores[c].program.instrs.size(); ++i)
      if (p.cores[c].program.instrs[i].op == op) return {c, i};
  ADD_FAILURE() << "no such instruction";
  return {0, 0};
}

void set_field(assembler::Instr& in, std::string_view name, std::int64_t v) {
  in.set_scalar(assembler::field_slot(in.op, name).index, v);
}
std::int64_t field(const assembler::Instr& in, std::string_view name) {
  return in.scalar(assembler::field_slot(in.op, name).index);
}

const sim::LayerCheck* layer(const sim::Report& r, const std::string& name) {
  for (const sim::LayerCheck& l : r.functional.layers)
    if (l.layer == name) return &l;
  return nullptr;
}

TEST(Provenance, RightInputsAndAWrongComputationBlameTheComputation) {
  Prepared x = prepare("set_minimal.json", "set_minimal.model.json");
  ASSERT_TRUE(x.file.program);
  // conv1's requantisation shift one more than the layer's: every input is
  // right, the outputs are not.
  auto [c, i] = first_of(*x.file.program, assembler::Opcode::pe_cfg);
  assembler::Instr& cfg = x.file.program->cores[c].program.instrs[i];
  set_field(cfg, "shift", field(cfg, "shift") + 1);
  const sim::Report r = simulate(x);
  ASSERT_FALSE(r.functional.passed());
  const sim::LayerCheck* conv = layer(r, "conv1");
  ASSERT_NE(conv, nullptr);
  ASSERT_TRUE(conv->provenance.has_value());
  const sim::Provenance& p = *conv->provenance;
  EXPECT_EQ(p.opcode, "pe_run");
  // A 3x3 kernel over 3 channels: 27 taps of the ifmap and 27 weights, fewer
  // at the padded edge.
  EXPECT_GT(p.inputs_read, 0);
  EXPECT_LE(p.inputs_read, 54);
  EXPECT_EQ(p.inputs_differing, 0);
  EXPECT_NE(p.verdict.find("its own computation is wrong"), std::string::npos) << p.verdict;
  std::ostringstream text;
  sim::print_functional(text, r.functional);
  EXPECT_NE(text.str().find("where the first wrong value of conv1 came from"), std::string::npos)
      << text.str();
}

TEST(Provenance, ALoadLandingElsewhereLeavesInputsNoInstructionWrote) {
  Prepared x = prepare("set_minimal.json", "set_minimal.model.json");
  ASSERT_TRUE(x.file.program);
  // conv1's input lands 64 KiB away from the tensor the PE reads: the PE
  // reads L2 bytes no instruction wrote. Which load brings the ifmap: the
  // one whose transfer the ifmap names (the weights come first here, so
  // take the dma_in writing the tensor the first pe_run reads).
  auto [c, pe] = first_of(*x.file.program, assembler::Opcode::pe_run);
  const std::int64_t ifmap = field(x.file.program->cores[c].program.instrs[pe], "ifmap");
  bool moved = false;
  for (assembler::Instr& in : x.file.program->cores[c].program.instrs)
    if (in.op == assembler::Opcode::dma_in && field(in, "l2") == ifmap) {
      set_field(in, "l2", ifmap + 65536);
      moved = true;
    }
  ASSERT_TRUE(moved);
  const sim::Report r = simulate(x);
  ASSERT_FALSE(r.functional.passed());
  const sim::LayerCheck* conv = layer(r, "conv1");
  ASSERT_NE(conv, nullptr);
  ASSERT_TRUE(conv->provenance.has_value());
  const sim::Provenance& p = *conv->provenance;
  EXPECT_GT(p.inputs_differing, 0);
  ASSERT_FALSE(p.writers.empty());
  EXPECT_TRUE(p.writers.front().first.none);
  ASSERT_FALSE(p.examples.empty());
  EXPECT_EQ(p.examples.front().operand, "ifmap");
  EXPECT_NE(p.verdict.find("written by no instruction"), std::string::npos) << p.verdict;
}

TEST(Provenance, APassingRunHasNone) {
  Prepared x = prepare("set_minimal.json", "set_minimal.model.json");
  ASSERT_TRUE(x.file.program);
  const sim::Report r = simulate(x);
  EXPECT_TRUE(r.functional.passed());
  for (const sim::LayerCheck& l : r.functional.layers) {
    EXPECT_FALSE(l.provenance.has_value()) << l.layer;
    EXPECT_EQ(l.computed, l.defined) << l.layer;
    EXPECT_GT(l.defined, 0) << l.layer;
  }
}

}  // namespace
