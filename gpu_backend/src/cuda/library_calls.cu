// cuDNN and cuBLAS, opened at run time and timed like their own benchmarks
// (library_calls.h).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../library_calls.h"

namespace gemini::gpu {
namespace {

// The C entry points used, by their exported names; lib is null (and why
// says why) when the library or one of them is missing.
struct CudnnApi {
  void* lib = nullptr;
  std::string why;
  cudnnStatus_t (*create)(cudnnHandle_t*) = nullptr;
  cudnnStatus_t (*create_tensor)(cudnnTensorDescriptor_t*) = nullptr;
  cudnnStatus_t (*set_tensor)(cudnnTensorDescriptor_t, cudnnTensorFormat_t, cudnnDataType_t, int,
                              int, int, int) = nullptr;
  cudnnStatus_t (*destroy_tensor)(cudnnTensorDescriptor_t) = nullptr;
  cudnnStatus_t (*create_filter)(cudnnFilterDescriptor_t*) = nullptr;
  cudnnStatus_t (*set_filter)(cudnnFilterDescriptor_t, cudnnDataType_t, cudnnTensorFormat_t, int,
                              int, int, int) = nullptr;
  cudnnStatus_t (*destroy_filter)(cudnnFilterDescriptor_t) = nullptr;
  cudnnStatus_t (*create_conv)(cudnnConvolutionDescriptor_t*) = nullptr;
  cudnnStatus_t (*set_conv)(cudnnConvolutionDescriptor_t, int, int, int, int, int, int,
                            cudnnConvolutionMode_t, cudnnDataType_t) = nullptr;
  cudnnStatus_t (*set_math)(cudnnConvolutionDescriptor_t, cudnnMathType_t) = nullptr;
  cudnnStatus_t (*destroy_conv)(cudnnConvolutionDescriptor_t) = nullptr;
  cudnnStatus_t (*algo_count)(cudnnHandle_t, int*) = nullptr;
  // cudnnFindConvolutionForwardAlgorithm and ..._v7 share a signature.
  using ChooseFn = cudnnStatus_t (*)(cudnnHandle_t, cudnnTensorDescriptor_t,
                                     cudnnFilterDescriptor_t, cudnnConvolutionDescriptor_t,
                                     cudnnTensorDescriptor_t, int, int*,
                                     cudnnConvolutionFwdAlgoPerf_t*);
  ChooseFn find = nullptr, heuristic = nullptr;
  cudnnStatus_t (*workspace)(cudnnHandle_t, cudnnTensorDescriptor_t, cudnnFilterDescriptor_t,
                             cudnnConvolutionDescriptor_t, cudnnTensorDescriptor_t,
                             cudnnConvolutionFwdAlgo_t, size_t*) = nullptr;
  cudnnStatus_t (*forward)(cudnnHandle_t, const void*, cudnnTensorDescriptor_t, const void*,
                           cudnnFilterDescriptor_t, const void*, cudnnConvolutionDescriptor_t,
                           cudnnConvolutionFwdAlgo_t, void*, size_t, const void*,
                           cudnnTensorDescriptor_t, void*) = nullptr;
  const char* (*error_string)(cudnnStatus_t) = nullptr;
};

struct CublasApi {
  void* lib = nullptr;
  std::string why;
  cublasStatus_t (*create)(cublasHandle_t*) = nullptr;
  cublasStatus_t (*gemm_batched)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                 int, const void*, const void*, cudaDataType, int, long long,
                                 const void*, cudaDataType, int, long long, const void*, void*,
                                 cudaDataType, int, long long, int, cublasComputeType_t,
                                 cublasGemmAlgo_t) = nullptr;
};

template <class F>
bool bind(void* lib, const char* name, F& f, std::string& why) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  if (!f) why = std::string("no ") + name + " in the library";
  return f != nullptr;
}

void* open_first(std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return lib;
  return nullptr;
}

