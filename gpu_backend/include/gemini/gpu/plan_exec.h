#pragma once
// Running a plan (plan.h) on a backend (backend.h) with the layer
// semantics of the model: every task of every op computes its output tile
// through model::tile_element on the backend, reading the op's whole input
// and weights there. Network inputs and constant weights are generated on
// the backend by the counter-based generator; each requantising layer's
// shift is calibrated on its sums once all its tasks ran, as the CPU
// reference does, so the result equals model::compute_reference bit for
// bit (tested).
//
// Processor groups run in order; a group's tasks may run in any order, so
// an op may only read layers completed in earlier groups (P003). P002 for
// ops it does not run (any type but the model's six, a name the model
// lacks, a plan without gemini's Config `Tile` / `TaskTiles`), P003 for a
// layer whose tasks leave outputs uncomputed or that has none.

#include <cstdint>
#include <optional>

#include "gemini/gpu/backend.h"
#include "gemini/gpu/plan.h"
#include "gemini/ir/diagnostics.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"

namespace gemini::gpu {

struct PlanRunStats {
  std::int64_t tasks = 0;       // tasks run (a task of a TaskInfo of k ops counts k)
  std::int64_t elements = 0;    // output elements they computed
  double backend_seconds = 0;   // in Backend::run, requantisation included
  double generate_seconds = 0;  // making inputs and weights on the backend
  double transfer_seconds = 0;  // uploads, downloads and copies on the backend
  double host_seconds = 0;      // host memory for the outputs, tiles placed in layers
};

// `layer_done` (model::LayerDone), when given, is called with each op's
// index once its output is final (progress).
std::optional<model::Reference> run_plan(const Plan& plan, const model::Network& net,
                                         std::uint64_t seed, Backend& backend, ir::Diagnostics& d,
                                         PlanRunStats* stats = nullptr,
                                         const model::LayerDone& layer_done = {});

}  // namespace gemini::gpu
