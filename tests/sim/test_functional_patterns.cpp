// The structures behind issue 30's wrong functional verdicts on real
// schedules, each reproduced by a minimal public-dialect fixture in
// tests/data (a 2x1 mesh, tensors of a few channels) with its model file.
// Every fixture is a sound schedule: `validate --model` accepts it, `asm`
// assembles it and `sim --model --functional` computes the network bit-exact,
// and so does its full-dialect import. With the gemini of cefb4df (before
// commit 162773c) each fixture failed as its real file did:
//
//  eltwise_concat_operand (Inception-ResNet B1_Eltwise): operand 0 of an
//    Eltwise is the concatenation of ra_a (channels 0-1) and ra_b (2-3),
//    operand 1 is b1_conv, and the one workload's channel box crosses the
//    ra_a|ra_b boundary. Its tensor held one slab per producer (3), the add
//    read two of them: elt wrong from channel 2 on (8 of 16 elements).
//  shared_input_readers (GoogLeNet SET inception_4a): three layers on one
//    core read the same pool tile; the snapshot lists it once per reading
//    workload. Three L2 tensors, only the first received the data:
//    branch_3x3_reduce and branch_5x5_reduce wrong in every element.
//  q1_eltwise_external_operand (LSTM/GNMT block<i>_fout): quirk Q1 on an
//    Eltwise, cin (network input, operand 0) + gate_f (operand 1) with no
//    source for cin: `validate --model` stopped with M006 ("fout's input
//    tensor ... needs 2 elements of network input; its sources bring 0").
//  gpt_decode_q1_no_own_ofmap (GPT decode; model gpt_decode_q1.model.json):
//    blk_Kt0 writes straight into a same-core tensor the wrong Q1 sources
//    name and has no ofmap entry of its own; after the Q1 correction "no L2
//    tensor holds its ofmap" under --model (it ran without a model).
//  eltwise_operands_same_core (GNMT SET block1_hout): both operands of an
//    Eltwise computed on its core and written straight into its ifmap
//    tensor; the earlier producer's compute waited for the later one's write:
//    "the schedule's dependencies form a cycle" in asm and sim while
//    validate said valid.
//
// And the coverage gap (M010; see Issue30CoverageGap below): a schedule
// that computes only part of what the model defines must not PASS.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "fixture.h"
#include "gemini/ir/layer_geometry.h"
#include "gemini/ir/loader.h"

namespace fs = std::filesystem;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

using test::CliRun;

CliRun gemini_cli(const std::string& args) {
  return test::run_gemini(args);
}

std::string data(const std::string& name) { return (test::data_dir() / name).string(); }

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

struct Pattern {
  const char* name;   // test parameter
  const char* ir;     // tests/data/<ir>
  const char* model;  // tests/data/<model>
};
// gtest's printer for a failing parameter (its name is gtest's).
void PrintTo(const Pattern& p, std::ostream* os) {  // NOLINT(readability-identifier-naming)
  *os << p.ir << " with " << p.model;
}

const Pattern kPatterns[] = {
    {"InceptionResNetConcatenatedOperand", "eltwise_concat_operand.json",
     "eltwise_concat_operand.model.json"},
    {"GoogLeNetSharedInput", "shared_input_readers.json", "shared_input_readers.model.json"},
    {"LstmQ1OnEltwise", "q1_eltwise_external_operand.json",
     "q1_eltwise_external_operand.model.json"},
    {"GptDecodeQ1ProducerWithoutOfmap", "gpt_decode_q1_no_own_ofmap.json",
     "gpt_decode_q1.model.json"},
    {"GnmtOperandsFromTheSameCore", "eltwise_operands_same_core.json",
     "eltwise_operands_same_core.model.json"},
};

class FunctionalPattern : public testing::TestWithParam<Pattern> {
 protected:
  std::string ir() const { return data(GetParam().ir); }
  std::string model() const { return data(GetParam().model); }
};

TEST_P(FunctionalPattern, ValidatesWithTheModel) {
  const CliRun v = gemini_cli("validate " + ir() + " --model " + model());
  EXPECT_EQ(v.status, 0) << v.out;
  EXPECT_TRUE(has(v.out, "valid (set dialect), 0 errors")) << v.out;
  EXPECT_FALSE(has(v.out, ": error:")) << v.out;
}

