// What the public scheduler really writes (issue 21): patterns found in its
// files beyond the corpus, reproduced by small fixtures in tests/data, each
// taken through validate, import, asm and sim (functionally, with a model)
// in both dialects.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "fixture.h"
#include "gemini/assembler/assemble_file.h"
#include "gemini/ir/import.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"
#include "gemini/ir/writer.h"
#include "gemini/model/layer_semantics.h"
#include "gemini/sim/simulator.h"

namespace fs = std::filesystem;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

std::string codes(const ir::Diagnostics& d) {
  std::string s;
  for (const auto& x : d.items()) s += std::string(x.code()) + " " + x.pointer + ": " + x.message + "\n";
  return s;
}

ir::Diagnostics validate_text(const std::string& name, const std::string& text) {
  ir::Diagnostics d(1000);
  const fs::path p = test::write_temp(name, text);
  ir::load_and_validate(p.string(), {}, test::set_polar(), d);
  return d;
}

// The file, imported and written in the full dialect.
fs::path full_dialect(const fs::path& in, const std::string& name) {
  ir::Diagnostics d;
  auto r = ir::load_file(in.string(), d);
  EXPECT_EQ(d.errors(), 0u) << codes(d);
  EXPECT_TRUE(ir::import_model(r.model, test::set_polar(), {}, d));
  const fs::path out = test::temp_path(name);
  std::string err;
  EXPECT_TRUE(ir::write_full_file(r.model, out.string(), err)) << err;
  return out;
}

struct Outcome {
  assembler::AssembledFile file;
  sim::Report report;
};

// Assembles `path` with the model's semantics and simulates functionally.
Outcome assemble_and_simulate(const fs::path& path, const model::LayerSemantics& s) {
  Outcome r;
  const ir::HardwareConfig& hw = test::set_polar();
  assembler::AssembleOptions ao;
  ao.lower.geometry = &s.geometry;
  ao.semantics = [&s](ir::Model& m, ir::Diagnostics& d) { return s.apply(m, d); };
  ir::Diagnostics d(100);
  r.file = assembler::assemble_file(path.string(), hw, {}, d, {}, {}, ao);
  EXPECT_EQ(d.errors(), 0u) << codes(d);
  EXPECT_TRUE(r.file.program) << (r.file.lower_errors.empty() ? "" : r.file.lower_errors.front());
  if (!r.file.program) return r;
  sim::SimOptions o;
  o.xlen = r.file.model.xlen;
  o.ylen = r.file.model.ylen;
  o.network = &s.net;
  o.reference = &s.ref;
  std::string error;
  EXPECT_TRUE(sim::simulate(*r.file.program, hw, sim::workload_table(r.file.model), o, r.report, error))
      << error;
  EXPECT_FALSE(r.report.deadlock);
  EXPECT_TRUE(r.report.functional.passed())
      << r.report.functional.mismatches() << " mismatches, " << r.report.functional.fault_count << " faults";
  return r;
}

std::unique_ptr<model::LayerSemantics> semantics(const char* model) {
  ir::Diagnostics d;
  auto s = model::LayerSemantics::load((test::data_dir() / model).string(), 1, d);
  EXPECT_TRUE(s) << codes(d);
  return s;
}

// ---- A weight that stays in L2 across workloads ----------------------------
// resident_weight.json: a layer-pipelined batch of 3 on two cores; each
// core's weight DRAM entry lists only its first workload, the later ones
// name the same transfer and hold the same tensor in every snapshot.

TEST(ResidentWeight, ValidatesInBothDialects) {
  const fs::path in = test::data_dir() / "resident_weight.json";
  ir::Diagnostics d(1000);
  ir::load_and_validate(in.string(), {}, test::set_polar(), d);
  EXPECT_EQ(d.errors() + d.warnings(), 0u) << codes(d);
  ir::Diagnostics f(1000);
  ir::load_and_validate(full_dialect(in, "resident_full.json").string(), {}, test::set_polar(), f);
  EXPECT_EQ(f.errors() + f.warnings(), 0u) << codes(f);
}

TEST(ResidentWeight, ADroppedTensorOrNoListedDestinationIsStillAnError) {
  const std::string text = test::read_file(test::data_dir() / "resident_weight.json");
  // Core 0's workload 1 no longer holds the weight: workload 2 (which does)
  // cannot be using what workload 0 loaded, and workload 1 holds nothing.
  boost::json::value doc = boost::json::parse(text);
  auto& buf = doc.at("1").as_array()[1].at("buffer").as_array();
  buf.erase(buf.begin());  // the weight entry comes first
  ir::Diagnostics d = validate_text("dropped.json", boost::json::serialize(doc));
  EXPECT_TRUE(d.has(ir::Check::producer_omits_consumer)) << codes(d);
  bool wl2 = false;
  for (const auto& x : d.items()) wl2 |= x.pointer == "/1/2/weight/transfer_id/0";
  EXPECT_TRUE(wl2) << codes(d);
  // Core 1's weight lists no workload of core 1 at all.
  doc = boost::json::parse(text);
  doc.at("-1").at("out").as_array()[1].at("destination").as_array()[0].as_object()["id"] = 1;
  ir::Diagnostics e = validate_text("elsewhere.json", boost::json::serialize(doc));
  EXPECT_TRUE(e.has(ir::Check::producer_omits_consumer)) << codes(e);
}

TEST(ResidentWeight, IsLoadedOncePerCoreAndComputesBitExact) {
  auto s = semantics("resident_weight.model.json");
  ASSERT_TRUE(s);
  const fs::path in = test::data_dir() / "resident_weight.json";
  for (const fs::path& p : {in, full_dialect(in, "resident_full2.json")}) {
    const Outcome r = assemble_and_simulate(p, *s);
    ASSERT_TRUE(r.file.program);
    // DRAM reads of the two weight transfers (ids 0 and 1): one per listed
    // destination, whether by DMA or straight into WL0.
    int weight_loads = 0;
    for (const assembler::LoweredCore& c : r.file.program->cores)
      for (const assembler::Instr& in : c.program.instrs) {
        if (in.op == assembler::Opcode::dma_in && in.get("transfer") <= 1) ++weight_loads;
        if (in.op == assembler::Opcode::wl0_load &&
            in.get("source") == static_cast<std::int64_t>(assembler::Wl0Src::dram))
          ++weight_loads;
      }
    EXPECT_EQ(weight_loads, 2) << p;
    EXPECT_EQ(r.report.functional.layers.at(0).tile_elements, 3 * 8 * 6 * 6);
  }
}

}  // namespace
