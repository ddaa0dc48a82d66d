// Hardening (issue 31): inputs that once overflowed, hung or were accepted
// in silence, each now a diagnostic with a location, read through the
// libraries. The command line's side is test_hardening_cli.cpp.
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

namespace {

std::string listing(const ir::Diagnostics& d) {
  std::string s;
  for (const auto& x : d.items()) {
    s += std::string(x.code()) + " " + x.pointer;
    if (x.line) {
      s += ' ';
      s += std::to_string(*x.line);
      s += ':';
      s += std::to_string(*x.column);
    }
    s += ": " + x.message + "\n";
  }
  return s;
}

// Whether some diagnostic sits at `pointer` and says `text`.
bool has(const ir::Diagnostics& d, const std::string& pointer, const std::string& text) {
  for (const auto& x : d.items())
    if (x.pointer == pointer && x.message.find(text) != std::string::npos) return true;
  return false;
}

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

constexpr std::int64_t kMax = INT64_MAX;

// --- checked integer helpers ---------------------------------------------

TEST(CheckedInt, OverflowIsNullopt) {
  EXPECT_EQ(ir::checked_add<std::int64_t>(kMax, 1), std::nullopt);
  EXPECT_EQ(ir::checked_add<std::int64_t>(kMax - 1, 1), kMax);
  EXPECT_EQ(ir::checked_sub<std::int64_t>(INT64_MIN, 1), std::nullopt);
  EXPECT_EQ(ir::checked_mul<std::int64_t>(std::int64_t{1} << 32, std::int64_t{1} << 31),
            std::nullopt);
  EXPECT_EQ(ir::checked_mul<std::int64_t>(std::int64_t{1} << 31, std::int64_t{1} << 31),
            std::int64_t{1} << 62);
  EXPECT_EQ(ir::checked_product<std::int64_t>({65535, 65535, 65535, 65535}), std::nullopt);
  EXPECT_EQ(ir::checked_product<std::int64_t>({2, 3, 7}), 42);
  EXPECT_EQ((ir::checked_cast<std::int32_t>(std::int64_t{4294967304})), std::nullopt);
  EXPECT_EQ((ir::checked_cast<std::int32_t>(std::int64_t{-5})), -5);
  EXPECT_EQ((ir::checked_cast<std::uint32_t>(std::int64_t{-5})), std::nullopt);
}

TEST(CheckedInt, CeilDivAndDoubles) {
  EXPECT_EQ(ir::ceil_div<std::int64_t>(kMax, 8), kMax / 8 + 1);  // (v + 7) / 8 overflows
  EXPECT_EQ(ir::ceil_div<std::int64_t>(16, 8), 2);
  EXPECT_EQ(ir::ceil_div<std::int64_t>(0, 8), 0);
  EXPECT_EQ(ir::checked_ceil_i64(1e300), std::nullopt);
  EXPECT_EQ(ir::checked_ceil_i64(std::numeric_limits<double>::infinity()), std::nullopt);
  EXPECT_EQ(ir::checked_ceil_i64(std::nan("")), std::nullopt);
  EXPECT_EQ(ir::checked_ceil_i64(2.5), 3);
  EXPECT_EQ(ir::checked_ceil_i64(-2.5), -2);
}

TEST(CheckedInt, RunningValueRemembersOverflow) {
  ir::CheckedI64 v(kMax);
  v += 1;
  v -= 1;  // back in range, but the value was lost on the way
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.get(), std::nullopt);
  EXPECT_EQ(v.value_or(-1), -1);
  ir::CheckedI64 w(6);
  w *= 7;
  EXPECT_EQ(w.get(), 42);
}

// --- resources -----------------------------------------------------------