TEST_P(FunctionalPattern, AssemblesWithTheModel) {
  const fs::path dir = test::temp_path(std::string("asm_") + GetParam().name);
  const CliRun a = gemini_cli("asm " + ir() + " --model " + model() + " -o " + dir.string());
  EXPECT_EQ(a.status, 0) << a.out;
  EXPECT_TRUE(has(a.out, "verified")) << a.out;
  EXPECT_TRUE(fs::exists(dir / "manifest.json")) << a.out;
}

TEST_P(FunctionalPattern, ComputesTheNetworkBitExact) {
  const CliRun s = gemini_cli("sim " + ir() + " --model " + model() + " --functional");
  EXPECT_EQ(s.status, 0) << s.out;
  EXPECT_TRUE(has(s.out, "functional: PASS (bit-exact)")) << s.out;
  EXPECT_TRUE(has(s.out, " 0 mismatches, 0 faults")) << s.out;
}

TEST_P(FunctionalPattern, ItsFullDialectImportValidatesAndComputesTheNetwork) {
  const fs::path full = test::temp_path(std::string("import_") + GetParam().name + ".json");
  const CliRun i = gemini_cli("import " + ir() + " --model " + model() + " -q -o " + full.string());
  ASSERT_EQ(i.status, 0) << i.out;
  const CliRun v = gemini_cli("validate " + full.string());
  EXPECT_EQ(v.status, 0) << v.out;
  EXPECT_TRUE(has(v.out, "valid (full dialect), 0 errors, 0 warnings")) << v.out;
  const CliRun s = gemini_cli("sim " + full.string() + " --model " + model() + " --functional");
  EXPECT_EQ(s.status, 0) << s.out;
  EXPECT_TRUE(has(s.out, "functional: PASS (bit-exact)")) << s.out;
}

INSTANTIATE_TEST_SUITE_P(Issue30, FunctionalPattern, testing::ValuesIn(kPatterns),
                         [](const testing::TestParamInfo<Pattern>& p) { return p.param.name; });

// ---- What each fix changed, on its own fixture -----------------------------

// The full-dialect import of `file` (with `model`), parsed.
boost::json::object imported(const std::string& file, const std::string& model,
                             const std::string& name) {
  const fs::path full = test::temp_path(name);
  const CliRun i =
      gemini_cli("import " + data(file) + " --model " + data(model) + " -q -o " + full.string());
  EXPECT_EQ(i.status, 0) << i.out;
  if (i.status != 0) return {};
  return boost::json::parse(test::read_file(full)).as_object();
}

// The buffer entries of `layer`'s (first) workload on full-dialect core
// `core` ("1": the public dialect's core 2, the second of the 2x1 mesh).
const boost::json::array& snapshot(const boost::json::object& doc, const char* core,
                                   const std::string& layer) {
  static const boost::json::array none;
  if (!doc.contains(core)) return none;
  for (const auto& w : doc.at(core).as_array())
    if (w.at("layer_name").as_string() == layer) return w.at("buffer").as_array();
  return none;
}

