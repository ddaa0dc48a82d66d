// Assembler lowering, end to end: the spec example lowered exactly, and what
// the lowering refuses with a named error.

#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include "fixture.h"
#include "gemini/assembler/encoding.h"
#include "gemini/assembler/invocation.h"
#include "gemini/assembler/lowering.h"
#include "gemini/assembler/program_io.h"
#include "gemini/assembler/text.h"
#include "gemini/assembler/verifier.h"
#include "gemini/ir/loader.h"

namespace fs = std::filesystem;
using namespace gemini;             // NOLINT(google-build-using-namespace): test file
using namespace gemini::assembler;  // NOLINT(google-build-using-namespace): test file

using test::program;

namespace {

TEST(Lowering, SpecExampleCore1IsExactlyThis) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "spec_minimal.json").string(), d);
  std::vector<std::string> errors;
  auto p = lower(r.model, ir::HardwareConfig{}, errors);
  ASSERT_TRUE(p) << errors.front();
  // Core 1 pools the two halves core 0 sends (transfers 3 and 4) and adds
  // nothing: its first tensor is granted to both sends at once, the pool
  // waits for both data tokens, its result goes to DRAM (transfer 5), and
  // workload 1 re-reads that from DRAM (transfer 6, related_ifmap [5]),
  // ordered by a local wait on the store.
  // Every data instruction follows the view of its operands' layouts; the
  // store and the read-back use the same DRAM address (Pool_0's output).
  const std::string b = "[0,0,0,0]:[0,15,3,3]";
  const std::string z = "[0,0,0,0]:[0,0,0,0]";
  const std::string expected =
      ".core 1\n"
      "signal q=ctrl kind=credit transfer=3 to=0 grant=0 grant_bytes=1024 wl=0\n"
      "signal q=ctrl kind=credit transfer=4 to=0 grant=0 grant_bytes=1024 wl=0\n"
      "wait_token q=vp kind=data transfer=3 from=0 count=1 wl=0\n"
      "wait_token q=vp kind=data transfer=4 from=0 count=1 wl=0\n"
      "vp_cfg r=2 s=2 stride_h=2 stride_w=2 pad_t=0 pad_l=0 in_h=8 in_w=8 shift=0 perm=228 wl=0\n"
      "view q=vp shift=0 box0=" +
      z + " box1=" + b +
      " wl=0\n"
      "vp_run op=pool_max inputs=1 window=2 stride=2 in0=0 in1=0 out=1024 in_bytes=1024 "
      "out_bytes=256 in_box=[0,0,0,0]:[0,15,7,7] out_box=" +
      b +
      " wl=0\n"
      "wait_local q=dma_out on=vp count=5 wl=0\n"
      "view q=dma_out shift=0 box0=" +
      b + " box1=" + b +
      " wl=0\n"
      "dma_out l2=1024 bytes=256 dram=8192 transfer=5 src_box=" +
      b +
      " wl=0\n"
      "wait_local q=dma_in on=dma_out count=3 wl=1\n"
      "view q=dma_in shift=0 box0=" +
      b + " box1=" + z +
      " wl=1\n"
      "dma_in l2=1280 bytes=256 dram=8192 transfer=6 dst_box=" +
      b + " src_box=" + b +
      " wl=1\n"
      "wait_local q=vp on=dma_in count=3 wl=1\n"
      "vp_cfg r=1 s=1 stride_h=1 stride_w=1 pad_t=0 pad_l=0 in_h=4 in_w=4 shift=0 perm=228 wl=1\n"
      "view q=vp shift=0 box0=" +
      z + " box1=" + b +
      " wl=1\n"
      "vp_run op=copy inputs=1 window=1 stride=1 in0=1280 in1=0 out=1536 in_bytes=256 "
      "out_bytes=256 in_box=" +
      b + " out_box=" + b +
      " wl=1\n"
      "wait_local q=dma_out on=vp count=9 wl=1\n"
      "view q=dma_out shift=0 box0=" +
      b + " box1=" + b +
      " wl=1\n"
      "dma_out l2=1536 bytes=256 dram=16384 transfer=7 src_box=" +
      b +
      " wl=1\n"
      "end\n";
  ASSERT_EQ(p->cores.size(), 2u);
  EXPECT_EQ(print_program(p->cores[1].program), expected);
  std::vector<CoreProgram> cores;
  for (const auto& c : p->cores) cores.push_back(c.program);
  const auto problems = verify(cores, {p->l2_bytes, p->wl0_bytes});
  EXPECT_TRUE(problems.empty()) << problems.front();
  // Core 0 overwrites its first ofmap's bytes with the second only after the
  // first was stored and sent.
  const std::string c0 = print_program(p->cores[0].program);
  EXPECT_NE(
      c0.find("wait_local q=pe on=dma_out count=3 wl=1\nwait_local q=pe on=noc count=4 wl=1\n"),
      std::string::npos)
      << c0;
}