// Opened once per process and never closed.
const CudnnApi& cudnn() {
  static const CudnnApi api = [] {
    CudnnApi a;
    a.lib = open_first({"libcudnn.so.9", "libcudnn.so", "/usr/local/cuda/lib64/libcudnn.so.9"});
    if (!a.lib) {
      a.why = std::string("cannot open cuDNN: ") + dlerror();
      return a;
    }
    bool ok = bind(a.lib, "cudnnCreate", a.create, a.why) &&
              bind(a.lib, "cudnnCreateTensorDescriptor", a.create_tensor, a.why) &&
              bind(a.lib, "cudnnSetTensor4dDescriptor", a.set_tensor, a.why) &&
              bind(a.lib, "cudnnDestroyTensorDescriptor", a.destroy_tensor, a.why) &&
              bind(a.lib, "cudnnCreateFilterDescriptor", a.create_filter, a.why) &&
              bind(a.lib, "cudnnSetFilter4dDescriptor", a.set_filter, a.why) &&
              bind(a.lib, "cudnnDestroyFilterDescriptor", a.destroy_filter, a.why) &&
              bind(a.lib, "cudnnCreateConvolutionDescriptor", a.create_conv, a.why) &&
              bind(a.lib, "cudnnSetConvolution2dDescriptor", a.set_conv, a.why) &&
              bind(a.lib, "cudnnSetConvolutionMathType", a.set_math, a.why) &&
              bind(a.lib, "cudnnDestroyConvolutionDescriptor", a.destroy_conv, a.why) &&
              bind(a.lib, "cudnnGetConvolutionForwardAlgorithmMaxCount", a.algo_count, a.why) &&
              bind(a.lib, "cudnnFindConvolutionForwardAlgorithm", a.find, a.why) &&
              bind(a.lib, "cudnnGetConvolutionForwardAlgorithm_v7", a.heuristic, a.why) &&
              bind(a.lib, "cudnnGetConvolutionForwardWorkspaceSize", a.workspace, a.why) &&
              bind(a.lib, "cudnnConvolutionForward", a.forward, a.why) &&
              bind(a.lib, "cudnnGetErrorString", a.error_string, a.why);
    if (!ok) a.lib = nullptr;
    return a;
  }();
  return api;
}

const CublasApi& cublas() {
  static const CublasApi api = [] {
    CublasApi a;
    a.lib =
        open_first({"libcublas.so.13", "libcublas.so", "/usr/local/cuda/lib64/libcublas.so.13"});
    if (!a.lib) {
      a.why = std::string("cannot open cuBLAS: ") + dlerror();
      return a;
    }
    bool ok = bind(a.lib, "cublasCreate_v2", a.create, a.why) &&
              bind(a.lib, "cublasGemmStridedBatchedEx", a.gemm_batched, a.why);
    if (!ok) a.lib = nullptr;
    return a;
  }();
  return api;
}

// A library handle: null with `why` when it could not be made.
template <class H>
struct Handle {
  H h = nullptr;
  std::string why;
};

// The process's one handle of each library, made on the first call (on the
// current device) and deliberately never destroyed (library_calls.h).
const Handle<cudnnHandle_t>& cudnn_handle(const CudnnApi& a) {
  static const Handle<cudnnHandle_t> handle = [&a] {
    Handle<cudnnHandle_t> r;
    if (const cudnnStatus_t s = a.create(&r.h); s != CUDNN_STATUS_SUCCESS) {
      r.h = nullptr;
      r.why = std::string("cuDNN cudnnCreate: ") + a.error_string(s);
    }
    return r;
  }();
  return handle;
}

const Handle<cublasHandle_t>& cublas_handle(const CublasApi& a) {
  static const Handle<cublasHandle_t> handle = [&a] {
    Handle<cublasHandle_t> r;
    if (const cublasStatus_t s = a.create(&r.h); s != CUBLAS_STATUS_SUCCESS) {
      r.h = nullptr;
      r.why = "cublasCreate failed with status " + std::to_string(static_cast<int>(s));
    }
    return r;
  }();
  return handle;
}

bool cuda_ok(cudaError_t e, const char* what, std::string& error) {
  if (e == cudaSuccess) return true;
  error = std::string(what) + ": " + cudaGetErrorString(e);
  return false;
}

bool dnn_ok(const CudnnApi& a, cudnnStatus_t s, const char* what, std::string& error) {
  if (s == CUDNN_STATUS_SUCCESS) return true;
  error = std::string("cuDNN ") + what + ": " + a.error_string(s);
  return false;
}