TEST(Issue30Patterns, AConcatenatedOperandIsOneSlabOfTheEltwiseTensor) {
  // The Eltwise's ifmap entry: ra_a and ra_b (disjoint channels) are the
  // parts of operand 0, b1_conv is operand 1.
  ir::Diagnostics d;
  auto r = ir::load_file(data("eltwise_concat_operand.json"), d);
  ASSERT_EQ(r.status, ir::LoadStatus::ok) << test::codes(d);
  const ir::BufferEntry* entry = nullptr;
  for (const ir::Core& c : r.model.cores)
    for (const ir::Workload& w : c.workloads)
      if (w.layer_name == "elt")
        for (const ir::BufferEntry& b : w.buffer)
          if (b.type == ir::TensorType::ifmap && b.layer_name == "elt") entry = &b;
  ASSERT_NE(entry, nullptr);
  const std::vector<std::vector<std::string>> want{{"b1_conv"}, {"ra_a", "ra_b"}};
  EXPECT_EQ(ir::operand_slabs(*entry), want);

  // In L2: two slabs of the box (b1_conv's own input has the same box and
  // takes one), not three.
  const boost::json::object doc =
      imported("eltwise_concat_operand.json", "eltwise_concat_operand.model.json", "p1_full.json");
  std::int64_t elt_in = -1, one_slab = -1;
  for (const auto& b : snapshot(doc, "1", "elt")) {
    const auto& e = b.as_object();
    if (e.at("type").as_string() == "ifmap" && e.at("layer_name").as_string() == "elt")
      elt_in = e.at("size").to_number<std::int64_t>();
  }
  for (const auto& b : snapshot(doc, "1", "b1_conv")) {
    const auto& e = b.as_object();
    if (e.at("type").as_string() == "ifmap" && e.at("layer_name").as_string() == "b1_conv")
      one_slab = e.at("size").to_number<std::int64_t>();
  }
  ASSERT_GT(one_slab, 0);
  EXPECT_EQ(elt_in, 2 * one_slab);

  // elt was wrong from channel 2 (the ra_a|ra_b boundary) on.
  const CliRun s = gemini_cli("sim " + data("eltwise_concat_operand.json") + " --model " +
                              data("eltwise_concat_operand.model.json") + " --functional");
  EXPECT_EQ(s.status, 0) << s.out;
  EXPECT_FALSE(has(s.out, "wrong values start at layer elt")) << s.out;
}

TEST(Issue30Patterns, DataListedForSeveralReadersIsOneReceivedTensor) {
  // Workload 1's snapshot lists the pool tile for its three readers: one
  // tensor, one address.
  const boost::json::object doc =
      imported("shared_input_readers.json", "shared_input_readers.model.json", "p2_full.json");
  std::set<std::int64_t> ids, addresses;
  int listed = 0;
  for (const auto& b : snapshot(doc, "1", "branch_1x1")) {
    const auto& e = b.as_object();
    if (e.at("type").as_string() != "ifmap") continue;
    ++listed;
    ids.insert(e.at("tensor_id").to_number<std::int64_t>());
    addresses.insert(e.at("address").to_number<std::int64_t>());
  }
  EXPECT_EQ(listed, 3);
  EXPECT_EQ(ids.size(), 1u);
  EXPECT_EQ(addresses.size(), 1u);
  // The two readers after the first read what arrived (they read a tensor
  // nothing wrote).
  const CliRun s = gemini_cli("sim " + data("shared_input_readers.json") + " --model " +
                              data("shared_input_readers.model.json") + " --functional");
  EXPECT_EQ(s.status, 0) << s.out;
  EXPECT_FALSE(has(s.out, "wrong values start at layer branch_3x3_reduce")) << s.out;
  EXPECT_FALSE(has(s.out, "wrong values start at layer branch_5x5_reduce")) << s.out;
}

TEST(Issue30Patterns, Q1OnAnEltwiseOperandIsRebuiltFromTheModel) {
  // cin is read from DRAM as network input: no M006, and the Q1 correction
  // counts fout's two workloads besides gate_f's two.
  const std::string args = data("q1_eltwise_external_operand.json") + " --model " +
                           data("q1_eltwise_external_operand.model.json");
  const CliRun v = gemini_cli("validate " + args);
  EXPECT_EQ(v.status, 0) << v.out;
  EXPECT_FALSE(has(v.out, "M006")) << v.out;
  EXPECT_TRUE(has(v.out,
                  "M009: warning: Q1 input of a layer reading network input and other "
                  "layers' outputs rebuilt"))
      << v.out;
  EXPECT_TRUE(has(v.out, "corrected 4 time(s)")) << v.out;
  const CliRun s = gemini_cli("sim " + args + " --functional");
  EXPECT_EQ(s.status, 0) << s.out;
  EXPECT_TRUE(has(s.out, "corrected from the model: Q1 network input mixed with producers x 4"))
      << s.out;
  EXPECT_TRUE(has(s.out, "functional: PASS (bit-exact)")) << s.out;
}

