#pragma once
// Chrome trace-event JSON (loads in Perfetto and chrome://tracing): one
// process per core with one thread per engine, and one process per DRAM port
// with a read and a write track. Timestamps are microseconds of simulated
// time; every event is a complete ("X") event named after its opcode. With
// power over time (power.h), counter ("C") tracks too: a "power (W)" track
// in each core's process, and a "power" process with the package's, DRAM's
// and each die's power by component, one sample per window and a last one
// of 0 at the run's end.
#include <optional>
#include <string>
#include <vector>

#include "gemini/sim/power.h"
#include "program_image.h"
#include "sim_context.h"

namespace gemini::sim {
bool write_chrome_trace(const std::string& path, const SimContext& ctx,
                        const std::vector<CoreImage>& images,
                        const std::optional<PowerReport>& power, std::string& error);
}  // namespace gemini::sim
