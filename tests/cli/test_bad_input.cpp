// Bad input of every kind: a clear diagnostic and the right exit status from
// `gemini validate` (0 valid, 1 invalid, 2 unreadable / bad usage), never a
// crash or a hang.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cstdio>
#include <random>

#include "fixture.h"

namespace fs = std::filesystem;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

using test::CliRun;
CliRun gemini(const std::string& args) {
  return test::run_gemini(args);
}

std::string spec() { return test::read_file(test::data_dir() / "spec_minimal.json"); }

std::string validate(const std::string& name, const std::string& bytes, CliRun* r) {
  const fs::path p = test::write_temp(name, bytes);
  *r = gemini("validate " + p.string());
  return p.string();
}

TEST(BadInput, ValidFileExitsZero) {
  CliRun r = gemini("validate " + (test::data_dir() / "spec_minimal.json").string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("valid (full dialect), 0 errors, 0 warnings"), std::string::npos) << r.out;
}

TEST(BadInput, EmptyFile) {
  CliRun r;
  const std::string p = validate("empty.json", "", &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(p + ": L002: error: the file is empty"), std::string::npos) << r.out;
}

TEST(BadInput, WhitespaceOnly) {
  CliRun r;
  validate("blank.json", " \n\t\n", &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("L002"), std::string::npos) << r.out;
}

