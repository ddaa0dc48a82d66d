#include "gemini/gpu/library_layout.h"

#include <algorithm>

#include "gemini/model/network.h"
#include "gemini/model/reference.h"
#include "gemini/model/tile_ops.h"

namespace gemini::gpu {
namespace {

int round4(std::int64_t x) { return static_cast<int>((x + 3) / 4 * 4); }

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

}  // namespace

ConvLayout conv_layout(const model::Op& op, const model::ConvParams& p, const model::Tensor8& in,
                       const std::vector<std::int8_t>& weights) {
  const model::Dims4& os = op.ofmap_shape;
  ConvLayout L;
  LibConv& c = L.shape;
  c.n = static_cast<int>(os[0]);
  c.c = round4(p.group_c);
  c.k = round4(os[1]);
  c.r = p.kernel_r;
  c.s = p.kernel_s;
  c.stride_h = p.stride_h;
  c.stride_w = p.stride_w;
  c.h = static_cast<int>((os[2] - 1) * p.stride_h + p.kernel_r);
  c.w = static_cast<int>((os[3] - 1) * p.stride_w + p.kernel_s);
  // x: NHWC over the rows and columns the windows read (zero outside the input).
  L.x.assign(at(std::int64_t{c.n} * c.h * c.w * c.c), 0);
  const std::int64_t ic = in.shape[1], ih_n = in.shape[2], iw_n = in.shape[3];
  for (int n = 0; n < c.n; ++n)
    for (int y = 0; y < c.h; ++y)
      for (int z = 0; z < c.w; ++z) {
        const int ih = y - p.pad_t, iw = z - p.pad_l;
        if (ih < 0 || ih >= p.in_h || iw < 0 || iw >= p.in_w) continue;
        for (int ch = 0; ch < p.group_c; ++ch)
          L.x[at(((std::int64_t{n} * c.h + y) * c.w + z) * c.c + ch)] =
              in.data[at(((n * ic + ch) * ih_n + ih) * iw_n + iw)];
      }
  // w: KRSC from [K, C, R, S].
  L.w.assign(at(std::int64_t{c.k} * c.r * c.s * c.c), 0);
  for (std::int64_t k = 0; k < os[1]; ++k)
    for (int ch = 0; ch < p.group_c; ++ch)
      for (int r = 0; r < c.r; ++r)
        for (int s = 0; s < c.s; ++s)
          L.w[at(((k * c.r + r) * c.s + s) * c.c + ch)] =
              weights[at(((k * p.group_c + ch) * c.r + r) * c.s + s)];
  return L;
}

std::vector<float> conv_result(const model::Op& op, const LibConv& c, const std::vector<float>& y) {
  const model::Dims4& os = op.ofmap_shape;
  std::vector<float> out(at(os[0] * os[1] * os[2] * os[3]), 0.0f);
  for (std::int64_t n = 0; n < os[0]; ++n)
    for (std::int64_t k = 0; k < os[1]; ++k)
      for (std::int64_t h = 0; h < os[2]; ++h)
        for (std::int64_t q = 0; q < os[3]; ++q)
          out[at(((n * os[1] + k) * os[2] + h) * os[3] + q)] =
              y[at(((n * c.out_h() + h) * c.out_w() + q) * c.k + k)];
  return out;
}

GemmLayout gemm_layout(const model::Op& op, const model::ConvParams& p, const model::Tensor8& in,
                       const std::vector<std::int8_t>& w) {
  const model::Dims4& os = op.ofmap_shape;
  GemmLayout L;
  LibGemm& g = L.shape;
  if (op.type == model::OpType::fully_connected) {
    const std::int64_t j = op.ifmap_shape[1] * op.ifmap_shape[2] * op.ifmap_shape[3];
    g.m = static_cast<int>(os[1]);
    g.n = static_cast<int>(os[0]);
    g.k = round4(j);
    L.a.assign(at(std::int64_t{g.m} * g.k), 0);
    L.b.assign(at(std::int64_t{g.n} * g.k), 0);
    for (int k = 0; k < g.m; ++k)
      std::copy(w.begin() + k * j, w.begin() + (k + 1) * j, L.a.begin() + std::int64_t{k} * g.k);
    for (int n = 0; n < g.n; ++n)
      std::copy(in.data.begin() + n * j, in.data.begin() + (n + 1) * j,
                L.b.begin() + std::int64_t{n} * g.k);
    return L;
  }
  // out[n, gi*GK + k, h, 0] = sum_c W[n, gi*GK + k, c, 0] * in[n, gi*GC + c, h, 0].
  const std::int64_t groups = op.groups, gk = p.group_k, gc = p.group_c, hh = os[2];
  g.m = static_cast<int>(gk);
  g.n = static_cast<int>(hh);
  g.k = round4(gc);
  g.batch = static_cast<int>(os[0] * groups);
  L.a.assign(at(std::int64_t{g.batch} * g.m * g.k), 0);
  L.b.assign(at(std::int64_t{g.batch} * g.n * g.k), 0);
  const std::int64_t ic = in.shape[1], ih = in.shape[2];
  for (std::int64_t n = 0; n < os[0]; ++n)
    for (std::int64_t gi = 0; gi < groups; ++gi) {
      const std::int64_t bt = n * groups + gi;
      for (std::int64_t k = 0; k < gk; ++k)
        for (std::int64_t c = 0; c < gc; ++c)
          L.a[at((bt * g.m + k) * g.k + c)] = w[at((n * os[1] + gi * gk + k) * gc + c)];
      for (std::int64_t h = 0; h < hh; ++h)
        for (std::int64_t c = 0; c < gc; ++c)
          L.b[at((bt * g.n + h) * g.k + c)] = in.data[at((n * ic + gi * gc + c) * ih + h)];
    }
  return L;
}

std::vector<std::int32_t> gemm_result(const model::Op& op, const model::ConvParams& p,
                                      const LibGemm& g, const std::vector<std::int32_t>& c) {
  const model::Dims4& os = op.ofmap_shape;
  if (op.type == model::OpType::fully_connected) return c;  // [n][k]: the output's order
  const std::int64_t groups = op.groups, gk = p.group_k, hh = os[2];
  std::vector<std::int32_t> out(at(os[0] * os[1] * os[2]), 0);
  for (std::int64_t n = 0; n < os[0]; ++n)
    for (std::int64_t gi = 0; gi < groups; ++gi)
      for (std::int64_t h = 0; h < hh; ++h)
        for (std::int64_t k = 0; k < gk; ++k)
          out[at((n * os[1] + gi * gk + k) * hh + h)] =
              c[at(((n * groups + gi) * hh + h) * gk + k)];
  (void)g;
  return out;
}

}  // namespace gemini::gpu
