// A model that cannot make progress ends the run with a diagnostic, never a
// hang or an overflow (model_stall.h): one test per model, each with a
// configuration under which that model cannot progress, bounded in host
// time by the model's own bound; the simulator's plumbing (a stall stops the
// run: no report, the text as the error); every key noc.booksim passes to
// BookSim refused out of its range, naming it (booksim2_keys.h); the
// timings Ramulator 2 cannot serve with refused; a statistics group that
// outlives its counters' owner stops instead of reading freed memory.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "booksim2_keys.h"
#include "dram_ramulator2.h"
#include "fixture.h"
#include "gemini/sim/booksim2_config.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/model_stall.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/simulator.h"
#include "gemini/sim/stats.h"

namespace gemini::sim {
namespace {

constexpr auto npos = std::string::npos;

// What `f` stopped with: the ModelStall's text ("" when it returned).
template <typename F>
std::string stall_of(F&& f) {
  try {
    f();
  } catch (const ModelStall& e) {
    return e.what();
  }
  return "";
}

struct NullSink : DramSink {
  void progress(std::uint64_t, std::int64_t, Tick) override {}
};
struct NullEvents : NocModel::Events {
  void injected(std::uint64_t, Tick) override {}
  void arrived(const NocModel::Arrival&) override {}
};

NocLayout grid2x2() {
  NocLayout l;
  l.xlen = l.ylen = 2;
  l.ports = {{-1, 0}, {2, 0}};
  return l;
}

// Runs a closed-loop NoC model at the times it asks for, at most `steps`
// wakes.
void run_noc(NocModel& m, std::int64_t steps) {
  NullEvents ev;
  for (std::int64_t i = 0; i < steps; ++i) {
    const Tick t = m.next_advance();
    if (t == kNever) return;
    m.advance(t, ev);
  }
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ---- The closed-form models: only the clock can stop them ----

TEST(ModelStall, TheMeshStopsAtAPacketPastTheClockNotAnOverflow) {
  std::string error;
  auto m = make_noc_model({{"model", "mesh"}, {"link_gbps", 0.001}}, grid2x2(), error);
  ASSERT_NE(m, nullptr) << error;
  // 2^43 bytes at 1 MB/s: 8.8e18 ps, past 2^62 (4.6e18).
  const std::string text = stall_of([&] { m->send(0, 0, 3, std::int64_t{1} << 43); });
  EXPECT_NE(text.find("noc.model \"mesh\": a packet of 8796093022208 bytes sent at 0 ps at "
                      "8.8e+18 ps is past the simulator's clock (2^62 ps, about 53 days): its "
                      "links carry 0.001 GB/s"),
            npos)
      << text;
  // A multicast the same.
  EXPECT_NE(stall_of([&] { m->multicast(0, 0, {1, 3}, std::int64_t{1} << 43); }).find("mesh"),
            npos);
  // Below the clock it is timed as ever: 2^40 bytes at 1e6 ps each.
  EXPECT_GT(m->send(0, 0, 3, std::int64_t{1} << 40).arrived, Tick{1099511627776} * 1000000);
}

TEST(ModelStall, SimpleStopsAtARequestPastTheClock) {
  std::string error;
  auto m = make_dram_model({{"model", "simple"}, {"port_gbps", 0.001}}, DramContext{}, error);
  ASSERT_NE(m, nullptr) << error;
  m->enqueue({1, false, 0, std::int64_t{1} << 43, 0, 0});
  NullSink sink;
  const std::string text = stall_of([&] { m->advance(0, sink); });
  EXPECT_NE(text.find("dram.model \"simple\": a request of 8796093022208 bytes at 8.8e+18 ps is "
                      "past the simulator's clock"),
            npos)
      << text;
  EXPECT_NE(text.find("dram.port_gbps"), npos) << text;
}

TEST(ModelStall, BankedStopsAtABurstPastTheClock) {
  // A 1-us clock and bursts of 65536 clocks (2^36 ps): 8 GiB of 64-byte
  // bursts would end at 2^63 ps.
  std::string error;
  auto m = make_dram_model(
      boost::json::parse(R"({"model": "banked", "timing": {"tck_ps": 1048576, "tburst": 65536,
                                                           "trefi": 0}})")
          .as_object(),
      DramContext{}, error);
  ASSERT_NE(m, nullptr) << error;
  m->enqueue({1, false, 0, std::int64_t{1} << 33, 0, 0});
  NullSink sink;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string text = stall_of([&] { m->advance(kTickLimit, sink); });
  EXPECT_NE(text.find("dram.model \"banked\": a burst at "), npos) << text;
  EXPECT_NE(text.find("is past the simulator's clock (2^62 ps, about 53 days): its clock is "
                      "1048576 ps, a burst 65536 clocks"),
            npos)
      << text;
  EXPECT_LT(seconds_since(t0), 30.0);
}

// ---- The closed-loop models: no progress for longer than their bound ----

TEST(ModelStall, Booksim2StopsWhenItsRoutersCannotForward) {
  if (!booksim2_built()) GTEST_SKIP() << "BookSim 2 is not built into this gemini";
  // An output queue of no flits (noc.booksim refuses 0; built here as it is):
  // BookSim's routers never forward a flit.
  Booksim2Params p;
  p.extra.push_back({"output_buffer_size", "0", 'i'});
  std::string error;
  auto m = make_booksim2_noc(p, grid2x2(), error);
  ASSERT_NE(m, nullptr) << error;
  m->enqueue(0, 1, 0, {3}, 512);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string text = stall_of([&] { run_noc(*m, 10'000'000); });
  EXPECT_NE(text.find("noc.model \"booksim2\": BookSim 2's network makes no progress: no flit "
                      "has entered or left it for "),
            npos)
      << text;
  EXPECT_NE(text.find(" flits are in it and 0 packets wait at their sources; the first stuck "
                      "were sent by BookSim node 1 (column 1, row 0) ("),
            npos)
      << text;
  EXPECT_NE(text.find("Its routers cannot forward with: num_vcs = 1, vc_buf_size = "), npos)
      << text;
  EXPECT_NE(text.find("output_buffer_size = 0"), npos) << text;
  EXPECT_LT(seconds_since(t0), 30.0);
  // A sound network, the same packet: no stall, it arrives.
  Booksim2Params ok;
  m.reset();
  auto fine = make_booksim2_noc(ok, grid2x2(), error);
  ASSERT_NE(fine, nullptr) << error;
  fine->enqueue(0, 1, 0, {3}, 512);
  EXPECT_EQ(stall_of([&] { run_noc(*fine, 10'000'000); }), "");
  EXPECT_EQ(fine->next_advance(), kNever);
}

// The YAML gemini makes for Ramulator 2's DDR4 with Ramulator's own presets,
// timing `timing` over them.
Ramulator2Config ddr4_with(const std::string& timing) {
  Ramulator2Config c;
  c.label = "DDR4 (a test)";
  c.yaml =
      "Frontend: {impl: GEM5}\n"
      "MemorySystem:\n"
      "  impl: GenericDRAM\n"
      "  clock_ratio: 1\n"
      "  DRAM: {impl: DDR4, org: {preset: DDR4_8Gb_x8, channel: 1, rank: 1},\n"
      "         timing: {preset: DDR4_3200AA, " + timing + "}}\n"
      "  Controller: {impl: Generic, wr_high_watermark: 0.8, wr_low_watermark: 0.2,\n"
      "               Scheduler: {impl: FRFCFS}, RefreshManager: {impl: AllBank},\n"
      "               RowPolicy: {impl: OpenRowPolicy}}\n"
      "  AddrMapper: {impl: RoBaRaCoCh}\n";
  return c;
}

TEST(ModelStall, Ramulator2StopsWhenRefreshLeavesNoTimeToServe) {
  if (!ramulator2_built()) GTEST_SKIP() << "Ramulator 2 is not built into this gemini";
  std::string error;
  // A refresh asked for every clock (Ramulator serves requests, slowly,
  // down to about nREFI 10 with nRFC 9; gemini refuses anything below
  // nRFC + one access, DramTimingRelations below).
  auto m = make_ramulator2_model(ddr4_with("nREFI: 1, nRFC: 10"), error);
  ASSERT_NE(m, nullptr) << error;
  EXPECT_NE(ramulator2_timing_problem(*m).find("nREFI 1 leaves no time to serve a request"),
            npos);
  for (std::uint64_t i = 0; i < 8; ++i) m->enqueue({i, i % 2 == 1, i << 20, 4096, 0, 0});
  NullSink sink;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string text = stall_of([&] {
    Tick now = 0;
    for (Tick next = m->advance(now, sink); next != kNever; next = m->advance(now, sink))
      now = next;
  });
  EXPECT_NE(text.find("dram.model \"ramulator2\" (DDR4 (a test)): Ramulator 2 makes no progress: "
                      "no access accepted and no read done for "),
            npos)
      << text;
  EXPECT_NE(text.find("requests wait at the port. Its timings: nREFI 1, nRFC 10, nRP 22"), npos)
      << text;
  EXPECT_LT(seconds_since(t0), 30.0);
  // The same with Ramulator's own refresh: no problem, served.
  auto fine = make_ramulator2_model(ddr4_with("nCL: 22"), error);
  ASSERT_NE(fine, nullptr) << error;
  EXPECT_EQ(ramulator2_timing_problem(*fine), "");
}

// ---- The simulator: a stall stops the run, the text is the error ----

// A DRAM model that stalls as soon as it has a request (a test's).
class StallingDram final : public DramModel {
 public:
  void enqueue(const DramRequest&) override { waiting_ = true; }
  Tick advance(Tick now, DramSink&) override {
    if (waiting_) throw ModelStall("dram.model \"stalls\": nothing served since " + std::to_string(now));
    return kNever;
  }
  double peak_gbps() const override { return 1; }
  std::string name() const override { return "stalls"; }

