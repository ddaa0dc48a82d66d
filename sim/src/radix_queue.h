#pragma once
// A monotone priority queue of (time, value): a radix heap. Every time
// pushed is at or after the time last popped (a discrete-event model's
// clock never goes back); the earliest time is popped first, the values of
// one time in no particular order. push() is O(1); pop() amortised
// O(log2 of the times' span), moving each value at most once per bit of
// it -- against a binary heap's O(log n) swaps of every push and pop.
//
// Contract: pushing a time before the last popped is an internal error
// (the process aborts with a message: never a silent misorder).

#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "gemini/sim/dram_model.h"  // Tick

namespace gemini::sim {

template <class T>
class RadixQueue {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // The earliest time queued (not empty).
  Tick top_time() const {
    if (!buckets_[0].empty()) return last_;
    if (min_ < 0) {  // the first bucket that holds any holds the earliest
      const std::size_t i = first_held();
      Tick m = buckets_[i].front().first;
      for (const auto& e : buckets_[i]) m = e.first < m ? e.first : m;
      min_ = m;
    }
    return min_;
  }
  void push(Tick t, T v) {
    if (t < last_) [[unlikely]]
      queued_before(t, last_);
    const std::size_t b = bucket(t);
    buckets_[b].emplace_back(t, std::move(v));
    held_ |= held_bit(b);
    if (b != 0 && min_ >= 0 && t < min_) min_ = t;  // (min_ is of the buckets past 0)
    ++size_;
  }
  // The internal error of a time queued before the last popped.
  [[noreturn]] static void queued_before(Tick t, Tick last) {
    std::fprintf(stderr, "gemini: internal error: an event at %lld ps queued after %lld ps\n",
                 static_cast<long long>(t), static_cast<long long>(last));
    std::abort();
  }
  // Takes a value of the earliest time (not empty).
  T pop() {
    if (buckets_[0].empty()) refill();
    T v = std::move(buckets_[0].back().second);
    buckets_[0].pop_back();
    --size_;
    return v;
  }

 private:
  // By the highest bit where t differs from the last time popped.
  // Buckets 1-64 that hold values: a bit each (bucket 0's is not kept).
  static std::uint64_t held_bit(std::size_t b) { return b != 0 ? std::uint64_t{1} << (b - 1) : 0; }
  std::size_t first_held() const { return static_cast<std::size_t>(std::countr_zero(held_)) + 1; }
  std::size_t bucket(Tick t) const {
    return t == last_
               ? 0
               : 64 - static_cast<std::size_t>(std::countl_zero(static_cast<std::uint64_t>(t) ^
                                                                static_cast<std::uint64_t>(last_)));
  }
  // The earliest time becomes the last popped: its bucket's values move
  // down, those of that time into bucket 0.
  void refill() {
    const Tick m = top_time();
    const std::size_t i = first_held();
    last_ = m;
    min_ = -1;
    std::vector<std::pair<Tick, T>> moving;
    moving.swap(buckets_[i]);
    held_ &= ~held_bit(i);
    for (auto& e : moving) {
      const std::size_t b = bucket(e.first);
      buckets_[b].push_back(std::move(e));
      held_ |= held_bit(b);
    }
    moving.clear();
    buckets_[i].swap(moving);  // its capacity, for the next
  }

  std::array<std::vector<std::pair<Tick, T>>, 65> buckets_;
  std::uint64_t held_ = 0;
  Tick last_ = 0;
  mutable Tick min_ = -1;  // top_time() when bucket 0 is empty (-1: not known)
  std::size_t size_ = 0;
};

}  // namespace gemini::sim
