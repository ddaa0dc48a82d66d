#pragma once
// A distribution of non-negative integer samples (a latency in ps, a queue's
// occupancy): what gem5 calls a Distribution, kept so that a unit records a
// sample on its hot path with a few integer operations and no allocation
// once its range is reached, and so that the distributions of a kind's
// units merge exactly (stat_snapshot.h, sum_by_kind).
//
// Contract: count, sum, min and max are exact; so is the mean (sum /
// count). The samples are binned log-linearly: values below 16 each in a
// bucket of their own, above that every power of two [2^e, 2^(e+1)) in 16
// equal buckets, so a bucket is at most 1/16 of its lower bound wide.
// percentile(p) is the lower bound of the bucket that holds the sample of
// rank ceil(p * count), clamped to [min, max] (the last rank: the maximum):
// exact below 16 and for the extremes, otherwise at most 6.25% below the
// true sample. Header-only, on the standard library: the sweep and the
// reports include it.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace gemini::sim {

class Distribution {
 public:
  static constexpr int kSubBits = 4;  // 16 buckets per power of two
  static constexpr std::uint64_t kLinear = std::uint64_t{1} << kSubBits;

  // One sample; a negative one counts as 0 (a model reporting ahead of a
  // request's arrival never makes a latency negative, but a bin must exist).
  void add(std::int64_t value) {
    const auto v = static_cast<std::uint64_t>(value < 0 ? 0 : value);
    const std::size_t b = bucket_of(v);
    if (b >= buckets_.size()) buckets_.resize(b + 1, 0);
    ++buckets_[b];
    if (count_ == 0 || v < min_) min_ = v;
    if (v > max_) max_ = v;
    ++count_;
    sum_ += v;
  }
  // Adds every sample of `o` (the same as adding them one by one).
  void merge(const Distribution& o) {
    if (o.count_ == 0) return;
    if (o.buckets_.size() > buckets_.size()) buckets_.resize(o.buckets_.size(), 0);
    for (std::size_t i = 0; i < o.buckets_.size(); ++i) buckets_[i] += o.buckets_[i];
    min_ = count_ == 0 ? o.min_ : std::min(min_, o.min_);
    max_ = std::max(max_, o.max_);
    count_ += o.count_;
    sum_ += o.sum_;
  }

  std::int64_t count() const { return static_cast<std::int64_t>(count_); }
  std::int64_t sum() const { return static_cast<std::int64_t>(sum_); }
  std::int64_t min() const { return static_cast<std::int64_t>(min_); }
  std::int64_t max() const { return static_cast<std::int64_t>(max_); }
  double mean() const {
    return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0;
  }
  // See above; 0 when there is no sample. p in [0, 1].
  std::int64_t percentile(double p) const {
    if (count_ == 0) return 0;
    const double want = std::ceil(std::clamp(p, 0.0, 1.0) * static_cast<double>(count_));
    const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(want));
    if (rank >= count_) return static_cast<std::int64_t>(max_);
    std::uint64_t seen = 0;
    for (std::size_t b = 0; b < buckets_.size(); ++b) {
      seen += buckets_[b];
      if (seen >= rank) return static_cast<std::int64_t>(std::clamp(lower_bound(b), min_, max_));
    }
    return static_cast<std::int64_t>(max_);
  }
  // The non-empty buckets: (lower bound, samples), in order.
  std::vector<std::pair<std::int64_t, std::int64_t>> buckets() const {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (std::size_t b = 0; b < buckets_.size(); ++b)
      if (buckets_[b] > 0)
        out.emplace_back(static_cast<std::int64_t>(lower_bound(b)),
                         static_cast<std::int64_t>(buckets_[b]));
    return out;
  }

  // The bucket of value v, and the smallest value of bucket b.
  static std::size_t bucket_of(std::uint64_t v) {
    if (v < kLinear) return static_cast<std::size_t>(v);
    const int e = std::bit_width(v) - 1;  // 2^e <= v < 2^(e+1), e >= kSubBits
    const std::uint64_t sub = (v >> (e - kSubBits)) & (kLinear - 1);
    return static_cast<std::size_t>(kLinear + static_cast<std::uint64_t>(e - kSubBits) * kLinear +
                                    sub);
  }
  static std::uint64_t lower_bound(std::size_t b) {
    if (b < kLinear) return b;
    const std::uint64_t e = (b - kLinear) / kLinear + kSubBits;
    const std::uint64_t sub = (b - kLinear) % kLinear;
    return (std::uint64_t{1} << e) + (sub << (e - kSubBits));
  }

 private:
  std::vector<std::uint64_t> buckets_;
  std::uint64_t count_ = 0, sum_ = 0, min_ = 0, max_ = 0;
};

}  // namespace gemini::sim
