#include "cpu_backend.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "gemini/ir/parallel.h"
#include "gemini/model/reference.h"

namespace gemini::gpu {
namespace {

class CpuBackend final : public Backend {
 public:
  const char* name() const override { return "cpu"; }
  std::string device() const override {
    return "host, " +
           std::to_string(std::max(1u, std::min(8u, std::thread::hardware_concurrency()))) +
           " thread(s)";
  }
  void* allocate(std::size_t bytes) override {
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (!p) error_ = "out of host memory";
    return p;
  }
  void release(void* p) override { std::free(p); }
  bool upload(void* dst, const void* src, std::size_t bytes) override {
    if (bytes) std::memcpy(dst, src, bytes);
    return true;
  }
  bool download(void* dst, const void* src, std::size_t bytes) override {
    if (bytes) std::memcpy(dst, src, bytes);
    return true;
  }
  bool copy(void* dst, const void* src, std::size_t bytes) override {
    if (bytes) std::memmove(dst, src, bytes);
    return true;
  }
  double last_run_seconds() const override { return last_seconds_; }
  bool finish_layer(const std::int32_t* values, std::int64_t n, bool requantise,
                    std::int32_t& shift, std::int8_t* out) override {
    shift = requantise ? model::calibrated_shift(values, n) : 0;
    for (std::int64_t i = 0; i < n; ++i)
      out[i] =
          requantise ? model::requantize(values[i], shift) : static_cast<std::int8_t>(values[i]);
    return true;
  }
  bool generate(std::int8_t* dst, std::int64_t n, std::uint64_t base,
                std::uint64_t first) override {
    constexpr std::int64_t kChunk = 1 << 20;
    const auto chunks = static_cast<std::size_t>((n + kChunk - 1) / kChunk);
    ir::parallel_for(chunks, [&](std::size_t c) {
      const std::int64_t b = static_cast<std::int64_t>(c) * kChunk, e = std::min(n, b + kChunk);
      for (std::int64_t i = b; i < e; ++i)
        dst[i] = model::generate_at(base, first + static_cast<std::uint64_t>(i));
    });
    return true;
  }
  // Work is cut into chunks of elements across all ops, so one large op
  // and many small ones both spread over the threads.
  bool run(const model::TileOp* ops, std::size_t count, const std::int64_t* offsets,
           std::int32_t* out) override {
    const auto t0 = std::chrono::steady_clock::now();
    constexpr std::int64_t kChunk = 4096;
    struct Piece {
      std::size_t op;
      std::int64_t begin, end;
    };
    std::vector<Piece> pieces;
    for (std::size_t i = 0; i < count; ++i) {
      const std::int64_t n = ops[i].elements();
      for (std::int64_t b = 0; b < n; b += kChunk)
        pieces.push_back({i, b, std::min(n, b + kChunk)});
    }
    ir::parallel_for(pieces.size(), [&](std::size_t k) {
      const Piece& p = pieces[k];
      const model::TileOp& op = ops[p.op];
      std::int32_t* dst = out + offsets[p.op];
      for (std::int64_t e = p.begin; e < p.end; ++e) dst[e] = model::tile_element(op, e);
    });
    last_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return true;
  }

 private:
  double last_seconds_ = -1;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace gemini::gpu
