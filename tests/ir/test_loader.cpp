// Loader: dialect detection and the normalisation of the public dialect
// (core keys, bits, nesting, scalar weights), gzip by magic bytes, origins.
#include <gtest/gtest.h>

#include "fixture.h"
#include "gemini/ir/loader.h"

namespace fs = std::filesystem;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

ir::LoadResult load(const fs::path& p, ir::Diagnostics& d, ir::LoadOptions o = {}) {
  return ir::load_file(p.string(), d, o);
}

TEST(Loader, PublicDialectIsNormalised) {
  ir::Diagnostics d;
  auto r = load(test::data_dir() / "set_minimal.json", d);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  EXPECT_EQ(d.errors(), 0u);
  const ir::Model& m = r.model;
  EXPECT_EQ(m.dialect, ir::Dialect::set);
  ASSERT_EQ(m.cores.size(), 2u);
  // key = y*(xlen+2)+x+1: key 1 -> (0,0) -> core 0; key 2 -> (1,0) -> core 1.
  EXPECT_EQ(m.cores[0].core_id, 0);
  EXPECT_EQ(m.cores[1].core_id, 1);
  EXPECT_EQ(m.pointer(m.cores[1].origin), "/2");

  const ir::Workload& conv = m.cores[0].workloads.at(0);
  EXPECT_EQ(conv.kind, ir::LayerKind::pe);
  EXPECT_EQ(conv.layer_type, "conv2d");
  EXPECT_EQ(conv.ofmap_size, 1024);  // 8192 bits
  EXPECT_EQ(conv.ofmap.at(0).size, 1024);
  ASSERT_EQ(conv.ofmap.at(0).destination.size(), 1u);
  EXPECT_EQ(conv.ofmap.at(0).destination[0].core_id, 1);  // "id": 2 -> core 1
  ASSERT_TRUE(conv.weight);
  EXPECT_EQ(conv.weight->box.rank, 1);  // scalar K range kept as given
  EXPECT_TRUE(conv.weight->box.scalar);
  EXPECT_EQ(conv.weight->box.lo[0], 0);
  EXPECT_EQ(conv.weight->box.hi[0], 15);
  ASSERT_EQ(conv.ifmap.size(), 1u);  // the single ifmap object
  EXPECT_EQ(conv.ifmap[0].max_workload_id, 0);

  const ir::BufferEntry& wbuf = conv.buffer.at(0);
  EXPECT_EQ(wbuf.transfer_id, std::vector<ir::TransferId>{0});  // [[0]] flattened
  EXPECT_EQ(wbuf.layer_name, "conv1");                          // from "layer"
  EXPECT_EQ(wbuf.block, 1);
  EXPECT_EQ(wbuf.source.at(0).core_id, ir::kDramCore);  // DRAM "id": 0 -> -1
  EXPECT_EQ(wbuf.source.at(0).size, 432);               // 3456 bits

  const ir::Workload& pool = m.cores[1].workloads.at(0);
  EXPECT_EQ(pool.kind, ir::LayerKind::vp);
  EXPECT_EQ(pool.layer_type, "pool");
  EXPECT_EQ(pool.buffer.at(0).source.at(0).core_id, 0);  // "id": 1 -> core 0
  EXPECT_EQ(pool.ofmap.at(0).destination.at(0).type, ir::EndpointType::dram);
  EXPECT_EQ(pool.ofmap.at(0).destination.at(0).core_id, ir::kDramCore);

  EXPECT_EQ(m.dram_in.at(0).core_id, 1);  // "core_id": 2 is a key too
  EXPECT_EQ(m.dram_out.at(0).size, 432);
}

TEST(Loader, CoreNumberingOnALargerMesh) {
  // 3x2 mesh: keys run y*(3+2)+x+1, so row 1 starts at key 6.
  const std::string doc = R"({"-1":{"in":[],"out":[]},
    "1":[],"3":[],"6":[],"8":[],"top_batch_cut":1,"xlen":3,"ylen":2})";
  ir::Diagnostics d;
  ir::LoadOptions o;
  o.dialect = ir::Dialect::set;
  auto r = load(test::write_temp("mesh.json", doc), d, o);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  EXPECT_EQ(d.errors(), 0u);
  std::vector<int> ids;
  for (const auto& c : r.model.cores) ids.push_back(c.core_id);
  EXPECT_EQ(ids, (std::vector<int>{0, 2, 3, 5}));
}

