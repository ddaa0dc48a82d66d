// Functional simulation of the real corpus (configs/set-polar.json): every
// corpus file with a layer-semantics model computes its network bit-exact
// against the CPU reference, every element of every layer, in both dialects
// -- the public file, and its full-dialect import as `import --model`
// writes it (corrected with the model, 4-D weight boxes, read back) --
// and the cycles are identical with and without the functional units.
// Skipped, saying why, without the corpus.
#include <gtest/gtest.h>

#include "fixture.h"
#include "gemini/assembler/assemble_file.h"
#include "gemini/ir/import.h"
#include "gemini/ir/validator.h"
#include "gemini/ir/writer.h"
#include "gemini/model/geometry.h"
#include "gemini/model/semantics.h"
#include "gemini/sim/simulator.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

struct Semantics {
  model::Network net;
  model::Reference ref;
  ir::GeometryTable geometry;
};

assembler::AssembleOptions with(const Semantics& s, model::QuirkCounts& q) {
  assembler::AssembleOptions o;
  o.lower.geometry = &s.geometry;
  o.semantics = [&s, &q](ir::Model& m, ir::Diagnostics& d) {
    q = model::correct_quirks(m, s.net, d);
    model::check_semantics(m, s.net, d);
    return q.structure_changed;
  };
  return o;
}

sim::Report run(const std::string& path, const Semantics& s, bool functional,
                model::QuirkCounts& q) {
  const ir::HardwareConfig& hw = test::set_polar();
  ir::Diagnostics d(20);
  auto f = assembler::assemble_file(path, hw, {}, d, {}, {}, with(s, q));
  std::string listing;
  for (const auto& x : d.items())
    if (x.severity == ir::Severity::error)
      listing += std::string(x.code()) + " " + x.message + "\n";
  EXPECT_EQ(d.errors(), 0u) << path << "\n" << listing;
  EXPECT_TRUE(f.program) << (f.lower_errors.empty() ? "" : f.lower_errors.front());
  sim::Report r;
  if (!f.program) return r;
  sim::SimOptions o;
  o.xlen = f.model.xlen;
  o.ylen = f.model.ylen;
  if (functional) {
    o.network = &s.net;
    o.reference = &s.ref;
  }
  std::string error;
  EXPECT_TRUE(sim::simulate(*f.program, hw, sim::workload_table(f.model), o, r, error)) << error;
  return r;
}

void expect_bit_exact(const sim::Report& r, const std::string& what) {
  ASSERT_TRUE(r.functional.enabled) << what;
  EXPECT_FALSE(r.deadlock) << what;
  std::string bad;
  for (const sim::LayerCheck& l : r.functional.layers)
    if (l.mismatches() > 0 && bad.size() < 2000)
      bad += l.layer + ": " + std::to_string(l.mismatches()) + " mismatches, first [" +
             std::to_string(l.first->n) + "," + std::to_string(l.first->k) + "," +
             std::to_string(l.first->h) + "," + std::to_string(l.first->w) + "]\n";
  for (const sim::FunctionalFault& f : r.functional.faults) bad += "fault: " + f.message + "\n";
  EXPECT_EQ(r.functional.mismatches(), 0) << what << "\n" << bad;
  EXPECT_EQ(r.functional.fault_count, 0) << what << "\n" << bad;
  // Every layer was computed whole, as tiles checked when written.
  for (const sim::LayerCheck& l : r.functional.layers) {
    EXPECT_GT(l.tile_elements, 0) << what << ": layer " << l.layer << " never computed";
    EXPECT_EQ(l.computed, l.defined) << what << ": layer " << l.layer << " computed in part";
  }
  EXPECT_TRUE(r.functional.passed()) << what;
}

class FunctionalCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(FunctionalCorpus, ComputesTheNetworkBitExactInBothDialects) {
  if (GetParam() == test::kCorpusAbsent) GTEST_SKIP() << test::corpus_absent_message();
  const auto model_path = test::corpus_model(GetParam());
  if (model_path.empty()) GTEST_SKIP() << GetParam() << " has no model file in models/";
  Semantics s;
  {
    ir::Diagnostics d;
    auto net = model::load_network(model_path.string(), d);
    ASSERT_TRUE(net);
    s.net = std::move(*net);
    s.ref = model::compute_reference(s.net, 1);
    s.geometry = model::geometry_table(s.net, s.ref.numerics);
  }
  const std::string path = (test::corpus_dir() / GetParam()).string();
  model::QuirkCounts q;
  const sim::Report pub = run(path, s, true, q);
  expect_bit_exact(pub, GetParam() + " (public dialect)");
  // The cycles do not depend on the functional units.
  model::QuirkCounts q2;
  const sim::Report timing = run(path, s, false, q2);
  EXPECT_EQ(timing.total_cycles, pub.total_cycles);
  ASSERT_EQ(timing.cores.size(), pub.cores.size());
  for (std::size_t c = 0; c < pub.cores.size(); ++c)
    EXPECT_EQ(timing.cores[c].finish_cycles, pub.cores[c].finish_cycles) << "core " << c;

