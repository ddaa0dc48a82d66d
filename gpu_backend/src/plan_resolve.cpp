// The resolution checks of a plan against its model (plan_resolve.h).
#include "plan_resolve.h"

#include "gemini/model/layer_params.h"
#include "gemini/model/op_registry.h"
#include "gemini/model/tile_op_factory.h"

namespace gemini::gpu {
ir::Box task_tile_box(const PlanOp& po, std::size_t k) {
  ir::Box b;
  for (int d = 0; d < 4; ++d) {
    b.lo[d] = po.task_tiles[k][static_cast<std::size_t>(d)];
    b.hi[d] = static_cast<std::int32_t>(b.lo[d] + (*po.tile)[static_cast<std::size_t>(d)] - 1);
  }
  return b;
}

bool resolve_plan(const Plan& plan, const model::Network& net, ir::Diagnostics& d,
                  ResolvedTasks& out) {
  std::string kinds;  // every op type of the registry: tile_op_for runs them all
  for (const model::OpRegistration& r : model::all_op_types())
    kinds += (kinds.empty() ? "" : ", ") + std::string(r.ark_name());
  for (const PlanTaskInfo& t : plan.task_infos) {
    std::vector<ResolvedOp> ops;
    for (const PlanOp& po : t.ops) {
      if (po.is_virtual) continue;  // ARK: computes nothing
      const std::int32_t i = net.index_of(po.name);
      const model::Op* op = i >= 0 ? &net.ops[static_cast<std::size_t>(i)] : nullptr;
      if (!model::find_op_type(po.type)) {
        d.report(ir::Check::plan_unsupported, po.pointer + "/Type",
                 "op " + po.name + " is a " + po.type + "; gemini's executors run " + kinds);
        continue;
      }
      if (!op) {
        d.report(ir::Check::plan_unsupported, po.pointer + "/Name",
                 "op " + po.name + " is not an op of the model");
        continue;
      }
      if (po.type != model::to_string(op->type)) {
        d.report(ir::Check::plan_unsupported, po.pointer + "/Type",
                 "op " + po.name + " is a " + po.type + " here, a " + model::to_string(op->type) +
                     " in the model");
        continue;
      }
      // The plan's copy of the op must say what the model says.
      ir::Diagnostics ad(10);
      const std::optional<model::Op> args = model::parse_op_args(po.json, po.pointer, ad);
      if (!args) {
        const ir::Diagnostic& first = ad.items().front();
        d.report(ir::Check::plan_unsupported, first.pointer,
                 "op " + po.name + ": " + first.message);
        continue;
      }
      if (const auto diff = model::differing_argument(*args, *op)) {
        d.report(ir::Check::plan_unsupported, po.pointer + "/Args/" + diff->name,
                 "op " + po.name + ": " + diff->message);
        continue;
      }
      if (!po.tile || static_cast<std::int64_t>(po.task_tiles.size()) != po.num_tasks) {
        d.report(ir::Check::plan_unsupported, po.pointer + "/Config",
                 "op " + po.name + " has no Config \"Tile\" and \"TaskTiles\" for its " +
                     std::to_string(po.num_tasks) +
                     " tasks (gemini's own keys, docs/gpu.md): what a task computes is unknown");
        continue;
      }
      const ir::Box all = model::whole_box(op->ofmap_shape);
      if (const model::OpTileOp t = model::tile_op_for(*op, {}, {}, all); !t.fits()) {
        d.report(ir::Check::plan_unsupported, po.pointer,  // an Eltwise: one input per operand
                 "op " + po.name + " adds " + std::to_string(t.inputs.size()) +
                     " operands; a tile operation takes at most " +
                     std::to_string(model::kMaxTileInputs));
        continue;
      }
      for (std::size_t k = 0; k < po.task_tiles.size(); ++k)
        if (!all.contains(task_tile_box(po, k))) {
          d.report(ir::Check::plan_unsupported,
                   po.pointer + "/Config/TaskTiles/" + std::to_string(k),
                   "task " + std::to_string(k) + " of " + po.name + " covers " +
                       ir::to_string(task_tile_box(po, k)) + ", outside its output " +
                       ir::to_string(all));
          break;
        }
      ops.push_back({i, &po});
    }
    out[t.id] = std::move(ops);
  }
  return d.errors() == 0;
}

}  // namespace gemini::gpu
