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

using test::codes;

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
  EXPECT_TRUE(
      sim::simulate(*r.file.program, hw, sim::workload_table(r.file.model), o, r.report, error))
      << error;
  EXPECT_FALSE(r.report.deadlock);
  EXPECT_TRUE(r.report.functional.passed()) << r.report.functional.mismatches() << " mismatches, "
                                            << r.report.functional.fault_count << " faults";
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

// ---- GPT decode: quirks Q1 and Q4 ------------------------------------------
// gpt_decode_q1.json: blk_K and blk_Vt2 read network input (channels 0-2)
// and another layer's output (channel 3). As SET writes it, the producer is
// intersected at channel 0: blk_K's first half gets it at channel 0 (wrong),
// its second half gets nothing (an ifmap without transfer_id, "source":
// null, also in the previous workload's prefetched copy); the network input
// is never listed. The four transposes have no layer_type.

std::size_t count(const ir::Diagnostics& d, ir::Check c) {
  std::size_t n = 0;
  for (const auto& x : d.items()) n += x.check == c;
  return n;
}

TEST(GptDecode, ValidatesWithOneWarningPerQuirkInBothDialects) {
  const fs::path in = test::data_dir() / "gpt_decode_q1.json";
  ir::Diagnostics d(1000);
  ir::load_and_validate(in.string(), {}, test::set_polar(), d);
  EXPECT_EQ(d.errors(), 0u) << codes(d);
  EXPECT_EQ(count(d, ir::Check::unsourced_input), 1u) << codes(d);
  EXPECT_EQ(count(d, ir::Check::missing_layer_type), 1u) << codes(d);
  EXPECT_EQ(d.warnings(), 2u) << codes(d);
  for (const auto& x : d.items()) {
    if (x.check == ir::Check::unsourced_input) {
      EXPECT_EQ(x.pointer, "/1/1/ifmap");
      EXPECT_NE(x.message.find("the input of 4 workload(s) is not all sourced (1 with no "
                               "transfer_id and \"source\": null, 3 whose sources leave"),
                std::string::npos)
          << x.message;
    }
    if (x.check == ir::Check::missing_layer_type) {
      EXPECT_EQ(x.pointer, "/1/3/layer_type");
      EXPECT_NE(x.message.find("on 4 workload(s)"), std::string::npos) << x.message;
    }
  }
  ir::Diagnostics f(1000);
  ir::load_and_validate(full_dialect(in, "gpt_decode_full.json").string(), {}, test::set_polar(),
                        f);
  EXPECT_EQ(f.errors() + f.warnings(), 0u) << codes(f);
}

TEST(GptDecode, TheMissingInputIsLoadedFromADramTensorOfItsOwn) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "gpt_decode_q1.json").string(), d);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  // Four DRAM entries added (ids 13-16, past the file's 0-12): the
  // channels the sources leave uncovered. Workload 3's is its whole box.
  const ir::DramOut* added = nullptr;
  int count_added = 0;
  for (const ir::DramOut& e : r.model.dram_out) {
    if (e.transfer_id < 13) continue;
    ++count_added;
    EXPECT_LE(e.transfer_id, 16);
    if (e.destination.size() == 1 && e.destination[0].core_id == 1 &&
        e.destination[0].workload_id == 3)
      added = &e;
  }
  EXPECT_EQ(count_added, 4);
  ASSERT_NE(added, nullptr);
  const ir::TransferId t = added->transfer_id;
  EXPECT_EQ(added->type, ir::DataType::fmap);
  EXPECT_EQ(added->box.lo, (std::array<std::int32_t, 4>{0, 2, 0, 0}));
  EXPECT_EQ(added->box.hi, (std::array<std::int32_t, 4>{0, 3, 1, 0}));
  EXPECT_EQ(added->size, 4);
  const ir::Workload* w = r.model.find_workload(1, 3);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->ifmap.at(0).transfer_id, std::vector<ir::TransferId>{t});
  // Both snapshots holding its tensor (workload 3's and the prefetch in 1).
  int sourced = 0;
  for (const ir::Workload& x : r.model.cores.at(1).workloads)
    for (const ir::BufferEntry& b : x.buffer)
      if (b.layer_name == "blk_K" && b.type == ir::TensorType::ifmap) {
        if (b.workload_id != 3) continue;
        ASSERT_EQ(b.source.size(), 1u);
        EXPECT_EQ(b.source[0].transfer_id, t);
        EXPECT_EQ(b.source[0].type, ir::EndpointType::dram);
        ++sourced;
      }
  EXPECT_EQ(sourced, 2);
  // Workload 2 (core 0) keeps its producer source at channel 0 and reads
  // channel 1 from DRAM.
  const ir::Workload* w2 = r.model.find_workload(0, 2);
  ASSERT_NE(w2, nullptr);
  ASSERT_EQ(w2->ifmap.at(0).transfer_id.size(), 2u);
  for (const ir::BufferEntry& b : w2->buffer)
    if (b.layer_name == "blk_K" && b.type == ir::TensorType::ifmap) {
      ASSERT_EQ(b.source.size(), 2u);
      EXPECT_EQ(b.source[0].layer_name, "blk_Kt0");
      EXPECT_EQ(b.source[1].layer_name, "input");
      EXPECT_EQ(b.source[1].channel, (std::array<std::int32_t, 2>{1, 1}));
    }

  // Timing alone (no model): assembled, verified, and the box is loaded by
  // DMA from a network-input region, in both dialects.
  const fs::path in = test::data_dir() / "gpt_decode_q1.json";
  for (const fs::path& p : {in, full_dialect(in, "gpt_decode_full2.json")}) {
    ir::Diagnostics ad(100);
    assembler::AssembledFile file =
        assembler::assemble_file(p.string(), test::set_polar(), {}, ad, {}, {}, {});
    ASSERT_TRUE(file.program) << codes(ad);
    bool region = false;
    for (const assembler::DramRegion& g : file.program->dram_regions)
      region |= g.kind == assembler::DramRegion::Kind::input && g.layer == "blk_K";
    EXPECT_TRUE(region) << p;
    int loads = 0;
    for (const assembler::LoweredCore& c : file.program->cores)
      for (const assembler::Instr& x : c.program.instrs)
        loads += x.op == assembler::Opcode::dma_in && x.get("transfer") >= 13;
    EXPECT_EQ(loads, 4) << p;
    sim::SimOptions o;
    o.xlen = file.model.xlen;
    o.ylen = file.model.ylen;
    sim::Report report;
    std::string error;
    ASSERT_TRUE(sim::simulate(*file.program, test::set_polar(), sim::workload_table(file.model), o,
                              report, error))
        << error;
    EXPECT_FALSE(report.deadlock);
    EXPECT_GT(report.total_cycles, 0);
  }
}

