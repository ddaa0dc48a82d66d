#pragma once
// The tile operations of tile_ops.h on the CPU, a whole tile at a time: the
// reference computes a layer as one tile, the simulator's functional PE and
// VP compute each pe_run / vp_run as one (both through compute_tile_cpu).
// Results equal the per-element functions of tile_ops.h bit for bit
// (tested); the convolution is an im2col and an Eigen int32 GEMM per
// (sample, group, block of output rows).
//
// Outputs are dense over their box (N, C, H, W order); inputs are
// ConstTiles that must hold what the outputs read (callers check).

#include <cstdint>
#include <span>

#include "gemini/model/tile_op.h"
#include "gemini/model/tile_ops.h"

namespace gemini::model {

// The int32 sums of every element of `out` into `acc` (out.volume()
// values). `threads` > 1 spreads (sample, group, row block) work items over
// that many threads; the result does not depend on it.
void conv_tile_cpu(const ConvParams& p, const ConstTile& in, const ConstTile& w, const ir::Box& out,
                   std::int32_t* acc, unsigned threads = 1);

// Requantises `n` sums into int8 with `shift`.
void requantize_all(const std::int32_t* acc, std::int64_t n, std::int32_t shift, std::int8_t* out);

void pool_tile_cpu(const PoolParams& p, const ConstTile& in, const ir::Box& out, std::int8_t* dst);

// The window sums of average pooling (what pool_element requantises).
void window_sums_cpu(const PoolParams& p, const ConstTile& in, const ir::Box& out,
                     std::int32_t* sums);

// in0 + in1 + ... over `out` (every input holds it), and the same
// requantised with `shift`.
void operand_sums_cpu(const ConstTile* inputs, int count, const ir::Box& out, std::int32_t* sums);
void add_tile_cpu(const ConstTile* inputs, int count, std::int32_t shift, const ir::Box& out,
                  std::int8_t* dst);

// out[o] = in[i] with i[d] = o[perm[d]] (input dim i becomes output dim
// perm[i]); a copy when perm is the identity.
void transpose_tile_cpu(const std::int32_t perm[4], const ConstTile& in, const ir::Box& out,
                        std::int8_t* dst);

// Tile operation `t` over t.out with the functions above: the int32 sums of
// a wide kind (conv, pool_sum, add_sum) into `sums`, the int8 values of the
// others into `dst`. `inputs` are its input tiles (an Eltwise of more
// operands than a TileOp holds passes them here); empty: t.in[0, t.inputs).
void compute_tile_cpu(const TileOp& t, std::span<const ConstTile> inputs, std::int32_t* sums,
                      std::int8_t* dst, unsigned threads = 1);

}  // namespace gemini::model