TEST(Lowering, ASendWithNoReceivingTensorIsAnErrorNamingIt) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "spec_minimal.json").string(), d);
  ASSERT_EQ(d.errors(), 0u);
  auto core1 = std::find_if(r.model.cores.begin(), r.model.cores.end(),
                            [](const ir::Core& c) { return c.core_id == 1; });
  ASSERT_NE(core1, r.model.cores.end());
  ir::Model late = r.model;  // transfer 3 received only from workload 1 on
  // Nothing on core 1 receives transfer 3 any more.
  for (ir::Source& s : core1->workloads[0].buffer[0].source)
    if (s.transfer_id == 3) s.transfer_id = 99;
  std::vector<std::string> errors;
  EXPECT_FALSE(lower(r.model, ir::HardwareConfig{}, errors));
  auto names = [&](const std::string& what) {
    return std::any_of(errors.begin(), errors.end(),
                       [&](const std::string& e) { return e.find(what) != std::string::npos; });
  };
  EXPECT_TRUE(names("core 1 has no buffer tensor receiving transfer 3 by its workload 0"))
      << ::testing::PrintToString(errors);
  // A tensor that receives it, but not by the workload the send names.
  auto late1 = std::find_if(late.cores.begin(), late.cores.end(),
                            [](const ir::Core& c) { return c.core_id == 1; });
  ir::BufferEntry moved = late1->workloads[0].buffer[0];
  for (ir::Source& s : late1->workloads[0].buffer[0].source)
    if (s.transfer_id == 3) s.transfer_id = 99;
  moved.address = 4096;
  moved.source.erase(std::remove_if(moved.source.begin(), moved.source.end(),
                                    [](const ir::Source& s) { return s.transfer_id != 3; }),
                     moved.source.end());
  late1->workloads[1].buffer.push_back(moved);
  errors.clear();
  EXPECT_FALSE(lower(late, ir::HardwareConfig{}, errors));
  EXPECT_TRUE(names("core 1 has no buffer tensor receiving transfer 3 by its workload 0"))
      << ::testing::PrintToString(errors);
}

// A layer whose geometry does not fit an instruction field -- a padding or
// kernel over 255, a group width over 65535 -- is an error naming the
// workload, the instruction, the field and its range: never clamped into
// the field (the program would compute another layer).
TEST(Lowering, AGeometryOutsideAFieldsRangeIsAnErrorNamingTheWorkload) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "spec_minimal.json").string(), d);
  ASSERT_EQ(d.errors(), 0u);
  auto lowered = [&](const std::string& layer, auto&& change) {
    ir::GeometryTable geo = infer_geometry(r.model);
    geo.from_model = true;  // exact: what a model's layer semantics give
    ir::LayerGeometry* g = &geo.layers.at(layer);
    change(*g);
    std::vector<std::string> errors;
    LowerOptions options;
    options.geometry = &geo;
    const bool ok =
        lower(r.model, ir::HardwareConfig{}, errors, {}, nullptr, nullptr, options).has_value();
    return std::make_pair(ok, errors);
  };
  auto has = [](const std::vector<std::string>& errors, const std::string& what) {
    return std::any_of(errors.begin(), errors.end(),
                       [&](const std::string& e) { return e == what; });
  };
  const auto fits = lowered("Conv_0", [](ir::LayerGeometry&) {});
  ASSERT_TRUE(fits.first) << ::testing::PrintToString(fits.second);
  const auto pad = lowered("Conv_0", [](ir::LayerGeometry& g) { g.pad = {300, 0, 0, 0}; });
  EXPECT_FALSE(pad.first);
  EXPECT_TRUE(has(pad.second, "core 0 workload 0 (Conv_0): pe_cfg pad_t=300 outside [0, 255]"))
      << ::testing::PrintToString(pad.second);
  const auto kernel = lowered("Conv_0", [](ir::LayerGeometry& g) { g.kernel = {3, 256}; });
  EXPECT_FALSE(kernel.first);
  EXPECT_TRUE(has(kernel.second, "core 0 workload 1 (Conv_0): pe_cfg s=256 outside [1, 255]"))
      << ::testing::PrintToString(kernel.second);
  const auto groups = lowered("Conv_0", [](ir::LayerGeometry& g) { g.group_c = 70000; });
  EXPECT_FALSE(groups.first);
  EXPECT_TRUE(has(groups.second, "core 0 workload 0 (Conv_0): pe_cfg gc=70000 outside [1, 65535]"))
      << ::testing::PrintToString(groups.second);
  const auto window = lowered("Pool_0", [](ir::LayerGeometry& g) {
    g.op = ir::LayerOp::pool_max;
    g.kernel = {300, 300};
  });
  EXPECT_FALSE(window.first);
  EXPECT_TRUE(has(window.second, "core 1 workload 0 (Pool_0): vp_cfg r=300 outside [1, 255]"))
      << ::testing::PrintToString(window.second);
}

TEST(Lowering, PublicDialectNeedsImportFirst) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "set_minimal.json").string(), d);
  std::vector<std::string> errors;
  EXPECT_FALSE(lower(r.model, ir::HardwareConfig{}, errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("import"), std::string::npos);
}

}  // namespace
