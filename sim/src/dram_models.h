#pragma once
// The DRAM model implementations, chosen by name in dram_model.cpp.
#include "gemini/sim/dram_model.h"

namespace gemini::sim {
std::unique_ptr<DramModel> make_simple_dram(double gbps, Tick latency);
std::unique_ptr<DramModel> make_banked_dram(const ir::DramTiming& t, std::int32_t window,
                                            std::int32_t depth);
}  // namespace gemini::sim
