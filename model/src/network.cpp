#include "gemini/model/network.h"

#include <algorithm>
#include <boost/json.hpp>
#include <map>
#include <set>

#include "gemini/ir/checked_int.h"
#include "gemini/ir/file_bytes.h"
#include "gemini/ir/json_document.h"
#include "gemini/model/op_registry.h"

namespace gemini::model {
namespace json = boost::json;

const char* to_string(OpType t) { return registration(t).ark_name.data(); }

std::string to_string(const Dims4& d) {
  std::string s(1, '[');
  for (std::size_t i = 0; i < 4; ++i) {
    if (i > 0) s += ',';
    s += std::to_string(d[i]);
  }
  s += ']';
  return s;
}

std::int64_t Op::input_channel_lo(std::int64_t k0) const {
  if (type != OpType::conv2d) return type == OpType::fully_connected ? 0 : k0;
  if (groups <= 1) return 0;
  return k0 / group_k() * group_c();
}

std::int64_t Op::input_channel_hi(std::int64_t k1) const {
  if (type != OpType::conv2d) return type == OpType::fully_connected ? ifmap_shape[1] - 1 : k1;
  if (groups <= 1) return ifmap_shape[1] - 1;
  const std::int64_t gk = group_k();
  return (k1 + gk) / gk * group_c() - 1;  // ceil((k1 + 1) / gk) * gc - 1
}

namespace {

// The largest tensor the reference computes (2 GiB of int8).
constexpr std::int64_t kMaxTensorElements = std::int64_t{1} << 31;
// The longest dimension of a tensor (the ISA's 16-bit coordinates).
constexpr std::int64_t kMaxDim = 65535;

bool in_range(std::int64_t x, std::int64_t lo, std::int64_t hi) { return x >= lo && x <= hi; }

std::string kind_of(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return "null";
    case json::kind::bool_:
      return "a boolean";
    case json::kind::string:
      return "a string";
    case json::kind::array:
      return "an array";
    case json::kind::object:
      return "an object";
    default:
      return "a number";
  }
}

std::string id_list(const std::set<std::int64_t>& ids) {
  std::string s = "[";
  for (std::int64_t id : ids) {
    if (s.size() > 1) s += ", ";
    s += std::to_string(id);
  }
  return s + "]";
}

// Every dimension in [1, max_dim] and the volume at most kMaxTensorElements.
bool shape_in_range(const Dims4& d, std::int64_t max_dim, std::string& why) {
  ir::CheckedI64 volume(1);
  for (std::int64_t x : d) {
    if (!in_range(x, 1, max_dim)) {
      why = "every dimension must be in [1, " + std::to_string(max_dim) + "]";
      return false;
    }
    volume *= x;
  }
  if (!volume.ok() || *volume.get() > kMaxTensorElements) {
    why = "more than 2^31 elements is more than gemini computes";
    return false;
  }
  return true;
}

class Loader {
 public:
  Loader(const std::string& path, ir::Diagnostics& d) : path_(path), d_(d) {}

  // One op object's Type, Name and Args (parse_op_args).
  std::optional<Op> op_args(const json::value& v, const std::string& at) {
    const json::object* o = v.if_object();
    if (!o) return fail(at, "an op must be an object");
    Op op;
    op.pointer = at;
    const OpRegistration* reg = op_type(*o, at, op);
    if (!reg || !args(*o, at, *reg, op)) return std::nullopt;
    return op;
  }

