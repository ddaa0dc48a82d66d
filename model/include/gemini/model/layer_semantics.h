#pragma once
// Everything `--model` brings to a run, in one place (the CLI, the golden
// cases and the tests share it): the network, its seeded reference (whose
// calibrated shifts are part of the network's parameters, as its weights
// are), the exact layer geometry the lowering follows, and the correction
// and checking of a schedule against the semantics.

#include <cstdint>
#include <memory>
#include <string>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/layer_geometry.h"
#include "gemini/ir/model.h"
#include "gemini/ir/resources.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"
#include "gemini/model/semantics.h"

namespace gemini::model {

struct LayerSemantics {
  Network net;
  Reference ref;
  ir::GeometryTable geometry;
  // The corrections the last apply() made.
  mutable QuirkCounts quirks;

  // Loads the model file and computes its reference with `seed`; nullptr
  // with the model file's diagnostics (M001) in `d`, among them a reference
  // that would need more memory than `limit`.
  static std::unique_ptr<LayerSemantics> load(const std::string& path, std::uint64_t seed,
                                              ir::Diagnostics& d, unsigned threads = 0,
                                              const ir::MemoryLimit& limit = {});
  // Corrects the schedule's known quirks (M009 warnings) and checks it
  // against the semantics (M002-M008). Returns whether the corrections
  // changed its transfers (graphs built before are stale). `hw`: the L2
  // the corrections make room in (correct_quirks; the defaults without).
  bool apply(ir::Model& m, ir::Diagnostics& d, const ir::HardwareConfig* hw = nullptr) const;
};

}  // namespace gemini::model