TEST(Resources, ByteSizes) {
  EXPECT_EQ(ir::parse_byte_size("1073741824"), std::int64_t{1} << 30);
  EXPECT_EQ(ir::parse_byte_size("16G"), std::int64_t{16} << 30);
  EXPECT_EQ(ir::parse_byte_size("512MiB"), std::int64_t{512} << 20);
  EXPECT_EQ(ir::parse_byte_size("1.5k"), 1536);
  EXPECT_EQ(ir::parse_byte_size("2TB"), std::int64_t{2} << 40);
  for (const char* bad : {"", "-1", "0", "1e9", "12X", "G", "1.5", "..5", "99999999999T"})
    EXPECT_EQ(ir::parse_byte_size(bad), std::nullopt) << bad;
  EXPECT_EQ(ir::format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(ir::format_bytes(std::int64_t{3} << 40), "3.0 TiB");
  EXPECT_GT(ir::available_memory_bytes(), 1 << 20);
}

TEST(Resources, ExceedsSaysWhatWasAsked) {
  const ir::MemoryLimit limit{std::int64_t{1} << 30};
  EXPECT_EQ(ir::exceeds(limit, std::int64_t{1} << 30, "x", ""), std::nullopt);
  const auto why = ir::exceeds(limit, std::int64_t{3} << 30, "the run", "of which y");
  ASSERT_TRUE(why);
  EXPECT_EQ(*why,
            "the run needs 3.0 GiB (of which y), more than the --memory-limit of 1.0 GiB; "
            "--memory-limit sets another limit");
  EXPECT_TRUE(ir::exceeds(limit, std::nullopt, "x", ""));  // overflowed while counting
}

// --- JSON documents ------------------------------------------------------

TEST(JsonDocument, SyntaxErrorLineAndColumn) {
  const ir::JsonDocument d = ir::parse_json_document("{\n  \"a\": 1,\n  \"b\": ]\n}");
  EXPECT_FALSE(d.value);
  EXPECT_EQ(d.line, 3u);
  EXPECT_EQ(d.column, 8u);
  const ir::JsonDocument t = ir::parse_json_document("{} x");
  EXPECT_FALSE(t.value);
  EXPECT_EQ(t.column, 4u);
}

TEST(JsonDocument, DuplicateKeysByPointer) {
  const ir::JsonDocument d =
      ir::parse_json_document(R"({"a": [1, {"b/c": 1, "x": 2, "b/c": 3}], "a": 0})");
  ASSERT_TRUE(d.value);
  EXPECT_EQ(d.duplicate_keys, (std::vector<std::string>{"/a/1/b~1c", "/a"}));
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
  EXPECT_TRUE(has(d, "/Nodes/2/Ops/0/IsVirtual", "must be true or false, not a string"))
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

// --- hardware configurations ---------------------------------------------

std::string hw_errors(const std::string& text) {
  std::vector<std::string> errors;
  auto hw = ir::parse_hw_config(text, "x.json", errors);
  std::string s;
  for (const auto& e : errors) s += e + "\n";
  return hw ? "" : s;
}

// Issue 31, item 2: dram.port_gbps 1e-300 overflowed the DRAM model's
// picoseconds (UB; the release build reported 400 cycles).
TEST(HardenHwConfig, TinyBandwidthIsARangeError) {
  const std::string e = hw_errors(R"({"dram": {"port_gbps": 1e-300}})");
  EXPECT_NE(e.find("x.json:/dram/port_gbps: parameter \"port_gbps\" of component \"dram\": "
                   "expected a number in [0.001, 1e+06] or 0"),
            std::string::npos)
      << e;
  EXPECT_EQ(hw_errors(R"({"dram": {"port_gbps": 0}})"), "");
}

TEST(HardenHwConfig, HugeNumbersAreRangeErrors) {
  EXPECT_NE(hw_errors(R"({"dram": {"latency_ns": 1e300}})").find("x.json:/dram/latency_ns:"),
            std::string::npos);
  EXPECT_NE(
      hw_errors(R"({"clock": {"frequency_mhz": 1e300}})").find("x.json:/clock/frequency_mhz:"),
      std::string::npos);
  EXPECT_NE(hw_errors(R"({"noc": {"link_gbps": 1e300}})").find("x.json:/noc/link_gbps:"),
            std::string::npos);
  EXPECT_NE(hw_errors(R"({"l2": {"size_bytes": 17179869184000}})").find("x.json:/l2/size_bytes:"),
            std::string::npos);
}

TEST(HardenHwConfig, RingRegions) {
  const std::string overlap = hw_errors(R"({"l2": {"ring_regions": [[0, 4096], [2048, 8192]]}})");
  EXPECT_NE(overlap.find("x.json:/l2/ring_regions/1: region [2048, 8192) overlaps or precedes "
                         "region 0 [0, 4096)"),
            std::string::npos)
      << overlap;
  const std::string tiny = hw_errors(R"({"l2": {"ring_regions": [[0, 1]]}})");
  EXPECT_NE(tiny.find("x.json:/l2/ring_regions/0: region [0, 1) is not a whole number of "
                      "alignment_bytes (8) blocks"),
            std::string::npos)
      << tiny;
  EXPECT_EQ(hw_errors(R"({"l2": {"ring_regions": [[0, 4096], [4096, 8192]]}})"), "");
}

TEST(HardenHwConfig, SyntaxErrorsAndDuplicatesHaveLocations) {
  EXPECT_NE(hw_errors("{\n  \"l2\": {,}\n}").find("x.json:2:10: not valid JSON"), std::string::npos)
      << hw_errors("{\n  \"l2\": {,}\n}");
  EXPECT_NE(
      hw_errors(R"({"pe": {"rows": 8, "rows": 4}})").find("x.json:/pe/rows: this key repeats"),
      std::string::npos);
}

TEST(HardenHwConfig, MeshMustAgreeWithTheIr) {
  std::vector<std::string> errors;
  auto hw = ir::parse_hw_config(R"({"mesh": {"xlen": 4, "ylen": 0}})", "x.json", errors);
  ASSERT_TRUE(hw);
  ir::Diagnostics d;
  ir::load_and_validate((test::data_dir() / "spec_minimal.json").string(), {}, *hw, d);
  EXPECT_TRUE(has(d, "/xlen", "xlen is 2, but the hardware configuration's mesh.xlen is 4"))
      << listing(d);
}

// --- plans -----------------------------------------------------------------

std::string plan_text(const std::string& processors, const std::string& config_extra) {
  return R"({"Rank": 0, "WorldSize": 1, "NumProcessors": )" + processors +
         R"(, "NumWarpsPerProcessor": 1,
  "TaskInfos": [{"Id": 0, "NumWarps": 1, "SramBytes": 0, "Ops": [{"Type": "Pool",
    "Name": "Pool_0", "IsVirtual": false, "ReadTensors": [], "WriteTensors": [],
    "ResultTensors": [], "Args": {}, "Config": {"NumTasks": 1, "NumWarps": 1, "SramBytes": 0)" +
         config_extra + R"(}}]}],
  "ProcessorGroups": [{"ProcessorRange": [0, )" +
         processors + R"(], "ResourceGroups": [{"ProcessorRange": [0, )" + processors +
         R"(], "WarpRange": [0, 1], "SramRange": [0, 0],
     "TaskGroups": [{"TaskId": 0, "TaskRange": [0, 1], "Granularity": 1}]}]}]})";
}

// Issue 31, item 3: [0, 2^63-1, 2] overflowed PlanRange::count().
TEST(HardenPlan, RangeCountDoesNotOverflow) {
  const gpu::PlanRange r{0, kMax, 2};
  EXPECT_EQ(r.count(), std::int64_t{1} << 62);
  EXPECT_EQ(r.at(r.count() - 1), kMax - 1);
  std::int64_t outside = -1;
  EXPECT_TRUE((gpu::PlanRange{4, 100, 4}.within(gpu::PlanRange{0, 200, 2}, outside)));
  EXPECT_FALSE((gpu::PlanRange{4, 100, 3}.within(gpu::PlanRange{0, 200, 2}, outside)));
  EXPECT_EQ(outside, 7);
  EXPECT_FALSE((gpu::PlanRange{4, 300, 4}.within(gpu::PlanRange{0, 200, 2}, outside)));
  EXPECT_EQ(outside, 200);
  EXPECT_FALSE((gpu::PlanRange{1, 3, 1}.within(gpu::PlanRange{0, 200, 2}, outside)));
  EXPECT_EQ(outside, 1);
}

// Issue 31, the hang: every processor range at 2^62 was walked element by
// element.
TEST(HardenPlan, HugeProcessorRangesAreCheckedAtOnce) {
  const auto t0 = std::chrono::steady_clock::now();
  ir::Diagnostics d;
  auto p = gpu::parse_plan_text(plan_text("4611686018427387904", ""), d);
  EXPECT_TRUE(p) << listing(d);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(60));
}

TEST(HardenPlan, HugeTaskRangesOfVirtualOpsAreSkipped) {
  std::string text = plan_text("1", "");
  const std::string big = "4611686018427387904";
  auto replace = [&](const std::string& a, const std::string& b) {
    const std::size_t at = text.find(a);
    ASSERT_NE(at, std::string::npos) << a;
    text.replace(at, a.size(), b);
  };
  replace("\"IsVirtual\": false", "\"IsVirtual\": true");
  replace("\"NumTasks\": 1", "\"NumTasks\": " + big);
  replace("\"TaskRange\": [0, 1]", "\"TaskRange\": [0, " + big + "]");
  ir::Diagnostics d;
  auto p = gpu::parse_plan_text(text, d);
  ASSERT_TRUE(p) << listing(d);
  ir::Diagnostics nd;
  auto net = model::parse_network(test::read_file(test::data_dir() / "spec_minimal.model.json"),
                                  "m.json", nd);
  ASSERT_TRUE(net);
  std::string why;
  auto cpu = gpu::make_backend("cpu", why);
  ASSERT_TRUE(cpu) << why;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(gpu::run_plan(*p, *net, 1, *cpu, d));  // nothing computes the layers
  EXPECT_TRUE(has(d, "", "has no task in the plan")) << listing(d);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(60));
}

