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
// Times are the library call and our kernel alone (inputs resident on the
// device), with int8 TOPS (2 x MACs / time).

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "gemini/gpu/backend.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"

namespace gemini::gpu {

struct LibCheckLayer {
  std::string layer, library;  // "cuDNN", "cuBLAS", or "" (not expressible)
  std::string note;            // why not, or what failed
  std::int64_t elements = 0, macs = 0;
  std::int64_t ours_vs_cpu = 0, library_vs_cpu = 0;  // mismatching sums
  double ours_seconds = 0, library_seconds = 0;
};

struct LibCheckReport {
  std::string device;
  std::vector<LibCheckLayer> layers;
  std::string error;  // nothing could run
  bool passed() const;
};

LibCheckReport library_check(const model::Network& net, const model::Reference& ref,
                             std::uint64_t seed, Backend& cuda);
void print_library_check(std::ostream& os, const LibCheckReport& r);

}  // namespace gemini::gpu