  // The full dialect: corrected with the model, imported, written, read back.
  const ir::HardwareConfig& hw = test::set_polar();
  ir::Diagnostics d(20);
  ir::CheckedFile f = ir::load_and_validate(path, {}, hw, d);
  ASSERT_EQ(d.errors(), 0u);
  model::correct_quirks(f.load.model, s.net, d);
  ASSERT_EQ(d.errors(), 0u);
  // As `import --model` writes it: weight boxes in the specification's
  // layout [N, K, C, R*S].
  EXPECT_GT(model::write_weight_boxes(f.load.model, s.net), 0);
  ASSERT_TRUE(ir::import_model(f.load.model, hw, {}, d));
  for (const ir::Core& c : f.load.model.cores)
    for (const ir::Workload& w : c.workloads)
      if (w.weight && w.kind == ir::LayerKind::pe) {
        ASSERT_EQ(w.weight->box.rank, 4) << "core " << c.core_id << " workload " << w.workload_id;
      }
  {
    ir::Diagnostics v(20);
    ir::validate(f.load.model, hw, v);
    EXPECT_EQ(v.errors(), 0u) << "the full dialect with 4-D weight boxes validates";
  }
  const auto full = test::temp_path(test::param_name(GetParam()) + "_full.json");
  std::string err;
  ASSERT_TRUE(ir::write_full_file(f.load.model, full.string(), err)) << err;
  model::QuirkCounts qf;
  const sim::Report fd = run(full.string(), s, true, qf);
  expect_bit_exact(fd, GetParam() + " (full dialect)");
  EXPECT_EQ(qf.q2, 0) << "the full-dialect file was written corrected";
  EXPECT_EQ(fd.total_cycles, pub.total_cycles) << "both dialects lower to the same programs";
  std::filesystem::remove(full);

  // The full dialect as the scheduler writes it (`import --model
  // --as-scheduler`): the same allocation, the quirks kept, buffer entries
  // without workload ids. Read with the model, it is corrected into the same
  // schedule: the same verdict, the same corrections, the same cycles.
  ir::Diagnostics ds(20);
  ir::CheckedFile g = ir::load_and_validate(path, {}, hw, ds);
  ASSERT_EQ(ds.errors(), 0u);
  const ir::Model original = g.load.model;
  model::correct_and_check(g.load.model, s.net, ds, &hw);
  ASSERT_EQ(ds.errors(), 0u);
  model::write_weight_boxes(g.load.model, s.net);
  ASSERT_TRUE(ir::import_model(g.load.model, hw, {}, ds));
  ASSERT_TRUE(model::keep_quirks(g.load.model, original));
  model::write_weight_boxes(g.load.model, s.net);
  ir::drop_entry_workload_ids(g.load.model);
  const auto kept = test::temp_path(test::param_name(GetParam()) + "_as_scheduler.json");
  ASSERT_TRUE(ir::write_full_file(g.load.model, kept.string(), err)) << err;
  model::QuirkCounts qk;
  const sim::Report ks = run(kept.string(), s, true, qk);
  expect_bit_exact(ks, GetParam() + " (full dialect, quirks kept)");
  EXPECT_EQ(qk.q1, q.q1);
  EXPECT_EQ(qk.q2, q.q2);
  EXPECT_EQ(qk.q3, q.q3);
  EXPECT_EQ(ks.total_cycles, pub.total_cycles) << "the quirks are corrected as in the public file";
  std::filesystem::remove(kept);
}

INSTANTIATE_TEST_SUITE_P(Set, FunctionalCorpus, ::testing::ValuesIn(test::corpus_names()),
                         [](const auto& info) { return test::param_name(info.param); });

// The full-dialect files another tool wrote (../shared/ir-corpus/full/,
// the scheduler's quirks kept, a received tensor listed once per reading
// workload at an address of its own; LSTM's elementwise inputs listed with
// one operand's size and GPT decode's results written straight into
// same-core tensors, both rerouted by the Q1 correction): bit-exact, with
// the cycles of a run without the functional units.
TEST(FunctionalCorpusFull, OtherToolsFullDialectFilesComputeBitExact) {
  const std::filesystem::path dir = test::corpus_dir().parent_path() / "full";
  if (!std::filesystem::is_directory(dir))
    GTEST_SKIP() << dir << " is absent (the full-dialect files of ../shared/ir-corpus/full)";
  int files = 0;
  for (const char* net :
       {"bert_b1_4x4_SET", "goog_b1_4x4_SET", "lstm_b1_4x4_SET", "gpt_decode_b1_4x4_LS"}) {
    const std::filesystem::path f = dir / (std::string(net) + "_full.json.gz");
    if (!std::filesystem::exists(f)) continue;
    ++files;
    // The model: the corpus's (set/models), else full/models' own.
    auto model_path = test::corpus_model(std::string(net) + "_IR.json.gz");
    const std::string name(net);
    const std::filesystem::path own =
        dir / "models" / (name.substr(0, name.find('_', name.find("_b") + 2)) + ".model.json");
    if (model_path.empty() && std::filesystem::exists(own)) model_path = own;
    ASSERT_FALSE(model_path.empty()) << net;
    Semantics s;
    ir::Diagnostics d;
    auto loaded = model::load_network(model_path.string(), d);
    ASSERT_TRUE(loaded);
    s.net = std::move(*loaded);
    s.ref = model::compute_reference(s.net, 1);
    s.geometry = model::geometry_table(s.net, s.ref.numerics);
    model::QuirkCounts q, q2;
    const sim::Report r = run(f.string(), s, true, q);
    expect_bit_exact(r, f.string());
    const sim::Report timing = run(f.string(), s, false, q2);
    EXPECT_EQ(timing.total_cycles, r.total_cycles) << f;
  }
  if (files == 0) GTEST_SKIP() << "no full-dialect file in " << dir;
}

}  // namespace
