// A worked example of adding a DRAM model (docs/architecture.md, "How to
// add"): this file is the whole model, registered by name with its one
// parameter, and its line in tests/CMakeLists.txt is the only other change.
// "toy" serves each request `delay_ns` after it arrives, whole, however big
// (no bandwidth limit), and counts the requests of more than 256 bytes in a
// statistic of its own. The tests: a configuration that selects it loads,
// builds and simulates; its statistic is in every report beside the
// ports' common ones (and another model's are not); its parameter is
// checked; it is listed.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <sstream>

#include "fixture.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/report.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/simulator.h"

namespace gemini::sim {
namespace {

// Contract and timing: a request of any size arriving at `a` is done, all
// its bytes at once, at a + delay; requests do not delay each other.
class ToyDram final : public DramModel {
 public:
  explicit ToyDram(Tick delay) : delay_(delay) {}
  void enqueue(const DramRequest& r) override { queue_.push_back(r); }
  Tick advance(Tick /*now*/, DramSink& sink) override {
    for (const DramRequest& r : queue_) {
      ++stats_.requests;
      if (r.bytes > 256) ++large_;
      (r.write ? stats_.bytes_written : stats_.bytes_read) += r.bytes;
      sink.progress(r.tag, r.bytes, r.arrival + delay_);
    }
    queue_.clear();
    return kNever;
  }
  double peak_gbps() const override { return 1e6; }  // unbounded; the range's top
  std::string name() const override { return "toy"; }
  void add_stats(StatGroup& g) const override {
    g.add("large_requests", &large_, Unit::count, "requests of more than 256 bytes (toy)");
  }

 private:
  std::int64_t large_ = 0;
  Tick delay_;
  std::vector<DramRequest> queue_;
};

// Declares and reads the model's one parameter.
DramBuilder configure(ParamReader& r) {
  const double delay_ns = r.param<double>("delay_ns")
                              .unit(Unit::nanoseconds)
                              .range(0, 1e6)
                              .fallback(100)
                              .describe("from a request's arrival to all of its bytes")
                              .get();
  const auto delay = static_cast<Tick>(std::llround(delay_ns * 1000.0));
  return [delay](const DramContext&, std::string&) -> std::unique_ptr<DramModel> {
    return std::make_unique<ToyDram>(delay);
  };
}

const DramModelRegistration kToy({"toy", "each request whole after a fixed delay (a test)",
                                  configure});

// ---------------------------------------------------------------------------

std::optional<ir::HardwareConfig> config(const std::string& dram, std::string& errors) {
  ir::ConfigErrors e;
  auto hw = sim::parse_hw_config(R"({"dram": )" + dram + "}", "toy.json", e);
  for (const ir::Diagnostic& s : e) errors += ir::config_text(s) + "\n";
  return hw;
}

const std::string kDmaIn =
    ".core 0\n"
    "dma_in l2=0 bytes=512 dram=0 transfer=1 dst_box=[0,0,0,0]:[0,0,0,0] "
    "src_box=[0,0,0,0]:[0,0,0,0]\n"
    "end\n";

TEST(ToyDramModel, IsListedWithItsParameter) {
  const std::vector<std::string> names = dram_model_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "toy"), names.end());
  bool listed = false;
  for (const ParamInfo& p : dram_params())
    listed =
        listed || (p.model == "toy" && p.name == "delay_ns" && p.unit == sim::Unit::nanoseconds);
  EXPECT_TRUE(listed);
  std::ostringstream os;
  print_params(os);
  EXPECT_NE(os.str().find("dram, DRAM model \"toy\": each request whole after a fixed delay"),
            std::string::npos)
      << os.str();
  EXPECT_NE(os.str().find("  delay_ns  number [0, 1e+06], ns, default 100: from a request's"),
            std::string::npos)
      << os.str();
}

