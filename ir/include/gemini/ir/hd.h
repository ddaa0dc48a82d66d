#pragma once
// GEMINI_HD marks functions that the CPU build and the CUDA build both
// compile: the per-element arithmetic of docs/numerics.md lives in such
// functions once, so every backend computes the same bits.
#if defined(__CUDACC__)
#define GEMINI_HD __host__ __device__
#else
#define GEMINI_HD
#endif
