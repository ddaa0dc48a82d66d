#include "gemini/model/reference.h"

#include <zlib.h>

#include <boost/json.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "gemini/ir/checked_int.h"
#include "gemini/ir/parallel.h"
#include "gemini/ir/resources.h"
#include "gemini/model/cpu_kernels.h"
#include "gemini/model/layer_params.h"
#include "gemini/model/tile_op_factory.h"

namespace gemini::model {
namespace {

Tensor8 make(const Dims4& shape) {
  Tensor8 t;
  t.shape = shape;
  t.data.resize(static_cast<std::size_t>(t.size()));
  return t;
}

// Channels [c0, c0 + src.C) of `dst` (same N, H, W) := src.
void put_channels(Tensor8& dst, const Tensor8& src, std::int64_t c0) {
  const std::int64_t hw = dst.shape[2] * dst.shape[3];
  for (std::int64_t n = 0; n < dst.shape[0]; ++n)
    std::copy(src.data.begin() + n * src.shape[1] * hw,
              src.data.begin() + (n + 1) * src.shape[1] * hw,
              dst.data.begin() + (n * dst.shape[1] + c0) * hw);
}

}  // namespace

Tensor8 zero_tensor(const Dims4& shape) { return make(shape); }

const Tensor8& op_input(const Op& op, const Reference& r, Tensor8& scratch) {
  auto part_of = [&](const InputPart& p) -> const Tensor8& {
    return p.external ? r.externals[static_cast<std::size_t>(p.external_index)]
                      : r.outputs[static_cast<std::size_t>(p.producer)];
  };
  if (op.inputs.size() == 1) return part_of(op.inputs.front());
  scratch = make(op.ifmap_shape);
  for (const InputPart& p : op.inputs) put_channels(scratch, part_of(p), p.offset);
  return scratch;
}

Tensor8 fmap_weights(const Op& op, const Reference& r) {
  Tensor8 w = make({op.ifmap_shape[0], op.weight_shape[0], op.weight_shape[1],
                    op.weight_shape[2] * op.weight_shape[3]});
  for (const InputPart& part : op.weights)
    put_channels(w, r.outputs[static_cast<std::size_t>(part.producer)], part.offset);
  return w;
}

Tensor8 generate_external(const Network& net, std::size_t external, std::uint64_t seed) {
  const External& e = net.externals[external];
  Tensor8 t = make(e.shape);
  const std::uint64_t base =
      stream_base(seed, tensor_key(DataKind::input, static_cast<std::uint64_t>(e.tensor_id)));
  for (std::size_t i = 0; i < t.data.size(); ++i) t.data[i] = generate_at(base, i);
  return t;
}

Tensor8 generate_weights(const Op& op, std::uint64_t seed) {
  Tensor8 t = make(op.weight_shape);
  const std::uint64_t base =
      stream_base(seed, tensor_key(DataKind::weight, static_cast<std::uint64_t>(op.node_id)));
  for (std::size_t i = 0; i < t.data.size(); ++i) t.data[i] = generate_at(base, i);
  return t;
}

std::optional<std::int64_t> reference_bytes(const Network& net, std::string* detail) {
  auto volume = [](const Dims4& d) {
    ir::CheckedI64 v(1);
    for (std::int64_t x : d) v *= x;
    return v;
  };
  ir::CheckedI64 kept;
  for (const External& e : net.externals) kept += volume(e.shape);
  for (const Op& op : net.ops) kept += volume(op.ofmap_shape);
  ir::CheckedI64 worst;
  const Op* worst_op = nullptr;
  for (const Op& op : net.ops) {
    ir::CheckedI64 work;
    if (op.inputs.size() > 1) work += volume(op.ifmap_shape);  // the concatenation
    if (op.has_weights()) {
      ir::CheckedI64 w = volume(op.weight_shape);
      if (op.weight_from_fmap) w *= op.ifmap_shape[0];  // per sample
      work += w;
    }
    ir::CheckedI64 sums = volume(op.ofmap_shape);
    sums *= static_cast<std::int64_t>(sizeof(std::int32_t));
    work += sums;
    if (!work.ok()) return std::nullopt;
    if (!worst_op || *work.get() > *worst.get()) {
      worst = work;
      worst_op = &op;
    }
  }
  ir::CheckedI64 total = kept;
  total += worst;
  if (detail && total.ok())
    *detail = ir::format_bytes(*kept.get()) + " for the outputs of its " +
              std::to_string(net.ops.size()) + " layers and its " +
              std::to_string(net.externals.size()) + " inputs" +
              (worst_op ? ", " + ir::format_bytes(*worst.get()) + " to compute layer " +
                              worst_op->name + " (weights, int32 sums, input)"
                        : "");
  return total.get();
}

Reference compute_reference(const Network& net, std::uint64_t seed, unsigned threads,
                            const LayerDone& layer_done) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  Reference r;
  r.seed = seed;
  r.numerics.resize(net.ops.size());
  r.outputs.resize(net.ops.size());
  r.externals.resize(net.externals.size());
  ir::parallel_for(net.externals.size(),
                   [&](std::size_t e) { r.externals[e] = generate_external(net, e, seed); });
  for (std::int32_t i : net.order) {
    const Op& op = net.ops[static_cast<std::size_t>(i)];
    LayerNumerics& ln = r.numerics[static_cast<std::size_t>(i)];
    Tensor8 scratch;
    const Tensor8& in = op_input(op, r, scratch);
    Tensor8 out = make(op.ofmap_shape);
    Tensor8 w;
    if (op.has_weights())
      w = op.weight_from_fmap ? fmap_weights(op, r) : generate_weights(op, seed);
    const OpTileOp t = tile_op_for(op, {in.data.data(), whole_box(in.shape)},
                                   {w.data.data(), op.has_weights() ? weight_box(op) : ir::Box{}},
                                   whole_box(op.ofmap_shape));
    const TileOp& top = t.op;
    // Requantising ops: their int32 sums, the shift calibrated on them.
    std::vector<std::int32_t> sums;
    if (top.wide()) sums.resize(static_cast<std::size_t>(out.size()));
    compute_tile_cpu(top, t.inputs, sums.data(), out.data.data(), threads);
    if (requantises(op)) {
      ln.requantised = true;
      ln.shift = calibrated_shift(sums.data(), out.size());
      requantize_all(sums.data(), out.size(), ln.shift, out.data.data());
    }
    r.outputs[static_cast<std::size_t>(i)] = std::move(out);
    if (layer_done) layer_done(i);
  }
  return r;
}

