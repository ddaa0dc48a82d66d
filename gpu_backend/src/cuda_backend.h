#pragma once
// The "cuda" backend (backend.h, src/cuda/): compiled when nvcc is found.
// Without it, or without a usable GPU at run time, make_cuda_backend says
// why and returns nullptr.

#include <string>

#include "gemini/gpu/backend.h"

namespace gemini::gpu {

std::unique_ptr<Backend> make_cuda_backend(std::string& why);

}  // namespace gemini::gpu