// Device memory for one call; `err` says whether it was had.
struct Dev {
  void* p = nullptr;
  cudaError_t err;
  explicit Dev(size_t n) : err(cudaMalloc(&p, n == 0 ? 1 : n)) {
    if (err != cudaSuccess) p = nullptr;
  }
  ~Dev() {
    if (p) cudaFree(p);
  }
  Dev(const Dev&) = delete;
  Dev& operator=(const Dev&) = delete;
};

// A device copy of host bytes: false with `error` when it cannot be made.
bool upload(Dev& d, const void* src, size_t bytes, std::string& error) {
  return cuda_ok(d.err, "cudaMalloc", error) &&
         cuda_ok(cudaMemcpy(d.p, src, bytes, cudaMemcpyHostToDevice), "upload", error);
}

struct Event {
  cudaEvent_t e = nullptr;
  cudaError_t err;
  Event() : err(cudaEventCreate(&e)) {}
  ~Event() {
    if (err == cudaSuccess) cudaEventDestroy(e);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
};

// Times a library call as its benchmarks do (library_calls.h):
// kWarmupCalls untimed calls, then calls each between its own pair of CUDA
// events on the default stream until more_timed_calls() says enough.
// `enqueue` enqueues one call, returning false with `error` set when the
// library refuses it.
template <class Enqueue>
bool time_calls(Enqueue&& enqueue, LibTiming& t, std::string& error) {
  for (int i = 0; i < kWarmupCalls; ++i)
    if (!enqueue()) return false;
  if (!cuda_ok(cudaDeviceSynchronize(), "the warm-up calls", error)) return false;
  Event start, stop;
  if (!cuda_ok(start.err, "cudaEventCreate", error) || !cuda_ok(stop.err, "cudaEventCreate", error))
    return false;
  return timed_calls(
      [&]() -> double {
        float ms = 0;
        if (!cuda_ok(cudaEventRecord(start.e), "cudaEventRecord", error) || !enqueue() ||
            !cuda_ok(cudaEventRecord(stop.e), "cudaEventRecord", error) ||
            !cuda_ok(cudaEventSynchronize(stop.e), "the timed call", error) ||
            !cuda_ok(cudaEventElapsedTime(&ms, start.e, stop.e), "cudaEventElapsedTime", error))
          return -1;
        return ms / 1e3;
      },
      t);
}

// A cuDNN descriptor, destroyed with its owner.
template <class D>
struct Desc {
  D d = nullptr;
  cudnnStatus_t (*destroy)(D) = nullptr;
  explicit Desc(cudnnStatus_t (*destroy_fn)(D)) : destroy(destroy_fn) {}
  ~Desc() {
    if (d) destroy(d);
  }
  Desc(const Desc&) = delete;
  Desc& operator=(const Desc&) = delete;
};

// The descriptors of one LibConv: int8 NHWC in, KRSC filter, int32
// accumulation, float NHWK out (INT8_EXT_CONFIG).
struct ConvDescs {
  Desc<cudnnTensorDescriptor_t> x, y;
  Desc<cudnnFilterDescriptor_t> w;
  Desc<cudnnConvolutionDescriptor_t> conv;
  explicit ConvDescs(const CudnnApi& a)
      : x(a.destroy_tensor), y(a.destroy_tensor), w(a.destroy_filter), conv(a.destroy_conv) {}

  bool make(const CudnnApi& a, const LibConv& p, std::string& error) {
    return dnn_ok(a, a.create_tensor(&x.d), "tensor", error) &&
           dnn_ok(a, a.create_tensor(&y.d), "tensor", error) &&
           dnn_ok(a, a.create_filter(&w.d), "filter", error) &&
           dnn_ok(a, a.create_conv(&conv.d), "convolution", error) &&
           dnn_ok(a, a.set_tensor(x.d, CUDNN_TENSOR_NHWC, CUDNN_DATA_INT8, p.n, p.c, p.h, p.w),
                  "input descriptor", error) &&
           dnn_ok(a, a.set_filter(w.d, CUDNN_DATA_INT8, CUDNN_TENSOR_NHWC, p.k, p.c, p.r, p.s),
                  "filter descriptor", error) &&
           dnn_ok(a,
                  a.set_conv(conv.d, 0, 0, p.stride_h, p.stride_w, 1, 1, CUDNN_CROSS_CORRELATION,
                             CUDNN_DATA_INT32),
                  "convolution descriptor", error) &&
           dnn_ok(a,
                  a.set_tensor(y.d, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, p.n, p.k, p.out_h(),
                               p.out_w()),
                  "output descriptor", error);
  }
};

const char* algo_name(cudnnConvolutionFwdAlgo_t algo) {
  switch (algo) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM:
      return "IMPLICIT_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM:
      return "IMPLICIT_PRECOMP_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM:
      return "GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT:
      return "DIRECT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT:
      return "FFT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING:
      return "FFT_TILING";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD:
      return "WINOGRAD";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED:
      return "WINOGRAD_NONFUSED";
    default:
      return "unknown";
  }
}

