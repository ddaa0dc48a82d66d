// Faults that the functional simulation catches where `gemini validate`
// alone cannot tell: a correct schedule (resnet_b1_2x2_LS of the corpus)
// mutated in one place, still valid, simulated functionally against the
// reference. Each test names the layer and the coordinates the check must
// report. Skipped, saying why, without the corpus.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>

#include "fixture.h"
#include "gemini/assembler/assemble_file.h"
#include "gemini/ir/graph.h"
#include "gemini/ir/import.h"
#include "gemini/ir/layer_geometry.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"
#include "gemini/ir/writer.h"
#include "gemini/model/layer_semantics.h"
#include "gemini/sim/simulator.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

constexpr const char* kFile = "resnet_b1_2x2_LS_IR.json.gz";

class Faults : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (test::corpus_dir().empty() || !std::filesystem::exists(test::corpus_dir() / kFile)) return;
    ir::Diagnostics d;
    semantics_ = model::LayerSemantics::load(test::corpus_model(kFile).string(), 1, d).release();
  }
  static void TearDownTestSuite() {
    delete semantics_;
    semantics_ = nullptr;
  }
  void SetUp() override {
    if (!semantics_) GTEST_SKIP() << test::corpus_absent_message();
  }

  // The public-dialect schedule, as loaded.
  static ir::Model load() {
    ir::Diagnostics d;
    auto r = ir::load_file((test::corpus_dir() / kFile).string(), d);
    EXPECT_EQ(r.status, ir::LoadStatus::ok);
    return std::move(r.model);
  }

  // `validate` finds nothing wrong with it.
  static bool valid(const ir::Model& m, std::string* listing = nullptr) {
    ir::Diagnostics d(50);
    ir::validate(m, test::set_polar(), d);
    if (listing)
      for (const auto& x : d.items())
        if (x.severity == ir::Severity::error)
          *listing += std::string(x.code()) + " " + x.message + "\n";
    return d.errors() == 0;
  }
  static void expect_valid(const ir::Model& m) {
    std::string listing;
    EXPECT_TRUE(valid(m, &listing)) << "validate can tell:\n" << listing;
  }

  // Imports (public dialect) or takes it as it is (full), writes it,
  // assembles with the model's geometry and simulates functionally.
  static sim::Report simulate(ir::Model m, const ir::HardwareConfig& hw = test::set_polar()) {
    ir::Diagnostics d(50);
    if (m.dialect == ir::Dialect::set) {
      EXPECT_TRUE(ir::import_model(m, hw, {}, d));
    }
    const auto path = test::temp_path("fault.json");
    std::string err;
    EXPECT_TRUE(ir::write_full_file(m, path.string(), err)) << err;
    assembler::AssembleOptions ao;
    ao.lower.geometry = &semantics_->geometry;
    ir::Diagnostics ld(50);
    auto f = assembler::assemble_file(path.string(), hw, {}, ld, {}, {}, ao);
    sim::Report r;
    EXPECT_TRUE(f.program) << (f.lower_errors.empty() ? "input refused" : f.lower_errors.front());
    if (!f.program) return r;
    sim::SimOptions o;
    o.xlen = f.model.xlen;
    o.ylen = f.model.ylen;
    o.network = &semantics_->net;
    o.reference = &semantics_->ref;
    std::string error;
    EXPECT_TRUE(sim::simulate(*f.program, hw, sim::workload_table(f.model), o, r, error)) << error;
    std::filesystem::remove(path);
    return r;
  }

  // The functional check fails, and its first failing layer is `layer` (or
  // `other`, when given).
  static const sim::LayerCheck* expect_caught(const sim::Report& r, const std::string& layer,
                                              const std::string& other = "") {
    EXPECT_TRUE(r.functional.enabled);
    EXPECT_FALSE(r.functional.passed());
    const sim::LayerCheck* first = nullptr;
    for (const sim::LayerCheck& l : r.functional.layers)
      if (l.mismatches() > 0) {
        first = &l;
        break;
      }
    EXPECT_NE(first, nullptr) << "no layer mismatches";
    if (!first) return nullptr;
    if (other.empty() || first->layer != other) {
      EXPECT_EQ(first->layer, layer);
    }
    EXPECT_TRUE(first->first.has_value());
    // The report names where wrong values start: that layer.
    EXPECT_NE(std::find(r.functional.origins.begin(), r.functional.origins.end(), first->layer),
              r.functional.origins.end());
    return first;
  }

  static model::LayerSemantics* semantics_;
};
model::LayerSemantics* Faults::semantics_ = nullptr;

