// A worked example of adding a NoC model (docs/architecture.md, "How to
// add"): this file is the whole model, registered by name with its one
// parameter, and its line in tests/CMakeLists.txt is the only other change.
// "crossbar" joins every pair of nodes directly: a packet takes `hop_ns`
// plus its serialisation at 24 GB/s, and packets never contend. The tests:
// a configuration that selects it with `noc.model` loads and simulates; its
// parameter is checked; the mesh's do not apply to it; it is listed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "fixture.h"
#include "gemini/sim/noc_model.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/simulator.h"

namespace gemini::sim {
namespace {

// Contract and timing: a packet of b bytes injected at t arrives at
// t + hop + ceil(b * 1000 / 24) ps; its source may send the next at
// t + ceil(b * 1000 / 24). No link is shared, none is counted.
class Crossbar final : public NocModel {
 public:
  Crossbar(const NocLayout& l, Tick hop) : cores_(l.xlen * l.ylen), hop_(hop) {}
  std::int32_t port_node(std::int32_t port) const override { return cores_ + port; }
  void set_eject_ps_per_byte(std::int32_t, double) override {}
  Timing send(Tick t, std::int32_t, std::int32_t, std::int64_t bytes) override {
    count(bytes);
    return {t + ser(bytes), t + hop_ + ser(bytes), 0};
  }
  MulticastTiming multicast(Tick t, std::int32_t, const std::vector<std::int32_t>& dsts,
                            std::int64_t bytes) override {
    count(bytes);
    return {t + ser(bytes), std::vector<Tick>(dsts.size(), t + hop_ + ser(bytes)), 0};
  }
  LinkUse router_link_use() const override { return {}; }
  double peak_link_gbps() const override { return 24; }
  std::int64_t packets() const override { return packets_; }
  std::int64_t bytes() const override { return bytes_; }
  void add_stats(StatGroup& g) const override {
    g.add("packets", &packets_, Unit::count, "packets the crossbar carried");
    g.add("bytes", &bytes_, Unit::bytes, "bytes the crossbar carried");
  }
  std::string name() const override { return "crossbar"; }

 private:
  static Tick ser(std::int64_t bytes) {
    return static_cast<Tick>(std::ceil(static_cast<double>(bytes) * 1000.0 / 24.0 - 1e-9));
  }
  void count(std::int64_t bytes) {
    ++packets_;
    bytes_ += bytes;
  }
  std::int32_t cores_;
  Tick hop_;
  std::int64_t packets_ = 0, bytes_ = 0;
};

// Declares and reads the model's one parameter.
NocBuilder configure(ParamReader& r) {
  const double hop_ns = r.param<double>("hop_ns")
                            .unit(Unit::nanoseconds)
                            .range(0, 1e6)
                            .fallback(10)
                            .describe("from any node to any other, before serialisation")
                            .get();
  const auto hop = static_cast<Tick>(std::llround(hop_ns * 1000.0));
  return [hop](const NocLayout& l, std::string&) -> std::unique_ptr<NocModel> {
    return std::make_unique<Crossbar>(l, hop);
  };
}

const NocModelRegistration kCrossbar({"crossbar", "every pair of nodes joined directly (a test)",
                                      configure});

// ---------------------------------------------------------------------------

std::optional<ir::HardwareConfig> config(const std::string& noc, std::string& errors) {
  ir::ConfigErrors e;
  auto hw = sim::parse_hw_config(R"({"noc": )" + noc + "}", "xbar.json", e);
  for (const ir::Diagnostic& s : e) errors += ir::config_text(s) + "\n";
  return hw;
}

TEST(ToyNocModel, AConfigurationSelectingItSimulates) {
  std::string errors;
  auto fast = config(R"({"model": "crossbar", "hop_ns": 10})", errors);
  auto slow = config(R"({"model": "crossbar", "hop_ns": 110})", errors);
  ASSERT_TRUE(fast && slow) << errors;
  const assembler::Program p =
      test::parse_programs({".core 0\n"
                            "dma_in l2=0 bytes=512 dram=0 transfer=1 dst_box=[0,0,0,0]:[0,0,0,0] "
                            "src_box=[0,0,0,0]:[0,0,0,0]\n"
                            "end\n"});
  const Report a = test::simulate_programs(p, 1, 1, *fast);
  const Report b = test::simulate_programs(p, 1, 1, *slow);
  EXPECT_EQ(a.noc_packets, 2);  // the read request, then its data
  // Each of the two packets takes 100 ns more: 200 cycles at 1 GHz.
  EXPECT_EQ(b.total_cycles - a.total_cycles, 200);
}

TEST(ToyNocModel, ItsParameterIsCheckedAndTheMeshsDoNotApply) {
  std::string errors;
  EXPECT_FALSE(config(R"({"model": "crossbar", "hop_ns": "fast"})", errors));
  EXPECT_NE(errors.find("xbar.json:/noc/hop_ns: parameter \"hop_ns\" of component \"noc\" (NoC "
                        "model \"crossbar\"): expected a number in [0, 1e+06], got string "
                        "\"fast\""),
            std::string::npos)
      << errors;
  errors.clear();
  EXPECT_FALSE(config(R"({"model": "crossbar", "router_cycles": 1})", errors));
  EXPECT_NE(errors.find("xbar.json:/noc/router_cycles: parameter \"router_cycles\" of component "
                        "\"noc\": does not apply to NoC model \"crossbar\" (only to mesh, "
                        "booksim2, router); it has: "
                        "model, packet_bytes, control_bytes, multicast, hop_ns"),
            std::string::npos)
      << errors;
  std::ostringstream os;
  print_params(os);
  EXPECT_NE(os.str().find("noc, NoC model \"crossbar\": every pair of nodes joined directly"),
            std::string::npos)
      << os.str();
}

}  // namespace
}  // namespace gemini::sim
