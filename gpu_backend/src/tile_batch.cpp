#include "gemini/gpu/tile_batch.h"

namespace gemini::gpu {

std::int64_t TileBatch::copy(const model::ConstTile& t) {
  if (!t.data) return -1;
  const auto at = static_cast<std::int64_t>(bytes_.size());
  const auto n = static_cast<std::size_t>(t.box.volume());
  bytes_.insert(bytes_.end(), t.data, t.data + n);
  return at;
}

void TileBatch::add(const model::TileOp& op) {
  Where w;
  model::TileOp o = op;
  for (int i = 0; i < model::kMaxTileInputs; ++i) {
    if (i < op.inputs) w.in[i] = copy(op.in[i]);
    o.in[i].data = nullptr;
  }
  w.weights = op.kind == model::TileKind::conv ? copy(op.weights) : -1;
  o.weights.data = nullptr;
  if (op.kind == model::TileKind::requantize && op.sums) {
    w.sums = static_cast<std::int64_t>(words_.size());
    words_.insert(words_.end(), op.sums, op.sums + op.elements());
  }
  o.sums = nullptr;
  ops_.push_back(o);
  where_.push_back(w);
  offsets_.push_back(total_);
  total_ += op.elements();
}

void TileBatch::clear() {
  ops_.clear();
  where_.clear();
  offsets_.clear();
  bytes_.clear();
  words_.clear();
  total_ = 0;
}

std::vector<model::TileOp> TileBatch::bind(const std::int8_t* bytes,
                                           const std::int32_t* words) const {
  std::vector<model::TileOp> out = ops_;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const Where& w = where_[k];
    for (int i = 0; i < model::kMaxTileInputs; ++i)
      if (w.in[i] >= 0) out[k].in[i].data = bytes + w.in[i];
    if (w.weights >= 0) out[k].weights.data = bytes + w.weights;
    if (w.sums >= 0) out[k].sums = words + w.sums;
  }
  return out;
}

bool run_batch(Backend& b, const TileBatch& batch, std::vector<std::int32_t>& out,
               std::string& error) {
  // Every element is written by the download (a vector reused from batch
  // to batch keeps its pages).
  out.resize(static_cast<std::size_t>(batch.elements()));
  if (batch.empty()) return true;
  Buffer bytes(b, batch.byte_arena().size());
  Buffer words(b, batch.word_arena().size() * sizeof(std::int32_t));
  Buffer result(b, out.size() * sizeof(std::int32_t));
  if (!bytes.ok() || !words.ok() || !result.ok()) {
    error = std::string(b.name()) + ": cannot allocate " +
            std::to_string(batch.bytes() + out.size() * 4) + " bytes: " + b.error();
    return false;
  }
  if (!b.upload(bytes.as<void>(), batch.byte_arena().data(), bytes.bytes()) ||
      !b.upload(words.as<void>(), batch.word_arena().data(), words.bytes())) {
    error = b.error();
    return false;
  }
  const std::vector<model::TileOp> ops =
      batch.bind(bytes.as<std::int8_t>(), words.as<std::int32_t>());
  std::vector<std::int64_t> offsets(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) offsets[i] = batch.offset(i);
  if (!b.run(ops.data(), ops.size(), offsets.data(), result.as<std::int32_t>()) ||
      !b.download(out.data(), result.as<void>(), result.bytes())) {
    error = b.error();
    return false;
  }
  return true;
}

}  // namespace gemini::gpu
