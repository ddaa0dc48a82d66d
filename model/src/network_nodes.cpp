// The model loader's nodes (network_loader.h): the Nodes list, each node's
// one op with its tensors, then the links and checks of network_links.cpp.
#include "network_loader.h"

namespace gemini::model::detail {
namespace json = boost::json;

std::optional<Network> Loader::run(const json::value& top) {
  Network net;
  net.path = path_;
  const json::object* o = json_.object(&top, "", "the model (its top-level value)");
  if (!o) return std::nullopt;
  const json::array* nodes = json_.array(json_.member(*o, "", "Nodes"), "/Nodes", "\"Nodes\"");
  if (!nodes) return std::nullopt;
  const json::array& arr = *nodes;
  std::map<std::int64_t, std::int32_t> by_node;  // node id -> op index
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string at = "/Nodes/" + std::to_string(i);
    Op op;
    std::vector<std::int64_t> producers;
    if (!node(arr[i], at, op, producers)) continue;
    if (!by_node.emplace(op.node_id, static_cast<std::int32_t>(net.ops.size())).second) {
      error(at + "/Id", "node id " + std::to_string(op.node_id) + " repeats");
      continue;
    }
    if (!net.by_name.emplace(op.name, static_cast<std::int32_t>(net.ops.size())).second) {
      error(op.pointer + "/Name", "op name \"" + op.name + "\" repeats");
      continue;
    }
    listed_producers_.push_back(std::move(producers));
    node_at_.push_back(at);
    net.ops.push_back(std::move(op));
  }
  if (failed_) return std::nullopt;
  resolve(net, by_node);
  if (failed_) return std::nullopt;
  sort(net);
  if (failed_) return std::nullopt;
  for (const Op& op : net.ops) check_shapes(net, op);
  if (failed_) return std::nullopt;
  return net;
}

bool Loader::node(const json::value& v, const std::string& at, Op& op,
                  std::vector<std::int64_t>& producers) {
  const json::object* n = json_.object(&v, at, "a node");
  if (!n) return false;
  const auto id = json_.integer(*n, at, "Id", 0, INT32_MAX);
  if (!id) return false;
  op.node_id = static_cast<std::int32_t>(*id);
  if (const json::value* p = n->if_contains("ProducerNodeIds"))
    if (!ints(*p, at + "/ProducerNodeIds", producers)) return false;
  const json::object* o = nullptr;
  std::string op_at;
  if (const json::value* ops = n->if_contains("Ops")) {
    const json::array* a = ops->if_array();
    if (!a || a->size() != 1)
      return error(at + "/Ops", "gemini reads nodes of exactly one op"), false;
    o = (*a)[0].if_object();
    op_at = at + "/Ops/0";
  } else if (const json::value* one = n->if_contains("Op")) {
    o = one->if_object();
    op_at = at + "/Op";
  } else {
    return error(at, "a node needs \"Ops\""), false;
  }
  if (!o) return error(op_at, "an op must be an object"), false;
  op.pointer = op_at;
  const OpRegistration* reg = op_type(*o, op_at, op);
  if (!reg) return false;
  if (const json::value* virt = o->if_contains("IsVirtual")) {
    const auto is_virtual = json_.boolean(*virt, op_at + "/IsVirtual");
    if (!is_virtual) return false;
    if (*is_virtual)
      return error(op_at + "/IsVirtual", "virtual ops are not computed by gemini"), false;
  }
  std::vector<TensorRef> reads, results, writes;
  if (!tensors(*o, "ReadTensors", op_at, reads) || !tensors(*o, "ResultTensors", op_at, results) ||
      !tensors(*o, "WriteTensors", op_at, writes))
    return false;
  const bool from_writes = results.empty();
  if (from_writes) results = writes;
  if (results.size() != 1)
    return error(op_at + (from_writes ? "/WriteTensors" : "/ResultTensors"),
                 "an op has one result tensor, not " + std::to_string(results.size())),
           false;
  if (!args(*o, op_at, *reg, op)) return false;
  op.result_tensor = results[0].id;
  op.result_buffer = results[0].buffer;
  Dims4 rs{};
  std::copy(results[0].shape.begin(), results[0].shape.end(), rs.begin());
  if (rs != op.ofmap_shape)
    return error(results[0].at + "/Shape", "the result's shape " + to_string(rs) +
                                               " differs from OfmapShape " +
                                               to_string(op.ofmap_shape)),
           false;
  // What the op writes is where its result lives: one tensor of the
  // result's shape in the result's buffer.
  if (!from_writes && !writes.empty()) {
    if (writes.size() != 1)
      return error(op_at + "/WriteTensors",
                   "an op writes one tensor (its result's), not " + std::to_string(writes.size())),
             false;
    const TensorRef& w = writes[0];
    Dims4 ws{};
    std::copy(w.shape.begin(), w.shape.end(), ws.begin());
    if (ws != rs)
      return error(w.at + "/Shape", "the written tensor's shape " + to_string(ws) +
                                        " differs from the result's " + to_string(rs)),
             false;
    if (w.buffer != results[0].buffer)
      return error(w.at + "/Buffer", "the written tensor is in buffer " + std::to_string(w.buffer) +
                                         ", the result in buffer " +
                                         std::to_string(results[0].buffer) + " (-1: none given)"),
             false;
  }
  reads_.push_back(std::move(reads));
  return true;
}

}  // namespace gemini::model::detail
