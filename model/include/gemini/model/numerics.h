#pragma once
// The numbers every backend computes with (docs/numerics.md): int8
// activations and weights, int32 accumulation, requantisation to int8 by a
// per-layer right shift with round-half-up and saturation, and a
// counter-based generator for inputs and constant weights, so that any
// backend can produce any element on its own.
//
// Everything in this header is GEMINI_HD: compiled by the CPU build and by
// nvcc alike.

#include <cstdint>

#include "gemini/ir/hd.h"

namespace gemini::model {

// ---- The generator -------------------------------------------------------
// Element `index` (flat, row-major over the tensor's shape) of the tensor
// `key` under `seed` is the top byte of the (index+1)-th output of a
// SplitMix64 stream whose state starts at mix64(seed ^ mix64(key)):
//   base  = mix64(seed ^ mix64(key))
//   value = int8(mix64(base + (index + 1) * 0x9E3779B97F4A7C15) >> 56)
// uniform over [-128, 127].

GEMINI_HD inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// What a generated tensor is: the network's external inputs (by the model
// file's tensor id) and the constant weights of an op (by its node id).
enum class DataKind : std::uint32_t { input = 1, weight = 2 };

GEMINI_HD inline std::uint64_t tensor_key(DataKind kind, std::uint64_t id) {
  return (static_cast<std::uint64_t>(kind) << 32) | (id & 0xFFFFFFFFULL);
}

GEMINI_HD inline std::uint64_t stream_base(std::uint64_t seed, std::uint64_t key) {
  return mix64(seed ^ mix64(key));
}

GEMINI_HD inline std::int8_t generate_at(std::uint64_t base, std::uint64_t index) {
  const std::uint64_t z = mix64(base + (index + 1) * 0x9E3779B97F4A7C15ULL);
  return static_cast<std::int8_t>(static_cast<std::uint8_t>(z >> 56));
}

GEMINI_HD inline std::int8_t generate(std::uint64_t seed, std::uint64_t key, std::uint64_t index) {
  return generate_at(stream_base(seed, key), index);
}

// ---- Requantisation ------------------------------------------------------
// int32 (or a wider sum) -> int8: shift right by `shift` rounding half up
// (floor(v / 2^shift + 1/2)), then saturate to [-128, 127].

GEMINI_HD inline std::int8_t saturate8(std::int64_t v) {
  return static_cast<std::int8_t>(v < -128 ? -128 : v > 127 ? 127 : v);
}

GEMINI_HD inline std::int8_t requantize(std::int64_t acc, std::int32_t shift) {
  if (shift > 0) acc = (acc + (std::int64_t{1} << (shift - 1))) >> shift;  // arithmetic shift
  return saturate8(acc);
}

// The calibrated shift of n sums (reference.h, calibrated_shift) from the
// sum of their squares, high * 2^64 + low: for a backend that reduces the
// squares where the sums are. Host code (numerics.cpp).
std::int32_t calibrated_shift_from_squares(std::uint64_t high, std::uint64_t low, std::int64_t n);

}  // namespace gemini::model
