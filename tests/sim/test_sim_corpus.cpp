// Simulating the real corpus with configs/set-polar.json: every file runs to
// completion without deadlock, in both dialects (the public file, and its
// full-dialect import written out and read back) with identical timing;
// repeated runs give identical reports; the trace is loadable JSON with a
// track for every core.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <set>
#include <sstream>

#include "fixture.h"
#include "gemini/assembler/assemble_file.h"
#include "gemini/ir/writer.h"
#include "gemini/sim/simulator.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

struct SimRun {
  sim::Report report;
  std::string json;
};

SimRun simulate_file(const std::string& path, const std::string& trace, ir::Model* keep = nullptr,
                     std::int64_t* reloads = nullptr) {
  const ir::HardwareConfig& hw = test::set_polar();
  ir::Diagnostics d(20);
  auto f = assembler::assemble_file(path, hw, {}, d);
  EXPECT_EQ(f.load_status, ir::LoadStatus::ok);
  EXPECT_EQ(d.errors(), 0u) << path;
  EXPECT_TRUE(f.program) << (f.lower_errors.empty() ? "" : f.lower_errors.front());
  SimRun run;
  if (!f.program) return run;
  ir::Model& m = f.model;
  const auto& p = f.program;
  sim::SimOptions o;
  o.xlen = m.xlen;
  o.ylen = m.ylen;
  o.input_name = "corpus";
  o.trace_path = trace;
  std::string error;
  EXPECT_TRUE(sim::simulate(*p, hw, sim::workload_table(m), o, run.report, error)) << error;
  std::ostringstream os;
  sim::write_report_json(os, run.report, false);
  run.json = os.str();
  if (reloads) *reloads = p->multicast.reloads;
  if (keep) *keep = std::move(m);
  return run;
}

class SimCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(SimCorpus, RunsToCompletionRepeatablyInBothDialects) {
  if (GetParam() == test::kCorpusAbsent) GTEST_SKIP() << test::corpus_absent_message();
  const std::string path = (test::corpus_dir() / GetParam()).string();
  const auto trace = test::temp_path(test::param_name(GetParam()) + "_trace.json");
  ir::Model imported;
  std::int64_t reloads = -1;
  const SimRun a = simulate_file(path, trace.string(), &imported, &reloads);
  // Multicast (set-polar): every DRAM out entry is read once where no core
  // loads it a second time -- the ports read exactly the unique bytes.
  EXPECT_GT(a.report.dram_unique_read_bytes, 0);
  if (reloads == 0) {
    EXPECT_EQ(a.report.dram_read_bytes, a.report.dram_unique_read_bytes);
  }
  EXPECT_GE(a.report.dram_read_bytes, a.report.dram_unique_read_bytes);
  ASSERT_FALSE(a.report.deadlock) << a.report.blocked.front();
  EXPECT_GT(a.report.total_cycles, 0);
  for (const auto& c : a.report.cores) {
    EXPECT_GT(c.finish_cycles, 0) << "core " << c.core_id;
    EXPECT_LE(c.finish_cycles, a.report.total_cycles);
    EXPECT_EQ(c.compute + c.stall(), c.finish_cycles) << "core " << c.core_id;
  }
  EXPECT_GT(a.report.dram_bytes, 0);
  EXPECT_LE(a.report.dram_achieved_gbps, a.report.dram_peak_gbps * 1.0001);
  EXPECT_LE(a.report.noc_link_util_max, 1.0001);
  // The critical path: its kinds and what it waited for each add up to the
  // total, and the waits refine the kinds (report.h, WaitKind).
  const sim::CriticalPath& cp = a.report.critical_path;
  ASSERT_TRUE(cp.traced);
  EXPECT_EQ(cp.total(), a.report.total_cycles);
  std::int64_t waited = 0;
  for (std::int64_t c : cp.waits) waited += c;
  EXPECT_EQ(waited, a.report.total_cycles);
  // (whole cycles: each array's leftover cycles go to its own largest
  // remainders, so a kind may differ by one)
  EXPECT_NEAR(cp.waits[static_cast<std::size_t>(sim::WaitKind::compute)],
              cp.cycles[static_cast<std::size_t>(sim::PathKind::compute)], 1);
  EXPECT_NEAR(cp.waits[static_cast<std::size_t>(sim::WaitKind::token)] +
                  cp.waits[static_cast<std::size_t>(sim::WaitKind::l2_credit)],
              cp.cycles[static_cast<std::size_t>(sim::PathKind::token)], 2);

  const SimRun b = simulate_file(path, "");
  EXPECT_EQ(a.json, b.json) << "two runs of the same input differ";

  // The trace: valid JSON, a complete event on every core.
  boost::json::error_code ec;
  const boost::json::value t = boost::json::parse(test::read_file(trace), ec);
  ASSERT_FALSE(ec) << ec.message();
  std::set<std::int64_t> pids;
  for (const auto& e : t.at("traceEvents").as_array())
    if (e.at("ph").as_string() == "X") pids.insert(e.at("pid").as_int64());
  for (std::int64_t c = 0; c < static_cast<std::int64_t>(a.report.cores.size()); ++c)
    EXPECT_TRUE(pids.count(c)) << "no trace events for core index " << c;

  // The full dialect: the import written out and read back simulates the same.
  const auto full = test::temp_path(test::param_name(GetParam()) + "_full.json");
  std::string err;
  ASSERT_TRUE(ir::write_full_file(imported, full.string(), err)) << err;
  const SimRun c = simulate_file(full.string(), "");
  EXPECT_EQ(c.report.total_cycles, a.report.total_cycles);
  EXPECT_EQ(c.json, a.json);
}

INSTANTIATE_TEST_SUITE_P(Set, SimCorpus, ::testing::ValuesIn(test::corpus_names()),
                         [](const auto& info) { return test::param_name(info.param); });

}  // namespace
