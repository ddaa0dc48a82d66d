// The model loader's ops (network_loader.h): Type and Name against the op
// registry, then Args in four steps -- their types, their values, their
// ranges, a Transpose's permutation.
#include "gemini/ir/json_document.h"
#include "network_loader.h"

namespace gemini::model::detail {
namespace json = boost::json;

// One op object's Type, Name and Args (parse_op_args).
std::optional<Op> Loader::op_args(const json::value& v, const std::string& at) {
  const json::object* o = json_.object(&v, at, "an op");
  if (!o) return std::nullopt;
  Op op;
  op.pointer = at;
  const OpRegistration* reg = op_type(*o, at, op);
  if (!reg || !args(*o, at, *reg, op)) return std::nullopt;
  return op;
}

const OpRegistration* Loader::op_type(const json::object& o, const std::string& op_at, Op& op) {
  const json::value* tv = json_.member(o, op_at, "Type");
  const auto type = tv ? json_.string(*tv, op_at + "/Type") : std::nullopt;
  if (!type) return nullptr;
  const json::value* nv = json_.member(o, op_at, "Name");
  const auto name = nv ? json_.string(*nv, op_at + "/Name") : std::nullopt;
  if (!name) return nullptr;
  op.name = *name;
  const OpRegistration* reg = find_op_type(*type);
  if (!reg) {
    std::string known;
    for (const OpRegistration& r : all_op_types())
      known += (known.empty() ? "" : ", ") + std::string(r.ark_name());
    error(op_at + "/Type", "op \"" + op.name + "\" has type " + *type +
                               ", which gemini does not compute (it computes " + known + ")");
    return nullptr;
  }
  op.type = reg->type;
  return reg;
}

// "Args": every argument {"TYPE": value}, each of the registration's of
// the right type.
bool Loader::typed_args(const json::object& o, const std::string& at, const OpRegistration& reg,
                        OpArgs& args) {
  args.at = at;
  std::map<std::string, std::pair<std::string, const json::value*>>& got = args.got;
  const json::value* av = o.if_contains("Args");
  const json::object empty;
  const json::object* a = av ? json_.object(av, at + "/Args", "\"Args\"") : &empty;
  if (!a) return false;
  // Every argument is {"TYPE": value}.
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
        error(at + "/Args", std::string(reg.ark_name()) + " needs argument " + std::string(s.name));
        ok = false;
      }
      return;
    }
    const char* want = s.type == ArgType::int_ ? "INT" : s.type == ArgType::dims ? "DIMS" : "BOOL";
    if (it->second.first != want && !(s.type == ArgType::int_ && it->second.first == "INT64")) {
      error(at + "/Args/" + std::string(s.name),
            "argument " + std::string(s.name) + " must be " + want);
      ok = false;
    }
  };
  for (const ArgSpec& s : common_args()) check_one(s);
  for (const ArgSpec& s : reg.args) check_one(s);
  return ok;
}

// The arguments' values into the op (absent ones keep the defaults);
// `order` the raw Order, when given.
bool Loader::arg_values(const OpArgs& args, Op& op, std::int64_t order[3]) {
  auto get_int = [&](std::string_view n, std::int64_t& out) {
    const json::value* v = args.value(n);
    return !v || integer(*v, args.where(n), out);
  };
  auto get_dims = [&](std::string_view n, std::size_t len, std::int64_t* out) {
    const json::value* v = args.value(n);
    if (!v) return true;
    std::vector<std::int64_t> x;
    return ints(*v, args.where(n), x) && dims4(x, args.where(n), len, out);
  };
  auto get_bool = [&](std::string_view n, bool& out) {
    const json::value* v = args.value(n);
    if (!v) return true;
    const auto b = json_.boolean(*v, args.where(n));
    if (b) out = *b;
    return b.has_value();
  };
  const bool ok =
      get_dims("IfmapShape", 4, op.ifmap_shape.data()) &&
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
    if (!ints(*args.value("WeightShape"), args.where("WeightShape"), w)) return false;
    if (w.size() == 2) w.insert(w.end(), {1, 1});
    if (!dims4(w, args.where("WeightShape"), 4, op.weight_shape.data())) return false;
    if (!args.has("KernelRS")) op.kernel = {op.ifmap_shape[2], op.ifmap_shape[3]};
  } else if (!get_dims("WeightShape", 4, op.weight_shape.data())) {
    return false;
  }
  return true;
}

