#pragma once
// The critical path's waits in the reports (report.h: CriticalPath::waits,
// blames, jump_sums, jumps; docs/timing-model.md, "What the path waited
// for"): lines of `gemini sim`'s text after the path's kinds, and keys of
// the JSON report's "critical_path" object. Plain formatting, no SystemC.

#include <ostream>

#include "gemini/ir/json_writer.h"
#include "gemini/sim/report.h"

namespace gemini::sim {

// "waited for: ..." (every kind, cycles and share; they add up to the
// path), the largest blames of each wait kind, the blocking waits by kind
// and the longest of them.
void print_path_waits(std::ostream& os, const CriticalPath& p);
// "waits" (by kind), "blames", "blocking_waits" (by kind: cycles, count),
// "longest_blocking_waits".
void write_path_waits_json(ir::JsonWriter& w, const CriticalPath& p);

}  // namespace gemini::sim