// Every buffer entry of a core that is the same tensor as `e` (the public
// dialect repeats a tensor in each snapshot that holds it).
void for_each_copy(ir::Core& c, const ir::BufferEntry& e,
                   const std::function<void(ir::BufferEntry&)>& fn) {
  const ir::BufferEntry key = e;
  for (ir::Workload& w : c.workloads)
    for (ir::BufferEntry& b : w.buffer)
      if (b.type == key.type && b.layer_name == key.layer_name && b.box == key.box &&
          b.transfer_id == key.transfer_id && b.workload_id == key.workload_id)
        fn(b);
}

TEST_F(Faults, AnotherIfmapTransferIdOfTheSameShape) {
  // A workload reading a layer's output back from DRAM is pointed at
  // another layer's DRAM tensor of the same box: the transfer exists, comes
  // from DRAM, holds the box, lists the workload as a destination and
  // completes before it (the first such change that keeps the schedule
  // valid: others would make a cycle).
  const ir::Model base = load();
  std::map<ir::TransferId, std::string> stored;  // DRAM in transfer -> producing layer
  for (const ir::DramIn& e : base.dram_in)
    if (const ir::Workload* w = base.find_workload(e.core_id, e.workload_id))
      stored[e.transfer_id] = w->layer_name;
  auto producer = [&](const ir::DramOut& o) {
    for (ir::TransferId t : o.related_ifmap)
      if (stored.count(t)) return stored[t];
    return std::string();
  };
  for (std::size_t ci = 0; ci < base.cores.size(); ++ci)
    for (std::size_t wi = 0; wi < base.cores[ci].workloads.size(); ++wi)
      for (std::size_t bi = 0; bi < base.cores[ci].workloads[wi].buffer.size(); ++bi) {
        const ir::BufferEntry& b = base.cores[ci].workloads[wi].buffer[bi];
        if (b.type != ir::TensorType::ifmap || b.source.size() != 1 ||
            b.source[0].type != ir::EndpointType::dram)
          continue;
        const ir::Source s = b.source[0];
        auto from =
            std::find_if(base.dram_out.begin(), base.dram_out.end(),
                         [&](const ir::DramOut& o) { return o.transfer_id == s.transfer_id; });
        if (from == base.dram_out.end() || producer(*from).empty()) continue;
        for (std::size_t oi = 0; oi < base.dram_out.size(); ++oi) {
          const ir::DramOut& other = base.dram_out[oi];
          if (other.type != ir::DataType::fmap || other.transfer_id == s.transfer_id ||
              !(other.box == s.box) || producer(other).empty() ||
              producer(other) == producer(*from))
            continue;
          ir::Model m = base;
          ir::Core& c = m.cores[ci];
          const ir::Workload& w = c.workloads[wi];
          const std::int32_t wid = b.workload_id.value_or(w.workload_id);
          const std::string layer = w.layer_name;
          const ir::TransferId t = other.transfer_id;
          for_each_copy(c, c.workloads[wi].buffer[bi], [&](ir::BufferEntry& x) {
            x.source[0].transfer_id = t;
            x.transfer_id = {t};
          });
          for (ir::Workload& x : c.workloads)
            if (x.workload_id == wid)
              for (ir::Ifmap& f : x.ifmap)
                std::replace(f.transfer_id.begin(), f.transfer_id.end(), s.transfer_id, t);
          auto& dst =
              m.dram_out[static_cast<std::size_t>(from - base.dram_out.begin())].destination;
          dst.erase(std::remove_if(dst.begin(), dst.end(),
                                   [&](const ir::Endpoint& e) {
                                     return e.core_id == c.core_id && e.workload_id == wid;
                                   }),
                    dst.end());
          ir::Endpoint e;
          e.type = ir::EndpointType::core;
          e.core_id = c.core_id;
          e.workload_id = wid;
          m.dram_out[oi].destination.push_back(e);
          if (!valid(m)) continue;
          const sim::Report r = simulate(std::move(m));
          const sim::LayerCheck* l = expect_caught(r, layer);
          if (l) {
            EXPECT_EQ(l->first->workload_id, wid);
            // Where it came from: the workload's own load of the other
            // tensor, named by its transfer, and the verdict that the
            // schedule points the workload at the wrong data.
            ASSERT_TRUE(l->provenance.has_value());
            const sim::Provenance& p = *l->provenance;
            EXPECT_GT(p.inputs_differing, 0);
            ASSERT_FALSE(p.writers.empty());
            const sim::Provenance::Writer& by = p.writers.front().first;
            EXPECT_EQ(by.opcode, "dma_in");
            EXPECT_EQ(by.transfer, t);
            EXPECT_NE(p.verdict.find("own dma_in of transfer " + std::to_string(t) +
                                     ", which read " + producer(other) + "'s data"),
                      std::string::npos)
                << p.verdict;
          }
          return;
        }
      }
  FAIL() << "no DRAM read with a same-shaped other tensor in " << kFile;
}

