// cuDNN and cuBLAS, opened at run time (library_calls.h).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <dlfcn.h>

#include <vector>

#include "../library_calls.h"

namespace gemini::gpu {
namespace {

// The C entry points used, by their exported names.
struct CudnnApi {
  void* lib = nullptr;
  std::string why;
  cudnnStatus_t (*create)(cudnnHandle_t*) = nullptr;
  cudnnStatus_t (*destroy)(cudnnHandle_t) = nullptr;
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
  cudnnStatus_t (*destroy_conv)(cudnnConvolutionDescriptor_t) = nullptr;
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
  cublasStatus_t (*destroy)(cublasHandle_t) = nullptr;
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

const CudnnApi& cudnn() {
  static const CudnnApi api = [] {
    CudnnApi a;
    for (const char* name : {"libcudnn.so.9", "libcudnn.so", "/usr/local/cuda/lib64/libcudnn.so.9"})
      if ((a.lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!a.lib) {
      a.why = std::string("cannot open cuDNN: ") + dlerror();
      return a;
    }
    bool ok = bind(a.lib, "cudnnCreate", a.create, a.why) &&
              bind(a.lib, "cudnnDestroy", a.destroy, a.why) &&
              bind(a.lib, "cudnnCreateTensorDescriptor", a.create_tensor, a.why) &&
              bind(a.lib, "cudnnSetTensor4dDescriptor", a.set_tensor, a.why) &&
              bind(a.lib, "cudnnDestroyTensorDescriptor", a.destroy_tensor, a.why) &&
              bind(a.lib, "cudnnCreateFilterDescriptor", a.create_filter, a.why) &&
              bind(a.lib, "cudnnSetFilter4dDescriptor", a.set_filter, a.why) &&
              bind(a.lib, "cudnnDestroyFilterDescriptor", a.destroy_filter, a.why) &&
              bind(a.lib, "cudnnCreateConvolutionDescriptor", a.create_conv, a.why) &&
              bind(a.lib, "cudnnSetConvolution2dDescriptor", a.set_conv, a.why) &&
              bind(a.lib, "cudnnDestroyConvolutionDescriptor", a.destroy_conv, a.why) &&
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
    for (const char* name :
         {"libcublas.so.13", "libcublas.so", "/usr/local/cuda/lib64/libcublas.so.13"})
      if ((a.lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!a.lib) {
      a.why = std::string("cannot open cuBLAS: ") + dlerror();
      return a;
    }
    bool ok = bind(a.lib, "cublasCreate_v2", a.create, a.why) &&
              bind(a.lib, "cublasDestroy_v2", a.destroy, a.why) &&
              bind(a.lib, "cublasGemmStridedBatchedEx", a.gemm_batched, a.why);
    if (!ok) a.lib = nullptr;
    return a;
  }();
  return api;
}

// Device memory for one call.
struct Dev {
  void* p = nullptr;
  explicit Dev(size_t n) {
    if (cudaMalloc(&p, n == 0 ? 1 : n) != cudaSuccess) p = nullptr;
  }
  ~Dev() { cudaFree(p); }
  Dev(const Dev&) = delete;
  Dev& operator=(const Dev&) = delete;
};

bool cuda_ok(cudaError_t e, const char* what, std::string& error) {
  if (e == cudaSuccess) return true;
  error = std::string(what) + ": " + cudaGetErrorString(e);
  return false;
}

// Times fn() with CUDA events on the default stream.
template <class Fn>
bool timed(Fn&& fn, double& seconds, std::string& error) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  const bool ok = fn();
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  seconds = ms / 1000.0;
  return ok && cuda_ok(cudaGetLastError(), "after the library call", error);
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
                double& seconds, std::string& error) {
  const CudnnApi& a = cudnn();
  if (!a.lib) {
    error = a.why;
    return false;
  }
  const size_t xb = size_t(p.n) * p.h * p.w * p.c, wb = size_t(p.k) * p.r * p.s * p.c;
  const size_t yb = size_t(p.n) * p.out_h() * p.out_w() * p.k * sizeof(float);
  Dev dx(xb), dw(wb), dy(yb);
  if (!dx.p || !dw.p || !dy.p) {
    error = "cudaMalloc failed";
    return false;
  }
  if (!cuda_ok(cudaMemcpy(dx.p, x, xb, cudaMemcpyHostToDevice), "upload", error) ||
      !cuda_ok(cudaMemcpy(dw.p, w, wb, cudaMemcpyHostToDevice), "upload", error))
    return false;
  cudnnHandle_t h = nullptr;
  cudnnTensorDescriptor_t xd = nullptr, yd = nullptr;
  cudnnFilterDescriptor_t wd = nullptr;
  cudnnConvolutionDescriptor_t cd = nullptr;
  cudnnStatus_t st = a.create(&h);
  auto check = [&](cudnnStatus_t s, const char* what) {
    if (s == CUDNN_STATUS_SUCCESS) return true;
    error = std::string("cuDNN ") + what + ": " + a.error_string(s);
    return false;
  };
  bool ok =
      check(st, "cudnnCreate") && check(a.create_tensor(&xd), "tensor") &&
      check(a.create_tensor(&yd), "tensor") && check(a.create_filter(&wd), "filter") &&
      check(a.create_conv(&cd), "convolution") &&
      check(a.set_tensor(xd, CUDNN_TENSOR_NHWC, CUDNN_DATA_INT8, p.n, p.c, p.h, p.w),
            "input descriptor") &&
      check(a.set_filter(wd, CUDNN_DATA_INT8, CUDNN_TENSOR_NHWC, p.k, p.c, p.r, p.s),
            "filter descriptor") &&
      check(a.set_conv(cd, 0, 0, p.stride_h, p.stride_w, 1, 1, CUDNN_CROSS_CORRELATION,
                       CUDNN_DATA_INT32),
            "convolution descriptor") &&
      check(a.set_tensor(yd, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, p.n, p.k, p.out_h(), p.out_w()),
            "output descriptor");
  const cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
  size_t ws = 0;
  if (ok) ok = check(a.workspace(h, xd, wd, cd, yd, algo, &ws), "workspace size");
  if (ok) {
    Dev dws(ws);
    const float one = 1.0f, zero = 0.0f;
    ok = timed(
        [&] {
          return check(a.forward(h, &one, xd, dx.p, wd, dw.p, cd, algo, dws.p, ws, &zero, yd, dy.p),
                       "cudnnConvolutionForward");
        },
        seconds, error);
  }
  if (ok) ok = cuda_ok(cudaMemcpy(y, dy.p, yb, cudaMemcpyDeviceToHost), "download", error);
  if (cd) a.destroy_conv(cd);
  if (wd) a.destroy_filter(wd);
  if (yd) a.destroy_tensor(yd);
  if (xd) a.destroy_tensor(xd);
  if (h) a.destroy(h);
  return ok;
}

bool cublas_gemm(const LibGemm& g, const std::int8_t* a8, const std::int8_t* b8, std::int32_t* c,
                 double& seconds, std::string& error) {
  const CublasApi& a = cublas();
  if (!a.lib) {
    error = a.why;
    return false;
  }
  const size_t ab = size_t(g.batch) * g.m * g.k, bb = size_t(g.batch) * g.n * g.k;
  const size_t cb = size_t(g.batch) * g.m * g.n * sizeof(std::int32_t);
  Dev da(ab), db(bb), dc(cb);
  if (!da.p || !db.p || !dc.p) {
    error = "cudaMalloc failed";
    return false;
  }
  if (!cuda_ok(cudaMemcpy(da.p, a8, ab, cudaMemcpyHostToDevice), "upload", error) ||
      !cuda_ok(cudaMemcpy(db.p, b8, bb, cudaMemcpyHostToDevice), "upload", error))
    return false;
  cublasHandle_t h = nullptr;
  if (a.create(&h) != CUBLAS_STATUS_SUCCESS) {
    error = "cublasCreate failed";
    return false;
  }
  const std::int32_t one = 1, zero = 0;
  // Column-major: a row-major [m][k] is a k x m matrix (lda k), used
  // transposed; b row-major [n][k] a k x n matrix (ldb k); c an m x n
  // matrix (ldc m), which is row-major [n][m].
  cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
  bool ok = timed(
      [&] {
        st = a.gemm_batched(h, CUBLAS_OP_T, CUBLAS_OP_N, g.m, g.n, g.k, &one, da.p, CUDA_R_8I, g.k,
                            (long long)g.m * g.k, db.p, CUDA_R_8I, g.k, (long long)g.n * g.k, &zero,
                            dc.p, CUDA_R_32I, g.m, (long long)g.m * g.n, g.batch,
                            CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
        if (st != CUBLAS_STATUS_SUCCESS)
          error = "cublasGemmStridedBatchedEx (int8, int32 compute) failed with status " +
                  std::to_string(static_cast<int>(st));
        return st == CUBLAS_STATUS_SUCCESS;
      },
      seconds, error);
  if (ok) ok = cuda_ok(cudaMemcpy(c, dc.p, cb, cudaMemcpyDeviceToHost), "download", error);
  a.destroy(h);
  return ok;
}

}  // namespace gemini::gpu
