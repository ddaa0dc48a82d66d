#pragma once
// gemini plan: a schedule written as an ARK plan (plan.h). NumProcessors is
// the mesh's cores (processor p = core id p), one warp each. Per layer and
// output-tile shape, one TaskInfo holding the model file's op verbatim,
// whose tasks are the layer's IR workloads of that shape (Config `Tile`
// and `TaskTiles`), ordered by core and workload id so that each core's
// tasks are one TaskRange. One ProcessorGroup per layer, in the
// schedule's dependency order (the order of the layers' first workloads,
// a topological order of the model), over the cores the layer runs on,
// with one ResourceGroup per core. SramBytes is what one task holds: its
// input tile (the halo rule), weights and output, int8.

#include <boost/json/value.hpp>
#include <optional>

#include "gemini/gpu/plan.h"
#include "gemini/ir/diagnostics.h"
#include "gemini/ir/model.h"
#include "gemini/model/network.h"

namespace gemini::gpu {

// `model_doc`: the ARK model file `net` was loaded from (its ops are copied
// into the plan). P002 for a workload whose layer the model lacks.
std::optional<Plan> build_plan(const ir::Model& m, const model::Network& net,
                               const boost::json::value& model_doc, ir::Diagnostics& d);

// One task per layer -- its whole output -- in the model's order: what
// `gemini ref --backend` runs without --plan.
Plan whole_layer_plan(const model::Network& net, const boost::json::value& model_doc);

}  // namespace gemini::gpu
