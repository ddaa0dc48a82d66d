#pragma once
// The critical path in the reports (report.h: CriticalPath; docs/
// timing-model.md, "Critical path" and "What the path waited for"): its
// section of `gemini sim`'s text, and the waits' keys of the JSON report's
// "critical_path" object. Plain formatting, no SystemC.

#include <ostream>

#include "gemini/ir/json_writer.h"
#include "gemini/sim/report.h"

namespace gemini::sim {

// The critical path in a few lines: where its time goes (by kind and by
// what it waited for), the layers it spends it in, its longest segments.
void print_critical_path(std::ostream& os, const CriticalPath& p);
// "waited for: ..." (every kind, cycles and share; they add up to the
// path), the largest blames of each wait kind, the blocking waits by kind
// and the longest of them.
void print_path_waits(std::ostream& os, const CriticalPath& p);
// "waits" (by kind), "blames", "blocking_waits" (by kind: cycles, count),
// "longest_blocking_waits".
void write_path_waits_json(ir::JsonWriter& w, const CriticalPath& p);

}  // namespace gemini::sim
