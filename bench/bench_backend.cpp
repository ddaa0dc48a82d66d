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

#include "conv_shapes.h"
#include "gemini/gpu/backend.h"
#include "gemini/model/tile_op.h"

namespace {

using gemini::bench::ConvShape;
using gemini::ir::Box;

void backend_conv(benchmark::State& st, const char* name, ConvShape s) {
  std::string why;
  auto b = gemini::gpu::make_backend(name, why);
  if (!b) {
    st.SkipWithError(why.c_str());
    return;
  }
  gemini::model::TileOp op;
  op.kind = gemini::model::TileKind::conv;
  op.conv = s.params();
  const Box in = s.in_box(), wb = s.weight_box();
  op.out = s.out_box();
  const auto x = gemini::bench::random8(in.volume()), w = gemini::bench::random8(wb.volume());
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
  st.counters["macs_per_second"] =
      benchmark::Counter(s.macs(), benchmark::Counter::kIsIterationInvariantRate);
  st.SetLabel(b->device());
}

const bool kRegistered = [] {
  for (const char* name : {"cpu", "cuda"})
    for (const ConvShape& s : gemini::bench::kConvShapes)
      benchmark::RegisterBenchmark((std::string("backend_conv/") + name + "/" + s.name).c_str(),
                                   [name, s](benchmark::State& st) { backend_conv(st, name, s); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  return true;
}();

}  // namespace