  std::optional<Network> run(const json::value& top) {
    Network net;
    net.path = path_;
    const json::object* o = top.if_object();
    if (!o) return fail("", "the top-level value must be an object");
    const json::value* nodes = o->if_contains("Nodes");
    if (!nodes || !nodes->is_array()) return fail("/Nodes", "\"Nodes\" must be an array");
    const json::array& arr = nodes->get_array();
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

 private:
  std::nullopt_t fail(const std::string& at, const std::string& msg) {
    error(at, msg);
    return std::nullopt;
  }
  void error(const std::string& at, const std::string& msg) {
    failed_ = true;
    d_.report(ir::Check::model_file, at, msg);
  }

  bool integer(const json::value& v, const std::string& at, std::int64_t& out) {
    if (v.is_int64()) {
      out = v.get_int64();
      return true;
    }
    if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
      out = static_cast<std::int64_t>(v.get_uint64());
      return true;
    }
    error(at, "expected an integer");
    return false;
  }

  bool ints(const json::value& v, const std::string& at, std::vector<std::int64_t>& out) {
    const json::array* a = v.if_array();
    if (!a) {
      error(at, "expected an array of integers");
      return false;
    }
    out.clear();
    for (std::size_t i = 0; i < a->size(); ++i) {
      std::int64_t x = 0;
      if (!integer((*a)[i], at + "/" + std::to_string(i), x)) return false;
      out.push_back(x);
    }
    return true;
  }

  struct TensorRef {
    std::int64_t id = -1, buffer = -1;
    std::vector<std::int64_t> shape;
    std::string at;
  };
  bool tensor(const json::value& v, const std::string& at, TensorRef& t) {
    const json::object* o = v.if_object();
    if (!o) {
      error(at, "a tensor must be an object");
      return false;
    }
    t.at = at;
    const json::value* id = o->if_contains("Id");
    const json::value* shape = o->if_contains("Shape");
    const json::value* buf = o->if_contains("Buffer");
    if (!id) return error(at, "a tensor needs \"Id\""), false;
    if (!shape) return error(at, "a tensor needs \"Shape\""), false;
    if (!integer(*id, at + "/Id", t.id) || !ints(*shape, at + "/Shape", t.shape)) return false;
    if (buf && buf->is_object()) {
      if (const json::value* bid = buf->get_object().if_contains("Id"))
        if (!integer(*bid, at + "/Buffer/Id", t.buffer)) return false;
    }
    if (const json::value* dt = o->if_contains("DataType"))
      if (!dt->is_string() || (dt->get_string() != "INT8" && dt->get_string() != "BYTE")) {
        error(at + "/DataType",
              "gemini computes int8 tensors; this one is " +
                  (dt->is_string() ? std::string(dt->get_string()) : "not a string"));
        return false;
      }
    if (t.shape.empty() || t.shape.size() > 4) {
      error(at + "/Shape", "a tensor has 1 to 4 dimensions");
      return false;
    }
    // [C,H,W] and shorter shapes are [N,C,H,W] with leading ones.
    while (t.shape.size() < 4) t.shape.insert(t.shape.begin(), 1);
    std::int64_t volume = 1;
    for (std::int64_t x : t.shape) {
      if (x <= 0 || x > 65535) {
        error(at + "/Shape", "every dimension must be in [1, 65535]");
        return false;
      }
      volume *= x;
      if (volume > kMaxTensorElements) {
        error(at + "/Shape", "a tensor of more than 2^31 elements is more than gemini computes");
        return false;
      }
    }
    return true;
  }

  bool tensors(const json::object& op, const char* key, const std::string& at,
               std::vector<TensorRef>& out) {
    const json::value* v = op.if_contains(key);
    if (!v) return true;
    const json::array* a = v->if_array();
    if (!a) {
      error(at + "/" + key, std::string("\"") + key + "\" must be an array");
      return false;
    }
    for (std::size_t i = 0; i < a->size(); ++i) {
      TensorRef t;
      if (!tensor((*a)[i], at + "/" + key + "/" + std::to_string(i), t)) return false;
      out.push_back(std::move(t));
    }
    return true;
  }

  bool dims4(const std::vector<std::int64_t>& v, const std::string& at, std::size_t n,
             std::int64_t* out) {
    if (v.size() != n) {
      error(at, "expected " + std::to_string(n) + " integers, got " + std::to_string(v.size()));
      return false;
    }
    std::copy(v.begin(), v.end(), out);
    return true;
  }

