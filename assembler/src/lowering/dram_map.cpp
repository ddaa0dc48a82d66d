// Pass 2, the DRAM map (lowerer.h). Contract: the DRAM tensors
// (regions_: every layer's output that goes to DRAM, every layer's constant
// weights, every network input, each dense over its whole shape from the
// geometry and the boxes that move, 4 KiB aligned, in order of first
// appearance), the region of each DRAM out and DRAM in transfer, the first
// byte of each DRAM out entry and which DRAM writes each re-reads.
#include <algorithm>

#include "lowerer.h"

namespace gemini::assembler::lowering {
namespace {

const char* region_kind_prefix(DramRegion::Kind k) {
  return k == DramRegion::Kind::input    ? "input:"
         : k == DramRegion::Kind::weight ? "weight:"
                                         : "ofmap:";
}

// The DRAM tensors as they are found: each named once, its shape the
// largest that any box moving it or the geometry gives.
class RegionTable {
 public:
  // The region of (kind, layer or tensor id), added at its first appearance.
  std::uint32_t region(DramRegion::Kind kind, const std::string& layer, std::int64_t tensor_id) {
    const std::string name =
        region_kind_prefix(kind) + (tensor_id >= 0 ? std::to_string(tensor_id) : layer);
    auto [it, fresh] = by_name_.try_emplace(name, static_cast<std::uint32_t>(pending_.size()));
    if (fresh) pending_.push_back({kind, layer, tensor_id, {0, 0, 0, 0}});
    return it->second;
  }
  // Region r covers box b.
  void grow(std::uint32_t r, const ir::Box& b) {
    for (int d = 0; d < 4; ++d)
      pending_[r].shape[static_cast<std::size_t>(d)] =
          std::max(pending_[r].shape[static_cast<std::size_t>(d)], std::int64_t{b.hi[d]} + 1);
  }
  // Region r covers `shape` (where it is known: N > 0).
  void set_shape(std::uint32_t r, const std::array<std::int32_t, 4>& shape) {
    if (shape[0] <= 0) return;
    for (std::size_t d = 0; d < 4; ++d)
      pending_[r].shape[d] = std::max<std::int64_t>(pending_[r].shape[d], shape[d]);
  }
  // The regions with their addresses, in order of first appearance, each
  // 4 KiB aligned; the end of the address map.
  std::int64_t place(std::vector<DramRegion>& out) const {
    std::int64_t a = 0;
    for (const Pending& p : pending_) {
      DramRegion g;
      g.kind = p.kind;
      g.layer = p.layer;
      g.tensor_id = p.tensor_id;
      g.name =
          region_kind_prefix(p.kind) + (p.tensor_id >= 0 ? std::to_string(p.tensor_id) : p.layer);
      for (int d = 0; d < 4; ++d)
        g.layout.hi[d] = std::max<std::int64_t>(p.shape[static_cast<std::size_t>(d)], 1) - 1;
      g.bytes = g.layout.volume();
      g.base = a;
      a += (std::max<std::int64_t>(g.bytes, 1) + 4095) / 4096 * 4096;
      out.push_back(std::move(g));
    }
    return a;
  }