// Removes (core, workload) from the destinations of `transfer`, wherever
// it is produced (a DRAM out entry or a workload's ofmap).
void drop_destination(ir::Model& m, ir::TransferId transfer, std::int32_t core, std::int32_t wid) {
  auto drop = [&](std::vector<ir::Endpoint>& dst) {
    dst.erase(std::remove_if(dst.begin(), dst.end(),
                             [&](const ir::Endpoint& e) {
                               return e.type == ir::EndpointType::core && e.core_id == core &&
                                      e.workload_id == wid;
                             }),
              dst.end());
  };
  for (ir::DramOut& o : m.dram_out)
    if (o.transfer_id == transfer) drop(o.destination);
  for (ir::Core& c : m.cores)
    for (ir::Workload& w : c.workloads)
      for (ir::Ofmap& o : w.ofmap)
        if (o.transfer_id == transfer) drop(o.destination);
}

TEST_F(Faults, IfmapBoxOneRowShortOfItsHalo) {
  // A 3x3 convolution's input tile loses its last row (or column) -- the
  // halo its last output row's windows read -- in the tensor, its sources
  // and the workload's ifmap box alike (a source left empty goes, with its
  // destination).
  const ir::Model base = load();
  for (std::size_t ci = 0; ci < base.cores.size(); ++ci)
    for (std::size_t wi = 0; wi < base.cores[ci].workloads.size(); ++wi) {
      const ir::Workload& bw = base.cores[ci].workloads[wi];
      const model::Op* op = semantics_->net.find(bw.layer_name);
      if (!op || op->type != model::OpType::conv2d || op->kernel[0] != 3 || bw.ifmap.empty())
        continue;
      const ir::Box ib = bw.ifmap.front().box;
      // The spatial dimension the tile is cut along (its far edge is data,
      // not padding).
      int dim = -1;
      for (int d : {2, 3})
        if (ib.hi[d] < op->ifmap_shape[static_cast<std::size_t>(d)] - 1 && ib.hi[d] > ib.lo[d])
          dim = d;
      if (dim < 0) continue;
      for (std::size_t bi = 0; bi < bw.buffer.size(); ++bi) {
        if (bw.buffer[bi].type != ir::TensorType::ifmap || !(bw.buffer[bi].box == ib)) continue;
        ir::Model m = base;
        ir::Core& c = m.cores[ci];
        ir::Workload& w = c.workloads[wi];
        const std::int32_t row = ib.hi[dim], wid = w.workload_id, last = w.workload.hi[dim];
        std::vector<ir::TransferId> gone;
        for_each_copy(c, w.buffer[bi], [&](ir::BufferEntry& x) {
          x.box.hi[dim] = row - 1;
          std::vector<ir::Source> kept;
          for (ir::Source s : x.source) {
            s.box.hi[dim] = std::min(s.box.hi[dim], row - 1);
            if (s.box.lo[dim] > s.box.hi[dim]) {
              gone.push_back(s.transfer_id);
              continue;
            }
            kept.push_back(s);
          }
          x.source = kept;
          x.transfer_id.clear();
          for (const ir::Source& s : kept)
            if (std::find(x.transfer_id.begin(), x.transfer_id.end(), s.transfer_id) ==
                x.transfer_id.end())
              x.transfer_id.push_back(s.transfer_id);
        });
        w.ifmap.front().box.hi[dim] = row - 1;
        std::sort(gone.begin(), gone.end());
        gone.erase(std::unique(gone.begin(), gone.end()), gone.end());
        for (ir::TransferId t : gone) {
          for (ir::Ifmap& f : w.ifmap)
            f.transfer_id.erase(std::remove(f.transfer_id.begin(), f.transfer_id.end(), t),
                                f.transfer_id.end());
          drop_destination(m, t, c.core_id, wid);
        }
        if (!valid(m)) continue;
        const std::string layer = w.layer_name;
        const sim::Report r = simulate(std::move(m));
        const sim::LayerCheck* l = expect_caught(r, layer);
        if (l) {
          EXPECT_EQ(l->first->workload_id, wid);
          EXPECT_EQ(dim == 2 ? l->first->h : l->first->w, last)
              << "the last output row (column) reads the missing input one";
        }
        // The PE says which input its tensor lacks.
        EXPECT_GE(r.functional.fault_count, 1);
        return;
      }
    }
  FAIL() << "no 3x3 convolution tile with a halo row in " << kFile;
}

