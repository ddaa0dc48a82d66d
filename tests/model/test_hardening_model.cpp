// Hardening (issue 31): inputs that once overflowed, hung or were accepted in silence, each now a
// diagnostic with a location: model files.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>

#include "fixture.h"
#include "gemini/assembler/encoding.h"
#include "gemini/assembler/text.h"
#include "gemini/gpu/backend.h"
#include "gemini/gpu/plan.h"
#include "gemini/gpu/plan_exec.h"
#include "gemini/ir/checked_int.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/json_document.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/resources.h"
#include "gemini/ir/validator.h"
#include "gemini/model/layer_semantics.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file
namespace json = boost::json;

using test::has;
using test::listing;

namespace {

constexpr std::int64_t kMax = INT64_MAX;

json::value spec_model() {
  return json::parse(test::read_file(test::data_dir() / "spec_minimal.model.json"));
}
json::object& op_of(json::value& m, std::size_t node) {
  return m.at("Nodes").at(node).at("Ops").at(0).as_object();
}
json::object& args_of(json::value& m, std::size_t node) {
  return op_of(m, node)["Args"].as_object();
}

std::optional<model::Network> load(const json::value& m, ir::Diagnostics& d) {
  return model::parse_network(json::serialize(m), "m.json", d);
}

// --- model files ---------------------------------------------------------

// Issue 31, item 1: a bottom or right padding of 2^63-1 overflowed the
// window arithmetic (UB).
TEST(HardenModel, HugeBottomPaddingIsARangeError) {
  json::value m = spec_model();
  args_of(m, 0)["PadTBLR"] = json::object{{"DIMS", json::array{1, kMax, 1, 0}}};
  ir::Diagnostics d;
  EXPECT_FALSE(load(m, d));
  EXPECT_TRUE(has(d, "/Nodes/0/Ops/0/Args/PadTBLR/DIMS", "bottom and right padding must be in"))
      << listing(d);
}

TEST(HardenModel, NegativeBottomPaddingStillLoads) {
  // As the corpus's stride-2 1x1 convolutions have [0,-1,0,-1] (models
  // README): 2 + 16 - 1 = (8 - 1) * 2 + 3.
  json::value m = spec_model();
  args_of(m, 0)["PadTBLR"] = json::object{{"DIMS", json::array{2, -1, 2, -1}}};
  ir::Diagnostics d;
  EXPECT_TRUE(load(m, d)) << listing(d);
}

TEST(HardenModel, SelfLoopIsACycle) {
  json::value m = spec_model();
  // Pool_0 reads its own result.
  op_of(m, 1)["ReadTensors"].as_array()[0] = op_of(m, 1)["ResultTensors"].as_array()[0];
  ir::Diagnostics d;
  EXPECT_FALSE(load(m, d));
  EXPECT_TRUE(has(d, "/Nodes/1/Ops/0/ReadTensors/0", "reads its own result")) << listing(d);
}

TEST(HardenModel, HugeWeightShapeIsRefusedWhenRead) {
  json::value m = spec_model();
  args_of(m, 0)["WeightShape"] = json::object{{"DIMS", json::array{65535, 65535, 255, 255}}};
  ir::Diagnostics d;
  EXPECT_FALSE(load(m, d));
  EXPECT_TRUE(has(d, "/Nodes/0/Ops/0/Args/WeightShape/DIMS", "more than 2^31 elements"))
      << listing(d);
}

TEST(HardenModel, NonBooleanIsVirtual) {
  json::value m = spec_model();
  op_of(m, 2)["IsVirtual"] = "no";
  ir::Diagnostics d;
  EXPECT_FALSE(load(m, d));
  EXPECT_TRUE(has(d, "/Nodes/2/Ops/0/IsVirtual", "expected true or false, got string"))
      << listing(d);
}

TEST(HardenModel, DuplicateKeys) {
  std::string text = test::read_file(test::data_dir() / "spec_minimal.model.json");
  const std::size_t at = text.find("\"Groups\"");
  ASSERT_NE(at, std::string::npos);
  text.insert(at, "\"Groups\": {\"INT\": 2}, ");
  ir::Diagnostics d;
  EXPECT_FALSE(model::parse_network(text, "m.json", d));
  EXPECT_TRUE(has(d, "/Nodes/0/Ops/0/Args/Groups", "repeats")) << listing(d);
}

TEST(HardenModel, WriteTensorsDisagreeingWithTheResult) {
  json::value m = spec_model();
  op_of(m, 0)["WriteTensors"].as_array()[0].as_object()["Shape"] = json::array{1, 16, 8, 9};
  ir::Diagnostics d;
  EXPECT_FALSE(load(m, d));
  EXPECT_TRUE(has(d, "/Nodes/0/Ops/0/WriteTensors/0/Shape", "differs from the result's"))
      << listing(d);
  json::value two = spec_model();
  json::array& w = op_of(two, 0)["WriteTensors"].as_array();
  w.push_back(w[0]);
  ir::Diagnostics d2;
  EXPECT_FALSE(load(two, d2));
  EXPECT_TRUE(has(d2, "/Nodes/0/Ops/0/WriteTensors", "writes one tensor")) << listing(d2);
}

TEST(HardenModel, FcKernelErrorNamesTheInput) {
  // An FC without KernelRS whose input is 300 rows high.
  const std::string text = R"({"Nodes": [{"Id": 0, "ProducerNodeIds": [], "Ops": [{
    "Type": "FullyConnected", "Name": "fc",
    "ReadTensors": [{"Id": 1, "Shape": [1, 2, 300, 1]}],
    "ResultTensors": [{"Id": 2, "Shape": [1, 4, 1, 1]}],
    "Args": {"IfmapShape": {"DIMS": [1, 2, 300, 1]}, "OfmapShape": {"DIMS": [1, 4, 1, 1]},
             "WeightShape": {"DIMS": [4, 600]}}}]}]})";
  ir::Diagnostics d;
  EXPECT_FALSE(model::parse_network(text, "m.json", d));
  EXPECT_TRUE(has(d, "/Nodes/0/Ops/0/Args/IfmapShape/DIMS", "input's H x W (300 x 1"))
      << listing(d);
  EXPECT_EQ(listing(d).find("/KernelRS"), std::string::npos) << listing(d);  // not in the file
}

