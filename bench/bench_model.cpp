// The CPU reference's speed (issue: its convolutions at least half the MAC
// rate of an Eigen int32 GEMM with the same MAC count).
//
//   ref_conv/<layer>          conv_tile_cpu of one layer's shape, one thread
//   eigen_int32_gemm/<layer>  Eigen's int32 GEMM of the same M x K x N (the
//                             baseline the target names), one thread
//   ref_network/<model>       the whole reference of a corpus model (all
//                             threads; needs the corpus)
// Each reports MAC/s ("macs_per_second"). The layer shapes are ResNet-50's
// and a transformer projection's.
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <filesystem>

#include "conv_shapes.h"
#include "gemini/model/cpu_kernels.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"
#include "gemini/model/stats.h"

namespace {

using gemini::bench::ConvShape;
using gemini::ir::Box;

void ref_conv(benchmark::State& st, ConvShape s) {
  const gemini::model::ConvParams p = s.params();
  const Box ib = s.in_box(), wb = s.weight_box(), ob = s.out_box();
  const auto in = gemini::bench::random8(ib.volume()), w = gemini::bench::random8(wb.volume());
  std::vector<std::int32_t> acc(static_cast<std::size_t>(ob.volume()));
  for (auto _ : st) {
    gemini::model::conv_tile_cpu(p, {in.data(), ib}, {w.data(), wb}, ob, acc.data(), 1);
    benchmark::DoNotOptimize(acc.data());
  }
  st.counters["macs_per_second"] =
      benchmark::Counter(s.macs(), benchmark::Counter::kIsIterationInvariantRate);
}

void eigen_int32_gemm(benchmark::State& st, ConvShape s) {
  using M = Eigen::Matrix<std::int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Index m = s.k, k = static_cast<Eigen::Index>(s.c) * s.r * s.r,
                     n = static_cast<Eigen::Index>(s.out_h()) * s.out_w();
  M a = M::Random(m, k).unaryExpr([](std::int32_t v) { return v % 128; });
  M b = M::Random(k, n).unaryExpr([](std::int32_t v) { return v % 128; });
  M c(m, n);
  for (auto _ : st) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
  st.counters["macs_per_second"] = benchmark::Counter(
      static_cast<double>(m) * k * n, benchmark::Counter::kIsIterationInvariantRate);
}

void ref_network(benchmark::State& st, const std::string& model) {
  namespace fs = std::filesystem;
  const char* env = std::getenv("GEMINI_CORPUS");
  const fs::path dir = env && *env
                           ? fs::path(env)
                           : fs::path(GEMINI_SOURCE_DIR) / ".." / "shared" / "ir-corpus" / "set";
  const fs::path path = dir / "models" / (model + ".model.json");
  if (!fs::exists(path)) {
    st.SkipWithError(("no corpus model " + path.string()).c_str());
    return;
  }
  gemini::ir::Diagnostics d;
  auto net = gemini::model::load_network(path.string(), d);
  if (!net) {
    st.SkipWithError("the model does not load");
    return;
  }
  for (auto _ : st)
    benchmark::DoNotOptimize(gemini::model::compute_reference(*net, 1).outputs.size());
  st.counters["macs_per_second"] =
      benchmark::Counter(static_cast<double>(gemini::model::network_macs(*net)),
                         benchmark::Counter::kIsIterationInvariantRate);
}

const bool kRegistered = [] {
  for (const ConvShape& s : gemini::bench::kConvShapes) {
    benchmark::RegisterBenchmark((std::string("ref_conv/") + s.name).c_str(), ref_conv, s)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("eigen_int32_gemm/") + s.name).c_str(),
                                 eigen_int32_gemm, s)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  for (const char* m : {"resnet_b1", "resnet_b4", "vgg_b1", "bert_b1"})
    benchmark::RegisterBenchmark((std::string("ref_network/") + m).c_str(), ref_network,
                                 std::string(m))
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(3);
  return true;
}();

}  // namespace
