#pragma once
// The tensor-core path of the cuda backend: a convolution tile computed as
// the matrix products of conv_gemm.h on the int8 MMA units (exact int32
// accumulation, so bit for bit the dp4a kernel's sums). Compiled by nvcc
// only (src/cuda/conv_mma.cu).

#include <cuda_runtime.h>

#include <cstdint>

#include "gemini/model/tile_op.h"

namespace gemini::gpu {

// Device memory for the packed operands, grown as needed and kept.
class MmaWorkspace {
 public:
  MmaWorkspace() = default;
  MmaWorkspace(const MmaWorkspace&) = delete;
  MmaWorkspace& operator=(const MmaWorkspace&) = delete;
  ~MmaWorkspace();
  // False when the device cannot give `bytes` (the caller falls back).
  bool reserve(std::int64_t bytes);
  void* data() const { return p_; }

 private:
  void* p_ = nullptr;
  std::int64_t capacity_ = 0;
};

// Enqueues op's sums (use_tensor_cores(op) must hold; the op's pointers
// are device memory) into out[0, op.elements()) on `stream`. False when
// the workspace cannot be had or a launch fails (cudaGetLastError says).
bool conv_mma(const model::TileOp& op, std::int32_t* out, MmaWorkspace& ws, int sms,
              cudaStream_t stream);

}  // namespace gemini::gpu