 private:
  struct Pending {
    DramRegion::Kind kind;
    std::string layer;
    std::int64_t tensor_id;
    std::array<std::int64_t, 4> shape;
  };
  std::vector<Pending> pending_;
  FlatMap<std::string, std::uint32_t> by_name_;
};

}  // namespace

// The DRAM tensors (docs/isa.md, "Data layout"): every layer's output that
// goes to DRAM, every layer's constant weights and every network input,
// each dense over its whole shape, 4 KiB aligned, in order of first
// appearance (DRAM out entries, then DRAM in entries, in file order). A
// DRAM transfer moves a box of one of them: a read-back of spilled data
// (related_ifmap) reads the bytes the producer's dma_out wrote.
void Lowerer::build_dram_map() {
  // The producer of each DRAM out fmap: the layer its readers' buffer
  // sources name, else that of the DRAM in entries it re-reads.
  FlatMap<TransferId, const std::string*> producer;
  for (const ir::Core& c : m_.cores)
    for (const ir::Workload& w : c.workloads)
      for (const ir::BufferEntry& b : w.buffer)
        for (const ir::Source& s : b.source)
          if (s.type == ir::EndpointType::dram && s.layer_name)
            producer.try_emplace(s.transfer_id, &*s.layer_name);
  FlatMap<TransferId, const ir::DramIn*> dram_in;
  for (const ir::DramIn& e : m_.dram_in) dram_in.emplace(e.transfer_id, &e);
  auto in_layer = [&](const ir::DramIn& e) -> std::string {
    if (e.layer_name) return *e.layer_name;
    const ir::Workload* w = m_.find_workload(e.core_id, e.workload_id);
    return w ? w->layer_name : std::string();
  };
  // The consumer of a DRAM out entry: its layer name (the public dialect
  // names the consumer), else its first destination's layer.
  auto consumer_of = [&](const ir::DramOut& e) -> std::string {
    for (const ir::Endpoint& d : e.destination)
      if (d.workload_id)
        if (const ir::Workload* w = m_.find_workload(d.core_id, *d.workload_id))
          return w->layer_name;
    return e.layer_name.value_or("");
  };
  RegionTable table;
  for (const ir::DramOut& e : m_.dram_out) {
    related_[e.transfer_id] = &e.related_ifmap;
    const std::string consumer = consumer_of(e);
    if (e.type == ir::DataType::weight) {
      const std::uint32_t r = table.region(DramRegion::Kind::weight, consumer, -1);
      const ir::LayerGeometry& g = geometry(consumer);
      table.grow(r, weight_layout(e.box, g, e.size));
      if (g.weight_shape[0] > 0) table.set_shape(r, g.weight_shape);
      out_region_[e.transfer_id] = r;
      continue;
    }
    std::string from;
    if (auto p = producer.find(e.transfer_id); p != producer.end()) {
      from = *p->second;
    } else {
      for (TransferId t : e.related_ifmap)
        if (auto d = dram_in.find(t); d != dram_in.end()) {
          from = in_layer(*d->second);
          break;
        }
    }
    std::uint32_t r = 0;
    if (from.empty() || from == "input" || !geo_.find(from)) {
      // Network input: the consumer's external tensor whose channels the
      // transfer's box covers, where the geometry lists them.
      std::int64_t tensor_id = -1;
      std::array<std::int32_t, 4> shape{};
      for (const ir::LayerGeometry::External& x : geometry(consumer).externals) {
        tensor_id = x.tensor_id;
        shape = x.shape;
        if (e.box.rank == 4 && e.box.hi[1] < x.shape[1]) break;
      }
      r = table.region(DramRegion::Kind::input, consumer, tensor_id);
      table.set_shape(r, shape);
    } else {
      r = table.region(DramRegion::Kind::ofmap, from, -1);
      table.set_shape(r, geometry(from).ofmap_shape);
    }
    if (e.box.rank == 4) table.grow(r, to_box(e.box));
    out_region_[e.transfer_id] = r;
  }
  for (const ir::DramIn& e : m_.dram_in) {
    const std::string layer = in_layer(e);
    const std::uint32_t r = table.region(DramRegion::Kind::ofmap, layer, -1);
    table.set_shape(r, geometry(layer).ofmap_shape);
    if (e.box.rank == 4) table.grow(r, to_box(e.box));
    in_region_[e.transfer_id] = r;
  }
  const std::int64_t end = table.place(regions_);
  // A weight slice's address (WL0 loads straight from DRAM read it raw).
  for (const ir::DramOut& e : m_.dram_out) {
    const std::uint32_t r = out_region_[e.transfer_id];
    ir::Box at;
    at.lo[0] = e.box.lo[ir::weight_k_dim(e.box)];
    if (e.type != ir::DataType::weight && e.box.rank == 4) at = to_box(e.box);
    dram_out_addr_[e.transfer_id] = dram_address(r, at);
  }
  dram_end_ = end;
}

}  // namespace gemini::assembler::lowering
