#pragma once
// The model file loader behind load_network, parse_network and
// parse_op_args (network.h): one class, its steps each in their own file --
//   network_values.cpp  JSON values: integers, integer lists, tensors
//   network_args.cpp    an op's Type, Name and Args, every argument checked
//   network_nodes.cpp   the Nodes, each node's op and tensors (run)
//   network_links.cpp   producers and external inputs, the topological
//                       order, the shapes against the registry's annotations
// Every problem is an M001 at a JSON pointer; run() returns nullopt once one
// was reported.

#include <boost/json.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/json_reader.h"
#include "gemini/model/network.h"
#include "gemini/model/op_registry.h"

namespace gemini::model::detail {

// The largest tensor the reference computes (2 GiB of int8).
constexpr std::int64_t kMaxTensorElements = std::int64_t{1} << 31;
// The longest dimension of a tensor (the ISA's 16-bit coordinates).
constexpr std::int64_t kMaxDim = 65535;

inline bool in_range(std::int64_t x, std::int64_t lo, std::int64_t hi) {
  return x >= lo && x <= hi;
}

// How a JSON value is named in messages ("a string", "an array", ...).
// "[1, 2, 3]"
std::string id_list(const std::set<std::int64_t>& ids);
// Every dimension in [1, max_dim] and the volume at most kMaxTensorElements.
bool shape_in_range(const Dims4& d, std::int64_t max_dim, std::string& why);

// An op's Args as read: each name with its type key and value.
struct OpArgs {
  std::string at;  // the op's pointer
  std::map<std::string, std::pair<std::string, const boost::json::value*>> got;

  bool has(std::string_view n) const { return got.count(std::string(n)) > 0; }
  const boost::json::value* value(std::string_view n) const {
    auto it = got.find(std::string(n));
    return it == got.end() ? nullptr : it->second.second;
  }
  // The pointer of argument n's value, at/Args/n/TYPE (at/Args/n/ if absent).
  std::string where(std::string_view n) const {
    auto it = got.find(std::string(n));
    return at + "/Args/" + std::string(n) + "/" +
           (it == got.end() ? std::string() : it->second.first);
  }
};

class Loader {
 public:
  Loader(const std::string& path, ir::Diagnostics& d)
      : path_(path),
        d_(d),
        json_([this](const std::string& at, const std::string& m) { error(at, m); }) {}

  // One op object's Type, Name and Args (parse_op_args).
  std::optional<Op> op_args(const boost::json::value& v, const std::string& at);
  // A whole model file.
  std::optional<Network> run(const boost::json::value& top);

 private:
  std::nullopt_t fail(const std::string& at, const std::string& msg) {
    error(at, msg);
    return std::nullopt;
  }
  void error(const std::string& at, const std::string& msg) {
    failed_ = true;
    d_.report(ir::Check::model_file, at, msg);
  }

  // network_values.cpp
  bool integer(const boost::json::value& v, const std::string& at, std::int64_t& out);
  bool ints(const boost::json::value& v, const std::string& at, std::vector<std::int64_t>& out);
  struct TensorRef {
    std::int64_t id = -1, buffer = -1;
    std::vector<std::int64_t> shape;  // [N, C, H, W]: tensor() pads shorter shapes
    std::string at;
    Dims4 dims() const { return {shape[0], shape[1], shape[2], shape[3]}; }
  };
  bool tensor(const boost::json::value& v, const std::string& at, TensorRef& t);
  bool tensors(const boost::json::object& op, const char* key, const std::string& at,
               std::vector<TensorRef>& out);
  bool dims4(const std::vector<std::int64_t>& v, const std::string& at, std::size_t n,
             std::int64_t* out);

  // network_args.cpp
  bool args(const boost::json::object& o, const std::string& at, const OpRegistration& reg, Op& op);
  bool typed_args(const boost::json::object& o, const std::string& at, const OpRegistration& reg,
                  OpArgs& args);
  bool arg_values(const OpArgs& args, Op& op, std::int64_t order[3]);
  bool check_arg_ranges(const OpArgs& args, const Op& op);
  bool check_permutation(const OpArgs& args, const Op& op, const std::int64_t order[3]);
  // The op's Name and Type; its registration, or nullptr (reported).
  const OpRegistration* op_type(const boost::json::object& o, const std::string& op_at, Op& op);

  // network_nodes.cpp
  bool node(const boost::json::value& v, const std::string& at, Op& op,
            std::vector<std::int64_t>& producers);

  // network_links.cpp
  void resolve(Network& net, const std::map<std::int64_t, std::int32_t>& by_node);
  struct Results {  // op index of each result tensor and buffer id
    std::map<std::int64_t, std::int32_t> by_tensor, by_buffer;
  };
  void index_results(const Network& net, Results& out);
  InputPart resolve_read(Network& net, std::size_t i, const TensorRef& t, const Results& results,
                         std::set<std::int64_t>& read_producers);
  void check_links(Op& op, std::size_t i, std::int64_t channels, std::int64_t wchannels,
                   const std::map<std::int64_t, std::int32_t>& by_node,
                   const std::set<std::int64_t>& read_producers);
  void sort(Network& net);
  void check_shapes(const Network& net, const Op& op);

  std::string path_;
  ir::Diagnostics& d_;
  bool failed_ = false;
  ir::JsonReader json_;  // every value's type and range, reported as error() does
  std::vector<std::vector<TensorRef>> reads_;  // per op, its ReadTensors
  std::vector<std::vector<std::int64_t>> listed_producers_;
  std::vector<std::string> node_at_;
  std::map<std::int64_t, std::int32_t> external_of_;  // network input buffer (or tensor) -> index
};

}  // namespace gemini::model::detail
