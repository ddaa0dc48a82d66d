// The "cuda" backend (backend.h): device memory, one thread per output
// element running model::tile_element -- the same function the "cpu"
// backend runs, so the two differ only in the machine (and in dot4, which
// is __dp4a here: four int8 products added to an int32 in one instruction).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "../cuda_backend.h"
#include "gemini/model/tile_op.h"

namespace gemini::gpu {
namespace {

constexpr int kThreads = 256;

__global__ void generate_kernel(std::int8_t* dst, std::int64_t n, std::uint64_t base,
                                std::uint64_t first) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    dst[i] = model::generate_at(base, first + static_cast<std::uint64_t>(i));
}

// Element g of the batch belongs to the last op whose offset is <= g.
__global__ void tile_kernel(const model::TileOp* ops, const std::int64_t* offsets,
                            std::size_t count, std::int64_t total, std::int32_t* out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t g = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < total;
       g += stride) {
    std::size_t lo = 0, hi = count;
    while (hi - lo > 1) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (offsets[mid] <= g) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    out[g] = model::tile_element(ops[lo], g - offsets[lo]);
  }
}

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(const cudaDeviceProp& p) : prop_(p) {}
  const char* name() const override { return "cuda"; }
  std::string device() const override {
    return std::string(prop_.name) + " (sm_" + std::to_string(prop_.major) +
           std::to_string(prop_.minor) + ", " + std::to_string(prop_.multiProcessorCount) +
           " SMs, " + std::to_string(prop_.totalGlobalMem >> 20) + " MiB)";
  }
  void* allocate(std::size_t bytes) override {
    void* p = nullptr;
    if (!check(cudaMalloc(&p, bytes == 0 ? 1 : bytes), "cudaMalloc")) return nullptr;
    return p;
  }
  void release(void* p) override { cudaFree(p); }
  bool upload(void* dst, const void* src, std::size_t bytes) override {
    return bytes == 0 || check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "upload");
  }
  bool download(void* dst, const void* src, std::size_t bytes) override {
    return bytes == 0 || check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "download");
  }
  bool generate(std::int8_t* dst, std::int64_t n, std::uint64_t base,
                std::uint64_t first) override {
    if (n <= 0) return true;
    generate_kernel<<<blocks(n), kThreads>>>(dst, n, base, first);
    return check(cudaGetLastError(), "generate") && check(cudaDeviceSynchronize(), "generate");
  }
  bool run(const model::TileOp* ops, std::size_t count, const std::int64_t* offsets,
           std::int32_t* out) override {
    if (count == 0) return true;
    const std::int64_t total = offsets[count - 1] + ops[count - 1].elements();
    if (total == 0) return true;
    model::TileOp* d_ops = nullptr;
    std::int64_t* d_offsets = nullptr;
    bool ok =
        check(cudaMalloc(&d_ops, count * sizeof(model::TileOp)), "cudaMalloc") &&
        check(cudaMalloc(&d_offsets, count * sizeof(std::int64_t)), "cudaMalloc") &&
        check(cudaMemcpy(d_ops, ops, count * sizeof(model::TileOp), cudaMemcpyHostToDevice),
              "upload") &&
        check(cudaMemcpy(d_offsets, offsets, count * sizeof(std::int64_t), cudaMemcpyHostToDevice),
              "upload");
    if (ok) {
      tile_kernel<<<blocks(total), kThreads>>>(d_ops, d_offsets, count, total, out);
      ok =
          check(cudaGetLastError(), "tile_kernel") && check(cudaDeviceSynchronize(), "tile_kernel");
    }
    cudaFree(d_ops);
    cudaFree(d_offsets);
    return ok;
  }

 private:
  unsigned blocks(std::int64_t n) const {
    const std::int64_t want = (n + kThreads - 1) / kThreads;
    const std::int64_t cap = std::int64_t{prop_.multiProcessorCount} * 32;
    return static_cast<unsigned>(std::max<std::int64_t>(1, std::min(want, cap)));
  }
  bool check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    error_ = std::string("CUDA ") + what + ": " + cudaGetErrorString(e);
    return false;
  }
  cudaDeviceProp prop_;
};

}  // namespace

bool cuda_built() { return true; }

std::unique_ptr<Backend> make_cuda_backend(std::string& why) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    why = std::string("no usable CUDA device: ") + cudaGetErrorString(e);
    return nullptr;
  }
  if (count == 0) {
    why = "no CUDA device";
    return nullptr;
  }
  cudaDeviceProp prop{};
  e = cudaGetDeviceProperties(&prop, 0);
  if (e != cudaSuccess) {
    why = std::string("cannot query CUDA device 0: ") + cudaGetErrorString(e);
    return nullptr;
  }
  // The kernels must load on this device (sm_90 code, or PTX it can JIT).
  cudaFuncAttributes attr{};
  e = cudaFuncGetAttributes(&attr, tile_kernel);
  if (e != cudaSuccess) {
    why = std::string(prop.name) + " (sm_" + std::to_string(prop.major) +
          std::to_string(prop.minor) +
          ") cannot run this build's kernels: " + cudaGetErrorString(e);
    return nullptr;
  }
  return std::make_unique<CudaBackend>(prop);
}

}  // namespace gemini::gpu
