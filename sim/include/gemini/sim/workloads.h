#pragma once
// What the scheduler said about each workload (its layer and its predicted
// `time`), by core and workload id: what the report compares the simulated
// times with. Plain C++; read from the IR once per run.

#include <cstdint>
#include <string>
#include <unordered_map>

#include "gemini/ir/model.h"

namespace gemini::sim {

struct WorkloadInfo {
  std::string layer;
  std::int64_t predicted_cycles = 0;  // the IR's `time`
};
// Per core id: workload id -> what the scheduler said about it.
using WorkloadTable =
    std::unordered_map<std::int32_t, std::unordered_map<std::uint32_t, WorkloadInfo>>;
WorkloadTable workload_table(const ir::Model& m);

}  // namespace gemini::sim
