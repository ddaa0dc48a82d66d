// The build without nvcc: the CUDA backend is absent and says so.
#include "cuda_backend.h"

namespace gemini::gpu {

bool cuda_built() { return false; }

std::unique_ptr<Backend> make_cuda_backend(std::string& why) {
  why = "this gemini was built without CUDA (nvcc was not found, or -DGEMINI_CUDA=OFF)";
  return nullptr;
}

}  // namespace gemini::gpu
