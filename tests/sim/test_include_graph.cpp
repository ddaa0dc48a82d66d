// The structure of sim/ (issue 62: ports, not back-references): the
// include graph of its files has no cycle -- no two parts include each
// other -- and no instruction id is unpacked from a bit-packed integer.
//
// A part is a file's stem: noc_module.h and noc_module.cpp are one part
// (src/functional/check.cpp is "functional/check"; a public header
// gemini/sim/x.h is part "x"). An edge runs from a part to every part of
// sim/ one of its files includes; a cycle of length two is two parts that
// include each other. The graph is read from the sources themselves.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

using Graph = std::map<std::string, std::set<std::string>>;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool is_source(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".h" || e == ".cpp";
}

// The part of a file of `lib` (its src/ or its public include folder).
std::string part_of(const fs::path& file, const fs::path& lib) {
  const fs::path src = lib / "src";
  const fs::path rel = fs::relative(file, src);
  fs::path stem = rel.empty() || *rel.begin() == ".." ? file.filename() : rel;
  return stem.replace_extension().generic_string();
}

// The parts of the sources under `lib` (sim/) and their includes of each
// other; `files` gets every file read.
Graph include_graph(const fs::path& lib, std::vector<fs::path>& files) {
  for (const fs::path& root : {lib / "src", lib / "include" / "gemini" / "sim"})
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file() && is_source(e.path())) files.push_back(e.path());
  std::set<std::string> parts;
  for (const fs::path& f : files) parts.insert(part_of(f, lib));
  Graph g;
  const std::regex include(R"re(^\s*#\s*include\s+"([^"]+)")re");
  for (const fs::path& f : files) {
    const std::string from = part_of(f, lib);
    g[from];
    std::istringstream in(read(f));
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      const std::string name = m[1];
      fs::path target;
      if (name.rfind("gemini/sim/", 0) == 0) {
        target = lib / "include" / name;
      } else if (name.find("gemini/") == 0) {
        continue;  // another library
      } else {
        target = f.parent_path() / name;
        if (!fs::exists(target)) target = lib / "src" / name;
      }
      if (!fs::exists(target)) continue;  // a third-party header
      const std::string to = part_of(target, lib);
      if (to != from && parts.count(to)) g[from].insert(to);
    }
  }
  return g;
}

// Every cycle's parts, one cycle per strongly connected component of more
// than one part (Tarjan's algorithm), each written "a -> b -> ... -> a".
std::vector<std::string> cycles(const Graph& g) {
  std::map<std::string, int> index, low;
  std::vector<std::string> stack;
  std::set<std::string> on_stack;
  std::vector<std::vector<std::string>> comps;
  int next = 0;
  std::function<void(const std::string&)> visit = [&](const std::string& v) {
    index[v] = low[v] = next++;
    stack.push_back(v);
    on_stack.insert(v);
    for (const std::string& w : g.at(v)) {
      if (!index.count(w)) {
        visit(w);
        low[v] = std::min(low[v], low[w]);
      } else if (on_stack.count(w)) {
        low[v] = std::min(low[v], index[w]);
      }
    }
    if (low[v] != index[v]) return;
    std::vector<std::string> comp;
    std::string w;
    do {
      w = stack.back();
      stack.pop_back();
      on_stack.erase(w);
      comp.push_back(w);
    } while (w != v);
    if (comp.size() > 1) comps.push_back(comp);
  };
  for (const auto& [v, _] : g)
    if (!index.count(v)) visit(v);
  std::vector<std::string> out;
  for (const auto& comp : comps) {
    std::string s;
    for (const std::string& p : comp) s += p + " -> ";
    out.push_back(s + comp.front());
  }
  return out;
}

fs::path sim_dir() { return fs::path(GEMINI_SOURCE_DIR) / "sim"; }

TEST(IncludeGraph, FindsACycleWhereThereIsOne) {
  // The check itself: a graph with a cycle of two and one of three.
  const Graph g = {{"a", {"b"}}, {"b", {"a", "c"}}, {"c", {"d"}},
                   {"d", {"e"}}, {"e", {"c"}},      {"f", {"a"}}};
  const std::vector<std::string> c = cycles(g);
  ASSERT_EQ(c.size(), 2u);
  std::set<std::string> parts;
  for (const std::string& s : c) parts.insert(s);
  EXPECT_EQ(c.size(), parts.size());
  EXPECT_TRUE(cycles({{"a", {"b"}}, {"b", {"c"}}, {"c", {}}}).empty());
}

TEST(IncludeGraph, SimHasNoIncludeCycle) {
  std::vector<fs::path> files;
  const Graph g = include_graph(sim_dir(), files);
  // It read the library: the parts the interfaces connect are there, with
  // the edges that make them ports rather than back-references.
  ASSERT_GT(files.size(), 50u);
  ASSERT_TRUE(g.count("core_module") && g.count("noc_module") && g.count("dram_module"));
  EXPECT_TRUE(g.at("core_module").count("network_port"));
  EXPECT_TRUE(g.at("noc_module").count("network_port"));
  EXPECT_TRUE(g.at("noc_module").count("memory_port"));
  EXPECT_TRUE(g.at("dram_module").count("memory_port"));
  EXPECT_FALSE(g.at("noc_module").count("core_module"));
  EXPECT_FALSE(g.at("noc_module").count("dram_module"));
  for (const std::string& c : cycles(g)) ADD_FAILURE() << "include cycle in sim/: " << c;
}

TEST(IncludeGraph, NoIdUnpackedFromBits) {
  // Instructions are OpRef and DRAM requests RequestTag (typed): no id is
  // taken apart with a shift of 32.
  std::vector<fs::path> files;
  include_graph(sim_dir(), files);
  const std::regex unpack(R"(>>\s*32\b)");
  for (const fs::path& f : files) {
    std::istringstream in(read(f));
    int n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
      if (std::regex_search(line, unpack))
        ADD_FAILURE() << f.generic_string() << ":" << n << ": " << line;
    }
  }
}

}  // namespace