  bool args(const json::object& o, const std::string& at, const OpRegistration& reg, Op& op) {
    const json::value* av = o.if_contains("Args");
    const json::object empty;
    const json::object* a = av ? av->if_object() : &empty;
    if (!a) {
      error(at + "/Args", "\"Args\" must be an object");
      return false;
    }
    // Every argument is {"TYPE": value}.
    std::map<std::string, std::pair<std::string, const json::value*>> got;
    for (const auto& kv : *a) {
      const std::string name(kv.key());
      const json::object* t = kv.value().if_object();
      if (!t || t->size() != 1) {
        error(at + "/Args/" + ir::json_pointer_token(name),
              "an argument is an object with one type key");
        return false;
      }
      got[name] = {std::string(t->begin()->key()), &t->begin()->value()};
    }
    bool ok = true;
    auto check_one = [&](const ArgSpec& s) {
      auto it = got.find(std::string(s.name));
      if (it == got.end()) {
        if (s.required) {
          error(at + "/Args", std::string(reg.ark_name) + " needs argument " + std::string(s.name));
          ok = false;
        }
        return;
      }
      const char* want = s.type == ArgType::int_   ? "INT"
                         : s.type == ArgType::dims ? "DIMS"
                                                   : "BOOL";
      if (it->second.first != want && !(s.type == ArgType::int_ && it->second.first == "INT64")) {
        error(at + "/Args/" + std::string(s.name),
              "argument " + std::string(s.name) + " must be " + want);
        ok = false;
      }
    };
    for (const ArgSpec& s : common_args()) check_one(s);
    for (const ArgSpec& s : reg.args) check_one(s);
    if (!ok) return false;
    auto arg_at = [&](std::string_view n) {
      return at + "/Args/" + std::string(n) + "/" + got[std::string(n)].first;
    };
    auto get_int = [&](std::string_view n, std::int64_t& out) {
      auto it = got.find(std::string(n));
      if (it == got.end()) return true;
      return integer(*it->second.second, arg_at(n), out);
    };
    auto get_dims = [&](std::string_view n, std::size_t len, std::int64_t* out) {
      auto it = got.find(std::string(n));
      if (it == got.end()) return true;
      std::vector<std::int64_t> v;
      return ints(*it->second.second, arg_at(n), v) && dims4(v, arg_at(n), len, out);
    };
    auto get_bool = [&](std::string_view n, bool& out) {
      auto it = got.find(std::string(n));
      if (it == got.end()) return true;
      if (!it->second.second->is_bool()) {
        error(arg_at(n), "expected true or false");
        return false;
      }
      out = it->second.second->get_bool();
      return true;
    };
    std::int64_t order[3] = {-1, -1, -1};
    bool has_order = got.count("Order") > 0;
    ok = get_dims("IfmapShape", 4, op.ifmap_shape.data()) &&
         get_dims("OfmapShape", 4, op.ofmap_shape.data()) && get_int("Bitwidth", op.bitwidth) &&
         get_int("ExternalChannels", op.external_channels) &&
         get_dims("KernelRS", 2, op.kernel.data()) && get_dims("StrideHW", 2, op.stride.data()) &&
         get_dims("PadTBLR", 4, op.pad.data()) && get_int("Groups", op.groups) &&
         get_bool("WeightFromFmap", op.weight_from_fmap) &&
         get_int("NumWeightTensors", op.num_weight_tensors) && get_bool("Global", op.global) &&
         get_int("Operands", op.operands) && get_dims("Permutation", 4, op.permutation.data()) &&
         get_dims("Order", 3, order);
    if (!ok) return false;
    if (op.type == OpType::fully_connected) {
      std::vector<std::int64_t> w;
      auto it = got.find("WeightShape");
      if (!ints(*it->second.second, arg_at("WeightShape"), w)) return false;
      if (w.size() == 2) w.insert(w.end(), {1, 1});
      if (!dims4(w, arg_at("WeightShape"), 4, op.weight_shape.data())) return false;
      if (!got.count("KernelRS")) op.kernel = {op.ifmap_shape[2], op.ifmap_shape[3]};
    } else if (!get_dims("WeightShape", 4, op.weight_shape.data())) {
      return false;
    }
    if (op.bitwidth != 8) return error(arg_at("Bitwidth"), "gemini computes 8-bit layers"), false;
    for (const char* name : {"IfmapShape", "OfmapShape"}) {
      const Dims4& d = name[0] == 'I' ? op.ifmap_shape : op.ofmap_shape;
      std::string why;
      if (!shape_in_range(d, kMaxDim, why))
        return error(arg_at(name), std::string(name) + " " + to_string(d) + ": " + why), false;
    }
    if (!in_range(op.groups, 1, kMaxDim))
      return error(arg_at("Groups"), "Groups is " + std::to_string(op.groups) + "; expected 1 to " +
                                         std::to_string(kMaxDim)),
             false;
    if (op.type == OpType::conv2d && op.groups > 1) {
      for (const auto& [what, c] :
           {std::pair{"input channels (IfmapShape's C)", op.ifmap_shape[1]},
            std::pair{"output channels (OfmapShape's C)", op.ofmap_shape[1]}})
        if (c % op.groups != 0)
          return error(arg_at("Groups"), "Groups " + std::to_string(op.groups) +
                                             " does not divide the " + std::to_string(c) + " " +
                                             what),
                 false;
    }
    if (!in_range(op.operands, 1, kMaxDim))
      return error(arg_at("Operands"), "Operands is " + std::to_string(op.operands) +
                                           "; expected 1 to " + std::to_string(kMaxDim)),
             false;
    for (std::int64_t x : op.stride)
      if (x < 1 || x > 255) return error(arg_at("StrideHW"), "strides must be in [1, 255]"), false;
    if (op.type == OpType::fully_connected && !got.count("KernelRS")) {
      // The kernel of an FC without KernelRS is its input's H and W.
      if (op.kernel[0] > 255 || op.kernel[1] > 255)
        return error(arg_at("IfmapShape"),
                     "a FullyConnected layer's kernel is its input's H x W (" +
                         std::to_string(op.kernel[0]) + " x " + std::to_string(op.kernel[1]) +
                         " here, no KernelRS given); gemini's kernels are at most 255 x 255"),
               false;
    } else {
      for (std::int64_t x : op.kernel)
        if (x < 1 || x > 255)
          return error(arg_at("KernelRS"), "kernels must be in [1, 255], not " + std::to_string(x)),
                 false;
    }
    if (op.pad[0] < 0 || op.pad[2] < 0 || op.pad[0] > 255 || op.pad[2] > 255)
      return error(arg_at("PadTBLR"), "top and left padding must be in [0, 255]"), false;
    // A negative bottom or right: the windows do not reach the input's
    // last rows or columns (the models README, "Padding conventions").
    if (!in_range(op.pad[1], -255, 255) || !in_range(op.pad[3], -255, 255))
      return error(arg_at("PadTBLR"), "bottom and right padding must be in [-255, 255], not " +
                                          std::to_string(op.pad[1]) + " and " +
                                          std::to_string(op.pad[3])),
             false;
    {
      // Weights: [K, C/G, R, S] (FC: [K, C*IH*IW]), as large as a tensor may be.
      std::string why;
      if (!shape_in_range(op.weight_shape, kMaxTensorElements, why) &&
          (op.has_weights() || got.count("WeightShape")))
        return error(arg_at("WeightShape"),
                     "WeightShape " + to_string(op.weight_shape) + ": " + why),
               false;
    }
    if (op.type == OpType::transpose) {
      std::array<bool, 4> seen{};
      for (std::int64_t p : op.permutation) {
        if (p < 0 || p > 3 || seen[static_cast<std::size_t>(p)])
          return error(arg_at("Permutation"), "not a permutation of [0, 1, 2, 3]"), false;
        seen[static_cast<std::size_t>(p)] = true;
      }
      if (op.permutation[0] != 0)
        return error(arg_at("Permutation"), "a transpose may not move the batch dimension"), false;
      if (has_order) {
        // SET's raw order: output dimension d (0 C, 1 H, 2 W) is input dimension order[d].
        for (int d = 0; d < 3; ++d)
          if (order[d] < 0 || order[d] > 2 ||
              op.permutation[static_cast<std::size_t>(order[d] + 1)] != d + 1)
            return error(arg_at("Order"), "Order disagrees with Permutation"), false;
      }
    }
    return true;
  }

