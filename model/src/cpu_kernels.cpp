#include "gemini/model/cpu_kernels.h"

#include <Eigen/Core>
#include <algorithm>
#include <vector>

#include "gemini/ir/parallel.h"

namespace gemini::model {
namespace {

// The GEMM runs in float32: exact for integers up to 2^24 in magnitude. An
// int8 x int8 product is at most 2^14 in magnitude, so a sum of at most
// 1024 of them, and every partial sum on the way in whatever order the
// GEMM adds them, is an integer of at most 2^24: exactly representable, so
// every rounding is exact. The reduction is cut into chunks of at most
// kExactTerms, each chunk's float result converted to int32 exactly and
// the chunks added in int32. (Eigen's float GEMM is several times faster
// than its int32 one on the same MACs.)
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
constexpr std::int64_t kExactTerms = 1024;

// About this many patch values per block of output rows (4 MB).
constexpr std::int64_t kBlockValues = 1 << 20;

struct WorkItem {
  std::int32_t n, g, row0, row1;  // output rows [row0, row1] of the box
};

void conv_block(const ConvParams& p, const ConstTile& in, const ConstTile& w, const ir::Box& out,
                const WorkItem& it, std::int32_t* acc, Matrix& wm, Matrix& patches, Matrix& res) {
  const std::int32_t k0 = std::max(out.lo[1], it.g * p.group_k);
  const std::int32_t k1 = std::min(out.hi[1], (it.g + 1) * p.group_k - 1);
  const std::int64_t nk = k1 - k0 + 1;
  const std::int64_t L = std::int64_t{p.group_c} * p.kernel_r * p.kernel_s;
  const std::int32_t ow0 = out.lo[3], ow1 = out.hi[3];
  const std::int64_t width = ow1 - ow0 + 1;
  const std::int64_t P = (it.row1 - it.row0 + 1) * width;
  // Weights of the group's output channels: [nk x L], columns (c', r, s).
  wm.resize(nk, L);
  for (std::int64_t k = 0; k < nk; ++k) {
    const std::int32_t kk = static_cast<std::int32_t>(k0 + k);
    float* row = wm.row(k).data();
    if (p.per_sample) {
      for (std::int32_t c = 0; c < p.group_c; ++c)
        for (std::int32_t r = 0; r < p.kernel_r; ++r)
          for (std::int32_t s = 0; s < p.kernel_s; ++s)
            *row++ = static_cast<float>(w.at(it.n, kk, c, r * p.kernel_s + s));
    } else {
      // [K, C/G, R, S] is dense: the row is contiguous in the tile.
      const std::int8_t* src = w.data + w.box.offset(kk, 0, 0, 0);
      for (std::int64_t l = 0; l < L; ++l) row[l] = static_cast<float>(src[l]);
    }
  }
  // Patches: [L x P], a row per (c', r, s), a column per output position.
  patches.resize(L, P);
  for (std::int32_t c = 0; c < p.group_c; ++c) {
    const std::int32_t ci = it.g * p.group_c + c;
    for (std::int32_t r = 0; r < p.kernel_r; ++r)
      for (std::int32_t s = 0; s < p.kernel_s; ++s) {
        float* row = patches.row((std::int64_t{c} * p.kernel_r + r) * p.kernel_s + s).data();
        for (std::int32_t oh = it.row0; oh <= it.row1; ++oh) {
          const std::int32_t ih = oh * p.stride_h - p.pad_t + r;
          float* dst = row + (oh - it.row0) * width;
          const bool row_in = ih >= 0 && ih < p.in_h && ih >= in.box.lo[2] && ih <= in.box.hi[2] &&
                              ci >= in.box.lo[1] && ci <= in.box.hi[1] && it.n >= in.box.lo[0] &&
                              it.n <= in.box.hi[0];
          if (!row_in) {
            std::fill(dst, dst + width, 0.0F);
            continue;
          }
          const std::int8_t* src = in.data + in.box.offset(it.n, ci, ih, in.box.lo[3]);
          const std::int32_t wlo = std::max(0, in.box.lo[3]),
                             whi = std::min(p.in_w - 1, in.box.hi[3]);
          if (p.stride_w == 1) {
            // Columns [iw0, iw1] of the input row, zero outside.
            for (std::int32_t ow = ow0; ow <= ow1; ++ow) {
              const std::int32_t iw = ow - p.pad_l + s;
              dst[ow - ow0] =
                  (iw >= wlo && iw <= whi) ? static_cast<float>(src[iw - in.box.lo[3]]) : 0.0F;
            }
          } else {
            for (std::int32_t ow = ow0; ow <= ow1; ++ow) {
              const std::int32_t iw = ow * p.stride_w - p.pad_l + s;
              dst[ow - ow0] =
                  (iw >= wlo && iw <= whi) ? static_cast<float>(src[iw - in.box.lo[3]]) : 0.0F;
            }
          }
        }
      }
  }
  for (std::int64_t l0 = 0; l0 < L; l0 += kExactTerms) {
    const std::int64_t n = std::min(kExactTerms, L - l0);
    res.noalias() = wm.middleCols(l0, n) * patches.middleRows(l0, n);
    for (std::int64_t k = 0; k < nk; ++k) {
      std::int32_t* dst = acc + out.offset(it.n, k0 + static_cast<std::int32_t>(k), it.row0, ow0);
      const float* src = res.row(k).data();
      if (l0 == 0) {
        for (std::int64_t j = 0; j < P; ++j) dst[j] = static_cast<std::int32_t>(src[j]);
      } else {
        for (std::int64_t j = 0; j < P; ++j) dst[j] += static_cast<std::int32_t>(src[j]);
      }
    }
  }
}

}  // namespace

void conv_tile_cpu(const ConvParams& p, const ConstTile& in, const ConstTile& w, const ir::Box& out,
                   std::int32_t* acc, unsigned threads) {
  if (out.empty()) return;
  const std::int64_t L = std::int64_t{p.group_c} * p.kernel_r * p.kernel_s;
  const std::int64_t width = out.extent(3);
  const std::int64_t rows_per_block =
      std::max<std::int64_t>(1, kBlockValues / std::max<std::int64_t>(1, L * width));
  std::vector<WorkItem> items;
  for (std::int32_t n = out.lo[0]; n <= out.hi[0]; ++n)
    for (std::int32_t g = out.lo[1] / p.group_k; g <= out.hi[1] / p.group_k; ++g)
      for (std::int64_t r0 = out.lo[2]; r0 <= out.hi[2]; r0 += rows_per_block)
        items.push_back({n, g, static_cast<std::int32_t>(r0),
                         static_cast<std::int32_t>(
                             std::min<std::int64_t>(out.hi[2], r0 + rows_per_block - 1))});
  if (threads <= 1 || items.size() == 1) {
    Matrix wm, patches, res;
    for (const WorkItem& it : items) conv_block(p, in, w, out, it, acc, wm, patches, res);
    return;
  }
  ir::parallel_for(items.size(), [&](std::size_t i) {
    thread_local Matrix wm, patches, res;
    conv_block(p, in, w, out, items[i], acc, wm, patches, res);
  });
}

void requantize_all(const std::int32_t* acc, std::int64_t n, std::int32_t shift, std::int8_t* out) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = requantize(acc[i], shift);
}

