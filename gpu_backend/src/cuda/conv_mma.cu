// The tensor-core path of the cuda backend (conv_mma.h): a convolution tile
// packed into the operands of conv_gemm.h, then multiplied by the int8
// MMA units (WMMA 16x16x16, int32 accumulation: exact).
//
// Kernels, in launch order on the caller's stream:
//   pack<A> -- A[z][m][q] gathered from the input tile, 16 terms a thread
//              (conv_gemm_a_run: the window found once, then stepped);
//   pack<B> -- B[z][j][q] from the weights, likewise (conv_gemm_b_run);
//   gemm    -- a block of 8 warps computes a kBlockM x kBlockN tile of one
//              product, kBlockK terms a step: the next step's operands
//              loaded into registers (16 bytes per thread and access)
//              while the tensor cores work on the current one in shared
//              memory (two buffers); the accumulators are stored through
//              shared memory so that the writes to the op's output (dense
//              N, C, H, W over its box) are consecutive along W. When the
//              output tiles alone would leave most of the chip idle, the
//              terms are split across blocks (split-K, atomicAdd).
// Gathering A inside the GEMM's loads instead of packing it (the classic
// implicit GEMM, no copy of A in memory) was measured slower on an H200:
// 7.9 ms against 4.2 ms for ResNet-50's 53 convolutions at batch 16 (the
// gather's index arithmetic in the tensor cores' loop; docs/gpu.md).

#include <cuda_runtime.h>
#include <mma.h>

#include "conv_mma.h"
#include "gemini/gpu/conv_gemm.h"

namespace gemini::gpu {
namespace {

constexpr int kThreads = 256;  // 8 warps: 4 along M, 2 along N
// Shared memory holds each 16-term chunk of a step as its own matrix of
// 16-byte rows (WMMA wants 32-byte aligned fragment pointers, so a chunk
// cannot start 16 bytes into a row); 32 bytes between chunks put the four
// chunks of a row in different banks when a quarter-warp stores them.
constexpr int kChunks = kBlockK / 16;
constexpr int kChunkA = kBlockM * 16 + 32, kChunkB = kBlockN * 16 + 32;
constexpr int kStageBytes = kChunks * (kChunkA + kChunkB);
constexpr int kRowC = kBlockM + 4;  // shared column of C, int32 values
constexpr int kSharedBytes =
    2 * kStageBytes > kBlockN* kRowC * 4 ? 2 * kStageBytes : kBlockN* kRowC * 4;

// 16 bytes of A (kA) or B a thread: row `row` of the padded operand, terms
// [q0, q0 + 16), by conv_gemm_a_run (conv_gemm_b_run). 32-bit indices: the
// operands are at most 1 GiB (use_tensor_cores).
template <bool kA>
__global__ void pack(model::TileOp op, ConvGemm g, std::int8_t* dst) {
  const auto pieces = static_cast<std::uint32_t>(g.kp / 16),
             rows = static_cast<std::uint32_t>(kA ? g.mp : g.np);
  const std::uint32_t total = static_cast<std::uint32_t>(g.z) * rows * pieces;
  for (std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x; e < total;
       e += gridDim.x * blockDim.x) {
    const std::uint32_t row = e / pieces, q0 = (e - row * pieces) * 16;
    alignas(16) std::int8_t v[16];
    if constexpr (kA) {
      conv_gemm_a_run(op, g, row / rows, row % rows, q0, 16, v);
    } else {
      conv_gemm_b_run(op, g, row / rows, row % rows, q0, 16, v);
    }
    reinterpret_cast<int4*>(dst)[e] = *reinterpret_cast<const int4*>(v);
  }
}

// One block: rows [m0, m0 + kBlockM) and columns [j0, j0 + kBlockN) of
// product blockIdx.z / splits, over the terms of its slice blockIdx.z %
// splits (split-K: a slice adds its partial sums into the zeroed output
// with atomicAdd -- integer additions, so any order gives the same sums).
__global__ void __launch_bounds__(kThreads)
    gemm(model::TileOp op, ConvGemm g, int splits, const std::int8_t* a, const std::int8_t* b,
         std::int32_t* out) {
  using namespace nvcuda;
  __shared__ __align__(128) unsigned char smem[kSharedBytes];
  const int tid = threadIdx.x, warp = tid / 32;
  const int wm = warp % 4, wn = warp / 4;  // the warp's 32 x 32 corner
  const std::int64_t z = blockIdx.z / splits, m0 = std::int64_t{blockIdx.x} * kBlockM,
                     j0 = std::int64_t{blockIdx.y} * kBlockN;
  const std::int8_t* a_blk = a + (z * g.mp + m0) * g.kp;
  const std::int8_t* b_blk = b + (z * g.np + j0) * g.kp;
  // Per step each thread loads two 16-byte pieces of A (rows tid / 4 and
  // 64 + tid / 4) and one of B (row tid / 4), chunk tid % 4.
  const int lrow = tid / 4, chunk = tid % 4;
  auto stage = [&](int s) { return smem + s * kStageBytes; };
  int4 ra0, ra1, rb;
  auto load = [&](std::int64_t k0) {
    const std::int64_t at = k0 + chunk * 16;
    ra0 = *reinterpret_cast<const int4*>(a_blk + std::int64_t{lrow} * g.kp + at);
    ra1 = *reinterpret_cast<const int4*>(a_blk + std::int64_t{lrow + 64} * g.kp + at);
    rb = *reinterpret_cast<const int4*>(b_blk + std::int64_t{lrow} * g.kp + at);
  };
  auto store = [&](int s) {
    unsigned char* sa = stage(s) + chunk * kChunkA;
    unsigned char* sb = stage(s) + kChunks * kChunkA + chunk * kChunkB;
    *reinterpret_cast<int4*>(sa + lrow * 16) = ra0;
    *reinterpret_cast<int4*>(sa + (lrow + 64) * 16) = ra1;
    *reinterpret_cast<int4*>(sb + lrow * 16) = rb;
  };
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc[2][2];
  for (auto& row : acc)
    for (auto& f : row) wmma::fill_fragment(f, 0);
  // This block's steps: [first, last) of the product's kp / kBlockK.
  const std::int64_t all = g.kp / kBlockK, slice = blockIdx.z % splits;
  const std::int64_t first = all * slice / splits, last = all * (slice + 1) / splits;
  const std::int64_t steps = last - first;
  a_blk += first * kBlockK;
  b_blk += first * kBlockK;
  load(0);
  store(0);
  __syncthreads();
  for (std::int64_t step = 0; step < steps; ++step) {
    const int cur = static_cast<int>(step & 1);
    if (step + 1 < steps) load((step + 1) * kBlockK);
    const auto* sa = reinterpret_cast<const signed char*>(stage(cur));
    const auto* sb = sa + kChunks * kChunkA;
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb[2];
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        wmma::load_matrix_sync(fa[i], sa + c * kChunkA + (wm * 32 + i * 16) * 16, 16);
        wmma::load_matrix_sync(fb[i], sb + c * kChunkB + (wn * 32 + i * 16) * 16, 16);
      }
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    if (step + 1 < steps) store(cur ^ 1);
    __syncthreads();
  }
  // C through shared memory, column-major (a column: kBlockM cells of one
  // channel), then out along the cells: consecutive threads, consecutive W.
  auto* sc = reinterpret_cast<int*>(smem);
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(sc + (wn * 32 + j * 16) * kRowC + wm * 32 + i * 16, acc[i][j], kRowC,
                              wmma::mem_col_major);
  __syncthreads();
  for (int e = tid; e < kBlockM * kBlockN; e += kThreads) {
    const int col = e / kBlockM, row = e % kBlockM;
    const std::int64_t at = conv_gemm_out(op, g, z, m0 + row, j0 + col);
    if (at < 0) continue;
    if (splits == 1) {
      out[at] = sc[col * kRowC + row];
    } else {
      atomicAdd(out + at, sc[col * kRowC + row]);
    }
  }
}

}  // namespace