 private:
  bool waiting_ = false;
};

const DramModelRegistration kStalls({"stalls", "stalls at its first request (a test)",
                                     [](ParamReader&) -> DramBuilder {
                                       return [](const DramContext&, std::string&) {
                                         return std::unique_ptr<DramModel>(new StallingDram);
                                       };
                                     }});

TEST(ModelStall, AStallStopsTheSimulationWithItsTextAndNoReport) {
  ir::ConfigErrors e;
  const auto hw = sim::parse_hw_config(R"({"dram": {"model": "stalls"}})", "stall.json", e);
  ASSERT_TRUE(hw.has_value());
  const assembler::Program p = test::parse_programs(
      {".core 0\n"
       "dma_in l2=0 bytes=512 dram=0 transfer=1 dst_box=[0,0,0,0]:[0,0,0,0] "
       "src_box=[0,0,0,0]:[0,0,0,0]\n"
       "end\n"});
  SimOptions o;
  o.xlen = o.ylen = 1;
  Report r;
  std::string error;
  EXPECT_FALSE(simulate(p, *hw, {}, o, r, error));
  EXPECT_EQ(error.rfind("DRAM port ", 0), 0u) << error;
  EXPECT_NE(error.find(": dram.model \"stalls\": nothing served since "), npos) << error;
  EXPECT_EQ(r.total_cycles, 0);  // no report
}

// ---- What reaches BookSim 2 and Ramulator 2 is checked first ----

// A value of `k` outside what the table accepts.
boost::json::value out_of_range(const Booksim2Key& k) {
  if (k.kind == 's') return boost::json::value("bogus");
  if (k.kind == 'f') return boost::json::value(static_cast<double>(k.lo) - 0.5);
  return boost::json::value(k.minus_one ? std::int64_t{-2} : k.lo - 1);
}

TEST(Booksim2Keys, EveryPassedKeyOutOfRangeIsRefusedNamingIt) {
  int passed = 0;
  for (const Booksim2Key& k : booksim2_keys()) {
    boost::json::object noc{{"model", "booksim2"}, {"booksim", {{k.key, out_of_range(k)}}}};
    std::string error;
    EXPECT_EQ(make_noc_model(noc, grid2x2(), error), nullptr) << k.key;
    EXPECT_NE(error.find("/noc/booksim/" + std::string(k.key) + ": parameter \"" + k.key + "\""),
              npos)
        << error;
    if (k.role == Booksim2Key::Role::pass) {
      ++passed;
      if (booksim2_built()) {
        EXPECT_NE(error.find("expected"), npos) << error;
      }
      // The other end too, for numbers.
      if (k.kind != 's') {
        noc["booksim"].as_object()[k.key] = k.hi + 1;
        EXPECT_EQ(make_noc_model(noc, grid2x2(), error), nullptr) << k.key;
        EXPECT_NE(error.find("/noc/booksim/" + std::string(k.key)), npos) << error;
      }
    } else {
      EXPECT_NE(error.find("set by gemini, not noc.booksim: "), npos) << error;
    }
  }
  EXPECT_GE(passed, 20);
}

// Every key the table says gemini writes, given in noc.booksim with the very
// value gemini writes for it, is refused naming it and what sets it: none
// can override gemini's own silently (a key added to the table is tested).
TEST(Booksim2Keys, EveryKeyGeminiWritesIsRefusedInNocBooksimNamingIt) {
  Booksim2Setup s;
  std::string error;
  ASSERT_TRUE(booksim2_config(Booksim2Params{}, grid2x2(), s, error)) << error;
  int written = 0;
  for (const Booksim2Key& k : booksim2_keys()) {
    if (k.role != Booksim2Key::Role::written) continue;
    ++written;
    std::string value;
    for (const Booksim2Params::Extra& e : s.keys)
      if (e.key == k.key) value = k.kind == 's' ? "\"" + e.value + "\"" : e.value;
    ASSERT_FALSE(value.empty()) << k.key << ": booksim2_config() does not write it";
    const std::string set = "booksim={\"" + std::string(k.key) + "\": " + value + "}";
    const test::CliRun r =
        test::run_gemini("noc --model booksim2 --mesh 2x2 --booksim-config --set '" + set + "'");
    EXPECT_EQ(r.status, 1) << set << "\n" << r.out;
    EXPECT_NE(r.out.find("--set noc.booksim." + std::string(k.key) + ": parameter \"" + k.key +
                         "\" of component \"noc/booksim\" (NoC model \"booksim2\"): set by "
                         "gemini, not noc.booksim: " + k.about),
              npos)
        << set << "\n" << r.out;
  }
  EXPECT_EQ(static_cast<std::size_t>(written), s.own_keys);
}

// The table of docs/timing-model.md, "BookSim 2's keys", as the key table
// makes it.
std::string keys_table() {
  std::string out =
      "| key | accepted | without it | what it does |\n|---|---|---|---|\n";
  std::string ours = "| key | set by |\n|---|---|\n";
  for (const Booksim2Key& k : booksim2_keys()) {
    if (k.role == Booksim2Key::Role::written) {
      ours += "| `" + std::string(k.key) + "` | " + k.about + " |\n";
      continue;
    }
    std::string accepted;
    if (k.kind == 's') {
      accepted = k.choices;
    } else {
      accepted = std::string(k.minus_one ? "-1 or " : "") + (k.kind == 'f' ? "a number" : "an integer") +
                 " in [" + std::to_string(k.lo) + ", " + std::to_string(k.hi) + "]";
      if (k.lo == 0 && k.hi == 1) accepted = "0 or 1";
    }
    out += "| `" + std::string(k.key) + "` | " + accepted + " | " + k.fallback + " | " + k.about +
           " |\n";
  }
  return out + "\nWritten by gemini, in this order, and refused in `noc.booksim`:\n\n" + ours;
}

TEST(Booksim2Keys, TheDocsListEveryKeyWithItsCheck) {
  const std::string begin = "<!-- booksim keys: tests/sim/test_model_stall.cpp -->\n";
  const std::string end = "<!-- end of the booksim keys -->\n";
  const std::filesystem::path path = std::filesystem::path(GEMINI_SOURCE_DIR) / "docs" / "timing-model.md";
  std::string doc = test::read_file(path);
  const std::size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_TRUE(b != npos && e != npos && b < e) << "docs/timing-model.md lacks the markers";
  const std::string got = doc.substr(b + begin.size(), e - b - begin.size());
  if (got != keys_table() && std::getenv("GEMINI_UPDATE_DOCS")) {
    doc.replace(b + begin.size(), got.size(), keys_table());
    std::ofstream(path) << doc;
    return;
  }
  EXPECT_EQ(got, keys_table()) << "docs/timing-model.md is out of date: its BookSim keys should "
                                  "read as above (GEMINI_UPDATE_DOCS=1 rewrites it)";
}

TEST(Booksim2Keys, ThoseGivenInRangeReachBookSimAndOthersAreRefusedByName) {
  if (!booksim2_built()) GTEST_SKIP() << "BookSim 2 is not built into this gemini";
  std::string error;
  // The keys gemini writes from the noc section's parameters, and passed ones.
  const auto ok = make_noc_model(boost::json::parse(R"({"model": "booksim2", "credit_delay": 2,
      "internal_speedup": 2, "booksim": {"output_buffer_size": -1, "buffer_policy": "private"}})")
                                     .as_object(),
                                 grid2x2(), error);
  ASSERT_NE(ok, nullptr) << error;
  const std::string text = ok->config_text();
  EXPECT_NE(text.find("credit_delay = 2;"), npos) << text;
  EXPECT_NE(text.find("internal_speedup = 2.0;"), npos) << text;
  EXPECT_NE(text.find("output_buffer_size = -1;"), npos) << text;
  auto refusal = [&](const char* json) {
    std::string e;
    EXPECT_EQ(make_noc_model(boost::json::parse(json).as_object(), grid2x2(), e), nullptr);
    return e;
  };
  EXPECT_NE(refusal(R"({"model": "booksim2", "booksim": {"injection_rate": 0.5}})")
                .find("BookSim 2's key \"injection_rate\" has no effect on the network gemini "
                      "drives"),
            npos);
  EXPECT_NE(refusal(R"({"model": "booksim2", "booksim": {"no_such_key": 1}})")
                .find("BookSim 2 has no key \"no_such_key\" that noc.booksim takes"),
            npos);
  EXPECT_NE(refusal(R"({"model": "booksim2", "booksim": {"buf_size": 1}, "num_vcs": 2})")
                .find("buf_size\" of component \"noc/booksim\" (NoC model \"booksim2\"): must "
                      "hold a flit per VC: at least num_vcs (2) or -1, got 1"),
            npos);
}