void pool_tile_cpu(const PoolParams& p, const ConstTile& in, const ir::Box& out, std::int8_t* dst) {
  std::int64_t i = 0;
  for (std::int32_t n = out.lo[0]; n <= out.hi[0]; ++n)
    for (std::int32_t c = out.lo[1]; c <= out.hi[1]; ++c)
      for (std::int32_t h = out.lo[2]; h <= out.hi[2]; ++h)
        for (std::int32_t x = out.lo[3]; x <= out.hi[3]; ++x)
          dst[i++] = pool_element(p, in, n, c, h, x);
}

void window_sums_cpu(const PoolParams& p, const ConstTile& in, const ir::Box& out,
                     std::int32_t* sums) {
  std::int64_t i = 0;
  for (std::int32_t n = out.lo[0]; n <= out.hi[0]; ++n)
    for (std::int32_t c = out.lo[1]; c <= out.hi[1]; ++c)
      for (std::int32_t h = out.lo[2]; h <= out.hi[2]; ++h)
        for (std::int32_t x = out.lo[3]; x <= out.hi[3]; ++x)
          sums[i++] = static_cast<std::int32_t>(pool_window_sum(p, in, n, c, h, x));
}

void operand_sums_cpu(const ConstTile* inputs, int count, const ir::Box& out, std::int32_t* sums) {
  std::int64_t i = 0;
  for (std::int32_t n = out.lo[0]; n <= out.hi[0]; ++n)
    for (std::int32_t c = out.lo[1]; c <= out.hi[1]; ++c)
      for (std::int32_t h = out.lo[2]; h <= out.hi[2]; ++h)
        for (std::int32_t x = out.lo[3]; x <= out.hi[3]; ++x) {
          std::int32_t sum = 0;
          for (int k = 0; k < count; ++k) sum += inputs[k].at(n, c, h, x);
          sums[i++] = sum;
        }
}

