// The functional unit's set-up and bookkeeping (functional.h): whether a
// program can run functionally and the DRAM image it starts from (create),
// the memories, faults (the first 100 kept, all counted) and what an
// instruction's workload is in the model.
#include <algorithm>
#include <string>

#include "../functional.h"
#include "gemini/ir/checked_int.h"
#include "gemini/model/layer_params.h"

namespace gemini::sim {

using ir::Box;

std::unique_ptr<Functional> Functional::create(const assembler::Program& p,
                                               const model::Network& net,
                                               const model::Reference& ref,
                                               const ir::MemoryLimit& limit, std::string& error) {
  if (!p.exact_geometry) {
    error = "the program was lowered without the layer semantics (--model): it cannot compute";
    return nullptr;
  }
  // The memories it holds: the DRAM image and every core's L2 and WL0.
  ir::CheckedI64 per_core(std::max<std::int64_t>(p.l2_bytes, 0));
  per_core += std::max<std::int64_t>(p.wl0_bytes, 0);
  ir::CheckedI64 bytes = per_core;
  bytes *= static_cast<std::int64_t>(p.cores.size());
  bytes += std::max<std::int64_t>(p.dram_bytes, 0);
  if (auto why = ir::exceeds(limit, bytes.get(), "the functional simulation",
                             ir::format_bytes(std::max<std::int64_t>(p.dram_bytes, 0)) +
                                 " of DRAM image, " + std::to_string(p.cores.size()) +
                                 " cores x (" + ir::format_bytes(p.l2_bytes) + " of L2 + " +
                                 ir::format_bytes(p.wl0_bytes) + " of WL0)")) {
    error = *why;
    return nullptr;
  }
  std::unique_ptr<Functional> f(new Functional(p, net, ref));
  // The DRAM image: network inputs and constant weights from the
  // generator, at the addresses the assembler chose; layer outputs zero.
  for (std::size_t r = 0; r < p.dram_regions.size(); ++r) {
    const assembler::DramRegion& g = p.dram_regions[r];
    const model::Tensor8* t = nullptr;
    model::Tensor8 weights;
    if (g.kind == assembler::DramRegion::Kind::input) {
      for (std::size_t e = 0; e < net.externals.size(); ++e)
        if (net.externals[e].tensor_id == g.tensor_id) t = &ref.externals[e];
      if (!t) {
        error = "DRAM tensor " + g.name + " is no input of the model";
        return nullptr;
      }
    } else if (g.kind == assembler::DramRegion::Kind::weight) {
      const model::Op* op = net.find(g.layer);
      if (!op || !op->has_weights() || op->weight_from_fmap) {
        error =
            "DRAM tensor " + g.name + ": the model has no constant weights for layer " + g.layer;
        return nullptr;
      }
      weights = model::generate_weights(*op, ref.seed);
      t = &weights;
    } else {
      f->region_layer_[r] = net.index_of(g.layer);
      continue;
    }
    if (static_cast<std::int64_t>(t->data.size()) != g.bytes) {
      error = "DRAM tensor " + g.name + " holds " + std::to_string(g.bytes) +
              " bytes; the model's has " + std::to_string(t->data.size());
      return nullptr;
    }
    std::copy(t->data.begin(), t->data.end(), f->dram_.begin() + g.base);
  }
  return f;
}

Functional::Functional(const assembler::Program& p, const model::Network& net,
                       const model::Reference& ref)
    : program_(p),
      net_(net),
      ref_(ref),
      dram_(static_cast<std::size_t>(std::max<std::int64_t>(p.dram_bytes, 0)), 0),
      cores_(p.cores.size()),
      region_layer_(p.dram_regions.size(), -1),
      stores_(p.dram_regions.size()),
      checks_(net.ops.size()),
      computed_(net.ops.size()) {
  for (std::size_t c = 0; c < p.cores.size(); ++c) {
    cores_[c].l2.assign(static_cast<std::size_t>(p.l2_bytes), 0);
    cores_[c].wl0.assign(static_cast<std::size_t>(p.wl0_bytes), 0);
    cores_[c].ring = p.cores[c].ring;
  }
  for (std::size_t i = 0; i < net.ops.size(); ++i) checks_[i].layer = net.ops[i].name;
}

void Functional::fault(std::int32_t core, std::uint32_t instr, const std::string& message) {
  ++fault_count_;
  if (faults_.size() >= 100) return;
  const assembler::LoweredCore& lc = program_.cores[static_cast<std::size_t>(core)];
  FunctionalFault f;
  f.core_id = lc.program.core_id;
  f.instruction = instr;
  const std::uint32_t wl = lc.program.instrs[instr].workload;
  if (wl != 0xffffffffu) {
    f.workload_id = wl;
    if (auto it = lc.layers.find(wl); it != lc.layers.end()) f.layer = it->second;
  }
  f.message = std::string(lc.program.instrs[instr].info().mnemonic) + ": " + message;
  faults_.push_back(std::move(f));
}

std::int32_t Functional::layer_of(std::int32_t core, std::uint32_t workload) const {
  const auto& layers = program_.cores[static_cast<std::size_t>(core)].layers;
  auto it = layers.find(workload);
  return it == layers.end() ? -1 : net_.index_of(it->second);
}

TileSite Functional::site(std::int32_t core, std::uint32_t instr) const {
  const assembler::LoweredCore& c = program_.cores[static_cast<std::size_t>(core)];
  const std::uint32_t wl = c.program.instrs[instr].workload;
  return {c.program.core_id, instr, wl == 0xffffffffu ? -1 : static_cast<std::int64_t>(wl),
          layer_of(core, wl)};
}

}  // namespace gemini::sim
