// Assembling the real corpus: every file lowers (through the in-memory
// import), the verifier finds nothing, and every core binary survives
// disassembly and reassembly byte for byte; written out in the full
// dialect and loaded back, the file lowers to the same programs.
#include <gtest/gtest.h>

#include <sstream>

#include "fixture.h"
#include "gemini/assembler/encoding.h"
#include "gemini/assembler/lowering.h"
#include "gemini/assembler/text.h"
#include "gemini/assembler/verifier.h"
#include "gemini/ir/import.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/writer.h"
#include "gemini/model/geometry.h"
#include "gemini/model/network.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

class AsmCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(AsmCorpus, AssemblesVerifiesAndRoundTrips) {
  if (GetParam() == test::kCorpusAbsent) GTEST_SKIP() << test::corpus_absent_message();
  const ir::HardwareConfig* hw = &test::set_polar();
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
    // What `gemini asm` writes: the same bytes, viewed in place.
    std::array<std::uint8_t, assembler::kFileHeaderBytes> header{};
    std::span<const std::uint8_t> body;
    ASSERT_TRUE(assembler::encode_program_view(c, header, body, err)) << err;
    std::vector<std::uint8_t> viewed(header.begin(), header.end());
    viewed.insert(viewed.end(), body.begin(), body.end());
    EXPECT_TRUE(viewed == bin) << "core " << c.core_id << ": the in-place view differs";
    auto decoded = assembler::decode_program(bin, err);
    ASSERT_TRUE(decoded) << err;
    assembler::ParseError pe;
    auto parsed = assembler::parse_program(assembler::print_program(*decoded), pe);
    ASSERT_TRUE(parsed) << pe.line << ":" << pe.column << " " << pe.message;
    ASSERT_TRUE(assembler::encode_program(*parsed, again, err)) << err;
    EXPECT_TRUE(bin == again) << "core " << c.core_id << " does not round-trip byte for byte";
  }

  // The same schedule as a full-dialect file (what `gemini import` writes).
  std::ostringstream full;
  ir::write_full(r.model, full);
  const auto path = test::write_temp(GetParam() + ".full.json", full.str());
  ir::Diagnostics df;
  auto back = ir::load_file(path.string(), df);
  std::filesystem::remove(path);
  ASSERT_EQ(back.status, ir::LoadStatus::ok);
  ASSERT_EQ(back.model.dialect, ir::Dialect::full);
  std::vector<std::string> full_errors;
  auto q = assembler::lower(back.model, *hw, full_errors);
  ASSERT_TRUE(q) << full_errors.front();
  ASSERT_EQ(q->cores.size(), p->cores.size());
  for (std::size_t i = 0; i < q->cores.size(); ++i)
    EXPECT_TRUE(q->cores[i].program == p->cores[i].program)
        << "core " << p->cores[i].program.core_id << " lowers differently from the full dialect";
}

// Without a model file the geometry is inferred from the IR. The attention
// layers' batched matrix products (per-sample weights) are grouped 1x1
// products, one group per head; the IR does not say so, but a weight box's
// channel extent is one group's width. The inference must give what the
// model file says for every such layer.
TEST_P(AsmCorpus, InferredBatchedProductsAreTheModelsGroupedProducts) {
  if (GetParam() == test::kCorpusAbsent) GTEST_SKIP() << test::corpus_absent_message();
  const auto model_path = test::corpus_model(GetParam());
  if (model_path.empty()) GTEST_SKIP() << "no model file for " << GetParam();
  ir::Diagnostics d;
  auto r = ir::load_file((test::corpus_dir() / GetParam()).string(), d);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  ASSERT_TRUE(ir::import_model(r.model, test::set_polar(), {}, d));
  const ir::GeometryTable inferred = assembler::infer_geometry(r.model);
  auto net = model::load_network(model_path.string(), d);
  ASSERT_TRUE(net) << test::codes(d);
  const ir::GeometryTable exact = model::geometry_table(*net, {});
  int products = 0;
  for (const auto& [name, g] : exact.layers) {
    if (!g.per_sample_weights) continue;
    const auto it = inferred.layers.find(name);
    ASSERT_NE(it, inferred.layers.end()) << name;
    ++products;
    EXPECT_TRUE(it->second.per_sample_weights) << name;
    EXPECT_EQ(it->second.group_c, g.group_c) << name;
    EXPECT_EQ(it->second.group_k, g.group_k) << name;
    EXPECT_EQ(it->second.kernel, g.kernel) << name;
  }
  // The networks with attention have two products per attention block.
  const bool attention = GetParam().rfind("bert", 0) == 0 || GetParam().rfind("gpt", 0) == 0 ||
                         GetParam().rfind("trans", 0) == 0;
  if (attention) {
    EXPECT_GE(products, 2);
  }
}

INSTANTIATE_TEST_SUITE_P(Set, AsmCorpus, ::testing::ValuesIn(test::corpus_names()),
                         [](const auto& info) { return test::param_name(info.param); });

}  // namespace
