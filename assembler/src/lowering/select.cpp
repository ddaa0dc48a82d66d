// Pass 4b, PE and VP instruction selection (lowerer.h). Contract: the
// instructions of one compute event, bound into the core's ops: a PE
// workload's pe_cfg and one pe_run per input tensor (accumulating after
// the first); a VP workload's vp_cfg and a chain of vp_runs (out = in0 op
// in1, then out = out + in_k), each data instruction after its view.
// Kernel, stride, window and padding come from geometry.h only. pe_cfg,
// vp_cfg and vp_run are built through their typed views (instr_views.h)
// and encode(): a value outside its field's range in the ISA table is an
// error naming the workload ("core 3 workload 17 (conv5): pe_cfg
// pad_t=300 outside [0, 255]"), never clamped into it.
#include "select.h"

#include <algorithm>

#include "gemini/assembler/instr_views.h"
#include "geometry.h"
#include "lowerer.h"

namespace gemini::assembler::lowering {

VpOp select_vp_op(const ir::Workload& w, const ir::LayerGeometry& g, std::size_t inputs,
                  const ir::Box* ib) {
  if (const std::optional<VpOp> op = vp_op_of(g.op)) return *op;
  if (w.kind == ir::LayerKind::dt) return VpOp::transpose;
  if (const std::optional<VpOp> own = vp_op_of(ir::layer_op_of(w))) return *own;
  const bool shrinks =
      ib && ib->rank == 4 && w.workload.rank == 4 &&
      (w.workload.extent(2) < ib->extent(2) || w.workload.extent(3) < ib->extent(3));
  return inputs > 1 && !shrinks ? VpOp::add : shrinks ? VpOp::pool_max : VpOp::copy;
}

namespace {

// Appends the instruction a typed view describes to the core's ops; false
// (a nop stands in, `err` says which field) when a value is outside its
// field's range: the caller names the workload.
template <typename V>
bool put(CoreEvents& ce, const V& v, std::string& err) {
  Instr& in = ce.ops.emplace_back();
  if (encode(v, in, err)) return true;
  in = Instr{};
  return false;
}

// A tile_info count of 0 (the IR allows it: nothing to cut) is 1 in pe_cfg,
// as is every count of a workload without tile_info.
std::int64_t count_or_one(std::int64_t v) { return std::max<std::int64_t>(v, 1); }

}  // namespace

void Lowerer::select_pe(CoreBuild& b, const WorkloadBuild& wb, std::int64_t out_bytes) {
  const std::uint32_t c = b.c;
  const ir::Workload& w = wb.w;
  const ir::LayerGeometry& geo = geometry(w.layer_name);
  const Tensor& o = tensors_[c][*wb.out];
  const ir::Tile* tile = w.tile_info && !w.tile_info->empty() ? &w.tile_info->front() : nullptr;
  std::vector<std::uint32_t> srcs = wb.ins;
  if (srcs.empty()) srcs.push_back(*wb.out);  // nothing to read: degenerate, reads its own output
  PeConfig cfg;
  cfg.workload = wb.wid;
  cfg.loop = loop_order_index(tile ? tile->loop_order : "KNHW").value_or(*loop_order_index("KNHW"));
  cfg.cut = cut_mode_of_tile(tile ? std::string_view(tile->cut_mode) : "KH");
  cfg.ci_cut = count_or_one(tile ? tile->ci_cut_num : 1);
  cfg.mtc0 = count_or_one(tile ? tile->mtc0_mtk0[0] : 1);
  cfg.mtk0 = count_or_one(tile ? tile->mtc0_mtk0[1] : 1);
  const std::array<std::int32_t, 4> ones{1, 1, 1, 1};
  const std::array<std::int32_t, 4>& om = tile ? tile->out_mini_tile : ones;
  const std::array<std::int32_t, 4>& am = tile ? tile->act_mini_tile : ones;
  cfg.om_n = count_or_one(om[0]);
  cfg.om_k = count_or_one(om[1]);
  cfg.om_h = count_or_one(om[2]);
  cfg.om_w = count_or_one(om[3]);
  cfg.am_n = count_or_one(am[0]);
  cfg.am_c = count_or_one(am[1]);
  cfg.am_h = count_or_one(am[2]);
  cfg.am_w = count_or_one(am[3]);
  const PeGeometry pg = pe_geometry(w, geo, geo_.from_model);
  cfg.pad_t = pg.pad[0];
  cfg.pad_b = pg.pad[1];
  cfg.pad_l = pg.pad[2];
  cfg.pad_r = pg.pad[3];
  cfg.r = pg.kernel[0];
  cfg.s = pg.kernel[1];
  cfg.stride_h = pg.stride[0];
  cfg.stride_w = pg.stride[1];
  cfg.wl0 = w.wl0_buffer && !w.wl0_buffer->empty() ? (*w.wl0_buffer)[0].address.value_or(0) : 0;
  cfg.gk = geo.group_k;
  cfg.gc = geo.group_c;
  cfg.in_h = geo.ifmap_shape[2];
  cfg.in_w = geo.ifmap_shape[3];
  cfg.shift = geo.shift;
  cfg.chain = static_cast<std::int64_t>(srcs.size());
  cfg.per_sample = geo.per_sample_weights;
  if (std::string err; !put(b.ce, cfg, err)) error(b.ce, who(c, wb.i) + ": pe_cfg " + err);
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
  VpConfig cfg;
  cfg.workload = wb.wid;
  cfg.r = vg.kernel[0];
  cfg.s = vg.kernel[1];
  cfg.stride_h = vg.stride[0];
  cfg.stride_w = vg.stride[1];
  cfg.pad_t = vg.pad[0];
  cfg.pad_l = vg.pad[2];
  cfg.in_h = geo.ifmap_shape[2];
  cfg.in_w = geo.ifmap_shape[3];
  cfg.shift = geo.shift;
  cfg.perm = pack_permutation(geo.permutation);
  if (std::string err; !put(b.ce, cfg, err)) error(b.ce, who(c, wb.i) + ": vp_cfg " + err);
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
    VpRun run;
    run.workload = wb.wid;
    run.op = op;
    run.inputs = bx ? 2 : 1;
    run.window = vg.window;
    run.stride = vg.window_stride;
    run.in0 = a.addr;
    run.in1 = bx ? bx->addr : 0;  // unused with one input
    run.out = wb.out_at.addr;
    run.in_bytes = a.bytes;
    run.out_bytes = out_bytes;
    run.in_box = a.box;
    run.out_box = to_box(w.workload);
    if (std::string err; !put(b.ce, run, err)) error(b.ce, who(c, wb.i) + ": vp_run " + err);
  }
}

}  // namespace gemini::assembler::lowering
