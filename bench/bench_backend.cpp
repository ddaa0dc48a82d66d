// The reference backends' tile kernels (gpu_backend/): the convolution of
// a few ResNet-50 and transformer layer shapes through Backend::run, on the
// cpu backend (tile_element on the host, all threads) and on cuda (skipped,
// saying why, without a GPU). Reports MAC/s ("macs_per_second"); compare
// with ref_conv/<layer> (bench_model.cpp: the CPU reference's fast path)
// and, on a GPU, with `gemini ref --backend cuda --check-libraries`
// (cuDNN / cuBLAS on the corpus layers).
//
//   backend_conv/<backend>/<layer>
#include <benchmark/benchmark.h>

#include <random>

#include "gemini/gpu/backend.h"
#include "gemini/model/tile_op.h"

namespace {

using gemini::model::Box4;

struct Shape {
  const char* name;
  int c, k, h, w, r, stride, pad;
};
constexpr Shape kShapes[] = {
    {"resnet_conv2_3x3_64", 64, 64, 56, 56, 3, 1, 1},
    {"resnet_conv2_1x1_64_256", 64, 256, 56, 56, 1, 1, 0},
    {"resnet_conv5_3x3_512", 512, 512, 7, 7, 3, 1, 1},
    {"bert_proj_1x1_1024", 1024, 1024, 512, 1, 1, 1, 0},
};

Box4 box(int n, int c, int h, int w) {
  Box4 b;
  b.hi[0] = n - 1;
  b.hi[1] = c - 1;
  b.hi[2] = h - 1;
  b.hi[3] = w - 1;
  return b;
}

void backend_conv(benchmark::State& st, const char* name, Shape s) {
  std::string why;
  auto b = gemini::gpu::make_backend(name, why);
  if (!b) {
    st.SkipWithError(why.c_str());
    return;
  }
  gemini::model::TileOp op;
  op.kind = gemini::model::TileKind::conv;
  gemini::model::ConvParams& p = op.conv;
  p.kernel_r = p.kernel_s = s.r;
  p.stride_h = p.stride_w = s.stride;
  p.pad_t = p.pad_l = s.pad;
  p.in_h = s.h;
  p.in_w = s.w;
  p.group_k = s.k;
  p.group_c = s.c;
  const int oh = (s.h + 2 * s.pad - s.r) / s.stride + 1,
            ow = (s.w + 2 * s.pad - s.r) / s.stride + 1;
  const Box4 in = box(1, s.c, s.h, s.w), wb = box(s.k, s.c, s.r, s.r);
  op.out = box(1, s.k, oh, ow);
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<std::int8_t> x(static_cast<std::size_t>(in.volume())),
      w(static_cast<std::size_t>(wb.volume()));
  for (auto& v : x) v = static_cast<std::int8_t>(d(rng));
  for (auto& v : w) v = static_cast<std::int8_t>(d(rng));
  gemini::gpu::Buffer dx(*b, x.size()), dw(*b, w.size()),
      dout(*b, static_cast<std::size_t>(op.out.volume()) * 4);
  if (!dx.ok() || !dw.ok() || !dout.ok() || !b->upload(dx.as<void>(), x.data(), x.size()) ||
      !b->upload(dw.as<void>(), w.data(), w.size())) {
    st.SkipWithError(b->error().c_str());
    return;
  }
  op.in[0] = {dx.as<std::int8_t>(), in};
  op.weights = {dw.as<std::int8_t>(), wb};
  const std::int64_t zero = 0;
  for (auto _ : st) {
    if (!b->run(&op, 1, &zero, dout.as<std::int32_t>())) {
      st.SkipWithError(b->error().c_str());
      return;
    }
  }
  const double macs = static_cast<double>(op.out.volume()) * s.c * s.r * s.r;
  st.counters["macs_per_second"] =
      benchmark::Counter(macs * static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.SetLabel(b->device());
}

const bool kRegistered = [] {
  for (const char* name : {"cpu", "cuda"})
    for (const Shape& s : kShapes)
      benchmark::RegisterBenchmark((std::string("backend_conv/") + name + "/" + s.name).c_str(),
                                   [name, s](benchmark::State& st) { backend_conv(st, name, s); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  return true;
}();

}  // namespace