  bool node(const json::value& v, const std::string& at, Op& op,
            std::vector<std::int64_t>& producers) {
    const json::object* n = v.if_object();
    if (!n) return error(at, "a node must be an object"), false;
    std::int64_t id = 0;
    const json::value* idv = n->if_contains("Id");
    if (!idv) return error(at, "a node needs \"Id\""), false;
    if (!integer(*idv, at + "/Id", id)) return false;
    if (id < 0 || id > INT32_MAX) return error(at + "/Id", "node ids are non-negative"), false;
    op.node_id = static_cast<std::int32_t>(id);
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
      if (!virt->is_bool())
        return error(op_at + "/IsVirtual",
                     "IsVirtual must be true or false, not " + kind_of(*virt)),
               false;
      if (virt->get_bool())
        return error(op_at + "/IsVirtual", "virtual ops are not computed by gemini"), false;
    }
    std::vector<TensorRef> reads, results, writes;
    if (!tensors(*o, "ReadTensors", op_at, reads) ||
        !tensors(*o, "ResultTensors", op_at, results) ||
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
        return error(op_at + "/WriteTensors", "an op writes one tensor (its result's), not " +
                                                  std::to_string(writes.size())),
               false;
      const TensorRef& w = writes[0];
      Dims4 ws{};
      std::copy(w.shape.begin(), w.shape.end(), ws.begin());
      if (ws != rs)
        return error(w.at + "/Shape", "the written tensor's shape " + to_string(ws) +
                                          " differs from the result's " + to_string(rs)),
               false;
      if (w.buffer != results[0].buffer)
        return error(w.at + "/Buffer", "the written tensor is in buffer " +
                                           std::to_string(w.buffer) + ", the result in buffer " +
                                           std::to_string(results[0].buffer) + " (-1: none given)"),
               false;
    }
    reads_.push_back(std::move(reads));
    return true;
  }

