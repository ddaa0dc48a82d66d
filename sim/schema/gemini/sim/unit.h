#pragma once
// The unit a statistic or a report figure is counted in: ir's one unit
// vocabulary (gemini/ir/unit.h), which configuration parameters are given
// in too. Named here so that the simulator, its reports and the sweep
// write Unit::cycles.

#include "gemini/ir/unit.h"

namespace gemini::sim {

using ir::to_string;
using ir::Unit;

}  // namespace gemini::sim