TEST(GptDecode, WithTheModelEveryLayerComputesBitExactInBothDialects) {
  auto s = semantics("gpt_decode_q1.model.json");
  ASSERT_TRUE(s);
  const fs::path in = test::data_dir() / "gpt_decode_q1.json";
  for (const fs::path& p : {in, full_dialect(in, "gpt_decode_full3.json")}) {
    const Outcome r = assemble_and_simulate(p, *s);
    ASSERT_TRUE(r.file.program);
    EXPECT_EQ(r.report.functional.layers.size(), 6u);
    for (const auto& l : r.report.functional.layers) EXPECT_GT(l.tile_elements, 0) << l.layer;
    // Q1 rebuilt every copy of the two layers' input tensors: 5 entries.
    EXPECT_EQ(s->quirks.q1, 5);
    EXPECT_EQ(s->quirks.q4, 4);
  }
}

TEST(GptDecode, TheQuirksStayErrorsInTheFullDialect) {
  // The full dialect requires what the public scheduler leaves out.
  const std::string text = test::read_file(test::data_dir() / "spec_minimal.json");
  boost::json::value doc = boost::json::parse(text);
  auto& wl = doc.at("0").as_array()[0].as_object();
  wl.erase("layer_type");
  ir::Diagnostics d = validate_text("full_no_type.json", boost::json::serialize(doc));
  EXPECT_TRUE(d.has(ir::Check::missing_key)) << codes(d);
  EXPECT_FALSE(d.has(ir::Check::missing_layer_type)) << codes(d);
  doc = boost::json::parse(text);
  doc.at("0").as_array()[0].at("ifmap").as_array()[0].as_object().erase("transfer_id");
  ir::Diagnostics e = validate_text("full_no_tid.json", boost::json::serialize(doc));
  EXPECT_TRUE(e.has(ir::Check::missing_key)) << codes(e);
  EXPECT_FALSE(e.has(ir::Check::unsourced_input)) << codes(e);
}

TEST(GptDecode, AMissingLayerTypeThatIsNoTransposeIsTakenAsDtAndCounted) {
  // blk_K0, a convolution with weights, loses its layer_type too: five
  // workloads without one, and one of them is no transpose by its shapes.
  const std::string text = test::read_file(test::data_dir() / "gpt_decode_q1.json");
  boost::json::value doc = boost::json::parse(text);
  auto& conv = doc.at("1").as_array()[0].as_object();  // blk_K0: has a weight
  conv.erase("layer_type");
  ir::Diagnostics d = validate_text("no_type.json", boost::json::serialize(doc));
  ASSERT_EQ(count(d, ir::Check::missing_layer_type), 1u) << codes(d);
  for (const auto& x : d.items())
    if (x.check == ir::Check::missing_layer_type) {
      EXPECT_EQ(x.pointer, "/1/0/layer_type");
      EXPECT_NE(x.message.find("on 5 workload(s)"), std::string::npos) << x.message;
      EXPECT_NE(x.message.find("1 of them are not transposes by their shapes (first at /1/0/"
                               "layer_type)"),
                std::string::npos)
          << x.message;
    }
  EXPECT_EQ(d.errors(), 0u) << codes(d);
}

}  // namespace