  // The op's Name and Type; its registration, or nullptr (reported).
  const OpRegistration* op_type(const json::object& o, const std::string& op_at, Op& op) {
    const json::value* type = o.if_contains("Type");
    const json::value* name = o.if_contains("Name");
    if (!type || !type->is_string())
      return error(op_at + "/Type", "an op needs a \"Type\" string"), nullptr;
    if (!name || !name->is_string())
      return error(op_at + "/Name", "an op needs a \"Name\" string"), nullptr;
    op.name = std::string(name->get_string());
    const OpRegistration* reg = find_op_type(type->get_string());
    if (!reg) {
      std::string known;
      for (const OpRegistration& r : all_op_types())
        known += (known.empty() ? "" : ", ") + std::string(r.ark_name);
      error(op_at + "/Type", "op \"" + op.name + "\" has type " + std::string(type->get_string()) +
                                 ", which gemini does not compute (it computes " + known + ")");
      return nullptr;
    }
    op.type = reg->type;
    return reg;
  }

  void resolve(Network& net, const std::map<std::int64_t, std::int32_t>& by_node) {
    std::map<std::int64_t, std::int32_t> by_tensor, by_buffer;
    for (std::size_t i = 0; i < net.ops.size(); ++i) {
      by_tensor[net.ops[i].result_tensor] = static_cast<std::int32_t>(i);
      if (net.ops[i].result_buffer >= 0)
        by_buffer[net.ops[i].result_buffer] = static_cast<std::int32_t>(i);
    }
    std::map<std::int64_t, std::int32_t> external_of;  // buffer (or tensor) id -> index
    for (std::size_t i = 0; i < net.ops.size(); ++i) {
      Op& op = net.ops[i];
      const std::vector<TensorRef>& reads = reads_[i];
      const std::size_t nweights =
          op.weight_from_fmap ? static_cast<std::size_t>(op.num_weight_tensors) : 0;
      if (op.weight_from_fmap && (op.num_weight_tensors < 1 || nweights >= reads.size())) {
        error(op.pointer + "/ReadTensors",
              "WeightFromFmap needs NumWeightTensors >= 1 weight tensors after the inputs");
        continue;
      }
      std::int64_t offset = 0, woffset = 0;
      std::set<std::int64_t> read_producers;
      for (std::size_t r = 0; r < reads.size(); ++r) {
        const TensorRef& t = reads[r];
        InputPart part;
        part.tensor_id = t.id;
        std::int32_t producer = -1;
        if (auto p = by_tensor.find(t.id); p != by_tensor.end()) {
          producer = p->second;
        } else if (auto b = by_buffer.find(t.buffer); t.buffer >= 0 && b != by_buffer.end()) {
          producer = b->second;
        }
        if (producer == static_cast<std::int32_t>(i)) {
          error(t.at, "op \"" + op.name + "\" reads its own result (tensor " +
                          std::to_string(t.id) + "): a cycle");
          part.producer = producer;
        } else if (producer >= 0) {
          part.producer = producer;
          read_producers.insert(net.ops[static_cast<std::size_t>(producer)].node_id);
        } else {
          part.external = true;
          const std::int64_t key = t.buffer >= 0 ? t.buffer : t.id;
          auto [it, fresh] =
              external_of.emplace(key, static_cast<std::int32_t>(net.externals.size()));
          if (fresh) {
            External e;
            e.tensor_id = t.id;
            e.buffer_id = t.buffer;
            std::copy(t.shape.begin(), t.shape.end(), e.shape.begin());
            e.first_reader = op.name;
            net.externals.push_back(e);
          }
          part.external_index = it->second;
        }
        if (r + nweights >= reads.size()) {  // a weight producer
          if (part.external) {
            error(t.at, "a WeightFromFmap weight must be another op's result");
            continue;
          }
          part.offset = woffset;
          part.channels = t.shape[1];
          woffset += t.shape[1];
          op.weights.push_back(part);
          continue;
        }
        const bool elt = op.type == OpType::eltwise;
        const std::int64_t k = op.ofmap_shape[1];
        part.offset = offset;
        part.channels = t.shape[1];
        if (t.shape[0] != op.ifmap_shape[0] || t.shape[2] != op.ifmap_shape[2] ||
            t.shape[3] != op.ifmap_shape[3])
          error(t.at + "/Shape", "an input's N, H and W must be IfmapShape's");
        if (elt && (offset / k != (offset + t.shape[1] - 1) / k))
          error(t.at, "an elementwise input straddles two operands");
        offset += t.shape[1];
        op.inputs.push_back(part);
      }
      if (offset != op.ifmap_shape[1])
        error(op.pointer + "/ReadTensors", "the inputs' channels add up to " +
                                               std::to_string(offset) + ", IfmapShape says " +
                                               std::to_string(op.ifmap_shape[1]));
      std::int64_t external_c = 0;
      for (const InputPart& p : op.inputs) {
        if (p.external && p.offset != external_c)
          error(op.pointer + "/ReadTensors", "external inputs must come first");
        if (p.external) external_c += p.channels;
      }
      if (op.external_channels != 0 && op.external_channels != external_c)
        error(op.pointer + "/Args/ExternalChannels",
              "ExternalChannels is " + std::to_string(op.external_channels) +
                  ", the external inputs have " + std::to_string(external_c));
      op.external_channels = external_c;
      if (op.weight_from_fmap && woffset != op.weight_shape[0])
        error(op.pointer + "/ReadTensors", "the weight tensors' channels add up to " +
                                               std::to_string(woffset) + ", WeightShape's K is " +
                                               std::to_string(op.weight_shape[0]));
      // ProducerNodeIds lists exactly the ops read.
      std::set<std::int64_t> listed(listed_producers_[i].begin(), listed_producers_[i].end());
      for (std::int64_t id : listed)
        if (!by_node.count(id))
          error(op.pointer,
                "ProducerNodeIds names node " + std::to_string(id) + ", which does not exist");
      if (listed != read_producers)
        error(node_at_[i] + "/ProducerNodeIds",
              "ProducerNodeIds lists " + id_list(listed) +
                  ", but the producers of ReadTensors are nodes " + id_list(read_producers));
    }
  }

