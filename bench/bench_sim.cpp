// Simulator throughput. Two kinds of case:
//   sim_core/...  : simulate() alone on a program lowered once, reporting
//                   simulated cycles per second of wall time (cycles/s);
//   sim_whole/... : what `gemini sim` does -- load, validate, import, lower
//                   and simulate -- to compare with parse_baseline/<file>.
// sim_core_ddr4/... is sim_core with configs/set-polar-ddr4.json (banked
// DRAM). sim_core/synthetic_4x4 needs no corpus: a generated 4x4 program in which
// every core loads, computes and passes data to its east neighbour.
//   build/bench/gemini_bench --benchmark_filter='sim_' --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <map>
#include <memory>

#include "corpus_input.h"
#include "gemini/assembler/assemble_file.h"
#include "gemini/assembler/text.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/simulator.h"

namespace {

using gemini::bench::input;
using gemini::bench::Plain;
namespace ir = gemini::ir;
namespace sim = gemini::sim;
namespace assembler = gemini::assembler;

const ir::HardwareConfig& config(const char* file) {
  static std::map<std::string, ir::HardwareConfig> cache;
  auto it = cache.find(file);
  if (it != cache.end()) return it->second;
  ir::ConfigErrors e;
  auto h = sim::load_hw_config(std::string(GEMINI_SOURCE_DIR) + "/configs/" + file, e);
  if (!h) std::abort();  // a shipped configuration that does not load: a bug
  return cache.emplace(file, *h).first->second;
}
const ir::HardwareConfig& set_polar() { return config("set-polar.json"); }

struct Lowered {
  ir::Model model;
  assembler::Program program;
};

std::unique_ptr<Lowered> lower_file(const std::string& path) {
  ir::Diagnostics d(20);
  auto f = assembler::assemble_file(path, set_polar(), {}, d);
  if (!f.program) return nullptr;
  return std::make_unique<Lowered>(Lowered{std::move(f.model), std::move(*f.program)});
}

void run_core(benchmark::State& st, const assembler::Program& p, std::int32_t xlen,
              std::int32_t ylen, const sim::WorkloadTable& wt,
              const ir::HardwareConfig& hw = set_polar()) {
  sim::SimOptions o;
  o.xlen = xlen;
  o.ylen = ylen;
  std::int64_t cycles = 0;
  for (auto _ : st) {
    sim::Report r;
    std::string error;
    if (!sim::simulate(p, hw, wt, o, r, error)) {
      st.SkipWithError(error.c_str());
      return;
    }
    if (r.deadlock) {
      st.SkipWithError("deadlock");
      return;
    }
    cycles += r.total_cycles;
    st.counters["sim_cycles"] = static_cast<double>(r.total_cycles);
  }
  st.counters["cycles/s"] =
      benchmark::Counter(static_cast<double>(cycles), benchmark::Counter::kIsRate);
}

void BM_SimCore(benchmark::State& st, std::string name, const char* hw) {
  const Plain* in = input(st, name);
  if (!in) return;
  static std::map<std::string, std::unique_ptr<Lowered>> cache;
  auto& l = cache[name];
  if (!l) l = lower_file(in->path.string());
  if (!l) {
    st.SkipWithError("does not lower");
    return;
  }
  run_core(st, l->program, l->model.xlen, l->model.ylen, sim::workload_table(l->model), config(hw));
}

// 4x4 mesh, `rounds` rounds per core: load 64 KiB, a 3x3 convolution tile,
// send 16 KiB east (the east column sends to DRAM), wait for the west
// neighbour's data.
assembler::Program synthetic(int rounds) {
  assembler::Program p;
  p.l2_bytes = 1 << 20;
  p.wl0_bytes = 4096;
  for (int c = 0; c < 16; ++c) {
    const int x = c % 4;
    const int per_round = x > 0 ? 4 : 3;  // instructions on the PE queue per round
    std::string t = ".core " + std::to_string(c) + "\n";
    for (int r = 0; r < rounds; ++r) {
      const std::string n = std::to_string(r + 1);
      t += "dma_in l2=0 bytes=65536 dram=" + std::to_string((c * rounds + r) * 65536) +
           " transfer=1 dst_box=[0,0,0,0]:[0,0,0,0] src_box=[0,0,0,0]:[0,0,0,0]\n";
      t += "wait_local q=pe on=dma_in count=" + n + "\n";
      if (x > 0)
        t += "wait_token q=pe kind=data transfer=9 from=" + std::to_string(c - 1) + " count=" + n +
             "\n";
      t += "pe_cfg loop=KNHW cut=none ci_cut=1 mtc0=1 mtk0=1 om_n=1 om_k=1 om_h=1 om_w=1 am_n=1 "
           "am_c=1 am_h=1 am_w=1 pad_t=0 pad_b=0 pad_l=0 pad_r=0 r=3 s=3 stride_h=1 stride_w=1 "
           "wl0=0 gk=16 gc=64 in_h=32 in_w=32 shift=0 chain=1\n";
      t +=
          "pe_run ifmap=0 ifmap_bytes=65536 weight=0 weight_bytes=0 ofmap=131072 ofmap_bytes=16384 "
          "ifmap_box=[0,0,0,0]:[0,63,31,31] ofmap_box=[0,0,0,0]:[0,15,31,31]\n";
      if (x < 3) {
        t += "wait_local q=noc on=pe count=" + std::to_string(per_round * (r + 1)) + "\n";
        t += "noc_send src=131072 dst=262144 bytes=16384 to=" + std::to_string(c + 1) +
             " transfer=9 src_box=[0,0,0,0]:[0,0,0,0] dst_box=[0,0,0,0]:[0,0,0,0]\n";
      } else {
        t += "wait_local q=dma_out on=pe count=" + std::to_string(per_round * (r + 1)) + "\n";
        t += "dma_out l2=131072 bytes=16384 dram=" + std::to_string((64 + c * rounds + r) * 65536) +
             " transfer=2 src_box=[0,0,0,0]:[0,0,0,0]\n";
      }
    }
    t += "end\n";
    assembler::ParseError e;
    auto cp = assembler::parse_program(t, e);
    if (!cp) std::abort();  // the generator is wrong: a bug
    p.cores.push_back({*cp, {}, {}});
  }
  return p;
}

void BM_SimSynthetic(benchmark::State& st) {
  static const assembler::Program p = synthetic(200);
  run_core(st, p, 4, 4, {});
}

void BM_SimWhole(benchmark::State& st, std::string name) {
  const Plain* in = input(st, name);
  if (!in) return;
  for (auto _ : st) {
    auto l = lower_file(in->path.string());
    if (!l) {
      st.SkipWithError("does not lower");
      return;
    }
    sim::SimOptions o;
    o.xlen = l->model.xlen;
    o.ylen = l->model.ylen;
    sim::Report r;
    std::string error;
    sim::simulate(l->program, set_polar(), sim::workload_table(l->model), o, r, error);
    benchmark::DoNotOptimize(r);
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * in->bytes.size()));
}

