#pragma once
// Statistics of computed tensors: multiply-accumulates per op (for rates)
// and the value distribution of an int8 output (saturation, distinct
// values: the check that the shift rule neither saturates nor collapses).

#include <cstdint>
#include <vector>

#include "gemini/model/network.h"

namespace gemini::model {

// Multiply-accumulates of an op (conv / FC: output elements x C/G x R x S;
// others 0) and of the whole network.
std::int64_t op_macs(const Op& op);
std::int64_t network_macs(const Network& net);

struct ValueStats {
  std::int64_t count = 0, saturated = 0;  // saturated: -128 or 127
  std::int32_t distinct = 0;
  double saturated_fraction() const {
    return count > 0 ? static_cast<double>(saturated) / static_cast<double>(count) : 0;
  }
};
ValueStats value_stats(const std::vector<std::int8_t>& data);

}  // namespace gemini::model
