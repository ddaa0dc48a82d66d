// Pass 4b, PE and VP instruction selection (lowerer.h). Contract: the
// instructions of one compute event, bound into the core's ops: a PE
// workload's pe_cfg and one pe_run per input tensor (accumulating after
// the first); a VP workload's vp_cfg and a chain of vp_runs (out = in0 op
// in1, then out = out + in_k), each data instruction after its view.
// Kernel, stride, window and padding come from geometry.h only.
#include "select.h"

#include <algorithm>

#include "gemini/assembler/instr_views.h"
#include "geometry.h"
#include "lowerer.h"

namespace gemini::assembler::lowering {

VpOp select_vp_op(const ir::Workload& w, const ir::LayerGeometry& g, std::size_t inputs,
                  const ir::Box* ib) {
  switch (g.op) {
    case ir::LayerOp::pool_max:
      return VpOp::pool_max;
    case ir::LayerOp::pool_avg:
      return VpOp::pool_avg;
    case ir::LayerOp::eltwise:
      return VpOp::add;
    case ir::LayerOp::copy:
      return VpOp::copy;
    case ir::LayerOp::transpose:
      return VpOp::transpose;
    default:
      break;
  }
  const std::string& lt = w.layer_type;
  const bool shrinks =
      ib && ib->rank == 4 && w.workload.rank == 4 &&
      (w.workload.extent(2) < ib->extent(2) || w.workload.extent(3) < ib->extent(3));
  return w.kind == ir::LayerKind::dt ? VpOp::transpose
         : lt == "pool"              ? VpOp::pool_max
         : lt == "element_wise"      ? VpOp::add
         : inputs > 1 && !shrinks    ? VpOp::add
         : shrinks                   ? VpOp::pool_max
                                     : VpOp::copy;
}

void Lowerer::select_pe(CoreBuild& b, const WorkloadBuild& wb, std::int64_t out_bytes) {
  const std::uint32_t c = b.c;
  const ir::Workload& w = wb.w;
  const ir::LayerGeometry& geo = geometry(w.layer_name);
  const Tensor& o = tensors_[c][*wb.out];
  Invocation cfg;
  cfg.op = Opcode::pe_cfg;
  cfg.workload = wb.wid;
  const ir::Tile* tile = w.tile_info && !w.tile_info->empty() ? &w.tile_info->front() : nullptr;
  auto clamp1 = [](std::int64_t v) { return std::max<std::int64_t>(v, 1); };
  cfg.arg("loop",
          loop_order_index(tile ? tile->loop_order : "KNHW").value_or(*loop_order_index("KNHW")));
  const std::string cut = tile ? tile->cut_mode : "KH";
  cfg.arg("cut", cut == "K" ? 1 : cut == "H" ? 2 : cut == "KH" ? 3 : 0);
  cfg.arg("ci_cut", clamp1(tile ? tile->ci_cut_num : 1));
  cfg.arg("mtc0", clamp1(tile ? tile->mtc0_mtk0[0] : 1))
      .arg("mtk0", clamp1(tile ? tile->mtc0_mtk0[1] : 1));
  const char* om[] = {"om_n", "om_k", "om_h", "om_w"};
  const char* am[] = {"am_n", "am_c", "am_h", "am_w"};
  for (int d = 0; d < 4; ++d) {
    cfg.arg(om[d], clamp1(tile ? tile->out_mini_tile[d] : 1));
    cfg.arg(am[d], clamp1(tile ? tile->act_mini_tile[d] : 1));
  }
  const PeGeometry pg = pe_geometry(w, geo, geo_.from_model);
  cfg.arg("pad_t", std::clamp(pg.pad[0], 0, 255)).arg("pad_b", std::clamp(pg.pad[1], 0, 255));
  cfg.arg("pad_l", std::clamp(pg.pad[2], 0, 255)).arg("pad_r", std::clamp(pg.pad[3], 0, 255));
  cfg.arg("r", std::clamp<std::int64_t>(pg.kernel[0], 1, 255))
      .arg("s", std::clamp<std::int64_t>(pg.kernel[1], 1, 255));
  cfg.arg("stride_h", pg.stride[0]).arg("stride_w", pg.stride[1]);
  cfg.arg("wl0",
          w.wl0_buffer && !w.wl0_buffer->empty() ? (*w.wl0_buffer)[0].address.value_or(0) : 0);
  std::vector<std::uint32_t> srcs = wb.ins;
  if (srcs.empty()) srcs.push_back(*wb.out);  // nothing to read: degenerate, reads its own output
  cfg.arg("gk", std::clamp<std::int64_t>(geo.group_k, 1, 0xffff))
      .arg("gc", std::clamp<std::int64_t>(geo.group_c, 1, 0xffff))
      .arg("in_h", std::clamp<std::int64_t>(geo.ifmap_shape[2], 1, 0xffff))
      .arg("in_w", std::clamp<std::int64_t>(geo.ifmap_shape[3], 1, 0xffff))
      .arg("shift", geo.shift)
      .arg("chain", std::min<std::int64_t>(static_cast<std::int64_t>(srcs.size()), 255));
  cfg.flag = geo.per_sample_weights;
  bound(b.ce, cfg, c, wb.i, b.binders.pe_cfg);
  bool acc = false;
  const ir::Box wt_box = wb.wt ? tensors_[c][*wb.wt].box : ir::Box{};
  for (std::uint32_t t : srcs) {
    const Tensor& x = tensors_[c][t];
    view(b, wb, Engine::pe, wb.out_at.shift, wt_box, o.box);
    Invocation run;
    run.op = Opcode::pe_run;
    run.workload = wb.wid;
    run.flag = acc;
    run.tensor("ifmap", {x.addr, x.size, x.box, Access::read});
    run.tensor("weight", {wb.wt ? tensors_[c][*wb.wt].addr : 0,
                          wb.wt ? tensors_[c][*wb.wt].size : 0, std::nullopt, Access::read});
    run.tensor("ofmap", {wb.out_at.addr, out_bytes, to_box(w.workload), Access::write});
    bound(b.ce, run, c, wb.i, b.binders.pe_run);
    acc = true;
  }
}

void Lowerer::select_vp(CoreBuild& b, const WorkloadBuild& wb, std::int64_t out_bytes) {
  const std::uint32_t c = b.c;
  const ir::Workload& w = wb.w;
  const ir::LayerGeometry& geo = geometry(w.layer_name);
  const Tensor& o = tensors_[c][*wb.out];
  const VpOp op = select_vp_op(w, geo, wb.ins.size(),
                               wb.ins.empty() ? nullptr : &tensors_[c][wb.ins.front()].entry->box);
  std::vector<std::uint32_t> srcs = wb.ins;
  if (srcs.empty()) srcs.push_back(*wb.out);
  const Tensor& first_in = tensors_[c][srcs.front()];
  const VpGeometry vg = vp_geometry(
      w, geo, geo_.from_model, op == VpOp::pool_max || op == VpOp::pool_avg, first_in.entry->box);
  Invocation cfg;
  cfg.op = Opcode::vp_cfg;
  cfg.workload = wb.wid;
  cfg.arg("r", std::clamp<std::int64_t>(vg.kernel[0], 1, 255))
      .arg("s", std::clamp<std::int64_t>(vg.kernel[1], 1, 255))
      .arg("stride_h", std::clamp<std::int64_t>(vg.stride[0], 1, 255))
      .arg("stride_w", std::clamp<std::int64_t>(vg.stride[1], 1, 255))
      .arg("pad_t", std::clamp(vg.pad[0], 0, 255))
      .arg("pad_l", std::clamp(vg.pad[2], 0, 255))
      .arg("in_h", std::clamp<std::int64_t>(geo.ifmap_shape[2], 1, 0xffff))
      .arg("in_w", std::clamp<std::int64_t>(geo.ifmap_shape[3], 1, 0xffff))
      .arg("shift", geo.shift);
  cfg.arg("perm", pack_permutation(geo.permutation));
  bound(b.ce, cfg, c, wb.i, b.binders.vp_cfg);
  // The operands: one tensor holding those of an elementwise add as
  // slabs, or one tensor each. A chain of vp_runs over them: out = in0 +
  // in1, then out = out + in_k.
  const bool slabs = srcs.size() == 1 && first_in.operands.size() >= 2 && op == VpOp::add;
  struct Operand {
    std::int64_t addr, bytes;
    ir::Box box;
  };
  std::vector<Operand> in;
  if (slabs) {
    const auto n_slabs = static_cast<std::int64_t>(first_in.operands.size());
    const std::int64_t bytes = std::max<std::int64_t>(1, first_in.size / n_slabs);
    for (std::int64_t k = 0; k < n_slabs; ++k)
      in.push_back({slab_at(c, first_in, k), bytes, first_in.box});
  } else {
    for (std::uint32_t t : srcs)
      in.push_back({tensors_[c][t].addr, tensors_[c][t].size, tensors_[c][t].box});
  }
  for (std::size_t k = 0; k == 0 || k < in.size(); k += (k == 0 ? 2 : 1)) {
    const bool first = k == 0;
    const Operand a = first ? in[0] : Operand{wb.out_at.addr, o.size, o.box};
    const Operand* bx = first ? (in.size() > 1 ? &in[1] : nullptr) : &in[k];
    view(b, wb, Engine::vp, wb.out_at.shift, bx ? bx->box : ir::Box{}, o.box);
    Invocation run;
    run.op = Opcode::vp_run;
    run.workload = wb.wid;
    run.arg("op", static_cast<std::int64_t>(op)).arg("inputs", bx ? 2 : 1);
    run.arg("window", std::clamp<std::int64_t>(vg.window, 1, 255))
        .arg("stride", std::clamp<std::int64_t>(vg.window_stride, 1, 255));
    run.tensor("in0", {a.addr, a.bytes, a.box, Access::read});
    if (bx) {
      run.tensor("in1", {bx->addr, bx->bytes, bx->box, Access::read});
    } else {
      run.tensor("in1", {0, 0, std::nullopt, Access::read, true});
    }
    run.tensor("out", {wb.out_at.addr, out_bytes, to_box(w.workload), Access::write});
    bound(b.ce, run, c, wb.i, b.binders.vp_run);
  }
}

}  // namespace gemini::assembler::lowering