// Issue 31, item 4: a Tile of 2^63-1 reached a null-pointer offset, and
// 4294967304 was truncated to 8.
TEST(HardenPlan, TileEntriesAreRangeChecked) {
  for (const char* tile : {"9223372036854775807", "4294967304", "-1", "0"}) {
    ir::Diagnostics d;
    auto p = gpu::parse_plan_text(plan_text("1", std::string(R"(, "Tile": [1, 1, 1, )") + tile +
                                                     R"(], "TaskTiles": [[0, 0, 0, 0]])"),
                                  d);
    EXPECT_FALSE(p) << tile;
    EXPECT_TRUE(has(d, "/TaskInfos/0/Ops/0/Config/Tile/3", "expected an integer in [1, 65535]"))
        << tile << "\n"
        << listing(d);
  }
}

TEST(HardenPlan, SyntaxErrorsHaveLineAndColumn) {
  ir::Diagnostics d;
  EXPECT_FALSE(gpu::parse_plan_text("{\n\n  \"Rank\": 0,,\n}", d));
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].line, 3u);
  EXPECT_EQ(d.items()[0].column, 13u);
}

// --- IR ----------------------------------------------------------------------

// Issue 31, item 5: a size of 2^63-1 overflowed the bits-to-bytes rounding
// (UB; the release build printed a negative byte count).
TEST(HardenIr, HugeSizeIsARangeError) {
  json::value ir = json::parse(test::read_file(test::data_dir() / "set_minimal.json"));
  json::value* size = nullptr;
  for (auto& [k, v] : ir.as_object())
    if (k != "-1" && v.is_array() && !v.as_array().empty())
      size = &v.as_array()[0].as_object()["ofmap_size"];
  ASSERT_TRUE(size);
  *size = kMax;
  const auto p = test::write_temp("huge_size.json", json::serialize(ir));
  ir::Diagnostics d;
  ir::load_file(p.string(), d);
  bool found = false;
  for (const auto& x : d.items())
    found |= x.code() == std::string("S006") && x.pointer.ends_with("/ofmap_size") &&
             x.message.find("at most 281474976710656") != std::string::npos;
  EXPECT_TRUE(found) << listing(d);
}

