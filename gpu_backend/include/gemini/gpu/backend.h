#pragma once
// A reference backend: where tile operations (model/tile_op.h) are computed
// independently of the simulator. Two implementations, chosen by name:
//   "cpu"  -- the host, every element through model::tile_element (the
//             per-element definitions, the GPU's own code path), threaded;
//   "cuda" -- NVIDIA GPUs: the same tile_element per thread, the
//             convolution's reduction through __dp4a (docs/gpu.md).
// A backend owns its memory: the data an op reads and the sums it writes
// live in buffers it allocated (host memory for "cpu", device memory for
// "cuda"), filled with upload() or generate().

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "gemini/model/tile_op.h"

namespace gemini::gpu {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* name() const = 0;
  // A description of where it runs ("host, 2 threads", "NVIDIA H100 (sm_90)").
  virtual std::string device() const = 0;

  // Backend memory: nullptr when it cannot be had (error() says why).
  virtual void* allocate(std::size_t bytes) = 0;
  virtual void release(void* p) = 0;
  virtual bool upload(void* dst, const void* src, std::size_t bytes) = 0;
  virtual bool download(void* dst, const void* src, std::size_t bytes) = 0;
  // dst[i] = generate_at(base, first + i) for i < n (numerics.h): network
  // inputs and constant weights made where they are used.
  virtual bool generate(std::int8_t* dst, std::int64_t n, std::uint64_t base,
                        std::uint64_t first = 0) = 0;
  // Computes ops[0..count): op i writes its elements() values, widened to
  // int32, at out + offsets[i]. `ops` and `offsets` are host arrays; the
  // pointers inside the ops and `out` are backend memory.
  virtual bool run(const model::TileOp* ops, std::size_t count, const std::int64_t* offsets,
                   std::int32_t* out) = 0;
  // The backend's own time of the last run(), in seconds: on cuda the
  // kernels alone, measured with CUDA events around them (what the
  // libraries' benchmarks measure); on cpu the call's wall time.
  virtual double last_run_seconds() const = 0;

  // dst[0..bytes) = src[0..bytes), both backend memory.
  virtual bool copy(void* dst, const void* src, std::size_t bytes) = 0;
  // The end of a layer, where its values are (docs/numerics.md): with
  // `requantise`, shift = model::calibrated_shift(values, n) and out[i] =
  // requantize(values[i], shift); without, out[i] = values[i] (int8 values
  // widened by run()). `values` and `out` are backend memory; `shift` is
  // written on the host. On cuda the sum of squares is reduced on the
  // device and only the shift crosses to the host.
  virtual bool finish_layer(const std::int32_t* values, std::int64_t n, bool requantise,
                            std::int32_t& shift, std::int8_t* out) = 0;

  const std::string& error() const { return error_; }

 protected:
  std::string error_;
};

// "cpu" or "cuda"; nullptr with `why` when the backend cannot run here
// (built without CUDA, no GPU, a driver too old, ...).
std::unique_ptr<Backend> make_backend(const std::string& name, std::string& why);

// Whether this build has the CUDA backend compiled in.
bool cuda_built();

// Backend memory released when it goes out of scope.
class Buffer {
 public:
  Buffer() = default;
  Buffer(Backend& b, std::size_t bytes)
      : b_(&b), p_(bytes ? b.allocate(bytes) : nullptr), n_(bytes) {}
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept : b_(o.b_), p_(o.p_), n_(o.n_) { o.p_ = nullptr; }
  Buffer& operator=(Buffer&& o) noexcept {
    if (this != &o) {
      reset();
      b_ = o.b_;
      p_ = o.p_;
      n_ = o.n_;
      o.p_ = nullptr;
    }
    return *this;
  }
  ~Buffer() { reset(); }
  // False when the allocation failed (a zero-byte buffer is fine).
  bool ok() const { return n_ == 0 || p_ != nullptr; }
  template <class T>
  T* as() const {
    return static_cast<T*>(p_);
  }
  std::size_t bytes() const { return n_; }

 private:
  void reset() {
    if (b_ && p_) b_->release(p_);
    p_ = nullptr;
  }
  Backend* b_ = nullptr;
  void* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace gemini::gpu
