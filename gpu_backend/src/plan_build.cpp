#include "gemini/gpu/plan_build.h"

#include <algorithm>
#include <boost/json.hpp>
#include <map>
#include <set>

#include "gemini/model/layer_params.h"
#include "gemini/model/op_registry.h"

namespace gemini::gpu {
namespace json = boost::json;

namespace {

// The model file's ops by name (nodes of one op: "Ops": [op] or "Op": op).
std::map<std::string, const json::value*> model_ops(const json::value& doc) {
  std::map<std::string, const json::value*> out;
  const json::object* top = doc.if_object();
  const json::value* nodes = top ? top->if_contains("Nodes") : nullptr;
  if (!nodes || !nodes->is_array()) return out;
  for (const json::value& n : nodes->get_array()) {
    const json::object* o = n.if_object();
    if (!o) continue;
    auto take = [&](const json::value& op) {
      const json::object* oo = op.if_object();
      const json::value* name = oo ? oo->if_contains("Name") : nullptr;
      if (name && name->is_string()) out[std::string(name->get_string())] = &op;
    };
    if (const json::value* ops = o->if_contains("Ops"); ops && ops->is_array())
      for (const json::value& op : ops->get_array()) take(op);
    if (const json::value* op = o->if_contains("Op")) take(*op);
  }
  return out;
}

// Bytes one task of `op` with output `out` holds: input tile, weights, output.
std::int64_t task_bytes(const model::Op& op, const ir::Box& out) {
  std::int64_t bytes = out.volume() + model::required_ifmap_box(op, out).volume();
  if (op.has_weights()) {
    const std::int64_t per_k = op.weight_shape[1] * op.weight_shape[2] * op.weight_shape[3];
    bytes += out.extent(1) * per_k * (op.weight_from_fmap ? out.extent(0) : 1);
  }
  return bytes;
}

struct Task {
  std::int32_t core = 0, workload = 0;
  ir::Box box;
};

// TaskInfos of one layer (one per tile shape) and its ProcessorGroup.
void add_layer(Plan& p, const model::Op& op, const json::value& op_json, std::vector<Task> tasks) {
  std::sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) {
    return std::tie(a.core, a.workload) < std::tie(b.core, b.workload);
  });
  std::map<std::array<std::int64_t, 4>, std::vector<const Task*>> shapes;
  for (const Task& t : tasks)
    shapes[{t.box.extent(0), t.box.extent(1), t.box.extent(2), t.box.extent(3)}].push_back(&t);
  PlanProcessorGroup g;
  std::map<std::int32_t, PlanResourceGroup> per_core;
  std::int32_t lo = INT32_MAX, hi = -1;
  for (const auto& [shape, list] : shapes) {
    PlanTaskInfo info;
    info.id = static_cast<std::int64_t>(p.task_infos.size());
    info.num_warps = 1;
    PlanOp po;
    po.type = model::to_string(op.type);
    po.name = op.name;
    po.num_tasks = static_cast<std::int64_t>(list.size());
    po.num_warps = 1;
    po.tile = shape;
    json::array tiles;
    for (const Task* t : list) {
      po.sram_bytes = std::max(po.sram_bytes, task_bytes(op, t->box));
      po.task_tiles.push_back({t->box.lo[0], t->box.lo[1], t->box.lo[2], t->box.lo[3]});
      tiles.push_back(json::array{t->box.lo[0], t->box.lo[1], t->box.lo[2], t->box.lo[3]});
    }
    info.sram_bytes = po.sram_bytes;
    json::object o = op_json.as_object();
    o["Config"] = json::object{{"NumWarps", 1},
                               {"SramBytes", po.sram_bytes},
                               {"NumTasks", po.num_tasks},
                               {"Tile", json::array{shape[0], shape[1], shape[2], shape[3]}},
                               {"TaskTiles", std::move(tiles)}};
    po.json = std::move(o);
    info.ops.push_back(std::move(po));
    // Each core's tasks are one run of the sorted list.
    for (std::size_t b = 0; b < list.size();) {
      std::size_t e = b;
      while (e < list.size() && list[e]->core == list[b]->core) ++e;
      const std::int32_t core = list[b]->core;
      PlanResourceGroup& rg = per_core[core];
      rg.processors = {core, core + 1, 1};
      rg.warps = {0, 1, 1};
      rg.sram.end = std::max(rg.sram.end, info.sram_bytes);
      rg.task_groups.push_back(
          {info.id, {static_cast<std::int64_t>(b), static_cast<std::int64_t>(e), 1}, 1, {}});
      lo = std::min(lo, core);
      hi = std::max(hi, core);
      b = e;
    }
    p.task_infos.push_back(std::move(info));
  }
  g.processors = {lo, hi + 1, 1};
  for (auto& [core, rg] : per_core) g.resource_groups.push_back(std::move(rg));
  p.processor_groups.push_back(std::move(g));
}

