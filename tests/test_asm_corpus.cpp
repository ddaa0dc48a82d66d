// Assembling the real corpus: every file lowers (through the in-memory
// import), the verifier finds nothing, and every core binary survives
// disassembly and reassembly byte for byte.
#include <gtest/gtest.h>

#include "fixture.h"
#include "gemini/assembler/encoding.h"
#include "gemini/assembler/lowering.h"
#include "gemini/assembler/text.h"
#include "gemini/assembler/verifier.h"
#include "gemini/ir/import.h"
#include "gemini/ir/loader.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

std::vector<std::string> names() {
  std::vector<std::string> out;
  for (const auto& p : test::corpus_files()) out.push_back(p.filename().string());
  if (out.empty()) out.push_back("corpus_absent");
  return out;
}

class AsmCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(AsmCorpus, AssemblesVerifiesAndRoundTrips) {
  if (GetParam() == "corpus_absent")
    GTEST_SKIP() << "corpus not found: put ../shared/ir-corpus/set beside the project or set "
                    "GEMINI_CORPUS";
  std::vector<std::string> errs;
  auto hw = ir::load_hw_config(std::string(GEMINI_SOURCE_DIR) + "/configs/set-polar.json", errs);
  ASSERT_TRUE(hw);
  ir::Diagnostics d;
  auto r = ir::load_file((test::corpus_dir() / GetParam()).string(), d);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  ASSERT_TRUE(ir::import_model(r.model, *hw, {}, d));
  std::vector<std::string> errors;
  auto p = assembler::lower(r.model, *hw, errors);
  ASSERT_TRUE(p) << errors.front();
  std::vector<assembler::CoreProgram> cores;
  for (const auto& c : p->cores) cores.push_back(c.program);
  const auto problems = assembler::verify(cores, {p->l2_bytes, p->wl0_bytes});
  EXPECT_TRUE(problems.empty()) << problems.size() << " problems, first: " << problems.front();
  for (const auto& c : cores) {
    std::vector<std::uint8_t> bin, again;
    std::string err;
    ASSERT_TRUE(assembler::encode_program(c, bin, err)) << err;
    auto decoded = assembler::decode_program(bin, err);
    ASSERT_TRUE(decoded) << err;
    assembler::ParseError pe;
    auto parsed = assembler::parse_program(assembler::print_program(*decoded), pe);
    ASSERT_TRUE(parsed) << pe.line << ":" << pe.column << " " << pe.message;
    ASSERT_TRUE(assembler::encode_program(*parsed, again, err)) << err;
    EXPECT_TRUE(bin == again) << "core " << c.core_id << " does not round-trip byte for byte";
  }
}

INSTANTIATE_TEST_SUITE_P(Set, AsmCorpus, ::testing::ValuesIn(names()), [](const auto& info) {
  std::string n = info.param;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

}  // namespace
