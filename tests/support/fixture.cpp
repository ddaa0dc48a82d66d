#include "fixture.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "gemini/assembler/text.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/simulator.h"

namespace fs = std::filesystem;
namespace json = boost::json;

namespace gemini::test {

fs::path data_dir() { return fs::path(GEMINI_TEST_DATA); }

fs::path corpus_dir() {
  fs::path p = std::getenv("GEMINI_CORPUS")
                   ? fs::path(std::getenv("GEMINI_CORPUS"))
                   : fs::path(GEMINI_SOURCE_DIR) / ".." / "shared" / "ir-corpus" / "set";
  return fs::is_directory(p) ? p : fs::path();
}

std::vector<std::string> corpus_subset() {
  std::vector<std::string> names;
  const char* env = std::getenv("GEMINI_CORPUS_SUBSET");
#ifdef GEMINI_CORPUS_SUBSET_DEFAULT
  if (!env) env = GEMINI_CORPUS_SUBSET_DEFAULT;  // the sanitizer build's
#endif
  if (!env || !*env) return names;
  std::stringstream ss(env);
  for (std::string n; std::getline(ss, n, ',');)
    if (!n.empty()) names.push_back(n);
  return names;
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> out;
  const fs::path dir = corpus_dir();
  if (dir.empty()) return out;
  const std::vector<std::string> subset = corpus_subset();
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (!subset.empty() && std::find(subset.begin(), subset.end(), n) == subset.end()) continue;
    if (n.size() > 8 && n.compare(n.size() - 8, 8, ".json.gz") == 0) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> corpus_names() {
  std::vector<std::string> out;
  for (const auto& p : corpus_files()) out.push_back(p.filename().string());
  if (out.empty()) out.push_back(kCorpusAbsent);
  return out;
}

const char* corpus_absent_message() {
  return "corpus not found: put ../shared/ir-corpus/set beside the project or set GEMINI_CORPUS";
}

std::string param_name(const std::string& file) {
  std::string n = file;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

const ir::HardwareConfig& set_polar() {
  static const ir::HardwareConfig hw = [] {
    ir::ConfigErrors errs;
    auto h = sim::load_hw_config(std::string(GEMINI_SOURCE_DIR) + "/configs/set-polar.json", errs);
    if (!h) {
      std::fprintf(stderr, "configs/set-polar.json does not load: %s\n",
                   errs.empty() ? "?" : ir::config_text(errs[0]).c_str());
      std::abort();
    }
    return *h;
  }();
  return hw;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {
fs::path temp_root() {
  static const fs::path root = [] {
    fs::path r = fs::temp_directory_path() /
                 ("gemini_tests_" + std::to_string(static_cast<long>(::getpid())));
    fs::create_directories(r);
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(fs::temp_directory_path() /
                         ("gemini_tests_" + std::to_string(static_cast<long>(::getpid()))),
                     ec);
    });
    return r;
  }();
  return root;
}

std::vector<std::string> tokens(const std::string& ptr) {
  std::vector<std::string> out;
  if (ptr.empty()) return out;
  if (ptr[0] != '/') throw std::runtime_error("bad pointer " + ptr);
  std::string cur;
  for (std::size_t i = 1; i <= ptr.size(); ++i) {
    if (i == ptr.size() || ptr[i] == '/') {
      std::string t;
      for (std::size_t k = 0; k < cur.size(); ++k) {
        if (cur[k] == '~' && k + 1 < cur.size()) {
          t += cur[k + 1] == '1' ? '/' : '~';
          ++k;
        } else {
          t += cur[k];
        }
      }
      out.push_back(t);
      cur.clear();
    } else {
      cur += ptr[i];
    }
  }
  return out;
}

// The container holding the last token of `ptr`.
json::value& parent_of(json::value& doc, const std::vector<std::string>& t) {
  json::value* v = &doc;
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if (v->is_object()) {
      v = &v->as_object().at(t[i]);
    } else {
      v = &v->as_array().at(std::stoul(t[i]));
    }
  }
  return *v;
}

json::value take(json::value& doc, const std::string& ptr) {
  auto t = tokens(ptr);
  json::value& p = parent_of(doc, t);
  json::value out;
  if (p.is_object()) {
    out = p.as_object().at(t.back());
    p.as_object().erase(t.back());
  } else {
    auto& a = p.as_array();
    const std::size_t i = std::stoul(t.back());
    out = a.at(i);
    a.erase(a.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return out;
}

void put(json::value& doc, const std::string& ptr, json::value v, bool replace) {
  auto t = tokens(ptr);
  if (t.empty()) {
    doc = std::move(v);
    return;
  }
  json::value& p = parent_of(doc, t);
  if (p.is_object()) {
    if (replace && !p.as_object().contains(t.back())) throw std::runtime_error("no " + ptr);
    p.as_object()[t.back()] = std::move(v);
    return;
  }
  auto& a = p.as_array();
  if (t.back() == "-") {
    a.push_back(std::move(v));
    return;
  }
  const std::size_t i = std::stoul(t.back());
  if (replace) {
    a.at(i) = std::move(v);
  } else {
    a.insert(a.begin() + static_cast<std::ptrdiff_t>(i), std::move(v));
  }
}
}  // namespace

std::string gzip(const std::string& bytes) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(compressBound(static_cast<uLong>(bytes.size())) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

fs::path temp_path(const std::string& name) { return temp_root() / name; }

fs::path write_temp(const std::string& name, const std::string& bytes) {
  const fs::path p = temp_path(name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

void apply_patch(json::value& doc, const json::array& patch) {
  for (const json::value& opv : patch) {
    const json::object& op = opv.as_object();
    const std::string kind(op.at("op").as_string());
    const std::string path(op.at("path").as_string());
    if (kind == "add") {
      put(doc, path, op.at("value"), false);
    } else if (kind == "replace") {
      put(doc, path, op.at("value"), true);
    } else if (kind == "remove") {
      take(doc, path);
    } else if (kind == "move") {
      json::value v = take(doc, std::string(op.at("from").as_string()));
      put(doc, path, std::move(v), false);
    } else if (kind == "copy") {
      json::value v = doc.at_pointer(std::string(op.at("from").as_string()));
      put(doc, path, std::move(v), false);
    } else {
      throw std::runtime_error("unsupported patch op " + kind);
    }
  }
}

CheckFixture materialise(const fs::path& fixture) {
  const json::value f = json::parse(read_file(fixture));
  CheckFixture out;
  out.name = fixture.stem().string();
  out.about = std::string(f.at("about").as_string());
  std::string base = read_file(data_dir() / std::string(f.at("base").as_string()));
  if (const json::value* t = f.as_object().if_contains("text")) {
    const std::string find(t->at("find").as_string());
    const std::string repl(t->at("replace").as_string());
    const auto at = base.find(find);
    if (at == std::string::npos) throw std::runtime_error(out.name + ": text not found");
    base.replace(at, find.size(), repl);
  }
  std::string bytes = base;
  if (!f.at("patch").as_array().empty()) {
    json::value doc = json::parse(base);
    apply_patch(doc, f.at("patch").as_array());
    bytes = json::serialize(doc);
  }
  out.file = write_temp(out.name + ".json", bytes);
  for (const json::value& c : f.at("expect").at("codes").as_array())
    out.codes.emplace_back(c.as_string());
  if (const json::value* p = f.at("expect").as_object().if_contains("pointer"))
    out.pointer = std::string(p->as_string());
  return out;
}

}  // namespace gemini::test

namespace gemini::test {

std::filesystem::path corpus_model(const std::string& corpus_file) {
  const std::filesystem::path dir = corpus_dir();
  if (dir.empty()) return {};
  // <network>_b<batch>_<mesh>_<kind>_IR.json[.gz]: the model is the part up to
  // the batch.
  const auto b = corpus_file.find("_b");
  if (b == std::string::npos) return {};
  const auto end = corpus_file.find('_', b + 2);
  if (end == std::string::npos) return {};
  const std::filesystem::path p = dir / "models" / (corpus_file.substr(0, end) + ".model.json");
  return std::filesystem::exists(p) ? p : std::filesystem::path{};
}

std::vector<std::string> corpus_model_names() {
  std::vector<std::string> out;
  const std::filesystem::path dir = corpus_dir();
  std::set<std::string> wanted;  // with a subset: the models of its files
  for (const std::string& f : corpus_subset())
    if (const fs::path m = corpus_model(f); !m.empty()) wanted.insert(m.filename().string());
  const bool subset = !corpus_subset().empty();
  if (!dir.empty() && std::filesystem::exists(dir / "models"))
    for (const auto& e : std::filesystem::directory_iterator(dir / "models"))
      if (e.path().filename().string().find(".model.json") != std::string::npos &&
          (!subset || wanted.count(e.path().filename().string())))
        out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  if (out.empty()) out.push_back(kCorpusAbsent);
  return out;
}

std::string codes(const ir::Diagnostics& d) {
  std::string s;
  for (const auto& x : d.items())
    s += std::string(x.code()) + " " + x.pointer + ": " + x.message + "\n";
  return s;
}

CliRun run_command(const std::string& command) {
  CliRun r;
  const std::string cmd = command + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

std::vector<std::filesystem::path> json_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

void expect_fixture_codes(const CheckFixture& f, const ir::Diagnostics& d) {
  std::set<std::string> got;
  std::string listing;
  for (const auto& x : d.items()) {
    got.insert(x.code());
    listing += std::string("  ") + x.code() + " " + x.pointer + ": " + x.message + "\n";
  }
  const std::set<std::string> want(f.codes.begin(), f.codes.end());
  EXPECT_EQ(got, want) << f.name << " (" << f.about << ") reported:\n" << listing;
  // The fixture's own check is the first code listed; it is named by its file.
  const std::string intended = f.name.substr(0, 4);
  if (!f.pointer.empty()) {
    const bool at_pointer = std::any_of(d.items().begin(), d.items().end(), [&](const auto& x) {
      return x.code() == intended && x.pointer == f.pointer;
    });
    EXPECT_TRUE(at_pointer) << f.name << ": no " << intended << " at " << f.pointer << "\n"
                            << listing;
  }
}

CliRun run_gemini(const std::string& args) {
  return run_command(std::string(GEMINI_BIN) + " " + args);
}

assembler::CoreProgram program(std::int32_t id, const std::string& text) {
  assembler::ParseError e;
  auto p = assembler::parse_program(".core " + std::to_string(id) + "\n" + text, e);
  EXPECT_TRUE(p) << e.line << ":" << e.column << " " << e.message;
  return p ? *p : assembler::CoreProgram{};
}
std::string listing(const ir::Diagnostics& d) {
  std::string s;
  for (const auto& x : d.items()) {
    s += std::string(x.code()) + " " + x.pointer;
    if (x.line) {
      s += ' ';
      s += std::to_string(*x.line);
      s += ':';
      s += std::to_string(*x.column);
    }
    s += ": " + x.message + "\n";
  }
  return s;
}

bool has(const ir::Diagnostics& d, const std::string& pointer, const std::string& text) {
  for (const auto& x : d.items())
    if (x.pointer == pointer && x.message.find(text) != std::string::npos) return true;
  return false;
}

assembler::Program parse_programs(const std::vector<std::string>& texts) {
  assembler::Program p;
  p.l2_bytes = 1 << 20;
  p.wl0_bytes = 4096;
  for (const std::string& t : texts) {
    assembler::ParseError e;
    auto cp = assembler::parse_program(t, e);
    EXPECT_TRUE(cp) << e.line << ":" << e.column << ": " << e.message << "\n" << t;
    p.cores.push_back({cp ? *cp : assembler::CoreProgram{}, {}, {}});
  }
  return p;
}

sim::Report simulate_programs(const assembler::Program& p, std::int32_t xlen, std::int32_t ylen,
                              const ir::HardwareConfig& hw) {
  return simulate_programs(p, xlen, ylen, hw, sim::SimOptions{});
}

sim::Report simulate_programs(const assembler::Program& p, std::int32_t xlen, std::int32_t ylen,
                              const ir::HardwareConfig& hw, sim::SimOptions o) {
  o.xlen = xlen;
  o.ylen = ylen;
  sim::Report r;
  std::string error;
  EXPECT_TRUE(sim::simulate(p, hw, {}, o, r, error)) << error;
  return r;
}

}  // namespace gemini::test
