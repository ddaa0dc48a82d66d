// The library check's layouts (gpu/library_layout.h), tested without a
// GPU: what cuDNN and cuBLAS are documented to compute, done here in plain
// C++ on the laid-out data, read back, equals the CPU reference's sums --
// so on a GPU any difference is the library's or ours, not the layout's.
// Convolutions with odd channel counts, asymmetric and negative padding,
// fully connected layers with a spatial input, per-sample grouped 1x1
// convolutions (attention).
#include <gtest/gtest.h>

#include <random>

#include "gemini/gpu/library_layout.h"
#include "gemini/model/cpu_kernels.h"
#include "gemini/model/layer_params.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

model::Tensor8 random_tensor(const model::Dims4& shape, std::mt19937& rng) {
  model::Tensor8 t = model::zero_tensor(shape);
  std::uniform_int_distribution<int> d(-128, 127);
  for (auto& v : t.data) v = static_cast<std::int8_t>(d(rng));
  return t;
}

// cuDNN's cross-correlation on NHWC / KRSC int8 with int32 accumulation,
// no padding, as the float it returns.
std::vector<float> cudnn_by_definition(const gpu::ConvLayout& L) {
  const gpu::LibConv& c = L.shape;
  std::vector<float> y(static_cast<std::size_t>(c.n) * c.out_h() * c.out_w() * c.k);
  for (int n = 0; n < c.n; ++n)
    for (int oh = 0; oh < c.out_h(); ++oh)
      for (int ow = 0; ow < c.out_w(); ++ow)
        for (int k = 0; k < c.k; ++k) {
          std::int32_t acc = 0;
          for (int r = 0; r < c.r; ++r)
            for (int s = 0; s < c.s; ++s)
              for (int ch = 0; ch < c.c; ++ch)
                acc += L.x[((static_cast<std::size_t>(n) * c.h + oh * c.stride_h + r) * c.w +
                            ow * c.stride_w + s) *
                               c.c +
                           ch] *
                       L.w[((static_cast<std::size_t>(k) * c.r + r) * c.s + s) * c.c + ch];
          y[((static_cast<std::size_t>(n) * c.out_h() + oh) * c.out_w() + ow) * c.k + k] =
              static_cast<float>(acc);
        }
  return y;
}

// cuBLAS's strided batched GEMM as library_layout.h states it.
std::vector<std::int32_t> cublas_by_definition(const gpu::GemmLayout& L) {
  const gpu::LibGemm& g = L.shape;
  std::vector<std::int32_t> c(static_cast<std::size_t>(g.batch) * g.n * g.m);
  for (int b = 0; b < g.batch; ++b)
    for (int j = 0; j < g.n; ++j)
      for (int i = 0; i < g.m; ++i) {
        std::int32_t acc = 0;
        for (int l = 0; l < g.k; ++l)
          acc += L.a[(static_cast<std::size_t>(b) * g.m + i) * g.k + l] *
                 L.b[(static_cast<std::size_t>(b) * g.n + j) * g.k + l];
        c[(static_cast<std::size_t>(b) * g.n + j) * g.m + i] = acc;
      }
  return c;
}

std::vector<std::int32_t> reference_sums(const model::Op& op, const model::Tensor8& in,
                                         const std::vector<std::int8_t>& w) {
  const model::ConvParams p = model::conv_params(op);
  std::vector<std::int32_t> s(static_cast<std::size_t>(model::whole_box(op.ofmap_shape).volume()));
  model::conv_tile_cpu(p, {in.data.data(), model::whole_box(in.shape)},
                       {w.data(), model::weight_box(op)}, model::whole_box(op.ofmap_shape),
                       s.data());
  return s;
}

model::Op conv(model::Dims4 in, std::int64_t k, std::int64_t r, std::int64_t s, std::int64_t stride,
               std::array<std::int64_t, 4> pad) {
  model::Op op;
  op.type = model::OpType::conv2d;
  op.ifmap_shape = in;
  op.kernel = {r, s};
  op.stride = {stride, stride};
  op.pad = pad;
  const std::int64_t oh = (in[2] + pad[0] + pad[1] - r) / stride + 1;
  const std::int64_t ow = (in[3] + pad[2] + pad[3] - s) / stride + 1;
  op.ofmap_shape = {in[0], k, oh, ow};
  op.weight_shape = {k, in[1], r, s};
  return op;
}

