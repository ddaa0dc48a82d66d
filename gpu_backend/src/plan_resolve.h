#pragma once
// The resolution checks of a plan against its model, before anything runs
// (plan_exec.h): every non-virtual op of every TaskInfo must be an op type
// of the registry, name an op of the model with that type and the same
// arguments, carry gemini's Config `Tile` and `TaskTiles` for each of its
// tasks, fit one tile operation (model::tile_op_for) and cover tiles inside
// its output. What does not is a P002 at the op's pointer; what does is
// resolved to the model's op.

#include <cstdint>
#include <map>
#include <vector>

#include "gemini/gpu/plan.h"
#include "gemini/ir/diagnostics.h"
#include "gemini/model/network.h"
#include "gemini/model/tile_ops.h"

namespace gemini::gpu {

// One op of the plan resolved against the model.
struct ResolvedOp {
  std::int32_t op = -1;  // into Network::ops
  const PlanOp* plan_op = nullptr;
};
// Per TaskInfo Id, its ops that compute (virtual ones left out).
using ResolvedTasks = std::map<std::int64_t, std::vector<ResolvedOp>>;

// Resolves every TaskInfo of the plan into `out`; false when a P002 was
// reported (d.errors() > 0).
bool resolve_plan(const Plan& plan, const model::Network& net, ir::Diagnostics& d,
                  ResolvedTasks& out);

// The output box of task k of a plan op: from TaskTiles[k], Tile long.
ir::Box task_tile_box(const PlanOp& po, std::size_t k);

}  // namespace gemini::gpu