TEST(Loader, GzipIsDetectedByMagicNotName) {
  const std::string bytes = test::read_file(test::data_dir() / "spec_minimal.json");
  // Compressed, but named .json.
  ir::Diagnostics d;
  auto r = load(test::write_temp("looks_plain.json", test::gzip(bytes)), d);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  EXPECT_TRUE(r.compressed);
  EXPECT_EQ(d.errors(), 0u);
  // Plain, but named .json.gz.
  ir::Diagnostics d2;
  auto r2 = load(test::write_temp("looks_gz.json.gz", bytes), d2);
  ASSERT_EQ(r2.status, ir::LoadStatus::ok);
  EXPECT_FALSE(r2.compressed);
  EXPECT_TRUE(r.model == r2.model);
  // Concatenated gzip members are one stream.
  const std::string half = bytes.substr(0, bytes.size() / 2);
  ir::Diagnostics d3;
  auto r3 = load(
      test::write_temp("two_members.gz", test::gzip(half) + test::gzip(bytes.substr(half.size()))),
      d3);
  ASSERT_EQ(r3.status, ir::LoadStatus::ok);
  EXPECT_TRUE(r.model == r3.model);
}

TEST(Loader, DialectCanBeForced) {
  ir::Diagnostics d;
  ir::LoadOptions o;
  o.dialect = ir::Dialect::full;
  auto r = load(test::data_dir() / "set_minimal.json", d, o);
  ASSERT_EQ(r.status, ir::LoadStatus::ok);
  EXPECT_EQ(r.model.dialect, ir::Dialect::full);
  // Read as the full dialect, keys are core ids: key 2 is outside a 2x1 mesh.
  EXPECT_TRUE(d.has(ir::Check::core_outside_mesh));
}

TEST(Loader, MixedDialectMarkersAreAnError) {
  std::string doc = test::read_file(test::data_dir() / "spec_minimal.json");
  const auto at = doc.find("\"layer_type\" : \"vp\"");
  ASSERT_NE(at, std::string::npos);
  doc.replace(at, 19, "\"layer_type\" : \"pool\"");
  ir::Diagnostics d;
  auto r = load(test::write_temp("mixed.json", doc), d);
  EXPECT_EQ(r.status, ir::LoadStatus::malformed);
  ASSERT_TRUE(d.has(ir::Check::dialect_mixed));
  EXPECT_EQ(d.errors(), 1u) << "nothing is normalised under a guessed dialect";
  // Forcing a dialect settles it.
  ir::Diagnostics d2;
  ir::LoadOptions o;
  o.dialect = ir::Dialect::full;
  auto r2 = load(test::write_temp("mixed.json", doc), d2, o);
  EXPECT_EQ(r2.status, ir::LoadStatus::ok);
  EXPECT_FALSE(d2.has(ir::Check::dialect_mixed));
}

TEST(Loader, OriginsNameTheJsonPointer) {
  ir::Diagnostics d;
  auto r = load(test::data_dir() / "spec_minimal.json", d);
  const ir::Model& m = r.model;
  const ir::BufferEntry& b = m.cores[1].workloads[0].buffer[0];
  EXPECT_EQ(m.pointer(b.origin), "/1/0/buffer/0");
  EXPECT_EQ(m.pointer(b.source[1].origin, "/transfer_id"), "/1/0/buffer/0/source/1/transfer_id");
  EXPECT_EQ(m.pointer(m.dram_out[2].destination[1].origin), "/-1/out/2/destination/1");
}

TEST(Loader, ChunkBoundariesDoNotMatter) {
  // A file larger than one read chunk (1 MiB) with keys and strings split
  // across chunk edges loads the same as the compact form.
  const std::string bytes = test::read_file(test::data_dir() / "spec_minimal.json");
  std::string padded;
  for (char c : bytes) {
    padded += c;
    if (c == ',') padded += std::string(2003, ' ');
  }
  ASSERT_GT(padded.size(), 1u << 20);
  ir::Diagnostics d1, d2;
  auto a = load(test::data_dir() / "spec_minimal.json", d1);
  auto b = load(test::write_temp("padded.json", padded), d2);
  ASSERT_EQ(b.status, ir::LoadStatus::ok);
  EXPECT_EQ(d2.errors(), 0u);
  EXPECT_TRUE(a.model == b.model);
}

}  // namespace
