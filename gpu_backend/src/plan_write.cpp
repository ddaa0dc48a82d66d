// Writing plan files: the plan as a JSON document in the file format (what
// plan_read.cpp reads back), ranges as [begin, end] or [begin, end, step].
#include <boost/json.hpp>
#include <fstream>

#include "gemini/gpu/plan.h"

namespace gemini::gpu {
namespace json = boost::json;

namespace {

json::array range_json(const PlanRange& r) {
  json::array a{r.begin, r.end};
  if (r.step != 1) a.push_back(r.step);
  return a;
}

}  // namespace

json::value plan_json(const Plan& p) {
  json::object top;
  top["Rank"] = p.rank;
  top["WorldSize"] = p.world_size;
  top["NumProcessors"] = p.num_processors;
  top["NumWarpsPerProcessor"] = p.num_warps_per_processor;
  if (p.architecture) top["Architecture"] = *p.architecture;
  json::array infos;
  for (const PlanTaskInfo& t : p.task_infos) {
    json::array ops;
    for (const PlanOp& op : t.ops) ops.push_back(op.json);
    infos.push_back(json::object{{"Id", t.id},
                                 {"NumWarps", t.num_warps},
                                 {"SramBytes", t.sram_bytes},
                                 {"Ops", std::move(ops)}});
  }
  top["TaskInfos"] = std::move(infos);
  json::array groups;
  for (const PlanProcessorGroup& g : p.processor_groups) {
    json::array rgs;
    for (const PlanResourceGroup& rg : g.resource_groups) {
      json::array tgs;
      for (const PlanTaskGroup& tg : rg.task_groups)
        tgs.push_back(json::object{{"TaskId", tg.task_id},
                                   {"TaskRange", range_json(tg.tasks)},
                                   {"Granularity", tg.granularity}});
      rgs.push_back(json::object{{"ProcessorRange", range_json(rg.processors)},
                                 {"WarpRange", range_json(rg.warps)},
                                 {"SramRange", range_json(rg.sram)},
                                 {"TaskGroups", std::move(tgs)}});
    }
    groups.push_back(json::object{{"ProcessorRange", range_json(g.processors)},
                                  {"ResourceGroups", std::move(rgs)}});
  }
  top["ProcessorGroups"] = std::move(groups);
  return top;
}

bool write_plan(const Plan& p, const std::string& path, std::string& error) {
  std::ofstream os(path, std::ios::binary);
  if (os) os << json::serialize(plan_json(p)) << "\n";
  if (!os) {
    error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace gemini::gpu