// The arguments' ranges: what gemini computes, and what nothing computed
// from them overflows on.
bool Loader::check_arg_ranges(const OpArgs& args, const Op& op) {
  if (op.bitwidth != 8) return error(args.where("Bitwidth"), "gemini computes 8-bit layers"), false;
  for (const char* name : {"IfmapShape", "OfmapShape"}) {
    const Dims4& d = name[0] == 'I' ? op.ifmap_shape : op.ofmap_shape;
    std::string why;
    if (!shape_in_range(d, kMaxDim, why))
      return error(args.where(name), std::string(name) + " " + to_string(d) + ": " + why), false;
  }
  if (!in_range(op.groups, 1, kMaxDim))
    return error(args.where("Groups"), "Groups is " + std::to_string(op.groups) +
                                           "; expected 1 to " + std::to_string(kMaxDim)),
           false;
  if (op.type == OpType::conv2d && op.groups > 1) {
    for (const auto& [what, c] : {std::pair{"input channels (IfmapShape's C)", op.ifmap_shape[1]},
                                  std::pair{"output channels (OfmapShape's C)", op.ofmap_shape[1]}})
      if (c % op.groups != 0)
        return error(args.where("Groups"), "Groups " + std::to_string(op.groups) +
                                               " does not divide the " + std::to_string(c) + " " +
                                               what),
               false;
  }
  if (!in_range(op.operands, 1, kMaxDim))
    return error(args.where("Operands"), "Operands is " + std::to_string(op.operands) +
                                             "; expected 1 to " + std::to_string(kMaxDim)),
           false;
  for (std::int64_t x : op.stride)
    if (x < 1 || x > 255)
      return error(args.where("StrideHW"), "strides must be in [1, 255]"), false;
  if (op.type == OpType::fully_connected && !args.has("KernelRS")) {
    // The kernel of an FC without KernelRS is its input's H and W.
    if (op.kernel[0] > 255 || op.kernel[1] > 255)
      return error(args.where("IfmapShape"),
                   "a FullyConnected layer's kernel is its input's H x W (" +
                       std::to_string(op.kernel[0]) + " x " + std::to_string(op.kernel[1]) +
                       " here, no KernelRS given); gemini's kernels are at most 255 x 255"),
             false;
  } else {
    for (std::int64_t x : op.kernel)
      if (x < 1 || x > 255)
        return error(args.where("KernelRS"),
                     "kernels must be in [1, 255], not " + std::to_string(x)),
               false;
  }
  if (op.pad[0] < 0 || op.pad[2] < 0 || op.pad[0] > 255 || op.pad[2] > 255)
    return error(args.where("PadTBLR"), "top and left padding must be in [0, 255]"), false;
  // A negative bottom or right: the windows do not reach the input's
  // last rows or columns (the models README, "Padding conventions").
  if (!in_range(op.pad[1], -255, 255) || !in_range(op.pad[3], -255, 255))
    return error(args.where("PadTBLR"), "bottom and right padding must be in [-255, 255], not " +
                                            std::to_string(op.pad[1]) + " and " +
                                            std::to_string(op.pad[3])),
           false;
  {
    // Weights: [K, C/G, R, S] (FC: [K, C*IH*IW]), as large as a tensor may be.
    std::string why;
    if (!shape_in_range(op.weight_shape, kMaxTensorElements, why) &&
        (op.has_weights() || args.has("WeightShape")))
      return error(args.where("WeightShape"),
                   "WeightShape " + to_string(op.weight_shape) + ": " + why),
             false;
  }
  return true;
}

// A Transpose's Permutation (and SET's raw Order, when given).
bool Loader::check_permutation(const OpArgs& args, const Op& op, const std::int64_t order[3]) {
  std::array<bool, 4> seen{};
  for (std::int64_t p : op.permutation) {
    if (p < 0 || p > 3 || seen[static_cast<std::size_t>(p)])
      return error(args.where("Permutation"), "not a permutation of [0, 1, 2, 3]"), false;
    seen[static_cast<std::size_t>(p)] = true;
  }
  if (op.permutation[0] != 0)
    return error(args.where("Permutation"), "a transpose may not move the batch dimension"), false;
  if (args.has("Order")) {
    // SET's raw order: output dimension d (0 C, 1 H, 2 W) is input dimension order[d].
    for (int d = 0; d < 3; ++d)
      if (order[d] < 0 || order[d] > 2 ||
          op.permutation[static_cast<std::size_t>(order[d] + 1)] != d + 1)
        return error(args.where("Order"), "Order disagrees with Permutation"), false;
  }
  return true;
}

bool Loader::args(const json::object& o, const std::string& at, const OpRegistration& reg, Op& op) {
  OpArgs a;
  std::int64_t order[3] = {-1, -1, -1};
  if (!typed_args(o, at, reg, a) || !arg_values(a, op, order) || !check_arg_ranges(a, op))
    return false;
  return op.type != OpType::transpose || check_permutation(a, op, order);
}

}  // namespace gemini::model::detail