  void sort(Network& net) {
    const std::size_t n = net.ops.size();
    std::vector<std::vector<std::int32_t>> next(n);
    std::vector<std::int32_t> indeg(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      std::set<std::int32_t> from;
      for (const InputPart& p : net.ops[i].inputs)
        if (!p.external) from.insert(p.producer);
      for (const InputPart& p : net.ops[i].weights) from.insert(p.producer);
      for (std::int32_t f : from) {
        next[static_cast<std::size_t>(f)].push_back(static_cast<std::int32_t>(i));
        ++indeg[i];
      }
    }
    std::vector<std::int32_t> ready;
    for (std::size_t i = 0; i < n; ++i)
      if (indeg[i] == 0) ready.push_back(static_cast<std::int32_t>(i));
    for (std::size_t h = 0; h < ready.size(); ++h)
      for (std::int32_t s : next[static_cast<std::size_t>(ready[h])])
        if (--indeg[static_cast<std::size_t>(s)] == 0) ready.push_back(s);
    if (ready.size() != n) {
      for (std::size_t i = 0; i < n; ++i)
        if (indeg[i] > 0) {
          error(net.ops[i].pointer,
                "op \"" + net.ops[i].name + "\" depends on itself through a cycle");
          return;
        }
    }
    net.order = std::move(ready);
  }

