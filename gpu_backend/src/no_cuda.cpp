// The build without nvcc: the CUDA backend is absent and says so.
#include "cuda_backend.h"

namespace gemini::gpu {

bool cuda_built() { return false; }

std::unique_ptr<Backend> make_cuda_backend(std::string& why) {
  why = "this gemini was built without CUDA (nvcc was not found, or -DGEMINI_CUDA=OFF)";
  return nullptr;
}

}  // namespace gemini::gpu

#include "library_calls.h"

namespace gemini::gpu {

bool cudnn_available(std::string& why) {
  why = "this gemini was built without CUDA";
  return false;
}
bool cublas_available(std::string& why) {
  why = "this gemini was built without CUDA";
  return false;
}
bool cudnn_conv(const LibConv&, const std::int8_t*, const std::int8_t*, float*, LibTiming&,
                std::string& error) {
  error = "this gemini was built without CUDA";
  return false;
}
bool cublas_gemm(const LibGemm&, const std::int8_t*, const std::int8_t*, std::int32_t*, LibTiming&,
                 std::string& error) {
  error = "this gemini was built without CUDA";
  return false;
}

}  // namespace gemini::gpu
