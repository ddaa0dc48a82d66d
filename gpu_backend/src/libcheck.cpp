#include "gemini/gpu/libcheck.h"

#include <cinttypes>
#include <cstdio>
#include <ostream>

#include "gemini/gpu/library_layout.h"
#include "gemini/model/cpu_kernels.h"
#include "gemini/model/layer_params.h"
#include "gemini/model/numerics.h"
#include "library_calls.h"

namespace gemini::gpu {
namespace {

// A float holds an int32 sum exactly below 2^24; above, the library's one
// rounding of the exact sum is float(v).
bool same(std::int32_t v, float f) { return static_cast<float>(v) == f; }

double tops(std::int64_t macs, double seconds) {
  return seconds > 0 ? 2.0 * static_cast<double>(macs) / seconds / 1e12 : 0;
}

// Which libraries opened, and why not.
struct Libraries {
  std::string why_dnn, why_blas;
  bool dnn = cudnn_available(why_dnn), blas = cublas_available(why_blas);
};

// Our kernel on one layer, timed as the libraries are (library_calls.h):
// the first run is the first warm-up and its sums go to `first`; the
// median of last_run_seconds() over the timed runs; the last timed run's
// sums compared with the first's. False when the backend failed.
bool time_ours(Backend& cuda, const model::TileOp& t, std::int32_t* dout,
               std::vector<std::int32_t>& first, LibCheckLayer& l) {
  const std::int64_t zero = 0;
  const std::size_t bytes = first.size() * sizeof(std::int32_t);
  if (!cuda.run(&t, 1, &zero, dout) || !cuda.download(first.data(), dout, bytes)) return false;
  for (int i = 1; i < kWarmupCalls; ++i)
    if (!cuda.run(&t, 1, &zero, dout)) return false;
  LibTiming ours;
  if (!timed_calls([&] { return cuda.run(&t, 1, &zero, dout) ? cuda.last_run_seconds() : -1.0; },
                   ours))
    return false;
  l.ours_seconds = ours.seconds;
  l.ours_repetitions = ours.repetitions;
  std::vector<std::int32_t> last(first.size());
  if (!cuda.download(last.data(), dout, bytes)) return false;
  for (std::size_t k = 0; k < first.size(); ++k) l.ours_rerun_vs_first += last[k] != first[k];
  return true;
}

// cuBLAS on the implicit GEMM of a convolution (LibCheckLayer::gemm_seconds).
void time_gemm_equivalent(const model::Op& op, const model::ConvParams& p, LibCheckLayer& l) {
  LibGemm g;
  g.m = static_cast<int>(op.ofmap_shape[0] * op.ofmap_shape[2] * op.ofmap_shape[3]);
  g.n = static_cast<int>(op.ofmap_shape[1]);
  g.k = (p.group_c * p.kernel_r * p.kernel_s + 3) / 4 * 4;
  std::vector<std::int8_t> a(static_cast<std::size_t>(g.m) * static_cast<std::size_t>(g.k)),
      b(static_cast<std::size_t>(g.n) * static_cast<std::size_t>(g.k));
  const std::uint64_t base = model::stream_base(7, 7);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = model::generate_at(base, i);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = model::generate_at(base, a.size() + i);
  std::vector<std::int32_t> c(static_cast<std::size_t>(g.m) * static_cast<std::size_t>(g.n));
  LibTiming t;
  std::string error;
  if (cublas_gemm(g, a.data(), b.data(), c.data(), t, error)) l.gemm_seconds = t.seconds;
}

// NVIDIA's library on one layer, its sums compared with `cpu`; l.library
// is left empty where none ran.
void check_library(const model::Op& op, const model::ConvParams& p, const model::Tensor8& in,
                   const std::vector<std::int8_t>& w, const std::vector<std::int32_t>& cpu,
                   const Libraries& libs, LibCheckLayer& l) {
  std::vector<std::int32_t> lib;
  std::vector<float> libf;
  LibTiming timing;
  std::string error;
  const bool gemm = op.type == model::OpType::fully_connected ||
                    (p.per_sample && p.kernel_r == 1 && p.kernel_s == 1 && op.ofmap_shape[3] == 1);
  bool ran = false;
  if (gemm) {
    if (!libs.blas) {
      l.note = libs.why_blas;
      return;
    }
    l.library = "cuBLAS";
    const GemmLayout g = gemm_layout(op, p, in, w);
    std::vector<std::int32_t> c(static_cast<std::size_t>(g.shape.batch) * g.shape.m * g.shape.n);
    ran = cublas_gemm(g.shape, g.a.data(), g.b.data(), c.data(), timing, error);
    if (ran) lib = gemm_result(op, p, g.shape, c);
  } else if (op.groups == 1 && (!p.per_sample || op.ofmap_shape[0] == 1)) {
    if (!libs.dnn) {
      l.note = libs.why_dnn;
      return;
    }
    l.library = "cuDNN";
    const ConvLayout c = conv_layout(op, p, in, w);
    std::vector<float> y(static_cast<std::size_t>(c.shape.n) * c.shape.out_h() * c.shape.out_w() *
                         c.shape.k);
    ran = cudnn_conv(c.shape, c.x.data(), c.w.data(), y.data(), timing, error);
    if (ran) libf = conv_result(op, c.shape, y);
    if (ran && libs.blas && !p.per_sample) time_gemm_equivalent(op, p, l);
  } else {
    l.note = "neither library expresses this grouped convolution; the CPU reference judges";
    return;
  }
  l.note = error.empty() ? timing.how : timing.how.empty() ? error : error + "; " + timing.how;
  if (!ran) {
    l.library.clear();
    return;
  }
  l.algorithm = timing.algorithm;
  l.library_seconds = timing.seconds;
  l.library_repetitions = timing.repetitions;
  for (std::size_t k = 0; k < cpu.size(); ++k)
    l.library_vs_cpu += libf.empty() ? lib[k] != cpu[k] : !same(cpu[k], libf[k]);
}

}  // namespace

double LibCheckLayer::ratio() const {
  return library_seconds > 0 ? ours_seconds / library_seconds : 0;
}

double LibCheckTotal::ratio() const {
  return library_seconds > 0 ? ours_seconds / library_seconds : 0;
}
double LibCheckTotal::ours_tops() const { return tops(macs, ours_seconds); }
double LibCheckTotal::library_tops() const { return tops(macs, library_seconds); }

bool LibCheckReport::passed() const {
  if (!error.empty() || layers.empty()) return false;
  for (const LibCheckLayer& l : layers)
    if (l.ours_vs_cpu > 0 || l.library_vs_cpu > 0 || l.ours_rerun_vs_first > 0) return false;
  return true;
}

std::vector<LibCheckTotal> LibCheckReport::totals() const {
  std::vector<LibCheckTotal> t(3);
  t[0].library = "cuDNN";
  t[1].library = "cuBLAS";
  t[2].library = "all";
  for (const LibCheckLayer& l : layers) {
    if (l.library.empty()) continue;
    for (LibCheckTotal& s : t) {
      if (s.library != "all" && s.library != l.library) continue;
      ++s.layers;
      s.macs += l.macs;
      s.ours_seconds += l.ours_seconds;
      s.library_seconds += l.library_seconds;
      if (l.gemm_seconds > 0) {
        ++s.gemm_layers;
        s.gemm_macs += l.macs;
        s.ours_gemm_seconds += l.ours_seconds;
        s.gemm_seconds += l.gemm_seconds;
      }
    }
  }
  return t;
}

LibCheckReport library_check(const model::Network& net, const model::Reference& ref,
                             std::uint64_t seed, Backend& cuda) {
  LibCheckReport r;
  r.device = cuda.device();
  const Libraries libs;
  for (std::int32_t i : net.order) {
    const model::Op& op = net.ops[static_cast<std::size_t>(i)];
    if (!op.has_weights()) continue;  // the convolutions and matrix products
    LibCheckLayer l;
    l.layer = op.name;
    const model::ConvParams p = model::conv_params(op);
    model::Tensor8 scratch;
    const model::Tensor8& in = model::op_input(op, ref, scratch);
    const std::vector<std::int8_t> w = op.weight_from_fmap ? model::fmap_weights(op, ref).data
                                                           : model::generate_weights(op, seed).data;
    const ir::Box out = model::whole_box(op.ofmap_shape), wb = model::weight_box(op);
    l.elements = out.volume();
    l.macs = l.elements * p.group_c * p.kernel_r * p.kernel_s;
    // The CPU reference's sums.
    std::vector<std::int32_t> cpu(static_cast<std::size_t>(l.elements));
    model::conv_tile_cpu(p, {in.data.data(), model::whole_box(in.shape)}, {w.data(), wb}, out,
                         cpu.data());
    // Ours, on the GPU, inputs uploaded once.
    Buffer din(cuda, in.data.size()), dw(cuda, w.size()),
        dout(cuda, static_cast<std::size_t>(l.elements) * sizeof(std::int32_t));
    std::vector<std::int32_t> ours(cpu.size());
    model::TileOp t;
    t.kind = model::TileKind::conv;
    t.conv = p;
    t.out = out;
    bool ok = din.ok() && dw.ok() && dout.ok() &&
              cuda.upload(din.as<void>(), in.data.data(), in.data.size()) &&
              cuda.upload(dw.as<void>(), w.data(), w.size());
    if (ok) {
      t.in[0] = {din.as<std::int8_t>(), model::whole_box(in.shape)};
      t.weights = {dw.as<std::int8_t>(), wb};
      ok = time_ours(cuda, t, dout.as<std::int32_t>(), ours, l);
    }
    if (!ok) {
      r.error = cuda.error();
      return r;
    }
    for (std::size_t k = 0; k < cpu.size(); ++k) l.ours_vs_cpu += ours[k] != cpu[k];
    check_library(op, p, in, w, cpu, libs, l);
    r.layers.push_back(std::move(l));
  }
  return r;
}

void print_library_check(std::ostream& os, const LibCheckReport& r) {
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "library check on %s: int32 sums before requantisation; times: median of %zu-%zu "
                "warm calls (after %d warm-up, until %.1f s), CUDA events; cuDNN algorithm by "
                "cudnnFind, cached per shape\n",
                r.device.c_str(), kMinTimedCalls, kMaxTimedCalls, kWarmupCalls,
                kTimedBudgetSeconds);
  os << buf;
  std::snprintf(buf, sizeof buf,
                "%-22s %-7s %12s %9s %9s %7s %10s %10s %8s %9s %9s %9s %9s %7s %s\n", "layer",
                "library", "sums", "ours!=cpu", "lib!=cpu", "rerun!=", "ours ms", "lib ms",
                "ours/lib", "ours TOPS", "lib TOPS", "gemm ms", "ours/gemm", "reps", "algorithm");
  os << buf;
  for (const LibCheckLayer& l : r.layers) {
    const bool lib = !l.library.empty();
    std::snprintf(buf, sizeof buf,
                  "%-22s %-7s %12" PRId64 " %9" PRId64 " %9" PRId64 " %7" PRId64
                  " %10.3f %10.3f %8.2f %9.2f %9.2f %9.3f %9.2f %3d/%-3d %s\n",
                  l.layer.c_str(), lib ? l.library.c_str() : "-", l.elements, l.ours_vs_cpu,
                  lib ? l.library_vs_cpu : 0, l.ours_rerun_vs_first, l.ours_seconds * 1e3,
                  l.library_seconds * 1e3, l.ratio(), tops(l.macs, l.ours_seconds),
                  tops(l.macs, l.library_seconds), l.gemm_seconds * 1e3,
                  l.gemm_seconds > 0 ? l.ours_seconds / l.gemm_seconds : 0.0, l.ours_repetitions,
                  l.library_repetitions, lib ? l.algorithm.c_str() : "-");
    os << buf;
    if (!l.note.empty()) os << "  " << l.layer << ": " << l.note << "\n";
  }
  for (const LibCheckTotal& t : r.totals()) {
    std::snprintf(buf, sizeof buf,
                  "total %-6s %4d layers: ours %10.3f ms, lib %10.3f ms, ours/lib %6.2f, "
                  "ours %7.2f TOPS, lib %7.2f TOPS\n",
                  t.library.c_str(), t.layers, t.ours_seconds * 1e3, t.library_seconds * 1e3,
                  t.ratio(), t.ours_tops(), t.library_tops());
    os << buf;
    if (t.gemm_layers > 0) {
      std::snprintf(buf, sizeof buf,
                    "total %-6s %4d layers against cuBLAS's GEMM of the same products: ours "
                    "%10.3f ms, gemm %10.3f ms, ours/gemm %6.2f, ours %7.2f TOPS, gemm %7.2f "
                    "TOPS\n",
                    t.library.c_str(), t.gemm_layers, t.ours_gemm_seconds * 1e3,
                    t.gemm_seconds * 1e3,
                    t.gemm_seconds > 0 ? t.ours_gemm_seconds / t.gemm_seconds : 0.0,
                    tops(t.gemm_macs, t.ours_gemm_seconds), tops(t.gemm_macs, t.gemm_seconds));
      os << buf;
    }
  }
  if (!r.error.empty()) os << "library check: " << r.error << "\n";
  os << (r.passed() ? "library check: PASS\n" : "library check: FAIL\n");
}

}  // namespace gemini::gpu
