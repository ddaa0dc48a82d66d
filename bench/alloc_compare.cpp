// alloc_compare [CONFIG]: for every corpus file, the L2 peak each allocation
// strategy reaches against the live-data peak, as the Markdown table of
// docs/allocation.md. Each strategy runs alone, linearly (no ring fallback,
// no L2 limit), on every core; a file's figure is its worst core.
// Corpus: $GEMINI_CORPUS, else ../shared/ir-corpus/set beside the sources.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "gemini/ir/import.h"
#include "gemini/ir/loader.h"

namespace fs = std::filesystem;
using gemini::ir::AllocStrategy;

int main(int argc, char** argv) {
  const fs::path dir = std::getenv("GEMINI_CORPUS")
                           ? fs::path(std::getenv("GEMINI_CORPUS"))
                           : fs::path(GEMINI_SOURCE_DIR) / ".." / "shared" / "ir-corpus" / "set";
  gemini::ir::HardwareConfig hw;
  if (argc > 1) {
    gemini::ir::ConfigErrors errs;
    auto h = gemini::ir::load_hw_config(argv[1], errs);
    if (!h) {
      for (auto& e : errs) std::fprintf(stderr, "%s\n", gemini::ir::config_text(e).c_str());
      return 2;
    }
    hw = *h;
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().string().ends_with(".json.gz")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "no corpus in %s\n", dir.c_str());
    return 2;
  }
  std::printf("| file | live peak KiB |");
  for (AllocStrategy s : gemini::ir::kAllStrategies)
    std::printf(" %s KiB (ratio) |", gemini::ir::to_string(s));
  std::printf(" best per core KiB (ratio) | fits %lld KiB |\n|---|---:|",
              static_cast<long long>(hw.l2.size_bytes / 1024));
  for (std::size_t i = 0; i < std::size(gemini::ir::kAllStrategies) + 2; ++i) std::printf("---:|");
  std::printf("\n");
  for (const fs::path& f : files) {
    gemini::ir::Diagnostics d;
    const auto loaded = gemini::ir::load_file(f.string(), d);
    if (loaded.status != gemini::ir::LoadStatus::ok) return 1;
    auto run = [&](std::optional<AllocStrategy> s, std::int64_t& live, std::int64_t& peak,
                   double& ratio) {
      gemini::ir::Model m = gemini::ir::load_file(f.string(), d).model;
      gemini::ir::ImportOptions o;
      o.only_strategy = s;
      o.buffersize = std::int64_t{1} << 40;  // no limit: the pure linear peak
      gemini::ir::Diagnostics di;
      const auto rep = gemini::ir::import_model(m, hw, o, di);
      live = peak = 0;
      ratio = 0;
      for (const auto& c : rep->cores) {
        live = std::max(live, c.live_peak);
        peak = std::max(peak, c.alloc_peak);
        if (c.live_peak > 0)
          ratio =
              std::max(ratio, static_cast<double>(c.alloc_peak) / static_cast<double>(c.live_peak));
      }
    };
    std::int64_t live = 0, peak = 0;
    double ratio = 0;
    run(std::nullopt, live, peak, ratio);
    std::printf("| %s | %.1f |", f.filename().c_str(), static_cast<double>(live) / 1024);
    for (AllocStrategy s : gemini::ir::kAllStrategies) {
      std::int64_t l = 0, p = 0;
      double r = 0;
      run(s, l, p, r);
      std::printf(" %.1f (%.3f) |", static_cast<double>(p) / 1024, r);
    }
    std::printf(" %.1f (%.3f) | %s |\n", static_cast<double>(peak) / 1024, ratio,
                peak <= hw.l2.size_bytes
                    ? "yes"
                    : (live > hw.l2.size_bytes ? "no: live data exceeds L2" : "NO"));
  }
  return 0;
}
