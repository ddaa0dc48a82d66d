#include "gemini/golden/golden.h"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "gemini/assembler/assemble_file.h"
#include "gemini/model/layer_semantics.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/simulator.h"

namespace gemini::golden {
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {
std::optional<std::string> slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return std::nullopt;
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
fs::path report_path(const std::string& dir, const Case& c) {
  return fs::path(dir) / "reports" / (c.name + ".json");
}
// A case's path: relative to the golden directory, or "corpus:<path>"
// inside the corpus (empty when the corpus is absent).
constexpr std::string_view kCorpus = "corpus:";
fs::path resolve(const std::string& dir, const std::string& p) {
  if (p.rfind(kCorpus, 0) != 0) return fs::path(dir) / p;
  fs::path root;
  if (const char* env = std::getenv("GEMINI_CORPUS"); env && *env) {
    root = env;
  } else {
    root = fs::path(dir) / ".." / ".." / "shared" / "ir-corpus" / "set";
  }
  const fs::path f = root / p.substr(kCorpus.size());
  return fs::exists(f) ? f : fs::path{};
}
// $GEMINI_CORPUS_SUBSET (comma-separated corpus file names) leaves out the
// corpus cases of other files: the sanitizer suite's subset.
bool in_subset(const std::string& input) {
  const char* env = std::getenv("GEMINI_CORPUS_SUBSET");
  if (!env || !*env || input.rfind(kCorpus, 0) != 0) return true;
  const std::string name = fs::path(input.substr(kCorpus.size())).filename().string();
  std::stringstream ss(env);
  for (std::string n; std::getline(ss, n, ',');)
    if (n == name) return true;
  return false;
}
}  // namespace

std::optional<std::vector<Case>> read_cases(const std::string& dir, std::string& error) {
  const fs::path path = fs::path(dir) / "cases.json";
  auto text = slurp(path);
  if (!text) {
    error = path.string() + ": cannot read the golden case list";
    return std::nullopt;
  }
  json::error_code ec;
  const json::value v = json::parse(*text, ec);
  if (ec || !v.is_array()) {
    error = path.string() + ": expected a JSON list of cases";
    return std::nullopt;
  }
  std::vector<Case> out;
  for (std::size_t i = 0; i < v.get_array().size(); ++i) {
    const json::value& e = v.get_array()[i];
    const json::object* o = e.if_object();
    auto str = [&](const char* k) -> const json::string* {
      const json::value* x = o ? o->if_contains(k) : nullptr;
      return x ? x->if_string() : nullptr;
    };
    if (!str("name") || !str("input") || !str("hw")) {
      error = path.string() + ":/" + std::to_string(i) +
              ": a case needs string members name, input and hw";
      return std::nullopt;
    }
    Case c;
    c.name = std::string(*str("name"));
    c.input = std::string(*str("input"));
    c.hw = std::string(*str("hw"));
    if (str("model")) c.model = std::string(*str("model"));
    if (const json::value* seed = o->if_contains("seed")) {
      if (!seed->is_int64() || seed->get_int64() < 0) {
        error = path.string() + ":/" + std::to_string(i) + "/seed: a non-negative integer";
        return std::nullopt;
      }
      c.seed = static_cast<std::uint64_t>(seed->get_int64());
    }
    out.push_back(std::move(c));
  }
  return out;
}

bool run_case(const std::string& dir, const Case& c, std::string& report, std::string& error) {
  const std::string input = resolve(dir, c.input).string();
  std::unique_ptr<model::LayerSemantics> semantics;
  if (!c.model.empty()) {
    ir::Diagnostics md(20);
    const fs::path mp = resolve(dir, c.model);
    semantics = model::LayerSemantics::load(mp.string(), c.seed, md);
    if (!semantics) {
      error = mp.string() + ": " + (md.items().empty() ? "unreadable" : md.items()[0].message);
      return false;
    }
  }
  ir::ConfigErrors errors;
  auto hw = sim::load_hw_config((fs::path(dir) / c.hw).string(), errors);
  if (!hw) {
    error = errors.empty() ? "bad hardware configuration" : ir::config_text(errors.front());
    return false;
  }
  assembler::AssembleOptions ao;
  if (semantics) {
    ao.lower.geometry = &semantics->geometry;
    ao.semantics = [&](ir::Model& m, ir::Diagnostics& d) { return semantics->apply(m, d, &*hw); };
  }
  ir::Diagnostics diags(20);
  auto f = assembler::assemble_file(input, *hw, {}, diags, {}, {}, ao);
  using Failed = assembler::AssembledFile::Failed;
  switch (f.failed) {
    case Failed::input:
      error = input + ": does not load and validate cleanly (gemini validate says why)";
      return false;
    case Failed::import:
      error = input + ": import failed";
      return false;
    case Failed::lowering:
      error = input + ": " + (f.lower_errors.empty() ? "lowering failed" : f.lower_errors.front());
      return false;
    case Failed::none:
      break;
  }
  const ir::Model& m = f.model;
  sim::SimOptions so;
  so.input_name = c.name;
  so.xlen = m.xlen;
  so.ylen = m.ylen;
  so.model = &m;
  if (semantics) {
    so.network = &semantics->net;
    so.reference = &semantics->ref;
  }
  sim::Report r;
  if (!sim::simulate(*f.program, *hw, sim::workload_table(m), so, r, error)) return false;
  if (semantics) r.functional.quirks = semantics->quirks.named();
  std::ostringstream os;
  sim::write_report_json(os, r, false);
  report = os.str();
  return true;
}

std::optional<Difference> first_difference(const std::string& expected, const std::string& actual) {
  std::istringstream a(expected), b(actual);
  std::string la, lb;
  for (std::size_t line = 1;; ++line) {
    const bool ha = static_cast<bool>(std::getline(a, la));
    const bool hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) return std::nullopt;
    if (ha != hb || la != lb)
      return Difference{line, ha ? la : "(end of file)", hb ? lb : "(end of file)"};
  }
}

