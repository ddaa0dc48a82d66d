// DRAM request traces (gemini sim --dram-trace) and their open-loop replay
// (gemini dram-replay): the file round-trips, each port's Ramulator 2
// LoadStoreTrace has one line per 64-byte access, bad lines are errors
// with their line number, and a replay times requests as the model does
// when driven directly.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "dram_drive.h"
#include "gemini/sim/dram_trace.h"

namespace gemini::sim {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("gemini_dram_trace_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(DramTrace, RoundTripsAndWritesRamulatorsFormatPerPort) {
  const std::vector<DramTraceRecord> recs{
      {0, 0, false, 0x1000, 128}, {500, 1, true, 0x40, 64}, {500, 0, false, 0x2010, 64}};
  const std::string path = temp_path("rt");
  std::string error;
  ASSERT_TRUE(write_dram_trace(path, recs, 2, 64, error)) << error;
  EXPECT_EQ(slurp(path),
            "# gemini DRAM trace: time_ps port R|W address bytes\n"
            "0 0 R 0x1000 128\n500 1 W 0x40 64\n500 0 R 0x2010 64\n");
  // 128 bytes at 0x1000: two accesses; 64 bytes at 0x2010 straddle two.
  EXPECT_EQ(slurp(path + ".port0.trace"),
            "LD 0x1000\nLD 0x1040\nLD 0x2000\nLD 0x2040\n");
  EXPECT_EQ(slurp(path + ".port1.trace"), "ST 0x40\n");
  std::vector<DramTraceRecord> back;
  ASSERT_TRUE(read_dram_trace(path, back, error)) << error;
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[1].arrival, 500);
  EXPECT_EQ(back[1].port, 1);
  EXPECT_TRUE(back[1].write);
  EXPECT_EQ(back[2].addr, 0x2010u);
  for (const char* f : {"", ".port0.trace", ".port1.trace"}) std::remove((path + f).c_str());
}

TEST(DramTrace, ABadLineIsAnErrorWithItsNumber) {
  const std::string path = temp_path("bad");
  std::ofstream(path) << "# header\n0 0 R 0x10 64\n5 0 X 0x10 64\n";
  std::vector<DramTraceRecord> recs;
  std::string error;
  EXPECT_FALSE(read_dram_trace(path, recs, error));
  EXPECT_NE(error.find(path + ":3: expected `time_ps port R|W 0xaddress bytes`"),
            std::string::npos)
      << error;
  std::ofstream(path) << "10 0 R 0x10 64\n5 0 R 0x10 64\n";
  recs.clear();
  EXPECT_FALSE(read_dram_trace(path, recs, error));
  EXPECT_NE(error.find(":2: out of arrival order"), std::string::npos) << error;
  std::remove(path.c_str());
}

TEST(DramTrace, ReplayTimesRequestsAsTheModelDoes) {
  // Two DDR4 reads, the second 1 us later to a closed bank of another row:
  // banked serves each as a closed-bank read, 48 clocks of 625 ps.
  auto m = dram({{"model", "banked"}, {"timing", {{"trefi", 0}}}});
  const std::vector<DramTraceRecord> recs{{0, 0, false, 0, 64}, {1000000, 0, false, 8192, 64}};
  const auto out = replay_dram(recs, *m, 512);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].done - out[0].arrival, 48 * 625);
  EXPECT_EQ(out[1].done - out[1].arrival, 48 * 625);
}

}  // namespace
}  // namespace gemini::sim
