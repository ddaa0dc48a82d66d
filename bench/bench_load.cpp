// Loader and validator throughput on the real corpus, beside a baseline that
// only runs boost::json::parse on the same (decompressed) bytes, so the ratio
// shows in one run:
//   build/bench/gemini_bench --benchmark_filter=resnet_b1_8x8
// Corpus: $GEMINI_CORPUS, else ../shared/ir-corpus/set beside the sources.
// The .json.gz files are inflated once into $TMPDIR so every case reads the
// same plain bytes.
#include <benchmark/benchmark.h>

#include <boost/json/parse.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "corpus_input.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"

namespace fs = std::filesystem;
using gemini::bench::input;
using gemini::bench::Plain;
namespace {

void BM_BoostJsonParse(benchmark::State& st, std::string name) {
  const Plain* in = input(st, name);
  if (!in) return;
  const Plain& p = *in;
  for (auto _ : st) {
    boost::json::value v = boost::json::parse(p.bytes);
    benchmark::DoNotOptimize(v);
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * p.bytes.size()));
}

void BM_Load(benchmark::State& st, std::string name) {
  const Plain* in = input(st, name);
  if (!in) return;
  const Plain& p = *in;
  for (auto _ : st) {
    gemini::ir::Diagnostics d;
    auto r = gemini::ir::load_file(p.path.string(), d);
    benchmark::DoNotOptimize(r);
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * p.bytes.size()));
}

void BM_LoadValidate(benchmark::State& st, std::string name) {
  const Plain* in = input(st, name);
  if (!in) return;
  const Plain& p = *in;
  const gemini::ir::HardwareConfig hw;
  for (auto _ : st) {
    gemini::ir::Diagnostics d;
    auto r = gemini::ir::load_file(p.path.string(), d);
    gemini::ir::validate(r.model, hw, d);
    benchmark::DoNotOptimize(r);
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * p.bytes.size()));
}

const char* kFiles[] = {"resnet_b1_2x2_SET_IR", "bert_b1_4x4_SET_IR", "darknet_b1_4x4_LS_IR",
                        "resnet_b1_8x8_LS_IR"};

const bool kRegistered = [] {
  for (const char* f : kFiles) {
    const auto unit = benchmark::kMillisecond;
    benchmark::RegisterBenchmark((std::string("parse_baseline/") + f).c_str(), BM_BoostJsonParse, f)
        ->Unit(unit);
    benchmark::RegisterBenchmark((std::string("load/") + f).c_str(), BM_Load, f)->Unit(unit);
    benchmark::RegisterBenchmark((std::string("load_validate/") + f).c_str(), BM_LoadValidate, f)
        ->Unit(unit);
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
