#include "gemini/gpu/libcheck.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <ostream>

#include "gemini/gpu/library_layout.h"
#include "gemini/model/cpu_kernels.h"
#include "gemini/model/layer_params.h"
#include "library_calls.h"

namespace gemini::gpu {
namespace {

// A float holds an int32 sum exactly below 2^24; above, the library's one
// rounding of the exact sum is float(v).
bool same(std::int32_t v, float f) { return static_cast<float>(v) == f; }

}  // namespace

bool LibCheckReport::passed() const {
  if (!error.empty() || layers.empty()) return false;
  for (const LibCheckLayer& l : layers)
    if (l.ours_vs_cpu > 0 || l.library_vs_cpu > 0) return false;
  return true;
}

LibCheckReport library_check(const model::Network& net, const model::Reference& ref,
                             std::uint64_t seed, Backend& cuda) {
  LibCheckReport r;
  r.device = cuda.device();
  std::string why_dnn, why_blas;
  const bool dnn = cudnn_available(why_dnn), blas = cublas_available(why_blas);
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
    // Ours, on the GPU.
    Buffer din(cuda, in.data.size()), dw(cuda, w.size()),
        dout(cuda, static_cast<std::size_t>(l.elements) * sizeof(std::int32_t));
    std::vector<std::int32_t> ours(cpu.size());
    model::TileOp t;
    t.kind = model::TileKind::conv;
    t.conv = p;
    t.out = out;
    const std::int64_t zero = 0;
    bool ok = din.ok() && dw.ok() && dout.ok() &&
              cuda.upload(din.as<void>(), in.data.data(), in.data.size()) &&
              cuda.upload(dw.as<void>(), w.data(), w.size());
    if (ok) {
      t.in[0] = {din.as<std::int8_t>(), model::whole_box(in.shape)};
      t.weights = {dw.as<std::int8_t>(), wb};
      const auto t0 = std::chrono::steady_clock::now();
      ok = cuda.run(&t, 1, &zero, dout.as<std::int32_t>());
      l.ours_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ok = ok && cuda.download(ours.data(), dout.as<void>(), ours.size() * sizeof(std::int32_t));
    }
    if (!ok) {
      r.error = cuda.error();
      return r;
    }
    for (std::size_t k = 0; k < cpu.size(); ++k) l.ours_vs_cpu += ours[k] != cpu[k];
    // The library.
    std::vector<std::int32_t> lib;
    std::vector<float> libf;
    const bool gemm =
        op.type == model::OpType::fully_connected ||
        (p.per_sample && p.kernel_r == 1 && p.kernel_s == 1 && op.ofmap_shape[3] == 1);
    bool ran = false;
    if (gemm) {
      if (!blas) {
        l.note = why_blas;
      } else {
        const GemmLayout g = gemm_layout(op, p, in, w);
        std::vector<std::int32_t> c(static_cast<std::size_t>(g.shape.batch) * g.shape.m *
                                    g.shape.n);
        ran = cublas_gemm(g.shape, g.a.data(), g.b.data(), c.data(), l.library_seconds, l.note);
        if (ran) lib = gemm_result(op, p, g.shape, c);
        l.library = "cuBLAS";
      }
    } else if (op.groups == 1 && (!p.per_sample || op.ofmap_shape[0] == 1)) {
      if (!dnn) {
        l.note = why_dnn;
      } else {
        const ConvLayout c = conv_layout(op, p, in, w);
        std::vector<float> y(static_cast<std::size_t>(c.shape.n) * c.shape.out_h() *
                             c.shape.out_w() * c.shape.k);
        ran = cudnn_conv(c.shape, c.x.data(), c.w.data(), y.data(), l.library_seconds, l.note);
        if (ran) libf = conv_result(op, c.shape, y);
        l.library = "cuDNN";
      }
    } else {
      l.note = "neither library expresses this grouped convolution; the CPU reference judges";
    }
    if (ran) {
      for (std::size_t k = 0; k < cpu.size(); ++k)
        l.library_vs_cpu += libf.empty() ? lib[k] != cpu[k] : !same(cpu[k], libf[k]);
    } else {
      l.library.clear();
    }
    r.layers.push_back(std::move(l));
  }
  return r;
}

void print_library_check(std::ostream& os, const LibCheckReport& r) {
  char buf[320];
  os << "library check on " << r.device << ": int32 sums before requantisation\n";
  std::snprintf(buf, sizeof buf, "%-22s %-7s %12s %9s %9s %10s %10s %9s %9s\n", "layer", "library",
                "sums", "ours!=cpu", "lib!=cpu", "ours ms", "lib ms", "ours TOPS", "lib TOPS");
  os << buf;
  for (const LibCheckLayer& l : r.layers) {
    const double ot = l.ours_seconds > 0 ? 2.0 * l.macs / l.ours_seconds / 1e12 : 0;
    const double lt = l.library_seconds > 0 ? 2.0 * l.macs / l.library_seconds / 1e12 : 0;
    std::snprintf(buf, sizeof buf,
                  "%-22s %-7s %12" PRId64 " %9" PRId64 " %9" PRId64 " %10.3f %10.3f %9.2f %9.2f\n",
                  l.layer.c_str(), l.library.empty() ? "-" : l.library.c_str(), l.elements,
                  l.ours_vs_cpu, l.library.empty() ? 0 : l.library_vs_cpu, l.ours_seconds * 1e3,
                  l.library_seconds * 1e3, ot, lt);
    os << buf;
    if (!l.note.empty()) os << "  " << l.layer << ": " << l.note << "\n";
  }
  if (!r.error.empty()) os << "library check: " << r.error << "\n";
  os << (r.passed() ? "library check: PASS\n" : "library check: FAIL\n");
}

}  // namespace gemini::gpu
