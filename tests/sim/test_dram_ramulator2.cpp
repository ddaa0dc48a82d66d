// dram.model "ramulator2" (sim/src/dram_ramulator2*.cpp): its parameters
// are checked here or by a trial memory system, each error naming the
// parameter; back-pressure from Ramulator's queue; its statistics. Skips,
// saying why, on a build without Ramulator 2.
#include <gtest/gtest.h>

#include <string>

#include "dram_drive.h"
#include "gemini/sim/dram_model.h"

namespace gemini::sim {
namespace {

class Ramulator2 : public testing::Test {
 protected:
  void SetUp() override {
    if (!ramulator2_built())
      GTEST_SKIP() << "Ramulator 2 is not built into this gemini "
                      "(cmake/ramulator2.cmake: GEMINI_RAMULATOR2)";
  }
  // The first error of a `dram` section choosing ramulator2 with `more`.
  static std::string error_of(const boost::json::object& more) {
    boost::json::object o{{"model", "ramulator2"}};
    for (const auto& kv : more) o[kv.key()] = kv.value();
    std::string error;
    EXPECT_EQ(make_dram_model(o, DramContext{}, error), nullptr);
    return error;
  }
};

TEST_F(Ramulator2, BadValuesNameTheParameter) {
  EXPECT_NE(error_of({{"channels", 3}})
                .find("/dram/channels: parameter \"channels\" of component "
                      "\"dram\" (DRAM model \"ramulator2\"): must be a "
                      "power of two, got 3"),
            std::string::npos);
  EXPECT_NE(error_of({{"address_mapping", "XOR"}}).find("/dram/address_mapping:"),
            std::string::npos);
  EXPECT_NE(
      error_of({{"timing", {{"burst_bytes", 48}}}}).find("/dram/timing: parameter \"timing\""),
      std::string::npos);
  EXPECT_NE(error_of({{"write_low_watermark", 0.9}}).find("/dram/write_low_watermark:"),
            std::string::npos);
  EXPECT_NE(error_of({{"queue_depth", 8}})
                .find("does not apply to DRAM model \"ramulator2\" "
                      "(only to banked)"),
            std::string::npos);
  EXPECT_NE(error_of({{"standard", "DDR5"}, {"timing", {{"cl", 30}}}})
                .find("/dram/timing: parameter \"timing\""),
            std::string::npos);
}

TEST_F(Ramulator2, WhatRamulatorRejectsIsAnErrorNotAnException) {
  // An organisation preset Ramulator does not have: its own words, under
  // the parameter that chose it.
  const std::string org = error_of({{"standard", "DDR4"}, {"org_preset", "DDR4_3Gb_x8"}});
  EXPECT_NE(org.find("/dram/standard:"), std::string::npos) << org;
  EXPECT_NE(org.find("Ramulator 2 rejects the configuration of DDR4 (DDR4_3Gb_x8, DDR4_3200AA): "
                     "Unrecognized organization preset"),
            std::string::npos)
      << org;
  // Through the pass-through: an implementation Ramulator does not have.
  const std::string pass =
      error_of({{"ramulator",
                 {{"MemorySystem", {{"Controller", {{"RowPolicy", {{"impl", "Psychic"}}}}}}}}}});
  EXPECT_NE(pass.find("/dram/ramulator: parameter \"ramulator\""), std::string::npos) << pass;
}

TEST_F(Ramulator2, ChannelsGivenAreTheChannelsANamedStandardGets) {
  // GDDR6_8Gb_x16 has two channels of its default 64-bit width: 16 GB/s
  // each at Ramulator's 2 Gbit/s per pin, 32 GB/s per port.
  std::string error;
  auto two =
      make_dram_model({{"model", "ramulator2"}, {"standard", "GDDR6"}}, DramContext{}, error);
  ASSERT_NE(two, nullptr) << error;
  EXPECT_DOUBLE_EQ(two->peak_gbps(), 32);
  // channels 1 written as given: Ramulator's density check then needs the
  // device's density for one channel (its own words, an error, not the
  // preset's two channels in silence) ...
  EXPECT_NE(error_of({{"standard", "GDDR6"}, {"channels", 1}}).find("Ramulator 2 rejects"),
            std::string::npos);
  // ... which the pass-through gives: one channel, 16 GB/s.
  auto one = make_dram_model(
      {{"model", "ramulator2"},
       {"standard", "GDDR6"},
       {"channels", 1},
       {"ramulator", {{"MemorySystem", {{"DRAM", {{"org", {{"density", 4096}}}}}}}}}},
      DramContext{}, error);
  ASSERT_NE(one, nullptr) << error;
  EXPECT_DOUBLE_EQ(one->peak_gbps(), 16);
}

TEST_F(Ramulator2, EveryStandardBuilds) {
  for (const char* s : {"DDR4", "DDR5", "LPDDR5", "GDDR6", "HBM2", "HBM3"}) {
    std::string error;
    auto m = make_dram_model({{"model", "ramulator2"}, {"standard", s}}, DramContext{}, error);
    ASSERT_NE(m, nullptr) << s << ": " << error;
    EXPECT_GT(m->peak_gbps(), 1) << s;
    Recorder r;
    m->enqueue({1, false, 4096, 256, 0, 0});
    drain(*m, r);
    EXPECT_GT(r.done_at(1), 0) << s;
  }
}

TEST_F(Ramulator2, AFullQueuePushesBackAndEverythingCompletes) {
  // 64 reads of 4 KiB at once on LPDDR5: 8192 accesses of 32 bytes, at most
  // 33 in Ramulator's read queue at a time; the rest wait at the port.
  auto m = dram({{"model", "ramulator2"}, {"preset", "lpddr5_6400"}});
  Recorder r;
  for (int i = 0; i < 64; ++i)
    m->enqueue(
        {static_cast<std::uint64_t>(i), false, static_cast<std::uint64_t>(i) * 4096, 4096, 0, 512});
  drain(*m, r);
  EXPECT_EQ(r.seen.size(), 64u);
  for (const auto& [tag, v] : r.seen) EXPECT_EQ(v.back().first, 4096) << tag;
  EXPECT_GT(stat(*m, "queue_refusals"), 0);
  EXPECT_EQ(stat(*m, "bursts"), 64 * 4096 / 32);
  EXPECT_EQ(stat(*m, "bytes_read"), 64 * 4096);
  EXPECT_EQ(stat(*m, "row_hits") + stat(*m, "row_misses") + stat(*m, "row_conflicts"),
            64 * 4096 / 32);
  // Progress every 512 bytes: 8 reports per request, the last at 4096.
  EXPECT_EQ(r.seen.at(5).size(), 8u);
}

TEST_F(Ramulator2, AWriteIsDoneWhenTheControllerTakesIt) {
  // A posted write: accepted at its arrival clock (DDR4, 625 ps).
  auto m = dram({{"model", "ramulator2"}});
  Recorder r;
  m->enqueue({7, true, 0, 64, 10 * 625, 0});
  drain(*m, r);
  EXPECT_EQ(r.done_at(7), 10 * 625);
  EXPECT_EQ(stat(*m, "bytes_written"), 64);
}

}  // namespace
}  // namespace gemini::sim
