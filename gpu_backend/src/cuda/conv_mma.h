#pragma once
// The tensor-core path of the cuda backend: a convolution tile computed as
// the matrix products of conv_gemm.h on the int8 MMA units (exact int32
// accumulation, so bit for bit the dp4a kernel's sums). Compiled by nvcc
// only (src/cuda/conv_mma.cu).

#include <cuda_runtime.h>

#include <cstdint>

#include "device_scratch.h"
#include "gemini/model/tile_op.h"

namespace gemini::gpu {

// Enqueues op's sums (use_tensor_cores(op) must hold; the op's pointers
// are device memory) into out[0, op.elements()) on `stream`. False when
// the packed operands' memory (`ws`) cannot be had or a launch fails
// (cudaGetLastError says).
bool conv_mma(const model::TileOp& op, std::int32_t* out, DeviceScratch& ws, int sms,
              cudaStream_t stream);

}  // namespace gemini::gpu
