// The op descriptor table (ir/op_table.h) and what each library derives
// from it: the IR reader's layer types, the layer operation of a workload,
// the registry's shape rules, the ISA's VP operations and the tile
// operations of the op-to-tile factory.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "fixture.h"
#include "gemini/assembler/isa.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/op_table.h"
#include "gemini/model/op_registry.h"
#include "gemini/model/tile_op_factory.h"

namespace {

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

TEST(OpTable, RowsAreInTypeOrderWithUniqueNamesAndLayerTypes) {
  std::set<std::string_view> ark, types;
  std::size_t i = 0;
  for (const ir::OpDescriptor& d : ir::op_types()) {
    EXPECT_EQ(static_cast<std::size_t>(d.type), i++);
    EXPECT_TRUE(ark.insert(d.ark_name).second) << d.ark_name;
    EXPECT_EQ(&ir::describe(d.type), &d);
    EXPECT_EQ(ir::find_ark_type(d.ark_name), &d);
    EXPECT_TRUE(d.runs_on(d.engine));
    EXPECT_NE(d.op, ir::LayerOp::unknown) << d.ark_name;
    EXPECT_NE(d.global_op, ir::LayerOp::unknown) << d.ark_name;
    // A layer type shared with an earlier row names that row, of one engine.
    if (const ir::OpDescriptor* first = ir::find_layer_type(d.layer_type)) {
      EXPECT_EQ(first->engine, d.engine) << d.ark_name;
      if (first != &d) {
        EXPECT_LT(first->type, d.type);
      }
    }
    if (!d.layer_type.empty()) types.insert(d.layer_type);
  }
  EXPECT_EQ(i, ir::kOpTypeCount);
  EXPECT_EQ(ir::public_layer_types().size(), types.size());
  EXPECT_EQ(ir::find_ark_type("Softmax"), nullptr);
  EXPECT_EQ(ir::find_layer_type(""), nullptr);
  EXPECT_EQ(ir::find_layer_type("pe"), nullptr);
}

TEST(OpTable, AWorkloadsLayerTypeNamesItsOperationElseItsEngineDoes) {
  ir::Workload w;
  w.kind = ir::LayerKind::vp;
  w.layer_type = "element_wise";
  EXPECT_EQ(ir::layer_op_of(w), ir::LayerOp::eltwise);
  w.layer_type = "pool";
  EXPECT_EQ(ir::layer_op_of(w), ir::LayerOp::pool_max);
  w.layer_type = "vp";
  EXPECT_EQ(ir::layer_op_of(w), ir::LayerOp::unknown);  // the shapes decide
  w.kind = ir::LayerKind::pe;
  w.layer_type = "pe";
  EXPECT_EQ(ir::layer_op_of(w), ir::LayerOp::conv);
  w.layer_type = "fc";
  EXPECT_EQ(ir::layer_op_of(w), ir::LayerOp::fc);
  w.kind = ir::LayerKind::dt;
  w.layer_type.clear();
  EXPECT_EQ(ir::layer_op_of(w), ir::LayerOp::transpose);
  w.layer_type = "point_to_point";
  EXPECT_EQ(ir::layer_op_of(w), ir::LayerOp::copy);
}

// The IR reader accepts the full dialect's engines and every public layer
// type of the table, each on its row's engine; anything else is S-coded.
TEST(OpTable, TheReaderTakesEachPublicLayerTypeOnItsEngine) {
  const std::string base = test::read_file(test::data_dir() / "spec_minimal.json");
  const std::string pool = R"("layer_type" : "vp")";
  const std::size_t at = base.find(pool);
  ASSERT_NE(at, std::string::npos);
  for (std::string_view type : ir::public_layer_types()) {
    std::string json = base;
    json.replace(at, pool.size(), R"("layer_type" : ")" + std::string(type) + "\"");
    ir::Diagnostics d;
    const ir::LoadResult r = ir::load_file(test::write_temp("layer_type.json", json).string(), d);
    const ir::Workload* w = nullptr;
    for (const ir::Core& c : r.model.cores)
      for (const ir::Workload& x : c.workloads)
        if (x.layer_type == type) w = &x;
    ASSERT_NE(w, nullptr) << type;
    EXPECT_EQ(w->kind, ir::find_layer_type(type)->engine) << type;
  }
}

// Every op type has a shape rule, every layer operation of a row a tile
// operation, and every VP operation of the ISA the layer operation it
// computes, both ways.
TEST(OpTable, EachLibraryKnowsEveryRow) {
  for (const ir::OpDescriptor& d : ir::op_types()) {
    EXPECT_EQ(model::registration(d.type).type, d.type);
    EXPECT_EQ(model::registration(d.type).ark_name(), d.ark_name);
    EXPECT_EQ(model::find_op_type(d.ark_name), &model::registration(d.type));
    for (ir::LayerOp op : {d.op, d.global_op}) {
      (void)model::tile_kind_of(op, true);
      (void)model::tile_kind_of(op, false);
      if (auto vp = assembler::vp_op_of(op)) {
        EXPECT_EQ(assembler::layer_op_of(*vp), op);
      }
    }
  }
  for (std::int64_t v = 0; v < assembler::kVpOps; ++v) {
    const auto vp = static_cast<assembler::VpOp>(v);
    EXPECT_EQ(assembler::vp_op_of(assembler::layer_op_of(vp)), vp);
  }
}

}  // namespace
