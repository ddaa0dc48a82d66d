#pragma once
// The CPU reference: every layer of a network computed from the model file
// alone (never from an IR), with the numerics of docs/numerics.md, on the
// CPU (Eigen; multithreaded). Inputs and constant weights come from the
// counter-based generator, so the reference, the simulator and the CUDA
// backend can each produce any element on their own.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gemini/model/network.h"

namespace gemini::model {

// The requantisation of an op (docs/numerics.md, "The shift rule"): conv,
// FC, average pooling and elementwise add requantise their int32 sums by a
// shift calibrated on those sums for the seeded data: the largest s >= 0
// with mean(sum^2) >= (kTargetStd * 2^s)^2, so the output's RMS lies in
// [kTargetStd, 2 kTargetStd) and seeded data neither saturates nor
// collapses. Max pooling, PTP and transpose pass values through.
struct LayerNumerics {
  bool requantised = false;
  std::int32_t shift = 0;
};
inline constexpr std::int64_t kTargetStd = 16;

// The calibrated shift of `n` sums (exact: integer arithmetic only).
std::int32_t calibrated_shift(const std::int32_t* sums, std::int64_t n);
// The same from the sum of the sums' squares (numerics.h,
// calibrated_shift_from_squares: what a backend reduces where the sums are).

struct Tensor8 {
  Dims4 shape{};
  std::vector<std::int8_t> data;  // dense [N, C, H, W]
  std::int64_t size() const { return shape[0] * shape[1] * shape[2] * shape[3]; }
};

Tensor8 generate_external(const Network& net, std::size_t external, std::uint64_t seed);
// An op's constant weights, [K, C/G, R, S] (FC: [K, C*IH*IW, 1, 1]).
Tensor8 generate_weights(const Op& op, std::uint64_t seed);

struct Reference {
  std::uint64_t seed = 0;
  std::vector<LayerNumerics> numerics;  // per op: the shifts are part of the seeded network
  std::vector<Tensor8> outputs;         // per op
  std::vector<Tensor8> externals;       // per external input
};

// `threads` 0: all hardware threads. `layer_done`, when given, is called
// with each op's index once its output is computed (progress).
using LayerDone = std::function<void(std::int32_t op)>;
Reference compute_reference(const Network& net, std::uint64_t seed, unsigned threads = 0,
                            const LayerDone& layer_done = {});

// The memory compute_reference takes, in bytes: every layer's output and
// every network input (all kept), and the largest working set of one layer
// (its weights, int32 sums and concatenated input); nullopt when the count
// does not fit an int64. `detail` says what dominates.
std::optional<std::int64_t> reference_bytes(const Network& net, std::string* detail = nullptr);

// What an op reads, from the outputs and network inputs `r` holds so far:
// its concatenated input (ReadTensors along C; the one part itself, not a
// copy, when there is one, else built in `scratch`) ...
const Tensor8& op_input(const Op& op, const Reference& r, Tensor8& scratch);
// ... and, for WeightFromFmap ops, its per-sample weights [N, K, C/G, R*S]
// (the weight producers' outputs along K).
Tensor8 fmap_weights(const Op& op, const Reference& r);
// A dense tensor of the given shape, zero.
Tensor8 zero_tensor(const Dims4& shape);

// CRC-32 (zlib's) of a tensor's bytes, as 8 hex digits: the digest in
// index.json and the golden cases; `python3 -c 'import zlib;...'` gives
// the same.
std::string digest(const std::vector<std::int8_t>& data);

// Writes DIR/<op>.int8 per op (raw dense int8, N, C, H, W order),
// DIR/input_<tensor id>.int8 per external input, and DIR/index.json (seed,
// numerics version, per tensor: name, kind, shape, shift, file, digest).
bool write_reference(const Reference& r, const Network& net, const std::string& dir,
                     std::string& error);

}  // namespace gemini::model
