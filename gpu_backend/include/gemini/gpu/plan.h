#pragma once
// ARK plan files (../shared/spec/ark-plan-file.md): the schedule of a
// reference backend. A plan lists TaskInfos (a sequence of ops and what one
// task of them needs: warps, SRAM), and ProcessorGroups, executed in order,
// whose ResourceGroups hand TaskGroups (a task id and a range of task
// indices) to processors.
//
// load_plan() reads any plan file -- ARK's own tutorial plans included --
// and checks the format's structure (P001, with JSON pointers): the ranges
// ([begin, end] or [begin, end, step]), task ids, NumTasks shared by the
// ops of a TaskInfo, task ranges inside [0, NumTasks), processor ranges
// inside NumProcessors and inside their processor group, warp ranges
// inside NumWarpsPerProcessor, SRAM ranges of step 1, positive
// granularities.
//
// Every integer is checked when read: ranges hold 0 <= begin <= end, a
// `Tile` entry lies in [1, 65535] and a `TaskTiles` one in [0, 65535] (the
// coordinates of a tensor), so that nothing computed from them overflows.
//
// gemini's plans (plan_build.h) carry the model file's ops verbatim, and in
// each op's Config, beside NumWarps / SramBytes / NumTasks, two keys of
// their own (docs/gpu.md): `Tile` [N, C, H, W], the output tile of one task,
// and `TaskTiles`, the first output element [n, c, h, w] of each task. A
// task is one output tile of the op, as one IR workload is.

#include <array>
#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/checked_int.h"
#include "gemini/ir/diagnostics.h"

namespace gemini::gpu {

// An arithmetic sequence [begin, end) with a positive step (0 <= begin, as
// load_plan checks).
struct PlanRange {
  std::int64_t begin = 0, end = 0, step = 1;
  std::int64_t count() const { return end <= begin ? 0 : ir::ceil_div(end - begin, step); }
  std::int64_t at(std::int64_t i) const { return begin + i * step; }
  bool contains(std::int64_t x) const { return x >= begin && x < end && (x - begin) % step == 0; }
  // Whether every element is one of `outer`'s; if not, `outside` is the
  // first that is not. Constant time, whatever the ranges' lengths.
  bool within(const PlanRange& outer, std::int64_t& outside) const;
};

struct PlanOp {
  std::string type, name;
  bool is_virtual = false;
  std::int64_t num_tasks = 0, num_warps = 0, sram_bytes = 0;
  // gemini's Config keys (absent from other plans).
  std::optional<std::array<std::int64_t, 4>> tile;
  std::vector<std::array<std::int32_t, 4>> task_tiles;
  boost::json::value json;  // the op as written (Args, tensors, Config)
  std::string pointer;      // /TaskInfos/i/Ops/j
};

struct PlanTaskInfo {
  std::int64_t id = 0, num_warps = 0, sram_bytes = 0;
  std::vector<PlanOp> ops;
  std::string pointer;
};

struct PlanTaskGroup {
  std::int64_t task_id = 0;
  PlanRange tasks;
  std::int64_t granularity = 1;
  std::string pointer;
};

struct PlanResourceGroup {
  PlanRange processors, warps, sram;
  std::vector<PlanTaskGroup> task_groups;
  std::string pointer;
};

struct PlanProcessorGroup {
  PlanRange processors;
  std::vector<PlanResourceGroup> resource_groups;
  std::string pointer;
};

struct Plan {
  std::int64_t rank = 0, world_size = 1, num_processors = 1, num_warps_per_processor = 1;
  std::optional<std::string> architecture;
  std::vector<PlanTaskInfo> task_infos;
  std::vector<PlanProcessorGroup> processor_groups;

  // The TaskInfo with this Id, or nullptr.
  const PlanTaskInfo* task_info(std::int64_t id) const;
};

// Reads and checks a plan file; nullopt (with P001 errors) when it cannot
// be used.
std::optional<Plan> load_plan(const std::string& path, ir::Diagnostics& d);
// The same from the file's text (syntax errors with line and column,
// repeated keys by pointer).
std::optional<Plan> parse_plan_text(const std::string& text, ir::Diagnostics& d);
std::optional<Plan> parse_plan(const boost::json::value& doc, ir::Diagnostics& d);

// The plan as a JSON document in the file format (what load_plan reads).
boost::json::value plan_json(const Plan& p);
bool write_plan(const Plan& p, const std::string& path, std::string& error);

}  // namespace gemini::gpu