TEST(Issue30Patterns, AModelNeverMakesARunnableScheduleFail) {
  // GPT decode: runs without the model, and with it.
  const std::string ir = data("gpt_decode_q1_no_own_ofmap.json");
  const std::string model = data("gpt_decode_q1.model.json");
  const CliRun plain = gemini_cli("sim " + ir);
  EXPECT_EQ(plain.status, 0) << plain.out;
  const CliRun with = gemini_cli("sim " + ir + " --model " + model);
  EXPECT_EQ(with.status, 0) << with.out;
  EXPECT_FALSE(has(with.out, "no L2 tensor holds its ofmap")) << with.out;
  // blk_Kt0's output, which the correction sends elsewhere, is held in an
  // ofmap tensor of its own (said once, as a corrected quirk).
  const CliRun v = gemini_cli("validate " + ir + " --model " + model);
  EXPECT_EQ(v.status, 0) << v.out;
  EXPECT_TRUE(has(v.out, "holds it in an L2 ofmap tensor of its own")) << v.out;
}

TEST(Issue30Patterns, WhatValidateAcceptsAssemblesWithoutACycle) {
  // GNMT: without a model too (the cycle was ours, not the schedule's).
  const std::string ir = data("eltwise_operands_same_core.json");
  const CliRun v = gemini_cli("validate " + ir);
  EXPECT_EQ(v.status, 0) << v.out;
  const fs::path dir = test::temp_path("asm_same_core_plain");
  const CliRun a = gemini_cli("asm " + ir + " -o " + dir.string());
  EXPECT_EQ(a.status, 0) << a.out;
  EXPECT_FALSE(has(a.out, "form a cycle")) << a.out;
  const CliRun s = gemini_cli("sim " + ir);
  EXPECT_EQ(s.status, 0) << s.out;
  EXPECT_FALSE(has(s.out, "form a cycle")) << s.out;
}

// ---- The coverage gap: a PASS must mean the whole network ------------------
//
// Pending: issue 30's "A PASS must mean the whole network" is not fixed yet.
// Both tests below skip until that fix lands (remove the GTEST_SKIP then);
// today `validate --model` says valid and `sim --functional` prints PASS on
// both fixtures.
//  - set_minimal.json against set_minimal_batch2.model.json (N = 2): the
//    schedule computes sample 0 of conv1 and pool1, sample 1 of neither.
//  - set_minimal_half_channels.json against set_minimal.model.json: conv1
//    and pool1 computed for output channels 0-7 of 16.

void expect_uncovered(const std::string& ir, const std::string& model,
                      const std::vector<std::string>& range_hints) {
  const CliRun v = gemini_cli("validate " + ir + " --model " + model);
  EXPECT_EQ(v.status, 1) << v.out;
  for (const char* layer : {"conv1", "pool1"}) {
    // An M error naming the layer...
    bool named = false;
    std::size_t at = 0;
    while ((at = v.out.find(": error:", at)) != std::string::npos) {
      const std::size_t line = v.out.rfind('\n', at) + 1;
      const std::size_t end = v.out.find('\n', at);
      const std::string text = v.out.substr(line, end - line);
      named |= has(text, ": M") && has(text, layer);
      at = end;
    }
    EXPECT_TRUE(named) << layer << " is not named by an M error:\n" << v.out;
  }
  // ...and the range no workload computes.
  for (const std::string& hint : range_hints)
    EXPECT_TRUE(has(v.out, hint)) << hint << "\n" << v.out;
  const CliRun s = gemini_cli("sim " + ir + " --model " + model + " --functional");
  EXPECT_NE(s.status, 0) << s.out;
  EXPECT_FALSE(has(s.out, "PASS")) << s.out;
}

TEST(Issue30CoverageGap, ABatchTheScheduleDoesNotComputeIsReportedAndNeverPasses) {
  expect_uncovered(data("set_minimal.json"), data("set_minimal_batch2.model.json"),
                   {"[1,0,0,0]...[1,15,7,7]", "[1,0,0,0]...[1,15,3,3]"});
}

TEST(Issue30CoverageGap, ChannelsTheScheduleDoesNotComputeAreReportedAndNeverPass) {
  expect_uncovered(data("set_minimal_half_channels.json"), data("set_minimal.model.json"),
                   {"[0,8,0,0]...[0,15,7,7]", "[0,8,0,0]...[0,15,3,3]"});
}

}  // namespace