TEST(LibraryLayout, ConvolutionsLaidOutForCudnnGiveTheReferenceSums) {
  std::mt19937 rng(21);
  const model::Op cases[] = {
      conv({1, 3, 16, 16}, 16, 3, 3, 2, {0, 1, 0, 1}),   // set_minimal's conv1
      conv({2, 5, 15, 13}, 6, 7, 7, 2, {2, 3, 2, 3}),    // resnet conv1's padding
      conv({1, 8, 12, 12}, 7, 1, 1, 2, {0, -1, 0, -1}),  // a negative bottom/right
      conv({1, 16, 9, 9}, 8, 3, 3, 1, {1, 1, 1, 1})};
  for (const model::Op& op : cases) {
    const model::Tensor8 in = random_tensor(op.ifmap_shape, rng);
    const model::Tensor8 w = random_tensor(op.weight_shape, rng);
    const model::ConvParams p = model::conv_params(op);
    const gpu::ConvLayout L = gpu::conv_layout(op, p, in, w.data);
    EXPECT_EQ(L.shape.c % 4, 0);
    EXPECT_EQ(L.shape.k % 4, 0);
    EXPECT_EQ(L.shape.out_h(), op.ofmap_shape[2]);
    EXPECT_EQ(L.shape.out_w(), op.ofmap_shape[3]);
    const std::vector<float> got = gpu::conv_result(op, L.shape, cudnn_by_definition(L));
    const std::vector<std::int32_t> want = reference_sums(op, in, w.data);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(got[i], static_cast<float>(want[i])) << "element " << i;
  }
}

TEST(LibraryLayout, FullyConnectedAndAttentionLaidOutForCublasGiveTheReferenceSums) {
  std::mt19937 rng(8);
  // FC over a 5x2x3 input (J = 30: padded to 32), batch 2.
  model::Op fc;
  fc.type = model::OpType::fully_connected;
  fc.ifmap_shape = {2, 5, 2, 3};
  fc.ofmap_shape = {2, 7, 1, 1};
  fc.weight_shape = {7, 30, 1, 1};
  {
    const model::Tensor8 in = random_tensor(fc.ifmap_shape, rng);
    const model::Tensor8 w = random_tensor(fc.weight_shape, rng);
    const model::ConvParams p = model::conv_params(fc);
    const gpu::GemmLayout L = gpu::gemm_layout(fc, p, in, w.data);
    EXPECT_EQ(L.shape.k, 32);
    EXPECT_EQ(gpu::gemm_result(fc, p, L.shape, cublas_by_definition(L)),
              reference_sums(fc, in, w.data));
  }
  // Attention's QK: per-sample weights, 3 groups (heads), 1x1, W = 1.
  model::Op qk;
  qk.type = model::OpType::conv2d;
  qk.ifmap_shape = {2, 9, 5, 1};  // GC = 3 (padded to 4)
  qk.ofmap_shape = {2, 6, 5, 1};  // GK = 2
  qk.groups = 3;
  qk.weight_from_fmap = true;
  qk.weight_shape = {6, 3, 1, 1};
  {
    const model::Tensor8 in = random_tensor(qk.ifmap_shape, rng);
    const model::Tensor8 w = random_tensor({2, 6, 3, 1}, rng);  // [N, K, C/G, R*S]
    const model::ConvParams p = model::conv_params(qk);
    ASSERT_TRUE(p.per_sample);
    const gpu::GemmLayout L = gpu::gemm_layout(qk, p, in, w.data);
    EXPECT_EQ(L.shape.batch, 6);
    EXPECT_EQ(gpu::gemm_result(qk, p, L.shape, cublas_by_definition(L)),
              reference_sums(qk, in, w.data));
  }
}

}  // namespace
