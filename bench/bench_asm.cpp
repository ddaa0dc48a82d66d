// The stages of `gemini asm` after loading, each on its own, on a file loaded
// and validated once (so that their costs show beside load_validate/<file>):
//   asm_import/<file>  : public dialect -> full dialect, in memory
//   asm_lower/<file>   : full-dialect model -> per-core programs
//   asm_verify/<file>  : the program verifier
//   asm_encode/<file>  : every core's binary
//   asm_listing/<file> : every core's listing (text and comments)
//   asm_write/<file>   : stage_program (binaries, listings, manifest) to $TMPDIR
//   build/bench/gemini_bench --benchmark_filter='asm_.*resnet_b1_8x8'
// asm_lower, asm_verify and asm_write run on up to 8 threads, as in `gemini
// asm`: Google Benchmark's CPU column is the main thread's only, so each
// also reports cpu_all_ms, the CPU time of all threads per iteration.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>

#include "corpus_input.h"
#include "gemini/assembler/lowering.h"
#include "gemini/assembler/program_io.h"
#include "gemini/assembler/text.h"
#include "gemini/assembler/verifier.h"
#include "gemini/ir/graph.h"
#include "gemini/ir/import.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"

namespace {

using gemini::bench::input;
using gemini::bench::Plain;
namespace ir = gemini::ir;
namespace assembler = gemini::assembler;

struct Stages {
  ir::Model loaded;                       // as loaded (either dialect)
  ir::Model imported;                     // full dialect
  std::unique_ptr<ir::ModelGraph> graph;  // imported's, built once as validation builds it
  assembler::Program program;
};

// Sets counter cpu_all_ms to the process's CPU time (all threads) per
// iteration between its construction and its destruction.
class AllThreadsCpu {
 public:
  explicit AllThreadsCpu(benchmark::State& st) : st_(st), start_(now()) {}
  AllThreadsCpu(const AllThreadsCpu&) = delete;
  AllThreadsCpu& operator=(const AllThreadsCpu&) = delete;
  ~AllThreadsCpu() {
    st_.counters["cpu_all_ms"] =
        benchmark::Counter((now() - start_) * 1e3, benchmark::Counter::kAvgIterations);
  }

 private:
  static double now() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
  }
  benchmark::State& st_;
  double start_;
};

// Loaded, imported and lowered once per process; nullptr (case skipped) when
// the file is absent or does not assemble.
const Stages* stages(benchmark::State& st, const std::string& name) {
  static std::map<std::string, std::unique_ptr<Stages>> cache;
  const Plain* in = input(st, name);
  if (!in) return nullptr;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second.get();
  auto s = std::make_unique<Stages>();
  const ir::HardwareConfig hw;
  ir::Diagnostics d(20);
  auto r = ir::load_file(in->path.string(), d);
  if (r.status != ir::LoadStatus::ok || d.errors() > 0) {
    st.SkipWithError("the file does not load");
    return nullptr;
  }
  s->loaded = r.model;
  s->imported = std::move(r.model);
  ir::Diagnostics di(20);
  if (s->imported.dialect == ir::Dialect::set && !ir::import_model(s->imported, hw, {}, di)) {
    st.SkipWithError("the file does not import");
    return nullptr;
  }
  s->graph = std::make_unique<ir::ModelGraph>(s->imported);
  std::vector<std::string> errors;
  auto p = assembler::lower(s->imported, hw, errors, {}, s->graph.get());
  if (!p) {
    st.SkipWithError("the file does not lower");
    return nullptr;
  }
  s->program = std::move(*p);
  return cache.emplace(name, std::move(s)).first->second.get();
}

void BM_Import(benchmark::State& st, std::string name) {
  const Stages* s = stages(st, name);
  if (!s) return;
  const ir::HardwareConfig hw;
  for (auto _ : st) {
    st.PauseTiming();
    ir::Model m = s->loaded;
    st.ResumeTiming();
    ir::Diagnostics d(20);
    if (m.dialect == ir::Dialect::set) benchmark::DoNotOptimize(ir::import_model(m, hw, {}, d));
    st.PauseTiming();
    { ir::Model gone = std::move(m); }
    st.ResumeTiming();
  }
}

void BM_Lower(benchmark::State& st, std::string name) {
  const Stages* s = stages(st, name);
  if (!s) return;
  const ir::HardwareConfig hw;
  const AllThreadsCpu cpu(st);
  for (auto _ : st) {
    std::vector<std::string> errors;
    auto p = assembler::lower(s->imported, hw, errors, {}, s->graph.get());
    benchmark::DoNotOptimize(p);
  }
}

void BM_Verify(benchmark::State& st, std::string name) {
  const Stages* s = stages(st, name);
  if (!s) return;
  const AllThreadsCpu cpu(st);
  for (auto _ : st) {
    auto problems = assembler::verify(s->program);
    if (!problems.empty()) st.SkipWithError(problems.front().c_str());
  }
}

void BM_Encode(benchmark::State& st, std::string name) {
  const Stages* s = stages(st, name);
  if (!s) return;
  std::int64_t bytes = 0;
  for (auto _ : st) {
    for (const assembler::LoweredCore& c : s->program.cores) {
      std::vector<std::uint8_t> bin;
      std::string err;
      if (!assembler::encode_program(c.program, bin, err)) st.SkipWithError(err.c_str());
      bytes += static_cast<std::int64_t>(bin.size());
    }
  }
  st.SetBytesProcessed(bytes);
}

void BM_Listing(benchmark::State& st, std::string name) {
  const Stages* s = stages(st, name);
  if (!s) return;
  std::int64_t bytes = 0;
  for (auto _ : st) {
    for (const assembler::LoweredCore& c : s->program.cores) {
      const std::string text =
          assembler::print_program_to(c.program, assembler::listing_comments(c));
      bytes += static_cast<std::int64_t>(text.size());
    }
  }
  st.SetBytesProcessed(bytes);
}

void BM_Write(benchmark::State& st, std::string name) {
  const Stages* s = stages(st, name);
  if (!s) return;
  const auto dir = std::filesystem::temp_directory_path() / "gemini_bench_asm_write";
  const AllThreadsCpu cpu(st);
  for (auto _ : st) {
    std::string err;
    auto staged = assembler::stage_program(s->program, dir.string(), err);
    if (!staged) st.SkipWithError(err.c_str());
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

const char* kFiles[] = {"resnet_b1_2x2_SET_IR", "bert_b1_4x4_SET_IR", "resnet_b1_8x8_LS_IR"};

const bool kRegistered = [] {
  for (const char* f : kFiles) {
    const auto unit = benchmark::kMillisecond;
    auto reg = [&](const char* stage, void (*fn)(benchmark::State&, std::string)) {
      benchmark::RegisterBenchmark((std::string(stage) + "/" + f).c_str(), fn, f)
          ->Unit(unit)
          ->UseRealTime();
    };
    reg("asm_import", BM_Import);
    reg("asm_lower", BM_Lower);
    reg("asm_verify", BM_Verify);
    reg("asm_encode", BM_Encode);
    reg("asm_listing", BM_Listing);
    reg("asm_write", BM_Write);
  }
  return true;
}();

}  // namespace
