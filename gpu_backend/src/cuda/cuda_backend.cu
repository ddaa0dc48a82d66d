// The "cuda" backend (backend.h): device memory; a batch of tile
// operations in two parts, enqueued on one stream:
//   * convolutions the tensor cores take (conv_gemm.h use_tensor_cores):
//     each as the packed int8 matrix products of conv_mma.cu;
//   * everything else in one launch, one thread per output element running
//     model::tile_element -- the same function the "cpu" backend runs, its
//     convolution through __dp4a.
// The op table lives in device buffers kept between runs (grown as
// needed). A layer's end (finish_layer) reduces the sum of squares on the
// device, block by block in exact 128-bit integers, and requantises there.
#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "../cuda_backend.h"
#include "conv_mma.h"
#include "gemini/gpu/conv_gemm.h"
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

// Element g of the launch belongs to the last op whose offset is <= g; op
// i's elements go to out + dest[i].
__global__ void tile_kernel(const model::TileOp* ops, const std::int64_t* offsets,
                            const std::int64_t* dest, std::size_t count, std::int64_t total,
                            std::int32_t* out) {
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
    const std::int64_t e = g - offsets[lo];
    out[dest[lo] + e] = model::tile_element(ops[lo], e);
  }
}

__extension__ using U128 = unsigned __int128;

// Per block, the sum of squares of its grid-stride share of v, exact.
__global__ void squares_kernel(const std::int32_t* v, std::int64_t n, U128* partial) {
  __shared__ U128 part[kThreads];
  U128 sq = 0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const std::int64_t x = v[i];
    const auto a = static_cast<std::uint64_t>(x < 0 ? -x : x);
    sq += static_cast<U128>(a * a);  // |int32|^2 < 2^62
  }
  part[threadIdx.x] = sq;
  __syncthreads();
  for (int w = kThreads / 2; w > 0; w /= 2) {
    if (static_cast<int>(threadIdx.x) < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = part[0];
}

__global__ void narrow_kernel(const std::int32_t* v, std::int64_t n, bool requantise,
                              std::int32_t shift, std::int8_t* out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    out[i] = requantise ? model::requantize(v[i], shift) : static_cast<std::int8_t>(v[i]);
}

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(const cudaDeviceProp& p) : prop_(p) {
    cudaEventCreate(&start_);
    cudaEventCreate(&stop_);
  }
  ~CudaBackend() override {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    for (auto& [size, blocks] : free_)
      for (void* p : blocks) cudaFree(p);
    for (auto& [p, size] : live_) cudaFree(p);
  }
  const char* name() const override { return "cuda"; }
  std::string device() const override {
    return std::string(prop_.name) + " (sm_" + std::to_string(prop_.major) +
           std::to_string(prop_.minor) + ", " + std::to_string(prop_.multiProcessorCount) +
           " SMs, " + std::to_string(prop_.totalGlobalMem >> 20) + " MiB)";
  }
  // Blocks of a power-of-two size, kept for reuse when released (a whole
  // network allocates and frees a few buffers per layer; cudaMalloc and
  // cudaFree cost tens of microseconds each and cudaFree synchronises).
  void* allocate(std::size_t bytes) override {
    std::size_t size = 256;
    while (size < bytes) size *= 2;
    void* p = nullptr;
    auto it = free_.find(size);
    if (it != free_.end() && !it->second.empty()) {
      p = it->second.back();
      it->second.pop_back();
    } else if (cudaMalloc(&p, size) != cudaSuccess) {
      cudaGetLastError();
      trim();  // what the cache holds, back to the device, and again
      if (!check(cudaMalloc(&p, size), "cudaMalloc")) return nullptr;
    }
    live_[p] = size;
    return p;
  }
  void release(void* p) override {
    auto it = live_.find(p);
    if (it == live_.end()) return;
    free_[it->second].push_back(p);
    live_.erase(it);
  }
  bool upload(void* dst, const void* src, std::size_t bytes) override {
    return bytes == 0 || check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "upload");
  }
  bool download(void* dst, const void* src, std::size_t bytes) override {
    return bytes == 0 || check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "download");
  }
  bool copy(void* dst, const void* src, std::size_t bytes) override {
    return bytes == 0 || check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice), "copy");
  }
  bool generate(std::int8_t* dst, std::int64_t n, std::uint64_t base,
                std::uint64_t first) override {
    if (n <= 0) return true;
    generate_kernel<<<blocks(n), kThreads>>>(dst, n, base, first);
    return check(cudaGetLastError(), "generate") && check(cudaDeviceSynchronize(), "generate");
  }
  bool run(const model::TileOp* ops, std::size_t count, const std::int64_t* offsets,
           std::int32_t* out) override;
  double last_run_seconds() const override { return last_seconds_; }
  bool finish_layer(const std::int32_t* values, std::int64_t n, bool requantise,
                    std::int32_t& shift, std::int8_t* out) override;

 private:
  unsigned blocks(std::int64_t n) const { return grid_for(n, kThreads, prop_.multiProcessorCount); }
  bool check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    error_ = std::string("CUDA ") + what + ": " + cudaGetErrorString(e);
    return false;
  }
  bool dp4a_launch(const std::vector<model::TileOp>& ops, const std::vector<std::int64_t>& table,
                   std::int32_t* out);
  void trim() {
    for (auto& [size, blocks] : free_)
      for (void* p : blocks) cudaFree(p);
    free_.clear();
  }
  cudaDeviceProp prop_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  double last_seconds_ = -1;
  DeviceScratch ops_buf_, table_buf_, partial_buf_, mma_;
  std::unordered_map<void*, std::size_t> live_;     // allocated: its block size
  std::map<std::size_t, std::vector<void*>> free_;  // released, by block size
};

