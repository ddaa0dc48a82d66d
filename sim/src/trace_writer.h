#pragma once
// Chrome trace-event JSON (loads in Perfetto and chrome://tracing): one
// process per core with one thread per engine, and one process per DRAM port
// with a read and a write track. Timestamps are microseconds of simulated
// time; every event is a complete ("X") event named after its opcode.
#include <string>
#include <vector>

#include "program_image.h"
#include "sim_context.h"

namespace gemini::sim {
bool write_chrome_trace(const std::string& path, const SimContext& ctx,
                        const std::vector<CoreImage>& images, std::string& error);
}  // namespace gemini::sim