  void check_shapes(const Network& net, const Op& op) {
    Dims4 inferred{};
    std::string why;
    if (!infer_output_shape(op, inferred, why)) {
      error(op.pointer + "/Args", op.name + " (" + annotation_of(op) + "): " + why);
      return;
    }
    if (inferred != op.ofmap_shape) {
      error(op.pointer + "/Args/OfmapShape", op.name + ": the annotation " + annotation_of(op) +
                                                 " gives an output of " + to_string(inferred) +
                                                 ", OfmapShape is " + to_string(op.ofmap_shape));
    }
    if (op.type == OpType::conv2d &&
        (op.weight_shape[2] != op.kernel[0] || op.weight_shape[3] != op.kernel[1]))
      error(op.pointer + "/Args/WeightShape",
            op.name + ": WeightShape's R and S differ from KernelRS");
    if (op.type == OpType::eltwise && op.ifmap_shape[1] != op.operands * op.ofmap_shape[1])
      error(op.pointer + "/Args/Operands", op.name + ": the input has " +
                                               std::to_string(op.ifmap_shape[1]) +
                                               " channels, not Operands x K");
    for (const InputPart& w : op.weights) {
      const Op& p = net.ops[static_cast<std::size_t>(w.producer)];
      // Producer element [n, k', c, x] is weight [k = off + k', c, x] of sample n.
      if (p.ofmap_shape[0] != op.ifmap_shape[0] || p.ofmap_shape[2] != op.weight_shape[1] ||
          p.ofmap_shape[3] != op.weight_shape[2] * op.weight_shape[3])
        error(op.pointer + "/ReadTensors", op.name + ": weight producer \"" + p.name +
                                               "\" has an output that is not [N, k, C/G, R*S]");
    }
  }

