// The layer semantics' own functions (network.h): names, an op's input
// channels, argument comparison, and the entry points of the model file
// loader (network_loader.h).
#include "gemini/model/network.h"

#include <boost/json.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "gemini/ir/file_bytes.h"
#include "gemini/ir/json_document.h"
#include "gemini/model/op_registry.h"
#include "network_loader.h"

namespace gemini::model {
namespace json = boost::json;

const char* to_string(OpType t) { return ir::describe(t).ark_name.data(); }

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

std::optional<Op> parse_op_args(const json::value& op, const std::string& pointer,
                                ir::Diagnostics& d) {
  return detail::Loader("", d).op_args(op, pointer);
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
  return detail::Loader(path, d).run(*doc.value);
}

std::optional<std::string> unreadable_model_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (in && in.peek() != std::ifstream::traits_type::eof()) return std::nullopt;
  if (in) return "the model file is empty";
  return std::string("cannot read the model file: ") + std::strerror(errno);
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
