#include "corpus_input.h"

#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <map>

namespace gemini::bench {
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

}  // namespace

const Plain* input(benchmark::State& st, const std::string& name) {
  const Plain& p = plain(name);
  if (!p.bytes.empty()) return &p;
  st.SkipWithError("corpus file not found (set GEMINI_CORPUS)");
  return nullptr;
}

}  // namespace gemini::bench