const char* kCoreFiles[] = {"bert_b1_4x4_SET_IR",        "darknet_b1_4x4_LS_IR",
                            "gpt_prefill_b1_4x4_SET_IR", "trans_cell_b1_4x4_SET_IR",
                            "vgg_b1_4x4_LP_IR",          "vgg_b1_4x4_SET_IR",
                            "resnet_b1_8x8_LS_IR"};

const bool kRegistered = [] {
  const auto unit = benchmark::kMillisecond;
  benchmark::RegisterBenchmark("sim_core/synthetic_4x4", BM_SimSynthetic)->Unit(unit);
  for (const char* f : kCoreFiles)
    benchmark::RegisterBenchmark((std::string("sim_core/") + f).c_str(), BM_SimCore, f,
                                 "set-polar.json")
        ->Unit(unit);
  for (const char* f : kCoreFiles)  // the banked DDR4 model: many more events
    benchmark::RegisterBenchmark((std::string("sim_core_ddr4/") + f).c_str(), BM_SimCore, f,
                                 "set-polar-ddr4.json")
        ->Unit(unit);
  for (const char* f : {"resnet_b1_2x2_SET_IR", "bert_b1_4x4_SET_IR", "resnet_b1_8x8_LS_IR"})
    benchmark::RegisterBenchmark((std::string("sim_whole/") + f).c_str(), BM_SimWhole, f)
        ->Unit(unit);
  return true;
}();

}  // namespace