namespace {
// Runs every case of `dir` and hands its report to `judge`, which prints the
// case's line and says whether it passed. Returns the number of failures.
template <typename Judge>
int for_each_case(const std::string& dir, std::ostream& out, Judge judge) {
  std::string error;
  auto cases = read_cases(dir, error);
  if (!cases) {
    out << error << "\n";
    return 1;
  }
  int failed = 0;
  for (const Case& c : *cases) {
    if (!in_subset(c.input)) {
      out << "skip " << c.name << ": " << c.input << " is not in GEMINI_CORPUS_SUBSET\n";
      continue;
    }
    if (resolve(dir, c.input).empty() || (!c.model.empty() && resolve(dir, c.model).empty())) {
      out << "skip " << c.name << ": the corpus (" << c.input
          << ") is not here; set GEMINI_CORPUS or put it at ../shared/ir-corpus/set\n";
      continue;
    }
    std::string report;
    if (!run_case(dir, c, report, error)) {
      out << "FAIL " << c.name << ": " << error << "\n";
      ++failed;
    } else if (!judge(c, report_path(dir, c), report)) {
      ++failed;
    }
  }
  return failed;
}
}  // namespace

int check(const std::string& dir, std::ostream& out) {
  return for_each_case(dir, out, [&](const Case& c, const fs::path& p, const std::string& report) {
    auto golden = slurp(p);
    if (!golden) {
      out << "FAIL " << c.name << ": no golden report " << p.string()
          << " (gemini golden update writes it)\n";
      return false;
    }
    if (auto d = first_difference(*golden, report)) {
      out << "FAIL " << c.name << ": " << p.string() << ":" << d->line << " differs\n"
          << "  golden: " << d->expected << "\n  now:    " << d->actual << "\n";
      return false;
    }
    out << "ok   " << c.name << "\n";
    return true;
  });
}

int update(const std::string& dir, std::ostream& out) {
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "reports", ec);
  return for_each_case(dir, out, [&](const Case& c, const fs::path& p, const std::string& report) {
    auto old = slurp(p);
    std::ofstream f(p, std::ios::binary);
    f << report;
    if (!f) {
      out << "FAIL " << c.name << ": cannot write " << p.string() << "\n";
      return false;
    }
    out << (old && *old == report ? "same " : "wrote ") << c.name << " -> " << p.string() << "\n";
    return true;
  });
}

}  // namespace gemini::golden
