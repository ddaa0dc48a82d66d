#pragma once
// How the library check (libcheck.h) lays a layer out for NVIDIA's
// libraries, and reads their results back: plain C++ (the CUDA build's
// library calls include it), tested on the CPU against the reference.

#include <cstdint>
#include <vector>

namespace gemini::model {
struct Op;
struct ConvParams;
struct Tensor8;
}  // namespace gemini::model

namespace gemini::gpu {

// y = x (*) w, cross-correlation, no padding (the caller pads explicitly),
// int32 accumulation, float output (cuDNN's INT8_EXT_CONFIG): x is NHWC
// int8 [n][h][w][c], w is KRSC int8 [k][r][s][c], y NHWK float; c and k
// multiples of 4.
struct LibConv {
  int n = 1, c = 4, h = 1, w = 1, k = 4, r = 1, s = 1, stride_h = 1, stride_w = 1;
  int out_h() const { return (h - r) / stride_h + 1; }
  int out_w() const { return (w - s) / stride_w + 1; }
};
// For each of `batch` problems: c[b][j][i] = sum over l < k of a[b][i][l] *
// b[b][j][l] (a: [batch][m][k], b: [batch][n][k], c: [batch][n][m], int8 in,
// int32 out); k a multiple of 4.
struct LibGemm {
  int m = 1, n = 1, k = 4, batch = 1;
};
// A convolution as cuDNN computes it: the windows' rows and columns made
// explicit (zero outside the input, so no padding is left), NHWC input and
// KRSC filter with channels zero-padded to 4. Ungrouped convolutions.
struct ConvLayout {
  LibConv shape;
  std::vector<std::int8_t> x, w;
};
ConvLayout conv_layout(const model::Op& op, const model::ConvParams& p, const model::Tensor8& in,
                       const std::vector<std::int8_t>& weights);
// cuDNN's NHWK output back in the op's N, K, H, W order.
std::vector<float> conv_result(const model::Op& op, const LibConv& shape,
                               const std::vector<float>& y);

// A fully connected layer (one GEMM: a = weights [K][J], b = inputs [N][J])
// or a per-sample grouped 1x1 convolution (a GEMM per sample and group: a =
// its weights [GK][GC], b = its input [H][GC]) as cuBLAS computes it, the
// reduction zero-padded to 4.
struct GemmLayout {
  LibGemm shape;
  std::vector<std::int8_t> a, b;
};
GemmLayout gemm_layout(const model::Op& op, const model::ConvParams& p, const model::Tensor8& in,
                       const std::vector<std::int8_t>& weights);
// cuBLAS's [batch][n][m] output back in the op's N, K, H, W order.
std::vector<std::int32_t> gemm_result(const model::Op& op, const model::ConvParams& p,
                                      const LibGemm& shape, const std::vector<std::int32_t>& c);

}  // namespace gemini::gpu
