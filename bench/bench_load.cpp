// Loader and validator throughput on the real corpus, beside a baseline that
// only runs boost::json::parse on the same (decompressed) bytes, so the ratio
// shows in one run:
//   build/bench/gemini_bench --benchmark_filter=resnet_b1_8x8
// Corpus: $GEMINI_CORPUS, else ../shared/ir-corpus/set beside the sources.
// The .json.gz files are inflated once into $TMPDIR so every case reads the
// same plain bytes.
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <boost/json/parse.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"

namespace fs = std::filesystem;
namespace {

fs::path corpus_dir() {
  if (const char* c = std::getenv("GEMINI_CORPUS")) return c;
  return fs::path(GEMINI_SOURCE_DIR) / ".." / "shared" / "ir-corpus" / "set";
}

std::string inflate_file(const fs::path& gz) {
  gzFile f = gzopen(gz.c_str(), "rb");
  if (!f) return {};
  std::string out;
  char buf[1 << 16];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

struct Plain {
  fs::path path;
  std::string bytes;
};

// Decompressed copy of a corpus file, made once per process.
const Plain& plain(const std::string& name) {
  static std::map<std::string, Plain> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  Plain p;
  p.bytes = inflate_file(corpus_dir() / (name + ".json.gz"));
  p.path = fs::temp_directory_path() / ("gemini_bench_" + name + ".json");
  std::ofstream(p.path, std::ios::binary) << p.bytes;
  return cache.emplace(name, std::move(p)).first->second;
}

// The decompressed file, or nullptr (and the case skipped) when absent.
const Plain* input(benchmark::State& st, const std::string& name) {
  const Plain& p = plain(name);
  if (!p.bytes.empty()) return &p;
  st.SkipWithError("corpus file not found (set GEMINI_CORPUS)");
  return nullptr;
}

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