TEST(BadInput, TruncatedJsonNamesLineAndColumn) {
  const std::string s = spec();
  CliRun r;
  const std::string p = validate("truncated.json", s.substr(0, 2000), &r);
  EXPECT_EQ(r.status, 1) << r.out;
  // The cut falls on some line; the message names file:line:col and L003.
  EXPECT_NE(r.out.find(p + ":"), std::string::npos);
  EXPECT_NE(r.out.find(": L003: error: not valid JSON"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ends early"), std::string::npos) << r.out;
}

TEST(BadInput, NotJson) {
  CliRun r;
  const std::string p = validate("not_json.json", "schedule:\n  cores: 4\n", &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(p + ":1:1: L003"), std::string::npos) << r.out;
}

TEST(BadInput, SyntaxErrorPosition) {
  CliRun r;
  const std::string p = validate("bad_comma.json", "{\n  \"xlen\" : 1,\n  \"ylen\" : 1,,\n}", &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(p + ":3:14: L003"), std::string::npos) << r.out;
}

TEST(BadInput, BinaryGarbage) {
  std::mt19937 rng(1234);
  std::string junk(64 * 1024, '\0');
  for (char& c : junk) c = static_cast<char>(rng() & 0xff);
  junk[0] = 'Z';  // not a gzip magic
  CliRun r;
  validate("garbage.bin", junk, &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("L003"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\x"), std::string::npos) << "non-printable bytes are escaped: " << r.out;
}

TEST(BadInput, GzipWithCorruptPayload) {
  std::string gz = test::gzip(spec());
  for (std::size_t i = 40; i < 60 && i < gz.size(); ++i) gz[i] = static_cast<char>(gz[i] ^ 0x5a);
  CliRun r;
  validate("corrupt.json.gz", gz, &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("L004: error: gzip stream is corrupt"), std::string::npos) << r.out;
}

TEST(BadInput, GzipTruncated) {
  const std::string gz = test::gzip(spec());
  CliRun r;
  validate("truncated.json.gz", gz.substr(0, gz.size() / 2), &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("L004"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("truncated"), std::string::npos) << r.out;
}

TEST(BadInput, TopLevelArray) {
  CliRun r;
  validate("array.json", "[1, 2, 3]", &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("L005: error: the IR must be a JSON object"), std::string::npos) << r.out;
}

TEST(BadInput, WrongTypesMissingKeysHugeAndNegativeNumbers) {
  std::string s = spec();
  auto sub = [&](const std::string& from, const std::string& to) {
    const auto at = s.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    s.replace(at, from.size(), to);
  };
  sub("\"time\" : 1200,", "\"time\" : \"soon\",");                       // wrong type
  sub("\"ofmap_size\" : 256,", "");                                      // missing key
  sub("\"size\" : 768,", "\"size\" : 123456789012345678901234567890,");  // huge number
  sub("\"size\" : 216,", "\"size\" : -216,");                            // negative size
  CliRun r;
  const std::string p = validate("mixed_bad.json", s, &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(p + ":/0/0/time: S002: error: expected an integer, got string \"soon\""),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(": S001: error: missing required key \"ofmap_size\""), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("S002: error: expected an integer, got number 1.2345"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(":/-1/out/0/size: S005: error: expected an integer >= 0, got -216"),
            std::string::npos)
      << r.out;
}

TEST(BadInput, CoreOutsideMesh) {
  std::string s = spec();
  const auto at = s.find("\"1\" : [");
  ASSERT_NE(at, std::string::npos);
  s.replace(at, 7, "\"9\" : [");
  CliRun r;
  const std::string p = validate("outside.json", s, &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(p + ":/9: I002: error: core 9 is outside the 2x1 mesh"), std::string::npos)
      << r.out;
}

TEST(BadInput, DanglingTransferId) {
  std::string s = spec();
  const auto at = s.find("\"transfer_id\" : [ 6 ],\n               \"upper\" : [ 0, 15, 3, 3 ]");
  ASSERT_NE(at, std::string::npos);
  s.replace(at, 21, "\"transfer_id\" : [ 66 ]");
  CliRun r;
  validate("dangling.json", s, &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("X001: error: transfer 66 consumed by core 1 workload 1 has no producer"),
            std::string::npos)
      << r.out;
}

TEST(BadInput, DuplicateWorkloadIds) {
  std::string s = spec();
  const auto at = s.find("\"workload_id\" : 1\n      }\n   ],\n   \"1\"");
  ASSERT_NE(at, std::string::npos);
  s.replace(at, 17, "\"workload_id\" : 0");
  CliRun r;
  validate("dup_ids.json", s, &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("I004: error: workload_id 0 on core 0 is also used at /0/0"),
            std::string::npos)
      << r.out;
}

TEST(BadInput, OverlappingLiveTensorsAndAddressPastBuffersize) {
  std::string s = spec();
  auto sub = [&](const std::string& from, const std::string& to) {
    const auto at = s.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    s.replace(at, from.size(), to);
  };
  sub("\"address\" : 1024,", "\"address\" : 800,");    // core 0 wl 0 ofmap over the ifmap
  sub("\"address\" : 1536,", "\"address\" : 65600,");  // core 1 wl 1 ofmap past 64 KiB
  CliRun r;
  validate("overlap.json", s, &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(":/0/0/buffer/2: B003: error: on core 0 before workload 0, ofmap at "
                       "[800, 1312) overlaps ifmap at [256, 1024)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(":/1/1/buffer/1/address: B001: error: tensor at 65600"), std::string::npos)
      << r.out;
}

TEST(BadInput, DeadlockNamesTheChain) {
  std::string s = spec();
  const std::string from = "\"related_ifmap\" : [],\n            \"size\" : 768,";
  const auto at = s.find(from);
  ASSERT_NE(at, std::string::npos);
  s.replace(at, from.size(), "\"related_ifmap\" : [ 5 ],\n            \"size\" : 768,");
  CliRun r;
  validate("deadlock.json", s, &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("O001: error: deadlock: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("-> core 1 workload 0 (Pool_0) -(transfer 2 via DRAM)->"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("-(transfer 2 via DRAM)-> core 0 workload 0 (Conv_0)\n"), std::string::npos)
      << r.out;
}

TEST(BadInput, DeepNestingIsRejectedNotCrashed) {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  CliRun r;
  validate("deep.json", deep, &r);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("L003"), std::string::npos) << r.out;
}

TEST(BadInput, MissingFileIsUnreadable) {
  CliRun r = gemini("validate /nonexistent/dir/file.json");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("L001: error: cannot open: No such file or directory"), std::string::npos)
      << r.out;
}

TEST(BadInput, BadUsageExitsTwo) {
  EXPECT_EQ(gemini("validate").status, 2);
  EXPECT_EQ(gemini("frobnicate x.json").status, 2);
  EXPECT_EQ(gemini("validate --dialect klingon x.json").status, 2);
  EXPECT_EQ(gemini("--help").status, 0);
  EXPECT_EQ(gemini("validate --help").status, 0);
  EXPECT_EQ(gemini("info --help").status, 0);
}

TEST(BadInput, JsonOutputAndMaxErrors) {
  std::string s = spec();
  for (int i = 0; i < 3; ++i) {
    const auto at = s.find("\"align\" : 8,");
    s.replace(at, 12, "\"align\" : \"8\",");
  }
  CliRun r;
  const fs::path p = test::write_temp("three_bad.json", s);
  r = gemini("validate --json " + p.string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("\"status\":\"invalid\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"code\":\"S002\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"exit_status\":1"), std::string::npos) << r.out;
  r = gemini("validate --max-errors 1 " + p.string());
  EXPECT_NE(r.out.find(": S002: error: wrong-type: 3 in all, 2 not shown; the first is here "
                       "(--max-errors)"),
            std::string::npos)
      << r.out;
}

TEST(BadInput, SeveralFilesTakeTheWorstStatus) {
  const fs::path good = test::data_dir() / "spec_minimal.json";
  const fs::path bad = test::write_temp("bad_for_multi.json", "[]");
  EXPECT_EQ(gemini("validate " + good.string() + " " + good.string()).status, 0);
  EXPECT_EQ(gemini("validate " + good.string() + " " + bad.string()).status, 1);
  EXPECT_EQ(gemini("validate " + bad.string() + " /nonexistent.json").status, 2);
}

TEST(BadInput, RandomMutationsNeverCrash) {
  // Byte-level mutations of a valid file: whatever happens, the process
  // exits 0, 1 or 2 with a diagnostic, never by a signal.
  const std::string base = spec();
  std::mt19937 rng(42);
  for (int i = 0; i < 40; ++i) {
    std::string s = base;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 4); ++k) {
      const std::size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0:
          s[at] = "{}[],:\"0-9e. x"[rng() % 14];
          break;
        case 1:
          s.erase(at, 1 + rng() % 20);
          break;
        default:
          s.insert(at, std::string(1 + rng() % 5, "0123456789\"[]{}"[rng() % 15]));
      }
    }
    CliRun r;
    validate("mutant_" + std::to_string(i) + ".json", s, &r);
    EXPECT_TRUE(r.status == 0 || r.status == 1) << "mutant " << i << " -> " << r.status << "\n"
                                                << r.out;
    EXPECT_FALSE(r.out.empty());
  }
}

}  // namespace

namespace {

TEST(AsmCli, AssemblesDisassemblesAndReassemblesByteForByte) {
  const fs::path dir = test::temp_path("asm_out");
  CliRun r =
      gemini("asm " + (test::data_dir() / "spec_minimal.json").string() + " -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("2 cores"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verified"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir / "manifest.json"));
  EXPECT_TRUE(fs::exists(dir / "core_1.s"));
  const std::string manifest = test::read_file(dir / "manifest.json");
  EXPECT_NE(manifest.find("\"per_opcode\""), std::string::npos);
  EXPECT_NE(manifest.find("\"bytes_per_engine\""), std::string::npos);
  for (const char* core : {"core_0", "core_1"}) {
    const fs::path bin = dir / (std::string(core) + ".bin");
    r = gemini("disasm " + bin.string());
    ASSERT_EQ(r.status, 0) << r.out;
    const fs::path text = test::write_temp(std::string(core) + "_dis.s", r.out);
    const fs::path again = test::temp_path(std::string(core) + "_again.bin");
    r = gemini("as " + text.string() + " -o " + again.string());
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(test::read_file(bin), test::read_file(again)) << core;
  }
}

TEST(AsmCli, RefusesAnInvalidScheduleAndReportsTextErrors) {
  std::string s = spec();
  const auto at = s.find("\"address\" : 1024,");
  s.replace(at, 17, "\"address\" : 800,");  // overlapping live tensors (B003)
  const fs::path bad = test::write_temp("asm_bad.json", s);
  const fs::path dir = test::temp_path("asm_bad_out");
  CliRun r = gemini("asm " + bad.string() + " -o " + dir.string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("B003"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not assembled"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir));

  const fs::path text =
      test::write_temp("broken.s", ".core 0\nnop\nwait_local q=pe on=warp count=1\n");
  r = gemini("as " + text.string() + " -o " + test::temp_path("broken.bin").string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(text.string() + ":3:20: bad value \"warp\" for on"), std::string::npos)
      << r.out;

  const fs::path junk = test::write_temp("junk.bin", "not a program");
  r = gemini("disasm " + junk.string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("magic \"GEMINIC1\" missing"), std::string::npos) << r.out;
}

}  // namespace

namespace {

TEST(SimCli, SimulatesTheShippedExampleAndWritesReports) {
  const fs::path rep = test::temp_path("sim_report.json");
  const fs::path csv = test::temp_path("sim_workloads.csv");
  const fs::path trace = test::temp_path("sim_trace.json");
  CliRun r =
      gemini("sim " + (test::data_dir() / "spec_minimal.json").string() + " --hw " +
             GEMINI_SOURCE_DIR + "/configs/set-polar.json --report " + rep.string() + " --csv " +
             csv.string() + " --trace " + trace.string() + " --expect-cycles 1000");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("total: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("scheduler estimate: 1000 cycles; simulated / estimate = "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Conv_0"), std::string::npos) << r.out;
  const std::string json = test::read_file(rep);
  EXPECT_EQ(json.rfind("{\n  \"total_cycles\" : ", 0), 0u) << json.substr(0, 80);
  EXPECT_NE(json.find("\"expect_cycles\" : 1000"), std::string::npos);
  EXPECT_NE(json.find("\"wall_seconds\""), std::string::npos);
  const std::string lines = test::read_file(csv);
  EXPECT_EQ(lines.rfind("core,workload,layer,predicted_cycles,", 0), 0u) << lines;
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 5);  // header + 4 workloads
  EXPECT_NE(test::read_file(trace).find("\"traceEvents\""), std::string::npos);
}

TEST(SimCli, BothDialectsAndBadInput) {
  CliRun ok = gemini("sim -q " + (test::data_dir() / "set_minimal.json").string());
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_TRUE(ok.out.empty()) << ok.out;
  CliRun missing = gemini("sim /nonexistent/x.json");
  EXPECT_EQ(missing.status, 2) << missing.out;
  const fs::path bad = test::write_temp("sim_bad.json", "{\"xlen\": 2}");
  CliRun invalid = gemini("sim " + bad.string());
  EXPECT_EQ(invalid.status, 1) << invalid.out;
  EXPECT_NE(invalid.out.find("not simulated: the input is invalid"), std::string::npos)
      << invalid.out;
  const fs::path hw = test::write_temp("sim_hw.json", "{\"dram\": {\"model\": \"fast\"}}");
  CliRun badhw =
      gemini("sim --hw " + hw.string() + " " + (test::data_dir() / "spec_minimal.json").string());
  EXPECT_EQ(badhw.status, 2) << badhw.out;
  EXPECT_NE(badhw.out.find("parameter \"model\" of component \"dram\": expected one of simple, "
                           "banked, ramulator2, got string \"fast\""),
            std::string::npos)
      << badhw.out;
}

TEST(SimCli, NumericMutationsNeverCrashOrHang) {
  // Numbers of a valid file replaced at random (times, sizes, boxes, ids):
  // the simulator either runs it or the input is refused; never a signal.
  const std::string base = spec();
  std::mt19937 rng(7);
  std::vector<std::size_t> digits;
  for (std::size_t i = 0; i < base.size(); ++i)
    if (base[i] >= '0' && base[i] <= '9') digits.push_back(i);
  int simulated = 0;
  for (int i = 0; i < 30; ++i) {
    std::string s = base;
    for (int k = 0; k < 3; ++k) s[digits[rng() % digits.size()]] = "0123456789"[rng() % 10];
    const fs::path p = test::write_temp("sim_mutant_" + std::to_string(i) + ".json", s);
    CliRun r = gemini("sim -q " + p.string());
    EXPECT_TRUE(r.status == 0 || r.status == 1) << "mutant " << i << " -> " << r.status << "\n"
                                                << r.out;
    simulated += r.status == 0;
  }
  EXPECT_GT(simulated, 0) << "no mutant was valid: the test exercises only the validator";
}

// A copy of golden/ in a temporary directory whose cases point back at the
// repository's inputs (corpus cases then resolve nowhere and are skipped).
fs::path golden_copy(const std::string& name) {
  const fs::path dir = test::temp_path(name);
  fs::create_directories(dir / "reports");
  const fs::path src = fs::path(GEMINI_SOURCE_DIR) / "golden";
  const std::string text0 = test::read_file(src / "cases.json");
  std::string cases;
  const std::string root = "\"" + (src / "..").string() + "/";
  for (std::size_t at = 0, next; at < text0.size(); at = next) {
    next = text0.find("\"../", at);
    if (next == std::string::npos) {
      cases += text0.substr(at);
      break;
    }
    cases += text0.substr(at, next - at) + root;
    next += 4;
  }
  test::write_temp(name + "/cases.json", cases);
  for (const auto& e : fs::directory_iterator(src / "reports"))
    fs::copy_file(e.path(), dir / "reports" / e.path().filename());
  return dir;
}

TEST(GoldenCli, CheckPassesOnTheShippedReportsAndFailsOnAChangedOne) {
  const fs::path dir = golden_copy("golden_copy");
  CliRun good = gemini("golden check --dir " + dir.string());
  EXPECT_EQ(good.status, 0) << good.out;
  EXPECT_NE(good.out.find("ok   spec_minimal\n"), std::string::npos) << good.out;

  const fs::path one = dir / "reports" / "spec_minimal.json";
  std::string text = test::read_file(one);
  const std::size_t at = text.find("\"total_cycles\" : ") + 17;
  text.insert(at, "1");
  test::write_temp("golden_copy/reports/spec_minimal.json", text);
  CliRun bad = gemini("golden check --dir " + dir.string());
  EXPECT_EQ(bad.status, 1) << bad.out;
  EXPECT_NE(bad.out.find("FAIL spec_minimal: "), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("spec_minimal.json:2 differs"), std::string::npos) << bad.out;

  CliRun upd = gemini("golden update --dir " + dir.string());
  EXPECT_EQ(upd.status, 0) << upd.out;
  EXPECT_NE(upd.out.find("wrote spec_minimal"), std::string::npos) << upd.out;
  EXPECT_EQ(gemini("golden check --dir " + dir.string()).status, 0);
}

TEST(GoldenCli, CheckFailsOnANumericDifference) {
  // A functional case pins the numbers: a digest that differs, or the same
  // case under another seed, fails the check; update rewrites it.
  const fs::path dir = golden_copy("golden_numeric");
  const fs::path one = dir / "reports" / "set_minimal_functional.json";
  std::string text = test::read_file(one);
  const std::size_t at = text.find("\"reference_crc32\" : \"") + 21;
  ASSERT_NE(at, std::string::npos + 21);
  text[at] = text[at] == '0' ? '1' : '0';
  test::write_temp("golden_numeric/reports/set_minimal_functional.json", text);
  CliRun bad = gemini("golden check --dir " + dir.string());
  EXPECT_EQ(bad.status, 1) << bad.out;
  EXPECT_NE(bad.out.find("FAIL set_minimal_functional: "), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("reference_crc32"), std::string::npos) << bad.out;
  EXPECT_EQ(gemini("golden update --dir " + dir.string()).status, 0);
  EXPECT_EQ(gemini("golden check --dir " + dir.string()).status, 0);
  // Another seed: other inputs and weights, other digests.
  std::string cases = test::read_file(dir / "cases.json");
  const std::size_t seed = cases.find("\"seed\": 1");
  ASSERT_NE(seed, std::string::npos);
  cases.replace(seed, 9, "\"seed\": 2");
  test::write_temp("golden_numeric/cases.json", cases);
  CliRun reseeded = gemini("golden check --dir " + dir.string());
  EXPECT_EQ(reseeded.status, 1) << reseeded.out;
  EXPECT_NE(reseeded.out.find("FAIL set_minimal_functional: "), std::string::npos) << reseeded.out;
}

// ---- An error is never hidden behind warnings ----------------------------
// 3,000 unknown keys (S007 warnings, reported while reading) before one
// tensor address past buffersize (B001, found by the later checks).
std::string many_warnings_one_error() {
  boost::json::value doc = boost::json::parse(spec());
  auto& wl = doc.at("0").as_array()[0].as_object();
  for (int i = 0; i < 3000; ++i) wl["extra_" + std::to_string(i)] = i;
  auto& other = doc.at("1").as_array()[0].as_object();
  for (int i = 0; i < 5; ++i) other["more_" + std::to_string(i)] = i;
  const std::int64_t size = doc.at("buffersize").as_int64();
  wl.at("buffer").as_array()[0].as_object()["address"] = size + 64;
  return boost::json::serialize(doc);
}

std::size_t lines_with(const std::string& out, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = out.find(what); at != std::string::npos; at = out.find(what, at + 1)) ++n;
  return n;
}

TEST(DiagnosticOutput, ErrorsComeFirstAndWarningsBeyondTheCapAreSummarisedPerCode) {
  CliRun r;
  const std::string p = validate("many_warnings.json", many_warnings_one_error(), &r);
  EXPECT_EQ(r.status, 1) << r.out.substr(0, 2000);
  // The error, before any warning line.
  const std::size_t error = r.out.find(p + ":/0/0/buffer/0/address: B001: error: ");
  ASSERT_NE(error, std::string::npos) << r.out.substr(0, 2000);
  EXPECT_LT(error, r.out.find(": warning: ")) << r.out.substr(0, 2000);
  // 20 warnings shown by default, then one line for the S007s left out.
  EXPECT_EQ(lines_with(r.out, ": S007: warning: unknown key"), 20u) << r.out.substr(0, 3000);
  EXPECT_NE(r.out.find(p + ":/0/0/extra_0: S007: warning: unknown-key: 3005 in all, 2985 not "
                           "shown; the first is here (--max-warnings)"),
            std::string::npos)
      << r.out.substr(0, 3000);
  EXPECT_NE(r.out.find("invalid (full dialect), 1 error, 3005 warnings"), std::string::npos);
  EXPECT_LT(lines_with(r.out, "\n"), 30u);
}

TEST(DiagnosticOutput, MaxWarningsZeroCountsOnlyAndMaxErrorsCapsErrors) {
  const fs::path p = test::write_temp("many_warnings2.json", many_warnings_one_error());
  CliRun r = gemini("validate --max-warnings 0 " + p.string());
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(lines_with(r.out, ": S007: warning: unknown key"), 0u) << r.out;
  EXPECT_EQ(lines_with(r.out, ": S007: warning: unknown-key: 3005 in all, 3005 not shown"), 1u)
      << r.out;
  EXPECT_EQ(lines_with(r.out, ": B001: error: "), 1u) << r.out;
  // Two errors, one shown: the other is summarised, still before the warnings.
  boost::json::value doc = boost::json::parse(many_warnings_one_error());
  doc.at("1").as_array()[0].at("buffer").as_array()[0].as_object()["address"] =
      doc.at("buffersize").as_int64() + 64;
  const fs::path q = test::write_temp("many_warnings3.json", boost::json::serialize(doc));
  CliRun e = gemini("validate --max-errors 1 --max-warnings 0 " + q.string());
  EXPECT_EQ(lines_with(e.out, ": B001: error: "), 2u) << e.out;
  EXPECT_EQ(lines_with(e.out, ": B001: error: address-out-of-buffer: 2 in all, 1 not shown"), 1u)
      << e.out;
  EXPECT_LT(e.out.find("B001: error: address-out-of-buffer"), e.out.find("S007")) << e.out;
}

}  // namespace