json::value fallback_op(const model::Op& op) {
  return json::object{{"Type", model::to_string(op.type)},
                      {"Name", op.name},
                      {"IsVirtual", false},
                      {"ReadTensors", json::array{}},
                      {"WriteTensors", json::array{}},
                      {"ResultTensors", json::array{}},
                      {"Args", json::object{}}};
}

}  // namespace

std::optional<Plan> build_plan(const ir::Model& m, const model::Network& net,
                               const json::value& model_doc, ir::Diagnostics& d) {
  const auto ops = model_ops(model_doc);
  std::vector<std::vector<Task>> tasks(net.ops.size());
  std::vector<std::int64_t> first(net.ops.size(), INT64_MAX);
  for (const ir::Core& c : m.cores)
    for (const ir::Workload& w : c.workloads) {
      const std::int32_t i = net.index_of(w.layer_name);
      if (i < 0) {
        d.report(ir::Check::plan_unsupported, m.pointer(w.origin, "/layer_name"),
                 "layer " + w.layer_name + " is not an op of the model");
        continue;
      }
      if (w.workload.rank != 4) continue;
      tasks[static_cast<std::size_t>(i)].push_back({c.core_id, w.workload_id, w.workload});
      first[static_cast<std::size_t>(i)] =
          std::min<std::int64_t>(first[static_cast<std::size_t>(i)], w.workload_id);
    }
  if (d.errors() > 0) return std::nullopt;
  // The schedule's order of the layers, if it is a topological order of the
  // model (SET numbers workloads as it generates them, producers first);
  // else the model's own.
  std::vector<std::int32_t> order = net.order;
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    return first[static_cast<std::size_t>(a)] < first[static_cast<std::size_t>(b)];
  });
  std::vector<std::int32_t> position(net.ops.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    position[static_cast<std::size_t>(order[k])] = static_cast<std::int32_t>(k);
  bool topological = true;
  for (const model::Op& op : net.ops) {
    const std::int32_t me = position[static_cast<std::size_t>(net.index_of(op.name))];
    for (const auto* parts : {&op.inputs, &op.weights})
      for (const model::InputPart& part : *parts)
        if (!part.external && position[static_cast<std::size_t>(part.producer)] > me)
          topological = false;
  }
  if (!topological) order = net.order;
  Plan p;
  p.num_processors = std::max<std::int64_t>(1, m.core_count());
  for (std::int32_t i : order) {
    const model::Op& op = net.ops[static_cast<std::size_t>(i)];
    if (tasks[static_cast<std::size_t>(i)].empty()) continue;  // P003 when it is run
    auto it = ops.find(op.name);
    add_layer(p, op, it != ops.end() ? *it->second : fallback_op(op),
              std::move(tasks[static_cast<std::size_t>(i)]));
  }
  return p;
}

Plan whole_layer_plan(const model::Network& net, const json::value& model_doc) {
  const auto ops = model_ops(model_doc);
  Plan p;
  for (std::int32_t i : net.order) {
    const model::Op& op = net.ops[static_cast<std::size_t>(i)];
    auto it = ops.find(op.name);
    add_layer(p, op, it != ops.end() ? *it->second : fallback_op(op),
              {Task{0, i, model::whole_box(op.ofmap_shape)}});
  }
  return p;
}

}  // namespace gemini::gpu
