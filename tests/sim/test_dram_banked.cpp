// banked's own mechanisms, by hand (the cases it shares with ramulator2 are
// in test_dram_hand.cpp): its two address maps, computed as Ramulator 2's
// mappers compute them, its write policies, and that its decisions do not
// depend on when the simulator asks for them.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dram_address_map.h"
#include "dram_drive.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/dram_timing.h"

namespace gemini::sim {
namespace {

using Map = DramAddressMap;

TEST(DramAddressMap, RowBankColumnFillsARowThenTheNextBankGroup) {
  // DDR4: 8 KiB rows, 16 banks in 4 groups; bank = bank_in_group x 4 + group.
  const Map m(Map::Kind::row_bank_column, *dram_preset("ddr4_3200"));
  EXPECT_EQ(m.locate(0).bank, 0U);
  EXPECT_EQ(m.locate(8191).bank, 0U);
  EXPECT_EQ(m.locate(8192).bank, 1U);  // the next row's bank is in group 1
  EXPECT_EQ(m.group(m.locate(8192).bank), 1U);
  EXPECT_EQ(m.group(m.locate(5 * 8192).bank), 1U);  // bank 5: group 1
  EXPECT_EQ(m.locate(16 * 8192).row, 1);
  EXPECT_EQ(m.locate(16 * 8192).bank, 0U);
  EXPECT_EQ(m.run_bytes(100), 8192 - 100);
}

TEST(DramAddressMap, RowBankColumnTakesSizesThatAreNotPowersOfTwo) {
  DramTiming t = *dram_preset("ddr4_3200");
  t.banks = 12;
  t.bank_groups = 3;
  t.row_bytes = 3000;
  const Map m(Map::Kind::row_bank_column, t);
  EXPECT_EQ(m.locate(3000 * 13).bank, 1U);
  EXPECT_EQ(m.locate(3000 * 13).row, 1);
  EXPECT_EQ(m.group(m.locate(3000 * 14).bank), 2U);
  EXPECT_EQ(Map::problem(Map::Kind::row_bank_column, t), "");
  EXPECT_NE(Map::problem(Map::Kind::mop4clxor, t), "");
}

TEST(DramAddressMap, Mop4clxorAsRamulatorComputesIt) {
  // DDR4 in 64-byte bursts, least significant first: 2 bits of column, 2 of
  // bank group, 2 of bank, 5 more of column (128 bursts per row), the row;
  // then group ^= column bits 0-1, bank ^= column bits 2-3, row ^= column
  // bits 4 and up: consecutive bursts go to consecutive bank groups.
  const Map m(Map::Kind::mop4clxor, *dram_preset("ddr4_3200"));
  // Bursts 0-3: column 0-3 in group 0, each XORed into another group.
  EXPECT_EQ(m.locate(0).bank, 0U);
  EXPECT_EQ(m.locate(64).bank, 1U);
  EXPECT_EQ(m.locate(192).bank, 3U);
  // Burst 4: group 1, column 0.
  EXPECT_EQ(m.locate(256).bank, 1U);
  // Burst 5: group 1, column 1: group 1 ^ 1 = 0.
  EXPECT_EQ(m.locate(320).bank, 0U);
  // Burst 16: bank 1, group 0: bank number 1 x 4 + 0.
  EXPECT_EQ(m.locate(1024).bank, 4U);
  // Burst 64: column 4 (its high part 1): bank 0 ^ (4 >> 2) = 1, group 0.
  EXPECT_EQ(m.locate(4096).bank, 4U);
  EXPECT_EQ(m.locate(4096).row, 0);
  // Burst 2048: the next row, column 0.
  EXPECT_EQ(m.locate(131072).row, 1);
  EXPECT_EQ(m.locate(131072).bank, 0U);
  // Burst 2048 + 64 x 4 (column 16, its high part 4): row 1 ^ (16 >> 4) = 0.
  EXPECT_EQ(m.locate(131072 + 16384).row, 0);
  // A run in one bank and row is one burst.
  EXPECT_EQ(m.run_bytes(300), 64 - 300 % 64);
}

TEST(DramAddressMap, Mop4clxorNeedsPowersOfTwo) {
  DramTiming t = *dram_preset("ddr4_3200");
  t.bank_groups = 3;
  t.banks = 12;
  EXPECT_NE(Map::problem(Map::Kind::mop4clxor, t).find("bank_groups"), std::string::npos);
  t = *dram_preset("ddr4_3200");
  t.row_bytes = 128;  // two bursts per row
  EXPECT_NE(Map::problem(Map::Kind::mop4clxor, t).find("row_bytes"), std::string::npos);
}

boost::json::object banked(boost::json::object more) {
  boost::json::object o{{"model", "banked"},
                        {"preset", "ddr4_3200"},
                        {"address_mapping", "RoBaRaCoCh"},
                        {"timing", {{"trefi", 0}}}};
  for (const auto& kv : more) o[kv.key()] = kv.value();
  return o;
}

TEST(DramBankedWrites, AWriteWhenWrittenIsDoneWithItsData) {
  // Activate 0, write command at tRCD 22, data 38-42 (CWL 16, burst 4).
  auto m = dram(banked({{"write_policy", "when_written"}}));
  Recorder r;
  m->enqueue({1, true, 0, 64, 0, 0});
  drain(*m, r);
  EXPECT_EQ(r.done_at(1), 42 * 625);
  EXPECT_EQ(stat(*m, "write_drains"), 0);
}

TEST(DramBankedWrites, ReadsGoFirstUntilTheQueuePassesItsHighWatermark) {
  // Three 64-byte writes (bank 0, group 0) and a read of bank 1 (group 1),
  // all at 0. Default watermarks (0.8 of 32): the read goes first --
  // activate 0, read 22, last beat 48 -- then the writes: activate tRRD_S 4,
  // the first write's data 2 clocks after the read's (tRTW), 50-54.
  {
    auto m = dram(banked({}));
    Recorder r;
    for (std::uint64_t i = 0; i < 3; ++i) m->enqueue({i, true, 64 * (i + 1), 64, 0, 0});
    m->enqueue({9, false, 8192, 64, 0, 0});
    drain(*m, r);
    EXPECT_EQ(r.done_at(9), 48 * 625);
    for (std::uint64_t i = 0; i < 3; ++i) EXPECT_EQ(r.done_at(i), 0);
    EXPECT_EQ(stat(*m, "write_drains"), 1);
  }
  // A queue of 4 with watermarks 0.5 and 0.25: 3 writes > 2, so they are
  // drained first (write commands 22, 30, 38 in one group: data ends 42, 50,
  // 58), down to below 1; then the read: activate at tRRD_S 4, its command
  // at the last write's data + tWTR_S 4 = 62 (another group), last beat
  // 62 + 22 + 4 = 88.
  {
    auto m = dram(
        banked({{"write_queue", 4}, {"write_high_watermark", 0.5}, {"write_low_watermark", 0.25}}));
    Recorder r;
    for (std::uint64_t i = 0; i < 3; ++i) m->enqueue({i, true, 64 * (i + 1), 64, 0, 0});
    m->enqueue({9, false, 8192, 64, 0, 0});
    drain(*m, r);
    EXPECT_EQ(r.done_at(9), 88 * 625);
    EXPECT_EQ(stat(*m, "write_drains"), 1);
    EXPECT_EQ(m->stats().bytes_written, 3 * 64);
  }
}

TEST(DramBankedWrites, ALowWatermarkOfZeroTurnsBackToReadsWhenNoWriteIsLeft) {
  // ReadsGoFirstUntilTheQueuePassesItsHighWatermark's second case with a
  // low watermark of 0 (found by the fuzzer: the controller drained an
  // empty write queue for ever, an internal error): the three writes
  // drain, then the read goes as there, its last beat at 88 clocks.
  auto m =
      dram(banked({{"write_queue", 4}, {"write_high_watermark", 0.5}, {"write_low_watermark", 0}}));
  Recorder r;
  for (std::uint64_t i = 0; i < 3; ++i) m->enqueue({i, true, 64 * (i + 1), 64, 0, 0});
  m->enqueue({9, false, 8192, 64, 0, 0});
  drain(*m, r);
  EXPECT_EQ(r.done_at(9), 88 * 625);
  EXPECT_EQ(m->stats().bytes_written, 3 * 64);
}

TEST(DramBankedWrites, WatermarksOutOfOrderAreRefused) {
  std::string error;
  auto m = make_dram_model(banked({{"write_high_watermark", 0.2}, {"write_low_watermark", 0.5}}),
                           DramContext{}, error);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(error.find("write_low_watermark"), std::string::npos) << error;
}

TEST(DramBankedTiming, BankGroupsMustDivideTheBanks) {
  std::string error;
  auto m = make_dram_model(banked({{"timing", {{"bank_groups", 3}}}}), DramContext{}, error);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(error.find("bank_groups"), std::string::npos) << error;
  m = make_dram_model(banked({{"timing", {{"tccd_l", 2}}}}), DramContext{}, error);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(error.find("tccd_l"), std::string::npos) << error;
}

// A request stream of reads and writes of 32-320 bytes over 4 MiB, arriving
// 0-40 ns apart (a fixed LCG): row hits, misses and conflicts, write drains.
std::vector<DramRequest> mixed_stream(int n) {
  std::vector<DramRequest> out;
  std::uint64_t x = 12345;
  const auto next = [&x] {
    return (x = x * 6364136223846793005ULL + 1442695040888963407ULL) >> 33;
  };
  Tick at = 0;
  for (int i = 0; i < n; ++i) {
    at += static_cast<Tick>(next() % 40000);
    const bool write = next() % 3 == 0;
    const std::uint64_t addr = (next() % (4u << 20)) & ~std::uint64_t{31};
    const auto bytes = static_cast<std::int64_t>(32 * (1 + next() % 10));
    out.push_back({static_cast<std::uint64_t>(i), write, addr, bytes, at, write ? 0 : 64});
  }
  return out;
}

// Every report of `stream` through a fresh model of `section`, driven as
// `how`: "ahead" -- every request enqueued at 0, the model advanced when it
// asks; "arrivals" -- each enqueued at its arrival, advanced then and when
// it asks (gemini dram-replay); "clock" -- advanced every 625 ps (no
// preset's clock is shorter), each request enqueued at the last of those
// before its arrival.
std::map<std::uint64_t, std::vector<std::pair<std::int64_t, Tick>>> reports(
    const boost::json::object& section, const std::vector<DramRequest>& stream,
    const std::string& how) {
  auto m = dram(section);
  Recorder r;
  if (how == "ahead") {
    for (const DramRequest& q : stream) m->enqueue(q);
    drain(*m, r);
    return r.seen;
  }
  const Tick step = 625;
  std::size_t i = 0;
  Tick next = kNever;
  for (Tick now = 0; i < stream.size() || next != kNever;) {
    // (clock: before the step that would pass its arrival; the model must
    // know a request by its arrival)
    const Tick horizon = how == "clock" ? now + step - 1 : now;
    for (; i < stream.size() && stream[i].arrival <= horizon; ++i) m->enqueue(stream[i]);
    next = m->advance(now, r);
    if (how == "clock") {
      now += step;
    } else {
      now = std::min(next, i < stream.size() ? stream[i].arrival : kNever);
    }
    if (how == "clock" && i == stream.size() && next == kNever) break;
  }
  return r.seen;
}

TEST(DramBankedScheduling, DecisionsDoNotDependOnWhenTheModelIsAsked) {
  // The controller decides a command only when no request still to come
  // could change it: the same stream gives the same reports, byte for byte
  // and picosecond for picosecond, whether the model learns of every
  // request in advance, at its arrival, or is asked at every clock -- on
  // each preset, refresh on, both write policies.
  const std::vector<DramRequest> stream = mixed_stream(400);
  for (const char* preset : {"ddr4_3200", "lpddr5_6400", "hbm2"}) {
    for (const char* policy : {"posted", "when_written"}) {
      const boost::json::object section{
          {"model", "banked"}, {"preset", preset}, {"write_policy", policy}};
      const auto ahead = reports(section, stream, "ahead");
      EXPECT_EQ(ahead.size(), stream.size()) << preset << " " << policy;
      EXPECT_EQ(reports(section, stream, "arrivals"), ahead) << preset << " " << policy;
      EXPECT_EQ(reports(section, stream, "clock"), ahead) << preset << " " << policy;
    }
  }
}

}  // namespace
}  // namespace gemini::sim