TEST(HardenModel, GroupsErrorNamesGroups) {
  json::value m = spec_model();
  args_of(m, 0)["Groups"] = json::object{{"INT", 2}};
  ir::Diagnostics d;
  EXPECT_FALSE(load(m, d));
  EXPECT_TRUE(has(d, "/Nodes/0/Ops/0/Args/Groups/INT",
                  "Groups 2 does not divide the 3 input channels (IfmapShape's C)"))
      << listing(d);
}

TEST(HardenModel, ProducerNodeIdsMessageGivesTheIds) {
  json::value m = spec_model();
  m.at("Nodes").at(1).as_object()["ProducerNodeIds"] = json::array{2};
  ir::Diagnostics d;
  EXPECT_FALSE(load(m, d));
  EXPECT_TRUE(has(d, "/Nodes/1/ProducerNodeIds",
                  "ProducerNodeIds lists [2], but the producers of ReadTensors are nodes [0]"))
      << listing(d);
}

// Found by fuzzing (tests/data/fuzz/{model,end_to_end}/): reads are
// resolved by buffer, and a read of another shape than what the buffer
// holds was taken at its word -- the reference then copied past the end of
// the smaller tensor.
// spec_minimal with Add_0 reading buffer `buffer` (as a tensor 7 of its own
// [1,16,4,4] ifmap shape), produced by the nodes `producers`.
json::value add_reads_buffer(std::int64_t buffer, json::array producers) {
  json::value m = spec_model();
  json::object& read = op_of(m, 2)["ReadTensors"].as_array()[0].as_object();
  read["Id"] = 7;
  read["Buffer"].as_object()["Id"] = buffer;
  m.at("Nodes").at(2).as_object()["ProducerNodeIds"] = std::move(producers);
  return m;
}