  std::string path_;
  ir::Diagnostics& d_;
  bool failed_ = false;
  std::vector<std::vector<TensorRef>> reads_;
  std::vector<std::vector<std::int64_t>> listed_producers_;
  std::vector<std::string> node_at_;
};

}  // namespace

std::optional<Op> parse_op_args(const json::value& op, const std::string& pointer,
                                ir::Diagnostics& d) {
  return Loader("", d).op_args(op, pointer);
}

std::optional<ArgDifference> differing_argument(const Op& here, const Op& there) {
  auto show = [](auto const& a) {
    std::string s = "[";
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (i) s += ',';
      s += std::to_string(a[i]);
    }
    return s + "]";
  };
  auto diff = [](const char* name, const std::string& a,
                 const std::string& b) -> std::optional<ArgDifference> {
    return ArgDifference{name, std::string(name) + " is " + a + " here, " + b + " in the model"};
  };
  if (here.ifmap_shape != there.ifmap_shape)
    return diff("IfmapShape", show(here.ifmap_shape), show(there.ifmap_shape));
  if (here.ofmap_shape != there.ofmap_shape)
    return diff("OfmapShape", show(here.ofmap_shape), show(there.ofmap_shape));
  if (here.kernel != there.kernel) return diff("KernelRS", show(here.kernel), show(there.kernel));
  if (here.stride != there.stride) return diff("StrideHW", show(here.stride), show(there.stride));
  if (here.pad != there.pad) return diff("PadTBLR", show(here.pad), show(there.pad));
  if (here.groups != there.groups)
    return diff("Groups", std::to_string(here.groups), std::to_string(there.groups));
  if (here.weight_shape != there.weight_shape)
    return diff("WeightShape", show(here.weight_shape), show(there.weight_shape));
  auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
  if (here.weight_from_fmap != there.weight_from_fmap)
    return diff("WeightFromFmap", flag(here.weight_from_fmap), flag(there.weight_from_fmap));
  if (here.num_weight_tensors != there.num_weight_tensors)
    return diff("NumWeightTensors", std::to_string(here.num_weight_tensors),
                std::to_string(there.num_weight_tensors));
  if (here.global != there.global) return diff("Global", flag(here.global), flag(there.global));
  if (here.operands != there.operands)
    return diff("Operands", std::to_string(here.operands), std::to_string(there.operands));
  if (here.permutation != there.permutation)
    return diff("Permutation", show(here.permutation), show(there.permutation));
  return std::nullopt;
}

std::optional<Network> parse_network(const std::string& text, const std::string& path,
                                     ir::Diagnostics& d) {
  ir::JsonDocument doc = ir::parse_json_document(text);
  if (!doc.value) {
    d.report_at(ir::Check::model_file, doc.line, doc.column,
                "the model file is not valid JSON: " + doc.error);
    return std::nullopt;
  }
  for (const std::string& at : doc.duplicate_keys)
    d.report(ir::Check::model_file, at,
             "this key repeats in its object (JSON leaves which one counts undefined)");
  if (!doc.duplicate_keys.empty()) return std::nullopt;
  return Loader(path, d).run(*doc.value);
}

std::optional<Network> load_network(const std::string& path, ir::Diagnostics& d) {
  std::string text, error;
  if (!ir::read_file_bytes(path, text, error)) {
    d.report(ir::Check::model_file, "", "cannot read the model file " + path + ": " + error);
    return std::nullopt;
  }
  return parse_network(text, path, d);
}

}  // namespace gemini::model