TEST(ToyDramModel, AConfigurationSelectingItSimulates) {
  std::string errors;
  auto fast = config(R"({"model": "toy", "delay_ns": 100})", errors);
  auto slow = config(R"({"model": "toy", "delay_ns": 300})", errors);
  ASSERT_TRUE(fast && slow) << errors;
  const assembler::Program p = test::parse_programs({kDmaIn});
  const Report a = test::simulate_programs(p, 1, 1, *fast);
  const Report b = test::simulate_programs(p, 1, 1, *slow);
  EXPECT_EQ(a.dram_model, "toy");
  ASSERT_EQ(a.dram_ports.size(), 2u);  // both ends of the one row
  EXPECT_EQ(a.dram_ports[0].bytes_read + a.dram_ports[1].bytes_read, 512);
  // Everything else is the same: 200 ns more of DRAM is 200 cycles at 1 GHz.
  EXPECT_EQ(b.total_cycles - a.total_cycles, 200);
}

TEST(ToyDramModel, ItsOwnStatisticIsReportedAndNoOtherModelsIs) {
  std::string errors;
  auto toy = config(R"({"model": "toy"})", errors);
  auto simple = config(R"({"model": "simple"})", errors);
  ASSERT_TRUE(toy && simple) << errors;
  const assembler::Program p = test::parse_programs({kDmaIn});
  const Report a = test::simulate_programs(p, 1, 1, *toy);
  const Report b = test::simulate_programs(p, 1, 1, *simple);
  std::ostringstream text, json;
  print_report(text, a);
  write_report_json(json, a, false);
  EXPECT_NE(text.str().find("  dram (2): bytes_read 512 bytes_written 0 requests 1 data_busy_ps 0 "
                            "large_requests 1\n"),
            std::string::npos)
      << text.str();
  const boost::json::value v = boost::json::parse(json.str());
  EXPECT_EQ(v.at_pointer("/stats/by_kind/dram/stats/large_requests/value"), 1);
  EXPECT_EQ(v.at_pointer("/stats/by_kind/dram/stats/large_requests/unit"), "count");
  EXPECT_EQ(v.at_pointer("/stats/groups/dram_west0/kind"), "dram");
  EXPECT_EQ(v.at_pointer("/stats/groups/dram_west0/stats/large_requests/value"), 1);
  EXPECT_EQ(v.at_pointer("/dram/ports/0/large_requests"), 1);
  EXPECT_FALSE(a.dram_has_rows());
  // The simple model has no rows: no row counters, no row-hit rate.
  std::ostringstream simple_text, simple_json;
  print_report(simple_text, b);
  write_report_json(simple_json, b, false);
  for (const char* none : {"large_requests", "row_hits", "bursts", "refreshes"}) {
    EXPECT_EQ(simple_text.str().find(none), std::string::npos) << none;
    EXPECT_EQ(simple_json.str().find(none), std::string::npos) << none;
  }
  EXPECT_NE(simple_text.str().find("row-hit rate n/a (the simple model has no rows)"),
            std::string::npos);
}

TEST(ToyDramModel, ItsParameterIsChecked) {
  std::string errors;
  EXPECT_FALSE(config(R"({"model": "toy", "delay_ns": -1})", errors));
  EXPECT_NE(errors.find("toy.json:/dram/delay_ns: parameter \"delay_ns\" of component \"dram\" "
                        "(DRAM model \"toy\"): expected a number in [0, 1e+06], got integer -1"),
            std::string::npos)
      << errors;
  // Another model's parameter does not apply to it, nor its own to another.
  errors.clear();
  EXPECT_FALSE(config(R"({"model": "toy", "latency_ns": 5})", errors));
  EXPECT_NE(errors.find("toy.json:/dram/latency_ns: parameter \"latency_ns\" of component "
                        "\"dram\": does not apply to DRAM model \"toy\" (only to simple); it "
                        "has: model, placement, multicast, interleave, in_order, delay_ns"),
            std::string::npos)
      << errors;
  errors.clear();
  EXPECT_FALSE(config(R"({"model": "banked", "delay_ns": 5})", errors));
  EXPECT_NE(errors.find("/dram/delay_ns: parameter \"delay_ns\" of component \"dram\": does not "
                        "apply to DRAM model \"banked\" (only to toy)"),
            std::string::npos)
      << errors;
}

}  // namespace
}  // namespace gemini::sim