TEST(Booksim2Keys, TheIssuesCommandsEndWithinASecondNamingTheKey) {
  if (!booksim2_built()) GTEST_SKIP() << "BookSim 2 is not built into this gemini";
  // The crossbar and pipeline keys gemini writes, from the noc section; the
  // others through noc.booksim.
  for (const char* set : {"input_speedup=0", "output_speedup=0", "internal_speedup=0",
                          "credit_delay=-1", "st_prepare_delay=-5",
                          R"(booksim={"output_buffer_size":0})",
                          R"(booksim={"hold_switch_for_packet":-5})"}) {
    const std::string s = set;
    const bool nested = s.starts_with("booksim=");
    const std::string key = nested ? s.substr(10, s.find('"', 10) - 10) : s.substr(0, s.find('='));
    const auto t0 = std::chrono::steady_clock::now();
    const test::CliRun r =
        test::run_gemini("noc --model booksim2 --mesh 4x4 --loads 0.05 --set '" + s + "'");
    EXPECT_LT(seconds_since(t0), 5.0) << set;  // a run refused, not simulated
    EXPECT_TRUE(r.status == 1 || r.status == 2) << set << ": " << r.status << "\n" << r.out;
    EXPECT_NE(r.out.find("--set noc." + std::string(nested ? "booksim." : "") + key +
                         ": parameter \"" + key + "\""),
              npos)
        << r.out;
  }
}

