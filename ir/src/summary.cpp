#include "gemini/ir/summary.h"

#include <boost/json/array.hpp>
#include <set>

#include "gemini/ir/graph.h"

namespace gemini::ir {

Summary summarize(const Model& m) {
  Summary s;
  s.xlen = m.xlen;
  s.ylen = m.ylen;
  std::map<std::string, LayerKind> layers;
  for (const Core& c : m.cores) {
    if (!c.workloads.empty()) ++s.cores_with_work;
    s.workloads_by_core[c.core_id] = c.workloads.size();
    std::int64_t t = 0;
    for (const Workload& w : c.workloads) {
      ++s.workloads;
      ++s.workloads_by_kind[to_string(w.kind)];
      ++s.workloads_by_layer_type[w.layer_type.empty() ? "(absent)" : w.layer_type];
      layers.emplace(w.layer_name, w.kind);
      t += w.time;
      for (const Ofmap& o : w.ofmap) {
        for (const Endpoint& e : o.destination) {
          if (e.type != EndpointType::core) continue;
          Summary::Traffic& tr = e.core_id == c.core_id ? s.same_core : s.core_to_core;
          ++tr.tensors;
          tr.bytes += o.size;
        }
      }
    }
    s.time_by_core[c.core_id] = t;
    s.max_core_time = std::max(s.max_core_time, t);
  }
  s.layers = layers.size();
  for (const auto& [name, kind] : layers) ++s.layers_by_kind[to_string(kind)];
  for (const DramOut& e : m.dram_out) {
    Summary::Traffic& tr = e.type == DataType::weight ? s.dram_read_weight : s.dram_read_fmap;
    ++tr.tensors;
    tr.bytes += e.size;
  }
  const TransferIndex ix(m);
  for (const DramIn& e : m.dram_in) {
    ++s.dram_written.tensors;
    if (const auto* ps = ix.producers(e.transfer_id);
        ps && ps->size() == 1 && !ps->front().from_dram)
      s.dram_written.bytes += ix.ofmap(ps->front()).size;
  }
  const DependencyGraph g(m, ix);
  s.acyclic = !g.find_cycle().has_value();
  if (s.acyclic) {
    const auto p = g.longest_path();
    s.longest_path_time = p.total_time;
    for (auto n : p.nodes) s.longest_path.push_back(g.describe(n));
  }
  return s;
}

namespace {
boost::json::object traffic(const Summary::Traffic& t) {
  return {{"tensors", t.tensors}, {"bytes", t.bytes}};
}
}  // namespace

boost::json::object summary_json(const Model& m, const Summary& s, const std::string& file) {
  boost::json::object o;
  o["file"] = file;
  o["dialect"] = to_string(m.dialect);
  o["xlen"] = s.xlen;
  o["ylen"] = s.ylen;
  if (m.buffersize) o["buffersize"] = *m.buffersize;
  o["workloads"] = s.workloads;
  boost::json::object by_kind, by_type, per_core, time_core;
  for (auto& [k, v] : s.workloads_by_kind) by_kind[k] = v;
  for (auto& [k, v] : s.workloads_by_layer_type) by_type[k] = v;
  for (auto& [k, v] : s.workloads_by_core) per_core[std::to_string(k)] = v;
  for (auto& [k, v] : s.time_by_core) time_core[std::to_string(k)] = v;
  o["workloads_by_kind"] = by_kind;
  o["workloads_by_layer_type"] = by_type;
  o["workloads_by_core"] = per_core;
  o["predicted_time_by_core"] = time_core;
  o["layers"] = s.layers;
  o["dram_read_fmap"] = traffic(s.dram_read_fmap);
  o["dram_read_weight"] = traffic(s.dram_read_weight);
  o["dram_written"] = traffic(s.dram_written);
  o["core_to_core"] = traffic(s.core_to_core);
  o["same_core"] = traffic(s.same_core);
  o["acyclic"] = s.acyclic;
  if (s.acyclic) {
    o["longest_path_time"] = s.longest_path_time;
    boost::json::array p;
    for (const std::string& n : s.longest_path) p.emplace_back(n);
    o["longest_path"] = p;
  }
  return o;
}

SummarizedFile summarize_file(const std::string& path, const LoadOptions& options, Diagnostics& d) {
  SummarizedFile f{load_file(path, d, options), std::nullopt};
  if (f.load.status == LoadStatus::ok && d.errors() == 0) f.summary = summarize(f.load.model);
  return f;
}

}  // namespace gemini::ir
