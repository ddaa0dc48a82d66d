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
#include <random>

#include "gemini/model/cpu_kernels.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"
#include "gemini/model/stats.h"

namespace {

using gemini::model::Box4;

struct Shape {
  const char* name;
  int c, k, h, w, r, stride, pad;  // input C x H x W, K outputs, r x r kernel
};
constexpr Shape kShapes[] = {
    {"resnet_conv1_7x7s2", 3, 64, 224, 224, 7, 2, 3},
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

std::vector<std::int8_t> random8(std::int64_t n) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<std::int8_t> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<std::int8_t>(d(rng));
  return v;
}

void ref_conv(benchmark::State& st, Shape s) {
  gemini::model::ConvParams p;
  p.kernel_r = p.kernel_s = s.r;
  p.stride_h = p.stride_w = s.stride;
  p.pad_t = p.pad_l = s.pad;
  p.in_h = s.h;
  p.in_w = s.w;
  p.group_k = s.k;
  p.group_c = s.c;
  const int oh = (s.h + 2 * s.pad - s.r) / s.stride + 1,
            ow = (s.w + 2 * s.pad - s.r) / s.stride + 1;
  const Box4 ib = box(1, s.c, s.h, s.w), wb = box(s.k, s.c, s.r, s.r), ob = box(1, s.k, oh, ow);
  const auto in = random8(ib.volume()), w = random8(wb.volume());
  std::vector<std::int32_t> acc(static_cast<std::size_t>(ob.volume()));
  for (auto _ : st) {
    gemini::model::conv_tile_cpu(p, {in.data(), ib}, {w.data(), wb}, ob, acc.data(), 1);
    benchmark::DoNotOptimize(acc.data());
  }
  const double macs = static_cast<double>(ob.volume()) * s.c * s.r * s.r;
  st.counters["macs_per_second"] =
      benchmark::Counter(macs, benchmark::Counter::kIsIterationInvariantRate);
}

void eigen_int32_gemm(benchmark::State& st, Shape s) {
  using M = Eigen::Matrix<std::int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const int oh = (s.h + 2 * s.pad - s.r) / s.stride + 1,
            ow = (s.w + 2 * s.pad - s.r) / s.stride + 1;
  const Eigen::Index m = s.k, k = static_cast<Eigen::Index>(s.c) * s.r * s.r,
                     n = static_cast<Eigen::Index>(oh) * ow;
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
  for (const Shape& s : kShapes) {
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
