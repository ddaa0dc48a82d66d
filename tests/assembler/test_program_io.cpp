// Assembler program files: staged writes replace old files only on commit.

#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include "fixture.h"
#include "gemini/assembler/encoding.h"
#include "gemini/assembler/invocation.h"
#include "gemini/assembler/lowering.h"
#include "gemini/assembler/program_io.h"
#include "gemini/assembler/text.h"
#include "gemini/assembler/verifier.h"
#include "gemini/ir/loader.h"

namespace fs = std::filesystem;
using namespace gemini;             // NOLINT(google-build-using-namespace): test file
using namespace gemini::assembler;  // NOLINT(google-build-using-namespace): test file

using test::program;

namespace {

TEST(ProgramIo, StagedFilesReplaceTheOldOnesOnlyOnCommit) {
  const fs::path dir = fs::path(::testing::TempDir()) / "gemini_staged";
  fs::remove_all(dir);
  fs::create_directories(dir);
  { std::ofstream(dir / "core_0.bin") << "old"; }
  Program p;
  p.l2_bytes = 1024;
  p.wl0_bytes = 4096;
  p.cores.resize(1);
  p.cores[0].program = program(0, "end\n");
  auto listing = [&] {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  auto slurp = [](const fs::path& f) {
    std::ifstream in(f, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  std::string err;
  {
    auto staged = stage_program(p, dir.string(), err);
    ASSERT_TRUE(staged) << err;
    EXPECT_EQ(slurp(dir / "core_0.bin"), "old");  // not yet
  }                                               // dropped uncommitted: the directory is as it was
  EXPECT_EQ(listing(), std::vector<std::string>{"core_0.bin"});
  EXPECT_EQ(slurp(dir / "core_0.bin"), "old");
  {
    auto staged = stage_program(p, dir.string(), err);
    ASSERT_TRUE(staged) << err;
    ASSERT_TRUE(staged->commit(err)) << err;
  }
  EXPECT_EQ(listing(), (std::vector<std::string>{"core_0.bin", "core_0.s", "manifest.json"}));
  EXPECT_EQ(slurp(dir / "core_0.bin").size(), kFileHeaderBytes + kInstrBytes);
  fs::remove_all(dir);
}

TEST(ProgramIo, FilesCreatedAheadFollowTheProgramAndLeaveNoTraceUncommitted) {
  const fs::path root = fs::path(::testing::TempDir()) / "gemini_ahead";
  fs::remove_all(root);
  Program p;
  p.l2_bytes = 1024;
  p.wl0_bytes = 4096;
  p.cores.resize(1);
  p.cores[0].program = program(2, "end\n");
  std::string err;
  const fs::path dir = root / "a" / "b";
  {
    // Created for the model's cores before any program exists, then dropped
    // (as when the input fails validation): the directories go too.
    auto staged = StagedProgram::create(dir.string(), {0, 2, 2}, err);
    ASSERT_TRUE(staged) << err;
    EXPECT_TRUE(fs::exists(dir / ".core_0.s.partial"));
    EXPECT_TRUE(fs::exists(dir / ".core_2.bin.partial"));
  }
  EXPECT_FALSE(fs::exists(root));
  {
    auto staged = StagedProgram::create(dir.string(), {0, 2}, err);
    ASSERT_TRUE(staged) << err;
    ASSERT_TRUE(staged->write(p, err)) << err;  // core 0 is not in the program
    ASSERT_TRUE(staged->commit(err)) << err;
  }
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"core_2.bin", "core_2.s", "manifest.json"}));
  EXPECT_EQ(fs::file_size(dir / "core_2.bin"), kFileHeaderBytes + kInstrBytes);
  fs::remove_all(root);
}

}  // namespace
