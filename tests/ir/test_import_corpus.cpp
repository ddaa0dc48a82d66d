// Import on the real corpus: every file imports with configs/set-polar.json;
// the output validates without error; an independent check of the written
// addresses finds nothing; allocation quality (allocated peak <= 1.15x the
// live-data peak on every core, and 1 MiB wherever the live data fits it);
// and the output reloads and rewrites byte for byte.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "fixture.h"
#include "gemini/ir/import.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"
#include "gemini/ir/writer.h"

namespace fs = std::filesystem;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

// Written without the allocator's or the validator's code: every snapshot
// tensor inside [0, buffersize) and inside one region (wrapping inside it),
// and no two tensors of a snapshot sharing a byte.
std::vector<std::string> independent_check(const ir::Model& m) {
  std::vector<std::string> problems;
  const std::int64_t b = m.buffersize.value_or(0);
  for (const ir::Core& c : m.cores) {
    for (const ir::Workload& w : c.workloads) {
      std::vector<std::pair<std::int64_t, std::int64_t>> bytes;  // [begin, end)
      // A tensor listed again for another reader (its tensor_id again) is
      // the same bytes: placed once.
      std::map<std::int64_t, const ir::BufferEntry*> listed;
      for (const ir::BufferEntry& e : w.buffer) {
        const std::string where = "core " + std::to_string(c.core_id) + " workload " +
                                  std::to_string(w.workload_id) + ": ";
        if (!e.address || !e.size) {
          problems.push_back(where + "tensor without address or size");
          continue;
        }
        if (e.tensor_id) {
          auto [it, fresh] = listed.emplace(*e.tensor_id, &e);
          if (!fresh) {
            if (it->second->address != e.address || it->second->size != e.size)
              problems.push_back(where + "one tensor id at two places");
            continue;
          }
        }
        const std::int64_t a = *e.address, s = *e.size;
        if (a < 0 || a >= b) problems.push_back(where + "address outside [0, buffersize)");
        const ir::RingRegion* reg = nullptr;
        for (const ir::RingRegion& r : w.ring_buffer_info.value())
          if (a >= r.begin && a < r.end) reg = &r;
        if (!reg || s > reg->end - reg->begin) {
          problems.push_back(where + "not inside one ring region");
          continue;
        }
        if (a + s <= reg->end) {
          bytes.emplace_back(a, a + s);
        } else {
          bytes.emplace_back(a, reg->end);
          bytes.emplace_back(reg->begin, reg->begin + a + s - reg->end);
        }
      }
      for (std::size_t i = 0; i < bytes.size(); ++i)
        for (std::size_t j = i + 1; j < bytes.size(); ++j)
          if (bytes[i].first < bytes[j].second && bytes[j].first < bytes[i].second)
            problems.push_back("core " + std::to_string(c.core_id) + " workload " +
                               std::to_string(w.workload_id) + ": two tensors overlap");
    }
  }
  return problems;
}

class ImportCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(ImportCorpus, ImportsValidatesAndRoundTrips) {
  if (GetParam() == test::kCorpusAbsent) GTEST_SKIP() << test::corpus_absent_message();
  const ir::HardwareConfig* hw = &test::set_polar();
  ir::Diagnostics d;
  auto r = ir::load_file((test::corpus_dir() / GetParam()).string(), d);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  // The tight packing (the previous default) stays close to the live data.
  {
    ir::Model copy = r.model;
    ir::Diagnostics dt;
    ir::ImportOptions tight;
    tight.allocation = ir::L2Allocation::tight;
    auto rt = ir::import_model(copy, *hw, tight, dt);
    ASSERT_TRUE(rt);
    for (const ir::CoreImport& c : rt->cores)
      EXPECT_LE(static_cast<double>(c.alloc_peak), 1.15 * static_cast<double>(c.live_peak))
          << "core " << c.core_id;
  }
  ir::Diagnostics di;
  auto rep = ir::import_model(r.model, *hw, {}, di);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->allocation, ir::L2Allocation::prefetch);
  // The prefetch placement takes the buffer the tight packing needs and
  // makes no more loads wait for the workload before them (docs/allocation.md).
  const ir::WarStats w = rep->war(), wt = rep->war_tight();
  EXPECT_LE(w.waits, wt.waits);
  EXPECT_LE(w.forced, w.waits);
  for (const ir::CoreImport& c : rep->cores) {
    EXPECT_LE(c.alloc_peak, rep->buffersize) << "core " << c.core_id;
    if (c.live_peak <= hw->l2.size_bytes) {
      EXPECT_LE(c.alloc_peak, hw->l2.size_bytes)
          << "core " << c.core_id << " fits but was not fitted";
    }
  }
  const bool all_fit_live = std::all_of(rep->cores.begin(), rep->cores.end(), [&](const auto& c) {
    return c.live_peak <= hw->l2.size_bytes;
  });
  EXPECT_EQ(rep->fits, all_fit_live);
  if (all_fit_live) {
    EXPECT_EQ(rep->buffersize, hw->l2.size_bytes);
  }

  std::ostringstream first;
  ir::write_full(r.model, first);
  const fs::path out = test::write_temp(GetParam() + ".imported.json", first.str());
  ir::Diagnostics dv;
  const ir::CheckedFile back = ir::load_and_validate(out.string(), {}, *hw, dv);
  ASSERT_EQ(back.load.status, ir::LoadStatus::ok);
  EXPECT_TRUE(back.semantic_checks_ran);
  std::string listing;
  for (const auto& x : dv.items())
    if (x.severity == ir::Severity::error)
      listing += std::string(x.code()) + " " + x.pointer + " " + x.message + "\n";
  EXPECT_EQ(dv.errors(), 0u) << listing;
  const auto problems = independent_check(back.load.model);
  EXPECT_TRUE(problems.empty()) << problems.size() << " problems, first: " << problems.front();

  std::ostringstream second;
  ir::write_full(back.load.model, second);
  EXPECT_TRUE(first.str() == second.str()) << "the output does not rewrite byte for byte";
  fs::remove(out);
}

INSTANTIATE_TEST_SUITE_P(Set, ImportCorpus, ::testing::ValuesIn(test::corpus_names()),
                         [](const auto& info) { return test::param_name(info.param); });

}  // namespace