// cuDNN's forward algorithm for one shape, and how it was chosen ("" by
// cudnnFind).
struct ConvAlgo {
  cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
  std::string how;
};

// Asks `choose` (Find or the _v7 heuristic, called `name`) and takes the
// fastest algorithm that succeeded (by measured time for Find; the
// heuristic's first, its list being in its order of expected speed).
bool choose_algo(const CudnnApi& a, CudnnApi::ChooseFn choose, const char* name, bool by_time,
                 cudnnHandle_t h, const ConvDescs& d, ConvAlgo& out, std::string& why) {
  int count = 0;
  if (!dnn_ok(a, a.algo_count(h, &count), "algorithm count", why)) return false;
  std::vector<cudnnConvolutionFwdAlgoPerf_t> perf(static_cast<size_t>(std::max(count, 1)));
  int returned = 0;
  if (!dnn_ok(a,
              choose(h, d.x.d, d.w.d, d.conv.d, d.y.d, static_cast<int>(perf.size()), &returned,
                     perf.data()),
              name, why))
    return false;
  const cudnnConvolutionFwdAlgoPerf_t* best = nullptr;
  for (int i = 0; i < returned && i < static_cast<int>(perf.size()); ++i) {
    const cudnnConvolutionFwdAlgoPerf_t& c = perf[static_cast<size_t>(i)];
    if (c.status != CUDNN_STATUS_SUCCESS) continue;
    if (!best || (by_time && c.time < best->time)) best = &c;
    if (!by_time) break;
  }
  if (!best) {
    why = std::string(name) + ": no algorithm succeeded for this int8 configuration";
    return false;
  }
  out.algo = best->algo;
  out.math = best->mathType;
  return true;
}

// The algorithm for p's shape, chosen on its first call and then cached
// for the process (library_calls.h).
const ConvAlgo& conv_algo(const CudnnApi& a, cudnnHandle_t h, const LibConv& p,
                          const ConvDescs& d) {
  using Key = std::array<int, 9>;
  static std::map<Key, ConvAlgo> cache;
  const Key key{p.n, p.c, p.h, p.w, p.k, p.r, p.s, p.stride_h, p.stride_w};
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  ConvAlgo c;
  std::string find_why, heuristic_why;
  const char* find = "cudnnFindConvolutionForwardAlgorithm";
  const char* heuristic = "cudnnGetConvolutionForwardAlgorithm_v7";
  if (!choose_algo(a, a.find, find, true, h, d, c, find_why)) {
    if (choose_algo(a, a.heuristic, heuristic, false, h, d, c, heuristic_why)) {
      c.how = std::string("algorithm by ") + heuristic + " (" + find_why + ")";
    } else {
      c = ConvAlgo{};
      c.how =
          "algorithm IMPLICIT_PRECOMP_GEMM by default (" + find_why + "; " + heuristic_why + ")";
    }
  }
  return cache.emplace(key, std::move(c)).first->second;
}

}  // namespace

bool cudnn_available(std::string& why) {
  why = cudnn().why;
  return cudnn().lib != nullptr;
}

bool cublas_available(std::string& why) {
  why = cublas().why;
  return cublas().lib != nullptr;
}

