#include "gemini/ir/model.h"

#include <algorithm>
#include <boost/container_hash/hash.hpp>

namespace gemini::ir {

const char* to_string(Dialect d) { return d == Dialect::full ? "full" : "set"; }
const char* to_string(LayerKind k) {
  switch (k) {
    case LayerKind::pe:
      return "pe";
    case LayerKind::vp:
      return "vp";
    case LayerKind::dt:
      return "dt";
  }
  return "?";
}
const char* to_string(EndpointType t) { return t == EndpointType::core ? "core" : "DRAM"; }
const char* to_string(DataType t) { return t == DataType::fmap ? "fmap" : "weight"; }
const char* to_string(TensorType t) {
  switch (t) {
    case TensorType::ifmap:
      return "ifmap";
    case TensorType::ofmap:
      return "ofmap";
    case TensorType::weight:
      return "weight";
  }
  return "?";
}
const char* to_string(Wl0Source s) { return s == Wl0Source::core ? "CORE" : "DRAM"; }

std::string tensor_identity(const BufferEntry& b) {
  std::string k;
  if (b.tensor_id) return k.append("id:").append(std::to_string(*b.tensor_id));
  k.append(to_string(b.type)).append(":").append(std::to_string(b.address.value_or(-1)));
  for (TransferId t : b.transfer_id) k.append(",").append(std::to_string(t));
  return k;
}

std::string to_string(const ByteRange& r) {
  std::string s("[");
  s.append(std::to_string(r.begin)).append(", ").append(std::to_string(r.end)).append(")");
  return s;
}

bool same_tensor_identity(const BufferEntry& a, const BufferEntry& b) {
  if (a.tensor_id || b.tensor_id) return a.tensor_id == b.tensor_id;
  return a.type == b.type && a.address.value_or(-1) == b.address.value_or(-1) &&
         a.transfer_id == b.transfer_id;
}

std::size_t tensor_identity_hash(const BufferEntry& b) {
  std::size_t h = 0;
  if (b.tensor_id) {
    boost::hash_combine(h, *b.tensor_id);
    return h;
  }
  boost::hash_combine(h, static_cast<int>(b.type));
  boost::hash_combine(h, b.address.value_or(-1));
  boost::hash_range(h, b.transfer_id.begin(), b.transfer_id.end());
  return h;
}

const Core* Model::find_core(std::int32_t core_id) const {
  auto it = std::lower_bound(cores.begin(), cores.end(), core_id,
                             [](const Core& c, std::int32_t id) { return c.core_id < id; });
  return it != cores.end() && it->core_id == core_id ? &*it : nullptr;
}

const Workload* Model::find_workload(std::int32_t core_id, std::int32_t workload_id) const {
  const Core* c = find_core(core_id);
  if (!c) return nullptr;
  auto it = std::lower_bound(c->workloads.begin(), c->workloads.end(), workload_id,
                             [](const Workload& w, std::int32_t id) { return w.workload_id < id; });
  if (it != c->workloads.end() && it->workload_id == workload_id) return &*it;
  // Workloads out of order (reported by the validator): fall back to a scan.
  for (const Workload& w : c->workloads)
    if (w.workload_id == workload_id) return &w;
  return nullptr;
}

// One past the largest transfer id the file uses anywhere (0 for none).
TransferId next_transfer_id(const Model& m) {
  TransferId top = -1;
  auto see = [&](TransferId t) { top = std::max(top, t); };
  for (const DramIn& e : m.dram_in) {
    see(e.transfer_id);
    for (TransferId t : e.related_ofmap) see(t);
  }
  for (const DramOut& e : m.dram_out) {
    see(e.transfer_id);
    for (TransferId t : e.related_ifmap) see(t);
  }
  for (const Core& c : m.cores)
    for (const Workload& w : c.workloads) {
      for (const Ifmap& f : w.ifmap)
        for (TransferId t : f.transfer_id) see(t);
      for (const Ofmap& f : w.ofmap) see(f.transfer_id);
      if (w.weight)
        for (TransferId t : w.weight->transfer_id) see(t);
      for (const BufferEntry& b : w.buffer) {
        for (TransferId t : b.transfer_id) see(t);
        for (const Source& s : b.source) see(s.transfer_id);
      }
      if (w.wl0_buffer)
        for (const Wl0Entry& e : *w.wl0_buffer)
          for (TransferId t : e.transfer_id) see(t);
    }
  return top + 1;
}


}  // namespace gemini::ir