// The batch's tensor-core convolutions one by one (their workspace
// reserved first, for the largest), then the rest in one launch.
bool CudaBackend::run(const model::TileOp* ops, std::size_t count, const std::int64_t* offsets,
                      std::int32_t* out) {
  last_seconds_ = 0;
  std::vector<std::size_t> mma;
  std::vector<model::TileOp> rest;
  std::vector<std::int64_t> rest_offsets, rest_dest;
  std::int64_t total = 0, workspace = 0;
  auto to_dp4a = [&](std::size_t i) {
    rest.push_back(ops[i]);
    rest_offsets.push_back(total);
    rest_dest.push_back(offsets[i]);
    total += ops[i].elements();
  };
  for (std::size_t i = 0; i < count; ++i) {
    if (ops[i].elements() <= 0) continue;
    if (!use_tensor_cores(ops[i])) {
      to_dp4a(i);
      continue;
    }
    const ConvGemm g = conv_gemm_shape(ops[i]);
    workspace = std::max(workspace, g.a_bytes() + g.b_bytes());
    mma.push_back(i);
  }
  if (!mma.empty() && !mma_.get(static_cast<std::size_t>(workspace))) {
    // No room for the packed operands: every convolution on dp4a.
    for (std::size_t i : mma) to_dp4a(i);
    mma.clear();
  }
  if (!check(cudaEventRecord(start_), "event")) return false;
  for (std::size_t i : mma)
    if (!conv_mma(ops[i], out + offsets[i], mma_, prop_.multiProcessorCount, nullptr)) {
      if (check(cudaGetLastError(), "conv_mma")) error_ = "CUDA conv_mma: a launch failed";
      return false;
    }
  if (total > 0) {
    rest_offsets.insert(rest_offsets.end(), rest_dest.begin(), rest_dest.end());
    if (!dp4a_launch(rest, rest_offsets, out)) return false;
  }
  if (!check(cudaEventRecord(stop_), "event") || !check(cudaEventSynchronize(stop_), "tile ops"))
    return false;
  float ms = 0;
  if (!check(cudaEventElapsedTime(&ms, start_, stop_), "event")) return false;
  last_seconds_ = ms / 1e3;
  return true;
}

// `table` holds the ops' offsets in the launch, then their destinations.
bool CudaBackend::dp4a_launch(const std::vector<model::TileOp>& ops,
                              const std::vector<std::int64_t>& table, std::int32_t* out) {
  const std::size_t count = ops.size();
  const std::int64_t total = table[count - 1] + ops.back().elements();
  auto* d_ops = static_cast<model::TileOp*>(ops_buf_.get(count * sizeof(model::TileOp)));
  auto* d_table = static_cast<std::int64_t*>(table_buf_.get(table.size() * sizeof(std::int64_t)));
  if (!d_ops || !d_table) return check(cudaErrorMemoryAllocation, "op table");
  if (!check(
          cudaMemcpyAsync(d_ops, ops.data(), count * sizeof(model::TileOp), cudaMemcpyHostToDevice),
          "upload") ||
      !check(cudaMemcpyAsync(d_table, table.data(), table.size() * sizeof(std::int64_t),
                             cudaMemcpyHostToDevice),
             "upload"))
    return false;
  tile_kernel<<<blocks(total), kThreads>>>(d_ops, d_table, d_table + count, count, total, out);
  return check(cudaGetLastError(), "tile_kernel");
}

bool CudaBackend::finish_layer(const std::int32_t* values, std::int64_t n, bool requantise,
                               std::int32_t& shift, std::int8_t* out) {
  shift = 0;
  if (n <= 0) return true;
  if (requantise) {
    const unsigned nb = blocks(n);
    auto* partial = static_cast<U128*>(partial_buf_.get(nb * sizeof(U128)));
    if (!partial) return check(cudaErrorMemoryAllocation, "partial sums");
    squares_kernel<<<nb, kThreads>>>(values, n, partial);
    std::vector<U128> host(nb);
    if (!check(cudaGetLastError(), "squares") ||
        !check(cudaMemcpy(host.data(), partial, nb * sizeof(U128), cudaMemcpyDeviceToHost),
               "squares"))
      return false;
    U128 sq = 0;
    for (U128 v : host) sq += v;
    shift = model::calibrated_shift_from_squares(static_cast<std::uint64_t>(sq >> 64),
                                                 static_cast<std::uint64_t>(sq), n);
  }
  narrow_kernel<<<blocks(n), kThreads>>>(values, n, requantise, shift, out);
  return check(cudaGetLastError(), "requantise") && check(cudaDeviceSynchronize(), "requantise");
}

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
