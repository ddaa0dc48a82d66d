#pragma once
// A batch of tile operations that own their data: each added op's inputs
// are copied into the batch's host arenas, so the batch can be computed
// later, on any backend (run_batch uploads the arenas and points the ops
// at the backend's copies).

#include <cstdint>
#include <string>
#include <vector>

#include "gemini/gpu/backend.h"
#include "gemini/model/tile_op.h"

namespace gemini::gpu {

class TileBatch {
 public:
  // Copies what `op` reads: its input tiles, weights and sums.
  void add(const model::TileOp& op);
  std::size_t size() const { return ops_.size(); }
  bool empty() const { return ops_.empty(); }
  std::int64_t elements() const { return total_; }
  std::size_t bytes() const { return bytes_.size() + 4 * words_.size(); }
  // op i's first output value in run_batch's `out`.
  std::int64_t offset(std::size_t i) const { return offsets_[i]; }
  const model::TileOp& op(std::size_t i) const { return ops_[i]; }  // data pointers unset
  void clear();

  // The ops with their data pointers into the given copies of the arenas.
  std::vector<model::TileOp> bind(const std::int8_t* bytes, const std::int32_t* words) const;
  const std::vector<std::int8_t>& byte_arena() const { return bytes_; }
  const std::vector<std::int32_t>& word_arena() const { return words_; }

 private:
  struct Where {  // arena offsets of an op's data; -1 for none
    std::int64_t in[model::kMaxTileInputs] = {-1, -1, -1, -1};
    std::int64_t weights = -1, sums = -1;
  };
  std::int64_t copy(const model::ConstTile& t);
  std::vector<model::TileOp> ops_;
  std::vector<Where> where_;
  std::vector<std::int64_t> offsets_;
  std::vector<std::int8_t> bytes_;
  std::vector<std::int32_t> words_;
  std::int64_t total_ = 0;
};

// Computes the batch on `b`: out receives every op's values (batch.offset).
bool run_batch(Backend& b, const TileBatch& batch, std::vector<std::int32_t>& out,
               std::string& error);

}  // namespace gemini::gpu
