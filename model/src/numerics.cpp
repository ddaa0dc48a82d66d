// The shift rule (docs/numerics.md): a requantising layer's shift is
// calibrated on its own exact sums for the seeded data -- the largest
// s >= 0 with mean(sum^2) >= (kTargetStd * 2^s)^2 -- so the output's RMS
// lands in [kTargetStd, 2 kTargetStd). Integer arithmetic only: the same
// shift on every machine and in every backend.
#include "gemini/model/numerics.h"

#include "gemini/model/reference.h"

namespace gemini::model {
namespace {
// Exact sums of squares of up to 2^31 int32 values (GCC/Clang extension).
__extension__ using U128 = unsigned __int128;
}  // namespace

std::int32_t calibrated_shift(const std::int32_t* sums, std::int64_t n) {
  if (n <= 0) return 0;
  U128 sq = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t v = sums[i];
    const auto a = static_cast<std::uint64_t>(v < 0 ? -v : v);  // |int32| fits
    sq += static_cast<U128>(a) * a;
  }
  return calibrated_shift_from_squares(static_cast<std::uint64_t>(sq >> 64),
                                       static_cast<std::uint64_t>(sq), n);
}

std::int32_t calibrated_shift_from_squares(std::uint64_t high, std::uint64_t low, std::int64_t n) {
  if (n <= 0) return 0;
  const U128 sq = static_cast<U128>(high) << 64 | low;
  const U128 t = kTargetStd;
  U128 bound = t * t * static_cast<U128>(n) * 4;
  std::int32_t s = 0;
  while (s < 31 && sq >= bound) {
    bound *= 4;
    ++s;
  }
  return s;
}

}  // namespace gemini::model
