// Hardening (issue 31): inputs that once overflowed, hung or were accepted in silence, each now a
// diagnostic with a location: checked integers, resource bounds, JSON documents, hardware configs,
// IR files.

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
#include "gemini/sim/sim_config.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file
namespace json = boost::json;

using test::has;
using test::listing;

namespace {

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

// --- hardware configurations ---------------------------------------------

// As every gemini command reads --hw: ir's components, then the simulator's
// (dram and noc).
std::string hw_errors(const std::string& text) {
  ir::ConfigErrors errors;
  auto hw = sim::parse_hw_config(text, "x.json", errors);
  std::string s;
  for (const auto& e : errors) s += ir::config_text(e) + "\n";
  return hw ? "" : s;
}

// Issue 31, item 2: dram.port_gbps 1e-300 overflowed the DRAM model's
// picoseconds (UB; the release build reported 400 cycles).
TEST(HardenHwConfig, TinyBandwidthIsARangeError) {
  const std::string e = hw_errors(R"({"dram": {"port_gbps": 1e-300}})");
  EXPECT_NE(e.find("x.json:/dram/port_gbps: parameter \"port_gbps\" of component \"dram\" (DRAM "
                   "model \"simple\"): expected a number in [0.001, 1e+06] or 0"),
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
  ir::ConfigErrors errors;
  auto hw = ir::parse_hw_config(R"({"mesh": {"xlen": 4, "ylen": 0}})", "x.json", errors);
  ASSERT_TRUE(hw);
  ir::Diagnostics d;
  ir::load_and_validate((test::data_dir() / "spec_minimal.json").string(), {}, *hw, d);
  EXPECT_TRUE(has(d, "/xlen", "xlen is 2, but the hardware configuration's mesh.xlen is 4"))
      << listing(d);
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

}  // namespace
