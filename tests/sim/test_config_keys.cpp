// One configuration reader (ir/params.h): every key a hardware configuration
// holds is declared, with its type, unit and description, and `gemini sim
// --list-params` (print_params) lists it. The test reads the listing as a
// user sees it and walks every configuration the repository ships; a key
// that code reads without declaring it never reaches the listing, so a
// shipped configuration that sets it fails here.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gemini/ir/hw_config.h"
#include "gemini/sim/energy_table.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/unit.h"

namespace gemini::sim {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// Every unit's printed form.
std::set<std::string> vocabulary() {
  std::set<std::string> out;
  for (std::size_t i = 1; i < ir::kUnits; ++i) out.insert(to_string(static_cast<Unit>(i)));
  return out;
}

// The listing's parameters as "component.name" ("name" at the top level,
// "dram.timing.cl" nested), and the lines of each.
struct Listing {
  std::set<std::string> paths;
  std::vector<std::string> lines;
};

Listing listing() {
  std::ostringstream os;
  print_params(os);
  Listing out;
  std::istringstream in(os.str());
  std::string component;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("  ", 0) != 0) {  // a heading: "l2:" or "dram, DRAM model \"banked\": ..."
      component = line.substr(0, line.find_first_of(":,"));
      if (component == "(top level)") component.clear();
      continue;
    }
    const std::string name = line.substr(2, line.find(' ', 2) - 2);
    out.paths.insert(component.empty() ? name : component + "." + name);
    out.lines.push_back(line);
  }
  return out;
}

// The keys of a configuration that nothing declared, as paths. An object
// is walked into when the listing declares keys below it (dram.timing),
// else it is one free-form value (noc.booksim, dram.ramulator).
void undeclared(const json::object& o, const std::string& at, const std::set<std::string>& paths,
                std::vector<std::string>& out) {
  for (const auto& kv : o) {
    const std::string path = at.empty() ? std::string(kv.key()) : at + "." + std::string(kv.key());
    const bool component = at.empty() && kv.value().is_object();
    if (!component && !paths.count(path)) {
      out.push_back(path);
      continue;
    }
    if (!kv.value().is_object()) continue;
    const auto below = paths.lower_bound(path + ".");
    if (component || (below != paths.end() && below->rfind(path + ".", 0) == 0))
      undeclared(kv.value().get_object(), path, paths, out);
  }
}

std::vector<fs::path> shipped_configs() {
  std::vector<fs::path> out;
  const fs::path root(GEMINI_SOURCE_DIR);
  for (const fs::path& dir : {root / "configs", root / "golden" / "hw"})
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".json") out.push_back(e.path());
  return out;
}

TEST(ConfigKeys, EveryListedParameterHasADescriptionAndNumbersAUnit) {
  const Listing l = listing();
  // ir's own components are listed with the simulator's.
  for (const char* p : {"name", "mesh.xlen", "clock.frequency_mhz", "l2.size_bytes",
                        "l2.ring_regions", "wl0.bytes_per_cycle", "pe.lanes", "vp.lanes",
                        "core.dma_in_flight", "noc.multicast", "dram.model", "energy.mac_pj"})
    EXPECT_TRUE(l.paths.count(p)) << p;
  for (const std::string& line : l.lines) {
    // "  name  type [range], unit, default x: description"
    const std::size_t colon = line.find(": ");
    ASSERT_NE(colon, std::string::npos) << line;
    EXPECT_GT(line.size(), colon + 2) << "no description: " << line;
    const bool number = line.find("  integer") != std::string::npos ||
                        line.find("  number") != std::string::npos;
    if (!number) continue;
    // A number's unit sits between its range and its default, and is a
    // word of the one vocabulary the statistics use too (ir/unit.h).
    const std::string head = line.substr(0, line.find(", default "));
    const std::size_t at = head.find("], ");
    ASSERT_NE(at, std::string::npos) << "no unit: " << line;
    EXPECT_TRUE(vocabulary().count(head.substr(at + 3))) << "a unit outside ir/unit.h: " << line;
  }
}

TEST(ConfigKeys, TheUnitVocabularySpellsEachUnitOnceInAscii) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < ir::kUnits; ++i) {
    const std::string s = to_string(static_cast<Unit>(i));
    if (static_cast<Unit>(i) == Unit::none) {
      EXPECT_EQ(s, "");
      continue;
    }
    EXPECT_FALSE(s.empty()) << "unit " << i << " has no printed form";
    EXPECT_TRUE(seen.insert(s).second) << "two units print as " << s;
    for (const char c : s) EXPECT_TRUE(c > 0x20 - 1 && c < 0x7f) << s;
  }
}

TEST(ConfigKeys, EachEnergyCostIsGivenPerTheUnitItsStatisticCounts) {
  // The energy table prices each statistic: its cost parameter is in pJ per
  // the statistic's unit (macs: count -> pJ; l2_read_bytes: bytes ->
  // pJ/byte; noc_byte_hops: byte-hops -> pJ/byte-hop).
  for (const EventInfo& e : kEventTable) {
    const Unit per = e.counted_in == Unit::count       ? Unit::picojoules
                     : e.counted_in == Unit::bytes     ? Unit::pj_per_byte
                     : e.counted_in == Unit::byte_hops ? Unit::pj_per_byte_hop
                                                       : Unit::none;
    ASSERT_NE(per, Unit::none) << e.name << " is counted in " << to_string(e.counted_in);
    EXPECT_EQ(e.cost.unit, per) << e.name << ": " << to_string(e.cost.unit) << " per "
                                << to_string(e.counted_in);
  }
}

TEST(ConfigKeys, EveryKeyOfEveryShippedConfigurationIsDeclared) {
  const Listing l = listing();
  const std::vector<fs::path> files = shipped_configs();
  ASSERT_GE(files.size(), 8u);
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::stringstream s;
    s << in.rdbuf();
    const json::value v = json::parse(s.str());
    ASSERT_TRUE(v.is_object()) << f;
    std::vector<std::string> bad;
    undeclared(v.get_object(), "", l.paths, bad);
    for (const std::string& k : bad) ADD_FAILURE() << f.filename() << ": " << k << " is not declared";
  }
}

TEST(ConfigKeys, AKeyNothingDeclaredIsFoundAndRefused) {
  // The walk itself finds one; the reader refuses it, naming it.
  const Listing l = listing();
  std::vector<std::string> bad;
  undeclared(json::parse(R"({"l2": {"size_bytes": 1024, "sise_bytes": 1},
                             "dram": {"timing": {"cl": 20, "cll": 3}}})")
                 .get_object(),
             "", l.paths, bad);
  EXPECT_EQ(bad, (std::vector<std::string>{"l2.sise_bytes", "dram.timing.cll"}));
  ir::ConfigErrors errors;
  EXPECT_FALSE(ir::parse_hw_config(R"({"l2": {"sise_bytes": 1}})", "x.json", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(ir::config_text(errors[0]).find("x.json:/l2/sise_bytes: parameter \"sise_bytes\" of "
                                            "component \"l2\": unknown parameter"),
            std::string::npos)
      << ir::config_text(errors[0]);
}

}  // namespace
}  // namespace gemini::sim