TEST_F(Faults, WeightKRangeShifted) {
  // A convolution workload's constant weights are loaded for output
  // channels [k0+1, k1+1] instead of [k0, k1]: the DRAM entry, its source
  // and the weight range shifted together, the size the same.
  ir::Model m = load();
  for (ir::Core& c : m.cores)
    for (ir::Workload& w : c.workloads) {
      const model::Op* op = semantics_->net.find(w.layer_name);
      if (!op || op->type != model::OpType::conv2d || !w.weight || w.weight->box.rank != 1 ||
          w.weight->box.hi[0] + 1 >= op->ofmap_shape[1])
        continue;
      for (ir::BufferEntry& b : w.buffer) {
        if (b.type != ir::TensorType::weight || b.source.size() != 1 ||
            b.layer_name != w.layer_name)
          continue;
        const ir::TransferId t = b.source[0].transfer_id;
        auto e = std::find_if(m.dram_out.begin(), m.dram_out.end(),
                              [&](const ir::DramOut& o) { return o.transfer_id == t; });
        if (e == m.dram_out.end() || e->destination.size() != 1) continue;
        for_each_copy(c, b, [&](ir::BufferEntry& x) {
          ++x.box.lo[0];
          ++x.box.hi[0];
          ++x.source[0].box.lo[0];
          ++x.source[0].box.hi[0];
        });
        ++e->box.lo[0];
        ++e->box.hi[0];
        ++w.weight->box.lo[0];
        ++w.weight->box.hi[0];
        const std::string layer = w.layer_name;
        const std::int32_t wid = w.workload_id, k0 = w.workload.lo[1];
        expect_valid(m);
        const sim::Report r = simulate(std::move(m));
        const sim::LayerCheck* l = expect_caught(r, layer);
        if (l) {
          EXPECT_EQ(l->first->workload_id, wid);
          EXPECT_EQ(l->first->k, k0)
              << "its first output channel already has the next one's weights";
        }
        return;
      }
    }
  FAIL() << "no convolution workload with a shiftable weight range in " << kFile;
}

TEST_F(Faults, L2TensorMovedOntoAnElementwiseInputsSecondOperandIsInvalid) {
  // An elementwise layer's input tensor that lists both operands' sources,
  // sized for one operand, and a weight tensor the core holds at the same
  // time moved into the rest -- the bytes where the second operand lands.
  // No snapshot shows an overlap of the entries' sizes, but the lowering
  // lays the tensor out as both operands' slabs: validate counts the slabs
  // (G003, docs/validation.md), so the file is invalid before it can
  // compute wrong (it used to pass validate and race in the simulation).
  ir::Model base = load();
  ir::Diagnostics d;
  ASSERT_TRUE(ir::import_model(base, test::set_polar(), {}, d));
  for (std::size_t ci = 0; ci < base.cores.size(); ++ci)
    for (const ir::Workload& w : base.cores[ci].workloads)
      for (const ir::BufferEntry& e : w.buffer) {
        if (ir::operand_slabs(e).size() != 2 || !e.address || !e.size || !e.tensor_id) continue;
        const std::int64_t slab = e.box.volume();
        for (const ir::BufferEntry& n : w.buffer) {
          if (&n == &e || !n.address || !n.size || !n.tensor_id || *n.size > slab ||
              n.type != ir::TensorType::weight)
            continue;
          ASSERT_TRUE(valid(base));
          ir::Model m = base;
          const std::int64_t e_id = *e.tensor_id, n_id = *n.tensor_id, to = *e.address + slab;
          for (ir::Workload& x : m.cores[ci].workloads)
            for (ir::BufferEntry& b : x.buffer) {
              if (b.tensor_id == e_id) b.size = slab;
              if (b.tensor_id == n_id) b.address = to;
            }
          std::string listing;
          EXPECT_FALSE(valid(m, &listing)) << w.layer_name << " / " << n.layer_name;
          EXPECT_NE(listing.find("G003"), std::string::npos) << listing;
          EXPECT_NE(listing.find("2 operand slabs"), std::string::npos) << listing;
          return;
        }
      }
  FAIL() << "no elementwise input tensor with a weight tensor that can move beside it in " << kFile;
}

}  // namespace
