// The model loader's links (network_loader.h): each op's inputs and
// weights resolved to producers or external inputs, the ops in topological
// order, and every op's shapes checked against its annotation.
#include <algorithm>

#include "network_loader.h"

namespace gemini::model::detail {
namespace json = boost::json;

// Each result in a tensor and buffer of its own: a reader resolves to one
// producer and takes its whole result (ARK lets ops write parts of one
// buffer; gemini does not compute that).
void Loader::index_results(const Network& net, Results& out) {
  for (std::size_t i = 0; i < net.ops.size(); ++i) {
    const Op& op = net.ops[i];
    const auto index = static_cast<std::int32_t>(i);
    auto also = [&](std::int32_t other) {
      const Op& o = net.ops[static_cast<std::size_t>(other)];
      return " is also the result of \"" + o.name + "\" (" + o.pointer +
             "); gemini needs each op's result in a buffer of its own";
    };
    if (auto [t, fresh] = out.by_tensor.emplace(op.result_tensor, index); !fresh) {
      error(op.pointer, "its result tensor " + std::to_string(op.result_tensor) + also(t->second));
      continue;
    }
    if (op.result_buffer < 0) continue;
    if (auto [b, fresh] = out.by_buffer.emplace(op.result_buffer, index); !fresh)
      error(op.pointer, "its result buffer " + std::to_string(op.result_buffer) + also(b->second));
  }
}

// What op i's read `t` is: another op's whole result (its producer), or
// network input (an external, the same one wherever its buffer is read).
InputPart Loader::resolve_read(Network& net, std::size_t i, const TensorRef& t,
                               const Results& results, std::set<std::int64_t>& read_producers) {
  const Op& op = net.ops[i];
  InputPart part;
  part.tensor_id = t.id;
  std::int32_t producer = -1;
  if (auto p = results.by_tensor.find(t.id); p != results.by_tensor.end()) {
    producer = p->second;
  } else if (auto b = results.by_buffer.find(t.buffer);
             t.buffer >= 0 && b != results.by_buffer.end()) {
    producer = b->second;
  }
  if (producer == static_cast<std::int32_t>(i)) {
    error(t.at, "op \"" + op.name + "\" reads its own result (tensor " + std::to_string(t.id) +
                    "): a cycle");
    part.producer = producer;
    return part;
  }
  if (producer >= 0) {
    part.producer = producer;
    const Op& from = net.ops[static_cast<std::size_t>(producer)];
    read_producers.insert(from.node_id);
    // A read takes a whole result: the reference and the schedule's data
    // move whole tensors, so a view of another shape (ARK allows one)
    // would be read out of its bounds.
    if (t.dims() != from.ofmap_shape)
      error(t.at + "/Shape", "reads the result of \"" + from.name + "\" (" +
                                 to_string(from.ofmap_shape) + ") as " + to_string(t.dims()) +
                                 "; gemini reads whole results only");
    return part;
  }
  part.external = true;
  const std::int64_t key = t.buffer >= 0 ? t.buffer : t.id;
  auto [it, fresh] = external_of_.emplace(key, static_cast<std::int32_t>(net.externals.size()));
  if (fresh) {
    External e;
    e.tensor_id = t.id;
    e.buffer_id = t.buffer;
    std::copy(t.shape.begin(), t.shape.end(), e.shape.begin());
    e.first_reader = op.name;
    net.externals.push_back(e);
  } else if (const External& e = net.externals[static_cast<std::size_t>(it->second)];
             t.dims() != e.shape) {
    error(t.at + "/Shape", "network input " + std::to_string(e.tensor_id) + " (buffer " +
                               std::to_string(e.buffer_id) + ") is " + to_string(e.shape) +
                               " where \"" + e.first_reader + "\" reads it, not " +
                               to_string(t.dims()));
  }
  part.external_index = it->second;
  return part;
}

// Op i's inputs and weights add up to its shapes, external inputs first,
// and ProducerNodeIds lists exactly the ops it reads.
void Loader::check_links(Op& op, std::size_t i, std::int64_t channels, std::int64_t wchannels,
                         const std::map<std::int64_t, std::int32_t>& by_node,
                         const std::set<std::int64_t>& read_producers) {
  if (channels != op.ifmap_shape[1])
    error(op.pointer + "/ReadTensors", "the inputs' channels add up to " +
                                           std::to_string(channels) + ", IfmapShape says " +
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
  if (op.weight_from_fmap && wchannels != op.weight_shape[0])
    error(op.pointer + "/ReadTensors", "the weight tensors' channels add up to " +
                                           std::to_string(wchannels) + ", WeightShape's K is " +
                                           std::to_string(op.weight_shape[0]));
  std::set<std::int64_t> listed(listed_producers_[i].begin(), listed_producers_[i].end());
  for (std::int64_t id : listed)
    if (!by_node.count(id))
      error(op.pointer,
            "ProducerNodeIds names node " + std::to_string(id) + ", which does not exist");
  if (listed != read_producers)
    error(node_at_[i] + "/ProducerNodeIds", "ProducerNodeIds lists " + id_list(listed) +
                                                ", but the producers of ReadTensors are nodes " +
                                                id_list(read_producers));
}

void Loader::resolve(Network& net, const std::map<std::int64_t, std::int32_t>& by_node) {
  Results results;
  index_results(net, results);
  external_of_.clear();
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
      InputPart part = resolve_read(net, i, t, results, read_producers);
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
    check_links(op, i, offset, woffset, by_node, read_producers);
  }
}

void Loader::sort(Network& net) {
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

void Loader::check_shapes(const Network& net, const Op& op) {
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

}  // namespace gemini::model::detail