TEST(HardenModel, NetworkInputReadWithAnotherShape) {
  // Add_0 reads Conv_0's input buffer (3) as its own [1,16,4,4] ifmap.
  ir::Diagnostics d;
  EXPECT_FALSE(load(add_reads_buffer(3, {}), d));
  EXPECT_TRUE(has(d, "/Nodes/2/Ops/0/ReadTensors/0/Shape",
                  "network input 6 (buffer 3) is [1,3,16,16] where \"Conv_0\" reads it, not "
                  "[1,16,4,4]"))
      << listing(d);
}

TEST(HardenModel, ResultReadWithAnotherShape) {
  // Add_0 reads Conv_0's result buffer (0, [1,16,8,8]) as [1,16,4,4].
  ir::Diagnostics d;
  EXPECT_FALSE(load(add_reads_buffer(0, {0}), d));
  EXPECT_TRUE(has(d, "/Nodes/2/Ops/0/ReadTensors/0/Shape",
                  "reads the result of \"Conv_0\" ([1,16,8,8]) as [1,16,4,4]; gemini reads whole "
                  "results only"))
      << listing(d);
}

TEST(HardenModel, TwoOpsWriteOneBuffer) {
  // Pool_0's result in Conv_0's buffer (0): Add_0's read of buffer 1 then
  // has no producer, and a reader of buffer 0 could not say which it reads.
  json::value m = spec_model();
  for (const char* key : {"WriteTensors", "ResultTensors"})
    op_of(m, 1)[key].as_array()[0].as_object()["Buffer"].as_object()["Id"] = 0;
  ir::Diagnostics d;
  EXPECT_FALSE(load(m, d));
  EXPECT_TRUE(has(d, "/Nodes/1/Ops/0",
                  "its result buffer 0 is also the result of \"Conv_0\" (/Nodes/0/Ops/0); gemini "
                  "needs each op's result in a buffer of its own"))
      << listing(d);
  json::value t = spec_model();  // the same result tensor id
  op_of(t, 2)["ResultTensors"].as_array()[0].as_object()["Id"] = 3;
  ir::Diagnostics d2;
  EXPECT_FALSE(load(t, d2));
  EXPECT_TRUE(has(d2, "/Nodes/2/Ops/0", "its result tensor 3 is also the result of \"Pool_0\""))
      << listing(d2);
}

TEST(HardenModel, SyntaxErrorHasLineAndColumn) {
  ir::Diagnostics d;
  EXPECT_FALSE(model::parse_network("{\n \"Nodes\": [,]}", "m.json", d));
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].line, 2u);
  EXPECT_EQ(d.items()[0].column, 12u);
}

TEST(HardenModel, ReferenceMemoryIsCountedBeforeItIsTaken) {
  ir::Diagnostics d;
  auto net = model::parse_network(test::read_file(test::data_dir() / "spec_minimal.model.json"),
                                  "m.json", d);
  ASSERT_TRUE(net) << listing(d);
  std::string detail;
  const auto bytes = model::reference_bytes(*net, &detail);
  ASSERT_TRUE(bytes);
  // Outputs 1x16x8x8 + 1x16x4x4 + 1x16x4x4, the input 1x3x16x16, and the
  // largest working set: Conv_0's weights 16x3x3x3 and its int32 sums.
  EXPECT_EQ(*bytes, (1024 + 256 + 256 + 768) + (432 + 4 * 1024));  // 6832
  EXPECT_NE(detail.find("Conv_0"), std::string::npos) << detail;
  ir::Diagnostics d2;
  auto s = model::LayerSemantics::load((test::data_dir() / "spec_minimal.model.json").string(), 1,
                                       d2, 1, ir::MemoryLimit{1000});
  EXPECT_FALSE(s);
  EXPECT_TRUE(has(d2, "", "computing the reference needs 6.7 KiB")) << listing(d2);
}

}  // namespace
