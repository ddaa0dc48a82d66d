#pragma once
// gemini xcheck: the tile operations the simulator's functional PE and VP
// compute -- every one, or a seeded sample of N -- recomputed on a
// reference backend (backend.h) from the very inputs the units read, and
// compared bit for bit: the convolution sums of each pe_run (before
// requantisation), the requantisation that ends each pe_run chain, each
// vp_run's pooling, addition, transpose or copy.
//
// The simulator computes with the CPU's fast whole-tile kernels
// (model/cpu_kernels.h: im2col and a float32 GEMM, exact by construction);
// the backends compute every element through model::tile_element, the
// per-element definitions: two independent implementations of
// docs/numerics.md, on the tiles, strides, paddings and groups a real
// schedule produces.

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "gemini/assembler/lowering.h"
#include "gemini/gpu/backend.h"
#include "gemini/gpu/tile_batch.h"
#include "gemini/model/network.h"
#include "gemini/sim/tile_hook.h"

namespace gemini::gpu {

struct XCheckOptions {
  std::size_t sample = 0;                           // 0: every tile operation
  std::uint64_t seed = 1;                           // of the sample
  std::size_t batch_bytes = std::size_t{64} << 20;  // data copied before a backend run
};

inline constexpr std::size_t kTileKinds = 7;

struct XKindStats {
  std::int64_t ops = 0, mismatching_ops = 0, elements = 0;
  std::int32_t max_abs_diff = 0;
  double simulator_seconds = 0, backend_seconds = 0;
};

struct XMismatch {
  model::TileKind kind = model::TileKind::conv;
  sim::TileSite site;
  std::string layer;
  std::int32_t n = 0, c = 0, h = 0, w = 0;  // the layer's output coordinates
  std::int32_t simulator = 0, backend = 0;
};

struct XCheckReport {
  std::string backend, device;
  std::int64_t candidates = 0;  // tile operations of the program
  std::array<XKindStats, kTileKinds> kinds{};
  std::optional<XMismatch> first;
  std::string error;  // the backend failed (then nothing after it was checked)
  std::int64_t ops() const;
  std::int64_t mismatching_ops() const;
  bool passed() const { return error.empty() && mismatching_ops() == 0 && ops() > 0; }
};

class XCheck final : public sim::TileHook {
 public:
  XCheck(Backend& backend, const assembler::Program& program, const model::Network& net,
         const XCheckOptions& options);

  bool wants(const sim::TileSite& site, model::TileKind kind) override;
  void seen(const model::TileOp& op, const sim::TileSite& site, const void* result,
            double seconds) override;
  // Computes and compares what is still batched.
  XCheckReport finish();

 private:
  struct Pending {
    sim::TileSite site;
    std::int64_t expected = 0;  // into expected_
  };
  struct Queue {
    TileBatch batch;
    std::vector<Pending> pending;
    std::vector<std::int32_t> expected;
  };
  static std::uint64_t key(std::int32_t core, std::uint32_t instr, model::TileKind kind);
  void flush(std::size_t kind);

  Backend& backend_;
  const model::Network& net_;
  XCheckOptions options_;
  std::unordered_set<std::uint64_t> sample_;  // keys, when sampling
  std::array<Queue, kTileKinds> queues_;
  XCheckReport report_;
  std::vector<std::int32_t> got_;  // the backend's results of a batch, reused
};

void print_xcheck(std::ostream& os, const XCheckReport& r);
std::string xcheck_json(const XCheckReport& r);

}  // namespace gemini::gpu
