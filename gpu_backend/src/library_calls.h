#pragma once
// NVIDIA's own libraries, for the independent check (libcheck.h): cuDNN's
// int8 convolution and cuBLAS's int8 GEMM. They are opened at run time
// (dlopen), so the gemini binary starts and runs everywhere without them.
// Plain C++17 (src/cuda/library_calls.cu is compiled by nvcc).
//
// Contract: pointers are host memory. A call uploads its inputs once,
// keeps them resident on the device, and times the library the way
// NVIDIA's own benchmarks do:
//   * one cuDNN handle and one cuBLAS handle per process, made on first use
//     (on the current device) and never destroyed -- the driver reclaims
//     them at exit, and no static destructor touches a driver that may be
//     gone;
//   * cuDNN's forward algorithm chosen once per layer shape by
//     cudnnFindConvolutionForwardAlgorithm (the fastest that succeeded; if
//     Find fails, the first working one of
//     cudnnGetConvolutionForwardAlgorithm_v7; if both fail,
//     IMPLICIT_PRECOMP_GEMM), cached for the process; cuBLAS's own
//     heuristic (CUBLAS_GEMM_DEFAULT);
//   * the repetition rule below: warm-up calls, then timed calls, each
//     between its own pair of CUDA events on the handles' (default)
//     stream; the time is their median.
// The output downloaded is the last call's (the libraries are
// deterministic here). Calls come from one thread at a time.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gemini/gpu/library_layout.h"

namespace gemini::gpu {

// The repetition rule of every time in the check, ours and the libraries'
// alike: kWarmupCalls untimed calls, then timed calls while fewer than
// kMinTimedCalls, or while fewer than kMaxTimedCalls and under
// kTimedBudgetSeconds of timed work so far; the time is their median.
constexpr int kWarmupCalls = 3;
constexpr std::size_t kMinTimedCalls = 5, kMaxTimedCalls = 50;
constexpr double kTimedBudgetSeconds = 0.2;

inline bool more_timed_calls(std::size_t done, double timed_seconds) {
  return done < kMinTimedCalls || (done < kMaxTimedCalls && timed_seconds < kTimedBudgetSeconds);
}

// The median of `times` (the mean of the middle two for an even count); 0
// when empty.
inline double median_seconds(std::vector<double> times) {
  if (times.empty()) return 0;
  const auto mid = times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2);
  std::nth_element(times.begin(), mid, times.end());
  if (times.size() % 2 == 1) return *mid;
  return (*mid + *std::max_element(times.begin(), mid)) / 2;
}

// How a library call was timed.
struct LibTiming {
  double seconds = 0;     // the median of the timed calls
  int repetitions = 0;    // timed calls behind it (after kWarmupCalls)
  std::string algorithm;  // cuDNN's forward algorithm ("IMPLICIT_PRECOMP_GEMM",
                          // "/TC" appended for tensor-op math); cuBLAS: "DEFAULT"
  std::string how;        // how cuDNN's was chosen when cudnnFind did not choose it
};

// The timed calls of the rule, after the warm-up: `timed()` makes one call
// and returns its seconds (negative when it failed); `t` gets their median
// and count. False when a call failed. The one loop behind our times and
// the libraries'.
template <class Timed>
bool timed_calls(Timed&& timed, LibTiming& t) {
  std::vector<double> times;
  double total = 0;
  while (more_timed_calls(times.size(), total)) {
    const double s = timed();
    if (s < 0) return false;
    times.push_back(s);
    total += s;
  }
  t.seconds = median_seconds(times);
  t.repetitions = static_cast<int>(times.size());
  return true;
}

// Whether the libraries can be opened (and why not).
bool cudnn_available(std::string& why);
bool cublas_available(std::string& why);

// LibConv / LibGemm: library_layout.h. False with `error` when the library
// or CUDA refused; `timing` is then partial.
bool cudnn_conv(const LibConv& p, const std::int8_t* x, const std::int8_t* w, float* y,
                LibTiming& timing, std::string& error);

bool cublas_gemm(const LibGemm& g, const std::int8_t* a, const std::int8_t* b, std::int32_t* c,
                 LibTiming& timing, std::string& error);

}  // namespace gemini::gpu
