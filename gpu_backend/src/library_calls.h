#pragma once
// NVIDIA's own libraries, for the independent check (libcheck.h): cuDNN's
// int8 convolution and cuBLAS's int8 GEMM. They are opened at run time
// (dlopen), so the gemini binary starts and runs everywhere without them.
// Plain C++17 (src/cuda/library_calls.cu is compiled by nvcc). Pointers
// are host memory; each call copies to the device, times the library call
// alone (CUDA events), and copies back.

#include <cstdint>
#include <string>

#include "gemini/gpu/library_layout.h"

namespace gemini::gpu {

// Whether the libraries can be opened (and why not).
bool cudnn_available(std::string& why);
bool cublas_available(std::string& why);

// LibConv / LibGemm: library_layout.h.
bool cudnn_conv(const LibConv& p, const std::int8_t* x, const std::int8_t* w, float* y,
                double& seconds, std::string& error);

bool cublas_gemm(const LibGemm& g, const std::int8_t* a, const std::int8_t* b, std::int32_t* c,
                 double& seconds, std::string& error);

}  // namespace gemini::gpu