void add_tile_cpu(const ConstTile* inputs, int count, std::int32_t shift, const ir::Box& out,
                  std::int8_t* dst) {
  std::int64_t i = 0;
  for (std::int32_t n = out.lo[0]; n <= out.hi[0]; ++n)
    for (std::int32_t c = out.lo[1]; c <= out.hi[1]; ++c)
      for (std::int32_t h = out.lo[2]; h <= out.hi[2]; ++h)
        for (std::int32_t x = out.lo[3]; x <= out.hi[3]; ++x) {
          std::int64_t sum = 0;
          for (int k = 0; k < count; ++k) sum += inputs[k].at(n, c, h, x);
          dst[i++] = add_element(sum, shift);
        }
}

void transpose_tile_cpu(const std::int32_t perm[4], const ConstTile& in, const ir::Box& out,
                        std::int8_t* dst) {
  bool copy = true;  // the identity over the input's own box: its bytes as they are
  for (int d = 0; d < 4; ++d)
    copy = copy && perm[d] == d && in.box.lo[d] == out.lo[d] && in.box.hi[d] == out.hi[d];
  if (copy) {
    std::copy(in.data, in.data + out.volume(), dst);
    return;
  }
  std::int64_t i = 0;
  std::int32_t o[4], s[4];
  for (o[0] = out.lo[0]; o[0] <= out.hi[0]; ++o[0])
    for (o[1] = out.lo[1]; o[1] <= out.hi[1]; ++o[1])
      for (o[2] = out.lo[2]; o[2] <= out.hi[2]; ++o[2])
        for (o[3] = out.lo[3]; o[3] <= out.hi[3]; ++o[3]) {
          transpose_source(perm, o, s);
          dst[i++] = in.at(s[0], s[1], s[2], s[3]);
        }
}

void compute_tile_cpu(const TileOp& t, std::span<const ConstTile> inputs, std::int32_t* sums,
                      std::int8_t* dst, unsigned threads) {
  if (inputs.empty()) inputs = {t.in, static_cast<std::size_t>(std::max(t.inputs, 0))};
  const int count = static_cast<int>(inputs.size());
  switch (t.kind) {
    case TileKind::conv:
      return conv_tile_cpu(t.conv, inputs[0], t.weights, t.out, sums, threads);
    case TileKind::requantize:
      return requantize_all(t.sums, t.out.volume(), t.shift, dst);
    case TileKind::pool:
      return pool_tile_cpu(t.pool, inputs[0], t.out, dst);
    case TileKind::pool_sum:
      return window_sums_cpu(t.pool, inputs[0], t.out, sums);
    case TileKind::add:
      return add_tile_cpu(inputs.data(), count, t.shift, t.out, dst);
    case TileKind::add_sum:
      return operand_sums_cpu(inputs.data(), count, t.out, sums);
    case TileKind::transpose:
      return transpose_tile_cpu(t.perm, inputs[0], t.out, dst);
  }
}

}  // namespace gemini::model