TEST(HardenIr, TruncatedGzipCountsWhatWasInflated) {
  // Enough text that the cut falls well past the first inflated chunk.
  std::string text = "{\"junk\": [";
  for (int i = 0; i < 200000; ++i) text += std::to_string(i * 7919 % 100003) + ",";
  text += "0]}";
  const std::string gz = test::gzip(text);
  const auto p = test::write_temp("cut.json.gz", gz.substr(0, gz.size() / 2));
  ir::Diagnostics d;
  ir::load_file(p.string(), d);
  ASSERT_TRUE(d.has(ir::Check::gzip_corrupt)) << listing(d);
  const std::string& m = d.tally(ir::Check::gzip_corrupt).first->message;
  EXPECT_EQ(m.find("(0 bytes inflated)"), std::string::npos) << m;
  EXPECT_NE(m.find("bytes inflated): gzip stream ends early"), std::string::npos) << m;
}

// --- assembly text and binary programs ---------------------------------------

std::string parse_error(const std::string& text) {
  assembler::ParseError pe;
  if (assembler::parse_program(text, pe)) return "";
  return std::to_string(pe.line) + ":" + std::to_string(pe.column) + ": " + pe.message;
}

TEST(HardenAsm, DuplicateOperandsTrailingTokensAndSignedHex) {
  EXPECT_EQ(parse_error(".core 0\nwait_local q=pe on=dma_in count=3 wl=1 wl=2\n"),
            "2:40: field \"wl\" given twice");
  EXPECT_EQ(parse_error(".core 0 1\n"), "1:9: unexpected \"1\" after .core <id>");
  EXPECT_EQ(parse_error(".core 0 ; fine\n"), "");
  EXPECT_EQ(parse_error(".core 0x-5\n"), "1:1: expected .core <id> with an id in [0, 65535]");
  EXPECT_EQ(parse_error(".core0\n"), "1:1: expected .core <id> with an id in [0, 65535]");
  const std::string view =
      "view q=dma_in shift=0x-5 box0=[0,0,0,0]:[0,0,0,0] box1=[0,0,0,0]:[0,0,0,0]\n";
  EXPECT_EQ(parse_error(".core 0\n" + view), "2:21: bad value \"0x-5\" for shift");
  EXPECT_EQ(parse_error(".core 0\nview q=dma_in shift=-5 box0=[0,0,0,0]:[0,0,0,0] "
                        "box1=[0,0,0,0]:[0,0,0,0]\n"),
            "");
}

TEST(HardenAsm, DecodeRefusesWhatTheTextCannotSay) {
  assembler::CoreProgram p;
  std::vector<std::uint8_t> bin;
  std::string error;
  ASSERT_TRUE(assembler::encode_program(p, bin, error)) << error;
  bin[8] = bin[9] = bin[10] = bin[11] = 0xff;  // core id 0xFFFFFFFF
  EXPECT_FALSE(assembler::decode_program(bin, error));
  EXPECT_EQ(error, "core id 4294967295 in the header is outside [0, 65535]");
  p.core_id = 70000;
  EXPECT_FALSE(assembler::encode_program(p, bin, error));
}

TEST(HardenAsm, UnknownOpcodeInHex) {
  std::array<std::uint8_t, assembler::kInstrBytes> b{};
  b[0] = 0xab;
  std::string error;
  EXPECT_FALSE(assembler::decode(b.data(), error));
  EXPECT_EQ(error, "unknown opcode 0xab");
}

}  // namespace