bool conv_mma(const model::TileOp& op, std::int32_t* out, DeviceScratch& ws, int sms,
              cudaStream_t stream) {
  const ConvGemm g = conv_gemm_shape(op);
  // A then B, each 16-byte aligned (kp is a multiple of 64).
  auto* a = static_cast<std::int8_t*>(ws.get(static_cast<std::size_t>(g.a_bytes() + g.b_bytes())));
  if (!a) return false;
  std::int8_t* b = a + g.a_bytes();
  pack<true><<<grid_for(g.a_bytes() / 16, kThreads, sms), kThreads, 0, stream>>>(op, g, a);
  pack<false><<<grid_for(g.b_bytes() / 16, kThreads, sms), kThreads, 0, stream>>>(op, g, b);
  // Split the terms when the output tiles alone would leave most of the
  // chip idle (a batch-16 FC layer: 16 blocks), a slice at least 4 steps.
  const std::int64_t tiles = g.mp / kBlockM * (g.np / kBlockN) * g.z, steps = g.kp / kBlockK;
  std::int64_t splits = 1;
  while (tiles * splits < 2 * std::int64_t{sms} && steps / (splits * 2) >= 4 &&
         g.z * splits * 2 <= 65535)
    splits *= 2;
  if (splits > 1 &&
      cudaMemsetAsync(out, 0, static_cast<std::size_t>(op.elements()) * sizeof(std::int32_t),
                      stream) != cudaSuccess)
    return false;
  const dim3 grid(static_cast<unsigned>(g.mp / kBlockM), static_cast<unsigned>(g.np / kBlockN),
                  static_cast<unsigned>(g.z * splits));
  gemm<<<grid, kThreads, 0, stream>>>(op, g, static_cast<int>(splits), a, b, out);
  return cudaGetLastError() == cudaSuccess;
}

}  // namespace gemini::gpu
