#pragma once
// What the CUDA files share (nvcc only): device memory kept between calls
// and grown as needed, and the grid of a grid-stride kernel.

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gemini::gpu {

// Device memory kept between calls, grown as needed (the op tables, the
// partial sums of a layer's end, the tensor cores' packed operands).
class DeviceScratch {
 public:
  DeviceScratch() = default;
  DeviceScratch(const DeviceScratch&) = delete;
  DeviceScratch& operator=(const DeviceScratch&) = delete;
  ~DeviceScratch() {
    if (p_) cudaFree(p_);
  }
  // At least `bytes`, or nullptr when the device cannot give them (the
  // error is cleared: the caller says what failed, or falls back).
  void* get(std::size_t bytes) {
    if (bytes <= n_) return p_;
    if (p_) cudaFree(p_);
    p_ = nullptr;
    n_ = 0;
    if (cudaMalloc(&p_, bytes) != cudaSuccess) {
      cudaGetLastError();
      p_ = nullptr;
      return nullptr;
    }
    n_ = bytes;
    return p_;
  }

 private:
  void* p_ = nullptr;
  std::size_t n_ = 0;
};

// Blocks of `threads` for a grid-stride loop over n elements: one element
// a thread, at most 32 blocks a multiprocessor, at least one block.
inline unsigned grid_for(std::int64_t n, int threads, int sms) {
  const std::int64_t want = (n + threads - 1) / threads, cap = std::int64_t{sms} * 32;
  return static_cast<unsigned>(want < 1 ? 1 : want < cap ? want : cap);
}

}  // namespace gemini::gpu
