#pragma once
// The independent check on a GPU (`gemini ref --backend cuda
// --check-libraries`): every Conv2d and FullyConnected layer of a network,
// on the reference's own inputs and weights, computed three ways and
// compared before requantisation -- the CPU reference's int32 sums, the
// cuda backend's kernel (tile_element with __dp4a), and NVIDIA's library:
//   * cuDNN's int8 convolution (INT8_EXT_CONFIG: int32 accumulation, float
//     output, exact below 2^24; the padding made explicit, channels padded
//     to multiples of 4) for ungrouped convolutions;
//   * cuBLAS's int8 GEMM (int32 output) for fully connected layers and the
//     per-sample grouped 1x1 convolutions of attention (a batched GEMM per
//     sample and group);
//   * where neither can express a layer (a grouped convolution with a
//     kernel larger than 1x1 or constant weights), the CPU reference
//     judges, and the report says so.
// Times are measured as the libraries' own benchmarks measure
// (src/library_calls.h): inputs uploaded once and resident on the device;
// one cuDNN and one cuBLAS handle per process; cuDNN's algorithm chosen by
// cudnnFindConvolutionForwardAlgorithm once per layer shape; 3 warm-up
// calls, then 5 to 50 timed calls (until 0.2 s of timed work), each between
// CUDA events (ours: Backend::last_run_seconds()); the time is their
// median. Our first run's sums are the ones checked against the CPU, and
// our last timed run's against the first (a race would show). int8 TOPS
// are 2 x MACs / time. Passing is correctness only; times never fail it.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "gemini/gpu/backend.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"

namespace gemini::gpu {

// One layer: its sums compared, and the medians of its times.
struct LibCheckLayer {
  std::string layer, library;  // "cuDNN", "cuBLAS", or "" (not expressible)
  std::string algorithm;       // the library's: cuDNN's forward algorithm, cuBLAS "DEFAULT"
  std::string note;            // why not, what failed, or how cuDNN's algorithm was chosen
  std::int64_t elements = 0, macs = 0;
  std::int64_t ours_vs_cpu = 0, library_vs_cpu = 0;  // mismatching sums
  std::int64_t ours_rerun_vs_first = 0;  // our last timed run's sums differing from our first's
  int ours_repetitions = 0, library_repetitions = 0;  // timed calls behind each median
  double ours_seconds = 0, library_seconds = 0;       // medians
  // For a convolution on cuDNN: cuBLAS's int8 GEMM of the layer's implicit
  // GEMM (M = N * P * Q output cells, N = K channels, K = C * R * S terms,
  // padded to 4), timed the same way on generated data: the tensor-core
  // rate of NVIDIA's library on the very products, without the windows'
  // gathering. 0 where not measured.
  double gemm_seconds = 0;
  // ours_seconds / library_seconds; 0 without a library time.
  double ratio() const;
};

// The layers that ran on a library (or on one of them): sums of the
// medians and of the MACs.
struct LibCheckTotal {
  std::string library;  // "cuDNN", "cuBLAS", or "all"
  int layers = 0;
  std::int64_t macs = 0;
  double ours_seconds = 0, library_seconds = 0;
  // The layers of these with a GEMM-equivalent time: their MACs, ours and
  // the GEMMs'.
  int gemm_layers = 0;
  std::int64_t gemm_macs = 0;
  double ours_gemm_seconds = 0, gemm_seconds = 0;
  double ratio() const;      // ours / library; 0 without a library time
  double ours_tops() const;  // int8 TOPS, 2 x macs / time
  double library_tops() const;
};

struct LibCheckReport {
  std::string device;
  std::vector<LibCheckLayer> layers;
  std::string error;  // nothing could run
  // Every sum agrees (ours and the library's with the CPU's, our rerun with
  // our first run) and no error: correctness only.
  bool passed() const;
  // cuDNN's layers, cuBLAS's, and all of them, in that order.
  std::vector<LibCheckTotal> totals() const;
};

LibCheckReport library_check(const model::Network& net, const model::Reference& ref,
                             std::uint64_t seed, Backend& cuda);
void print_library_check(std::ostream& os, const LibCheckReport& r);

}  // namespace gemini::gpu
