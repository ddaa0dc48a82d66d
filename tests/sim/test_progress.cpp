// A run's progress on stderr (sim/src/progress.h): what a line and the bar
// say, when they are written, and nothing at all when off.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "progress.h"

using namespace gemini::sim;  // NOLINT(google-build-using-namespace): test file
using namespace std::chrono_literals;

namespace {

// A stream in memory; text() what was written to it.
class Memory {
 public:
  Memory() : f_(open_memstream(&buf_, &size_)) {}
  ~Memory() {
    std::fclose(f_);
    std::free(buf_);
  }
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
  std::FILE* file() { return f_; }
  std::string text() {
    std::fflush(f_);
    return std::string(buf_, size_);
  }

 private:
  char* buf_ = nullptr;
  std::size_t size_ = 0;
  std::FILE* f_;
};

// 128 instructions, 4 workloads, a 1 ns clock; the command started `ago`.
Progress make(ProgressMode mode, Progress::Clock::duration ago, Memory& m) {
  return Progress(mode, 128, 4, 1000, Progress::Clock::now() - ago, m.file());
}

// Retires `n` instructions, the last at cycle `cycle`.
void retire(Progress& p, int n, std::int64_t cycle) {
  for (int i = 1; i <= n; ++i) p.retired(cycle * 1000 * i / n);
}

TEST(Progress, ALineSaysSimulatedTimeWorkloadsRateAndTimeLeft) {
  Memory m;
  Progress p = make(ProgressMode::lines, 10s, m);
  p.workload_done();
  retire(p, 64, 64000);  // half the instructions by cycle 64000
  const std::string line = m.text();
  // The rate and the time left depend on the host: their shape only.
  const std::string head =
      "gemini: simulating for 10 s: 64.0k cycles (64.000 us) simulated, 1 of 4 workloads "
      "finished, 50% of the instructions, ";
  EXPECT_EQ(line.rfind(head, 0), 0u) << line;
  const std::size_t rate = line.find(" cycles/s, about ");
  EXPECT_NE(rate, std::string::npos) << line;
  EXPECT_TRUE(line.ends_with(" left\n")) << line;
  EXPECT_EQ(line.find('\n'), line.size() - 1) << line;
  // The next no sooner than 2 s later; the end says where the run ended.
  retire(p, 64, 90000);
  EXPECT_EQ(m.text(), line);
  p.done();
  EXPECT_EQ(m.text(), line + "gemini: simulation ended at 90.0k cycles (90.000 us) after 10 s\n");
}

TEST(Progress, NoLineInTheFirstTwoSecondsOfTheCommand) {
  Memory m;
  Progress p = make(ProgressMode::lines, 0s, m);
  retire(p, 128, 1000);
  p.done();  // nothing shown, nothing to end
  EXPECT_EQ(m.text(), "");
}

TEST(Progress, TheBarIsRedrawnInPlaceAndCleared) {
  Memory m;
  Progress p = make(ProgressMode::bar, 5s, m);
  p.workload_done();
  retire(p, 64, 1500000);
  const std::string bar = m.text();
  EXPECT_EQ(bar.size(), 80u) << bar;  // "\r" and 79 columns, no newline
  EXPECT_EQ(bar.rfind("\rsimulating [=====     ]  50% 1.50M cyc, wl 1/4, ", 0), 0u) << bar;
  EXPECT_NE(bar.find(" left"), std::string::npos) << bar;
  p.done();
  EXPECT_EQ(m.text(), bar + "\r" + std::string(79, ' ') + "\r");
}

TEST(Progress, OffWritesNothing) {
  Memory m;
  Progress p = make(ProgressMode::off, 3600s, m);
  p.workload_done();
  retire(p, 128, 1000000);
  p.done();
  EXPECT_EQ(m.text(), "");
}

}  // namespace
