#pragma once
// The layer semantics of a network: an ARK model file
// (../shared/spec/ark-model-file.md) as the corpus models write it
// (../shared/ir-corpus/set/models/README.md), loaded into typed ops.
//
// Each node holds one op (`Ops` with one element, or the tutorial files'
// single `Op`). An op's `ReadTensors` are, in order: external inputs, the
// ifmap producers' results (ascending node id) and, for `WeightFromFmap`
// convolutions, the weight producers' results; the first two groups are the
// op's input concatenated along C. load_network() resolves every read
// tensor to its producer op (or to an external input), checks every op's
// arguments and shapes against its type's registration (op_registry.h),
// and orders the ops so that producers come first.
//
// Problems go to the IR's diagnostics sink with check M001 and the JSON
// pointer of the value (or line:column for syntax errors); nothing throws.

#include <array>
#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/op_table.h"

namespace gemini::model {

using Dims4 = std::array<std::int64_t, 4>;  // [N, C, H, W] (or [K, C/G, R, S])

// The op types: the rows of the op descriptor table (ir/op_table.h).
using OpType = ir::OpType;
const char* to_string(OpType t);        // its ARK name
std::string to_string(const Dims4& d);  // "[1,64,112,112]"

// One part of an op's concatenated input (or of a WeightFromFmap op's
// weights): an external tensor or another op's result, occupying channels
// [offset, offset + channels) of the concatenation (of K, for weights).
struct InputPart {
  bool external = false;
  std::int64_t tensor_id = -1;       // the ARK tensor id read
  std::int32_t producer = -1;        // index into Network::ops, -1 for external data
  std::int32_t external_index = -1;  // index into Network::externals
  std::int64_t offset = 0, channels = 0;
};

struct Op {
  std::int32_t node_id = 0;
  OpType type = OpType::conv2d;
  std::string name;
  std::string pointer;  // JSON pointer of the op in the model file

  // Arguments (the models README's Args). Absent ones keep these values.
  Dims4 ifmap_shape{}, ofmap_shape{};
  std::int64_t bitwidth = 8;
  std::int64_t external_channels = 0;
  std::array<std::int64_t, 2> kernel{1, 1}, stride{1, 1};
  std::array<std::int64_t, 4> pad{0, 0, 0, 0};  // top, bottom, left, right
  std::int64_t groups = 1;
  Dims4 weight_shape{};  // [K, C/G, R, S]; FC: [K, C*IH*IW, 1, 1] once loaded
  bool weight_from_fmap = false;
  std::int64_t num_weight_tensors = 0;
  bool global = false;                                  // Pool
  std::int64_t operands = 1;                            // Eltwise
  std::array<std::int64_t, 4> permutation{0, 1, 2, 3};  // Transpose: input dim i -> output dim

  std::vector<InputPart> inputs;   // the concatenated input, in order
  std::vector<InputPart> weights;  // WeightFromFmap: the weight producers, in order
  std::int64_t result_tensor = -1, result_buffer = -1;

  bool has_weights() const { return ir::describe(type).weights; }
  // Output channels per group and input channels per group (conv, FC).
  std::int64_t group_k() const { return ofmap_shape[1] / std::max<std::int64_t>(groups, 1); }
  std::int64_t group_c() const { return ifmap_shape[1] / std::max<std::int64_t>(groups, 1); }
  // Channels of the input a workload of output channels [k0, k1] needs
  // (conv: its groups' inputs; pool, elementwise, PTP: the same channels).
  std::int64_t input_channel_lo(std::int64_t k0) const;
  std::int64_t input_channel_hi(std::int64_t k1) const;
};

// An external input of the network (data no op produces).
struct External {
  std::int64_t tensor_id = -1, buffer_id = -1;
  Dims4 shape{};
  std::string first_reader;  // the name of the first op that reads it
};

struct Network {
  std::string path;
  std::vector<Op> ops;              // in file order
  std::vector<std::int32_t> order;  // op indices, producers before consumers
  std::vector<External> externals;
  std::unordered_map<std::string, std::int32_t> by_name;

  const Op* find(const std::string& name) const {
    auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : &ops[static_cast<std::size_t>(it->second)];
  }
  std::int32_t index_of(const std::string& name) const {
    auto it = by_name.find(name);
    return it == by_name.end() ? -1 : it->second;
  }
  std::int64_t batch() const { return ops.empty() ? 0 : ops.front().ofmap_shape[0]; }
};

// Reads one op object's Type, Name and Args as load_network reads a node's
// op (every argument checked), without its tensors: what a plan's copy of
// an op says. Nullopt with M001 diagnostics at `pointer` and below.
std::optional<Op> parse_op_args(const boost::json::value& op, const std::string& pointer,
                                ir::Diagnostics& d);

// The first argument in which two ops differ: its name ("KernelRS") and
// both values ("[3,3] here, [1,1] there"); nullopt when they agree.
struct ArgDifference {
  std::string name, message;
};
std::optional<ArgDifference> differing_argument(const Op& here, const Op& there);

// Why a model file cannot be read at all ("the model file is empty",
// "cannot read the model file: No such file or directory"), or nullopt:
// what every command and the Python module call an unreadable model (exit
// status 2), before load_network says whether a readable one is valid.
std::optional<std::string> unreadable_model_file(const std::string& path);
// Loads and checks a model file (.json, or gzip whatever its name). Returns
// nullopt when any M001 error was reported.
std::optional<Network> load_network(const std::string& path, ir::Diagnostics& d);
// The same from JSON text already in memory (`path` only names it).
std::optional<Network> parse_network(const std::string& text, const std::string& path,
                                     ir::Diagnostics& d);

}  // namespace gemini::model