TEST(DramTimingRelations, ARefreshThatLeavesNoTimeToServeIsRefused) {
  for (const char* model : {"banked", "ramulator2"}) {
    if (std::string(model) == "ramulator2" && !ramulator2_built()) continue;
    for (const char* timing : {R"({"trefi": 100, "trfc": 99})", R"({"trefi": 1, "trfc": 0})"}) {
      boost::json::object dram{{"model", model}, {"timing", boost::json::parse(timing)}};
      std::string error;
      EXPECT_EQ(make_dram_model(dram, DramContext{}, error), nullptr) << model << timing;
      EXPECT_NE(error.find("/dram/timing/trefi: parameter \"trefi\" of component \"dram/timing\""),
                npos)
          << error;
      EXPECT_NE(error.find(" leaves no time to serve a request between refreshes: it must "
                           "exceed trfc + trp + trcd + cl + tburst = "),
                npos)
          << error;
    }
  }
}

TEST(DramTimingRelations, RamulatorsResolvedTimingsAreCheckedFromAnySource) {
  if (!ramulator2_built()) GTEST_SKIP() << "Ramulator 2 is not built into this gemini";
  std::string error;
  const auto m = make_dram_model(
      boost::json::parse(R"({"model": "ramulator2", "standard": "DDR4", "ramulator":
          {"MemorySystem": {"DRAM": {"timing": {"nREFI": 100, "nRFC": 99}}}}})")
          .as_object(),
      DramContext{}, error);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(error.find("/dram/ramulator: "), npos) << error;
  EXPECT_NE(error.find("as Ramulator 2 resolves them cannot serve requests: nREFI 100 leaves no "
                       "time to serve a request"),
            npos)
      << error;
}

// ---- Statistics: a group cannot read counters whose owner is gone ----

TEST(StatGroupDeathTest, ASnapshotAfterItsCountersOwnerIsGoneStopsNamingTheGroup) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  StatGroup g("noc", "noc");
  {
    std::string error;
    auto m = make_noc_model({{"model", "mesh"}}, grid2x2(), error);
    ASSERT_NE(m, nullptr) << error;
    m->register_stats(g);
    EXPECT_GE(g.snapshot().values.size(), 2u);  // while it lives
  }
  EXPECT_DEATH(g.snapshot(),
               "internal error: statistics group noc/noc: the owner of its counters \\(from "
               "\"packets\" on\\) was destroyed before the group's snapshot");
}

}  // namespace
}  // namespace gemini::sim