std::string digest(const std::vector<std::int8_t>& data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto* p = reinterpret_cast<const Bytef*>(data.data());
  std::size_t left = data.size();
  while (left > 0) {
    const uInt n = static_cast<uInt>(std::min<std::size_t>(left, 1u << 30));
    crc = crc32(crc, p, n);
    p += n;
    left -= n;
  }
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08lx", static_cast<unsigned long>(crc));
  return buf;
}

bool write_reference(const Reference& r, const Network& net, const std::string& dir,
                     std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    error = "cannot create " + dir + ": " + ec.message();
    return false;
  }
  auto write = [&](const std::string& file, const Tensor8& t) {
    std::ofstream os(fs::path(dir) / file, std::ios::binary);
    os.write(reinterpret_cast<const char*>(t.data.data()),
             static_cast<std::streamsize>(t.data.size()));
    if (!os) error = "cannot write " + (fs::path(dir) / file).string();
    return static_cast<bool>(os);
  };
  boost::json::array tensors;
  auto entry = [&](const std::string& name, const char* kind, const Tensor8& t,
                   const std::string& file) {
    boost::json::object o;
    o["name"] = name;
    o["kind"] = kind;
    o["shape"] = boost::json::array{t.shape[0], t.shape[1], t.shape[2], t.shape[3]};
    o["file"] = file;
    o["digest"] = "crc32:" + digest(t.data);
    return o;
  };
  for (std::size_t e = 0; e < net.externals.size(); ++e) {
    const std::string file = "input_" + std::to_string(net.externals[e].tensor_id) + ".int8";
    if (!write(file, r.externals[e])) return false;
    boost::json::object o =
        entry("input_" + std::to_string(net.externals[e].tensor_id), "input", r.externals[e], file);
    o["tensor_id"] = net.externals[e].tensor_id;
    tensors.push_back(std::move(o));
  }
  for (std::int32_t i : net.order) {
    const Op& op = net.ops[static_cast<std::size_t>(i)];
    const std::string file = op.name + ".int8";
    if (op.name.find('/') != std::string::npos || op.name.empty() || op.name[0] == '.') {
      error = "op name \"" + op.name + "\" cannot name a file";
      return false;
    }
    if (!write(file, r.outputs[static_cast<std::size_t>(i)])) return false;
    boost::json::object o =
        entry(op.name, to_string(op.type), r.outputs[static_cast<std::size_t>(i)], file);
    if (r.numerics[static_cast<std::size_t>(i)].requantised)
      o["shift"] = r.numerics[static_cast<std::size_t>(i)].shift;
    tensors.push_back(std::move(o));
  }
  boost::json::object top;
  top["model"] = net.path;
  top["seed"] = r.seed;
  top["numerics"] = "gemini-int8-v1 (docs/numerics.md)";
  top["layout"] = "dense int8, [N, C, H, W] row-major";
  top["tensors"] = std::move(tensors);
  std::ofstream os(fs::path(dir) / "index.json");
  os << boost::json::serialize(top) << "\n";
  if (!os) {
    error = "cannot write " + (fs::path(dir) / "index.json").string();
    return false;
  }
  return true;
}

}  // namespace gemini::model
