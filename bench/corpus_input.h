#pragma once
// Corpus files for the benchmarks: $GEMINI_CORPUS, else
// ../shared/ir-corpus/set beside the sources. Each .json.gz is inflated once
// per process into $TMPDIR so every case reads the same plain bytes.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

namespace gemini::bench {

struct Plain {
  std::filesystem::path path;
  std::string bytes;
};

// The decompressed file, or nullptr (and the case skipped) when absent.
const Plain* input(benchmark::State& st, const std::string& name);

}  // namespace gemini::bench
