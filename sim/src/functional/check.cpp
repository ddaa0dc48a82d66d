// The functional unit's checks (functional.h): every computed tile against
// the reference when it is written (compare_tile: mismatches, coverage, the
// first wrong element and its provenance), and at the end what the program
// stored in DRAM, each element once (finish), into the FunctionalReport.
#include <algorithm>
#include <cstdlib>

#include "../functional.h"

namespace gemini::sim {

using ir::Box;

void Functional::compare_tile(std::int32_t core, const InFlight& f) {
  const std::uint32_t wl =
      program_.cores[static_cast<std::size_t>(core)].program.instrs[f.instr].workload;
  if (f.layer < 0) {
    fault(core, f.instr, "its workload's layer is not an op of the model");
    return;
  }
  const model::Tensor8& want = ref_.outputs[static_cast<std::size_t>(f.layer)];
  const ir::Box whole{
      {0, 0, 0, 0},
      {static_cast<std::int32_t>(want.shape[0] - 1), static_cast<std::int32_t>(want.shape[1] - 1),
       static_cast<std::int32_t>(want.shape[2] - 1), static_cast<std::int32_t>(want.shape[3] - 1)}};
  if (!whole.contains(f.out)) {
    fault(core, f.instr,
          "computes " + ir::to_string(f.out, ir::BoxStyle::corners) +
              " outside its layer's output " + ir::to_string(whole, ir::BoxStyle::corners));
    return;
  }
  LayerCheck& lc = checks_[static_cast<std::size_t>(f.layer)];
  const bool had_first = lc.first.has_value();
  std::vector<bool>& seen = computed_[static_cast<std::size_t>(f.layer)];
  if (seen.empty()) seen.assign(static_cast<std::size_t>(want.size()), false);
  for (std::int32_t n = f.out.lo[0]; n <= f.out.hi[0]; ++n)
    for (std::int32_t c = f.out.lo[1]; c <= f.out.hi[1]; ++c)
      for (std::int32_t h = f.out.lo[2]; h <= f.out.hi[2]; ++h) {
        const auto at = static_cast<std::size_t>(whole.offset(n, c, h, f.out.lo[3]));
        for (std::size_t w = 0; w < static_cast<std::size_t>(f.out.extent(3)); ++w)
          if (!seen[at + w]) {
            seen[at + w] = true;
            ++lc.computed;
          }
      }
  std::int64_t k = 0;
  for (std::int32_t n = f.out.lo[0]; n <= f.out.hi[0]; ++n)
    for (std::int32_t c = f.out.lo[1]; c <= f.out.hi[1]; ++c)
      for (std::int32_t h = f.out.lo[2]; h <= f.out.hi[2]; ++h) {
        const std::int8_t* ref = want.data.data() + whole.offset(n, c, h, f.out.lo[3]);
        for (std::int32_t w = f.out.lo[3]; w <= f.out.hi[3]; ++w, ++k) {
          const auto got = static_cast<std::int32_t>(f.data[static_cast<std::size_t>(k)]);
          const auto exp = static_cast<std::int32_t>(ref[w - f.out.lo[3]]);
          if (got == exp) continue;
          ++lc.tile_mismatches;
          lc.max_abs_diff = std::max(lc.max_abs_diff, std::abs(got - exp));
          if (!lc.first)
            lc.first = Mismatch{
                n,  c,      h,   w,  program_.cores[static_cast<std::size_t>(core)].program.core_id,
                wl, "tile", got, exp};
        }
      }
  lc.tile_elements += k;
  if (!had_first && lc.first) lc.provenance = explain(core, f, *lc.first);
}

FunctionalReport Functional::finish() {
  // What the program stored in DRAM, each element once, against the
  // reference.
  for (std::size_t r = 0; r < program_.dram_regions.size(); ++r) {
    const std::int32_t layer = region_layer_[r];
    if (layer < 0 || stores_[r].empty()) continue;
    const assembler::DramRegion& g = program_.dram_regions[r];
    const model::Tensor8& want = ref_.outputs[static_cast<std::size_t>(layer)];
    const ir::Box layout = g.layout;
    LayerCheck& lc = checks_[static_cast<std::size_t>(layer)];
    if (layout.volume() != want.size()) {
      ++fault_count_;
      faults_.push_back(
          {-1, 0, -1, g.layer, "DRAM tensor " + g.name + " is not the layer's output shape"});
      continue;
    }
    std::vector<bool> seen(static_cast<std::size_t>(layout.volume()), false);
    for (const Store& st : stores_[r]) {
      const ir::Box b = ir::intersect(st.box, layout);
      for (std::int32_t n = b.lo[0]; n <= b.hi[0]; ++n)
        for (std::int32_t c = b.lo[1]; c <= b.hi[1]; ++c)
          for (std::int32_t h = b.lo[2]; h <= b.hi[2]; ++h)
            for (std::int32_t w = b.lo[3]; w <= b.hi[3]; ++w) {
              const auto at = static_cast<std::size_t>(layout.offset(n, c, h, w));
              if (seen[at]) continue;
              seen[at] = true;
              ++lc.dram_elements;
              const auto got =
                  static_cast<std::int32_t>(dram_[static_cast<std::size_t>(g.base) + at]);
              const auto exp = static_cast<std::int32_t>(want.data[at]);
              if (got == exp) continue;
              ++lc.dram_mismatches;
              lc.max_abs_diff = std::max(lc.max_abs_diff, std::abs(got - exp));
              if (!lc.first) {
                // The last store that wrote it.
                const Store* by = &st;
                for (const Store& x : stores_[r])
                  if (x.box.holds(n, c, h, w)) by = &x;
                lc.first = Mismatch{n, c, h, w, by->core, by->workload, "dram", got, exp};
              }
            }
    }
  }
  for (std::size_t i = 0; i < net_.ops.size(); ++i) {
    checks_[i].reference_digest = model::digest(ref_.outputs[i].data);
    checks_[i].defined = ref_.outputs[i].size();
  }
  for (std::size_t r = 0; r < program_.dram_regions.size(); ++r) {
    const std::int32_t layer = region_layer_[r];
    if (layer < 0 || stores_[r].empty()) continue;
    const assembler::DramRegion& g = program_.dram_regions[r];
    const std::vector<std::int8_t> image(dram_.begin() + g.base, dram_.begin() + g.base + g.bytes);
    checks_[static_cast<std::size_t>(layer)].dram_digest = model::digest(image);
  }
  FunctionalReport out;
  out.enabled = true;
  out.seed = ref_.seed;
  out.model = net_.path;
  for (std::int32_t i : net_.order) {
    const LayerCheck& l = checks_[static_cast<std::size_t>(i)];
    out.layers.push_back(l);
    if (l.mismatches() == 0) continue;
    bool inputs_ok = true;
    const model::Op& op = net_.ops[static_cast<std::size_t>(i)];
    for (const auto* parts : {&op.inputs, &op.weights})
      for (const model::InputPart& p : *parts)
        if (!p.external && checks_[static_cast<std::size_t>(p.producer)].mismatches() > 0)
          inputs_ok = false;
    if (inputs_ok) out.origins.push_back(l.layer);
  }
  out.faults = faults_;
  out.fault_count = fault_count_;
  out.bytes_moved = bytes_;
  out.macs = macs_;
  return out;
}

}  // namespace gemini::sim
