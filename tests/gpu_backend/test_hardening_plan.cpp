// Hardening (issue 31): inputs that once overflowed, hung or were accepted in silence, each now a
// diagnostic with a location: plan files.

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

}  // namespace