bool cudnn_conv(const LibConv& p, const std::int8_t* x, const std::int8_t* w, float* y,
                LibTiming& timing, std::string& error) {
  const CudnnApi& a = cudnn();
  if (!a.lib) {
    error = a.why;
    return false;
  }
  const Handle<cudnnHandle_t>& h = cudnn_handle(a);
  if (!h.h) {
    error = h.why;
    return false;
  }
  const size_t xb = size_t(p.n) * p.h * p.w * p.c, wb = size_t(p.k) * p.r * p.s * p.c;
  const size_t yb = size_t(p.n) * p.out_h() * p.out_w() * p.k * sizeof(float);
  Dev dx(xb), dw(wb), dy(yb);
  if (!upload(dx, x, xb, error) || !upload(dw, w, wb, error) ||
      !cuda_ok(dy.err, "cudaMalloc", error))
    return false;
  ConvDescs d(a);
  if (!d.make(a, p, error)) return false;
  const ConvAlgo& algo = conv_algo(a, h.h, p, d);
  timing.algorithm = algo_name(algo.algo);
  if (algo.math == CUDNN_TENSOR_OP_MATH || algo.math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)
    timing.algorithm += "/TC";
  timing.how = algo.how;
  size_t ws = 0;
  if (!dnn_ok(a, a.set_math(d.conv.d, algo.math), "math type", error) ||
      !dnn_ok(a, a.workspace(h.h, d.x.d, d.w.d, d.conv.d, d.y.d, algo.algo, &ws), "workspace size",
              error))
    return false;
  Dev dws(ws);
  if (!cuda_ok(dws.err, "cudaMalloc (workspace)", error)) return false;
  const float one = 1.0f, zero = 0.0f;
  const bool ok = time_calls(
      [&] {
        return dnn_ok(a,
                      a.forward(h.h, &one, d.x.d, dx.p, d.w.d, dw.p, d.conv.d, algo.algo, dws.p, ws,
                                &zero, d.y.d, dy.p),
                      "cudnnConvolutionForward", error);
      },
      timing, error);
  return ok && cuda_ok(cudaMemcpy(y, dy.p, yb, cudaMemcpyDeviceToHost), "download", error);
}

bool cublas_gemm(const LibGemm& g, const std::int8_t* a8, const std::int8_t* b8, std::int32_t* c,
                 LibTiming& timing, std::string& error) {
  const CublasApi& a = cublas();
  if (!a.lib) {
    error = a.why;
    return false;
  }
  const Handle<cublasHandle_t>& h = cublas_handle(a);
  if (!h.h) {
    error = h.why;
    return false;
  }
  const size_t ab = size_t(g.batch) * g.m * g.k, bb = size_t(g.batch) * g.n * g.k;
  const size_t cb = size_t(g.batch) * g.m * g.n * sizeof(std::int32_t);
  Dev da(ab), db(bb), dc(cb);
  if (!upload(da, a8, ab, error) || !upload(db, b8, bb, error) ||
      !cuda_ok(dc.err, "cudaMalloc", error))
    return false;
  timing.algorithm = "DEFAULT";
  const std::int32_t one = 1, zero = 0;
  // Column-major: a row-major [m][k] is a k x m matrix (lda k), used
  // transposed; b row-major [n][k] a k x n matrix (ldb k); c an m x n
  // matrix (ldc m), which is row-major [n][m].
  const bool ok = time_calls(
      [&] {
        const cublasStatus_t st =
            a.gemm_batched(h.h, CUBLAS_OP_T, CUBLAS_OP_N, g.m, g.n, g.k, &one, da.p, CUDA_R_8I, g.k,
                           (long long)g.m * g.k, db.p, CUDA_R_8I, g.k, (long long)g.n * g.k, &zero,
                           dc.p, CUDA_R_32I, g.m, (long long)g.m * g.n, g.batch, CUBLAS_COMPUTE_32I,
                           CUBLAS_GEMM_DEFAULT);
        if (st != CUBLAS_STATUS_SUCCESS)
          error = "cublasGemmStridedBatchedEx (int8, int32 compute) failed with status " +
                  std::to_string(static_cast<int>(st));
        return st == CUBLAS_STATUS_SUCCESS;
      },
      timing, error);
  return ok && cuda_ok(cudaMemcpy(c, dc.p, cb, cudaMemcpyDeviceToHost), "download", error);
}

}  // namespace gemini::gpu
