// Work you can watch (issue 62): `gemini sim --progress` in a pipe prints a
// line every few seconds, the first long before the run ends even on booksim2
// (which advances simulated time slowly); in a pipe without --progress, and
// on a terminal with -q, nothing; on a terminal, a bar. `gemini ref
// --progress` the same, by layers.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/types.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "fixture.h"
#include "gemini/sim/booksim2_config.h"

namespace fs = std::filesystem;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

// spec_minimal on booksim2 with links of 2 MB/s, so that the run lasts long
// while simulated time creeps: about 15 s at -O2 on two cores, minutes under
// AddressSanitizer. (At 10 MB/s it lasted 3 s at -O2, and so sometimes
// ended before the 3 s the tests below stop it after.)
std::string slow_booksim2_run() {
  const fs::path hw = test::write_temp("progress_booksim2.json",
                                       R"({"noc": {"model": "booksim2", "link_gbps": 0.002}})");
  return std::string(GEMINI_BIN) + " sim " + (test::data_dir() / "spec_minimal.json").string() +
         " --hw " + hw.string();
}

// The first line a command writes to stderr that begins with `prefix`,
// read from a pipe; the command stopped once it is read. Empty when the
// command ended first (`all` then holds what it wrote).
std::string first_line(const std::string& command, const std::string& prefix, std::string& all) {
  const std::string cmd = "echo $$; exec " + command + " 2>&1 >/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "";
  char buf[1024];
  pid_t pid = -1;
  if (std::fgets(buf, sizeof buf, p)) pid = static_cast<pid_t>(std::stol(buf));
  std::string first;
  while (first.empty() && std::fgets(buf, sizeof buf, p)) {
    all += buf;
    if (std::string(buf).rfind(prefix, 0) == 0) first = buf;
  }
  if (pid > 0) kill(pid, SIGTERM);  // the rest of the run is not needed
  pclose(p);
  return first;
}

// The first line is due 2 s after the start (no bound on the time here: a
// loaded or sanitized machine takes longer, and the run lasts far past it).
TEST(ProgressCli, ABooksim2RunInAPipeShowsItsFirstLineLongBeforeItsEnd) {
  if (!sim::booksim2_built()) GTEST_SKIP() << "BookSim 2 is not built into this gemini";
  std::string all;
  const std::string first =
      first_line(slow_booksim2_run() + " -q --progress", "gemini: simulating for ", all);
  ASSERT_FALSE(first.empty()) << "no progress line before the run ended:\n" << all;
  EXPECT_NE(first.find(" cycles ("), std::string::npos) << first;
  EXPECT_NE(first.find(" of 4 workloads finished, "), std::string::npos) << first;
  EXPECT_NE(first.find(" cycles/s, "), std::string::npos) << first;
}

TEST(ProgressCli, NothingInAPipeUnlessAskedNorWithQuietOnATerminal) {
  if (!sim::booksim2_built()) GTEST_SKIP() << "BookSim 2 is not built into this gemini";
  // Each run stopped after 3 s (timeout: 124), past the first line's time.
  const std::string run = "timeout 3 " + slow_booksim2_run();
  test::CliRun r = test::run_command(run + " 2>&1 >/dev/null");
  EXPECT_EQ(r.status, 124) << r.out;
  EXPECT_EQ(r.out, "");
  // On a terminal (script(1) gives it one): the bar, and with -q nothing.
  r = test::run_command("script -qec '" + run + "' /dev/null </dev/null");
  EXPECT_NE(r.out.find("\rsimulating ["), std::string::npos) << r.out;
  r = test::run_command("script -qec '" + run + " -q' /dev/null </dev/null");
  EXPECT_EQ(r.out.find("simulating"), std::string::npos) << r.out;
}

// BERT's reference through the cpu backend's per-element kernels (about
// 12 s at -O2 on two cores): lines by layer, the first long before the end.
TEST(ProgressCli, ARefInAPipeShowsItsLayersLongBeforeItsEnd) {
  if (test::corpus_dir().empty()) GTEST_SKIP() << test::corpus_absent_message();
  const fs::path model = test::corpus_dir() / "models" / "bert_b1.model.json";
  if (!fs::exists(model)) GTEST_SKIP() << model << " not found";
  std::string all;
  const std::string first = first_line(std::string(GEMINI_BIN) + " ref --model " + model.string() +
                                           " --backend cpu --threads 1 -q --progress",
                                       "gemini: computing the reference for ", all);
  // Due at the first layer's end 2 s after the start (no bound on the time,
  // as above).
  ASSERT_FALSE(first.empty()) << "no progress line before the run ended:\n" << all;
  EXPECT_NE(first.find(" of 44 layers, "), std::string::npos) << first;
  EXPECT_NE(first.find(" GMAC/s, about "), std::string::npos) << first;
}

}  // namespace
