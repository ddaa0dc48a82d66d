#pragma once
// A monotone priority queue of (time, value) for a model whose events fall
// at a few fixed delays after the event that queues them (a router cycle, a
// packet's serialisation): a handful of runs, each a FIFO whose times never
// decrease, and a radix heap (radix_queue.h) for what fits no run. A time
// is appended to the run whose last time is the latest at or before it, so
// that each delay keeps a run of its own; pop() takes the earliest of the
// runs' fronts and the heap's top. push() and pop() are O(runs), against
// the radix heap's moving of every value once per bit of its time's span.
//
// Contract: as RadixQueue's -- every time pushed is at or after the time
// last popped (pushing an earlier one is an internal error: the process
// aborts with a message); the earliest time is popped first, the values of
// one time in no particular order.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "radix_queue.h"

namespace gemini::sim {

template <class T>
class RunQueue {
 public:
  static constexpr std::size_t kRuns = 4;

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // The earliest time queued (not empty).
  Tick top_time() const { return top_; }

  void push(Tick t, T v) {
    if (t < last_) [[unlikely]]
      RadixQueue<T>::queued_before(t, last_);
    // The run whose last time is the latest at or before t (an empty one's
    // is -1: taken when no other fits), else the heap.
    std::size_t best = kRuns;
    Tick best_back = -2;
    for (std::size_t i = 0; i < kRuns; ++i)
      if (back_[i] <= t && back_[i] > best_back) {
        best_back = back_[i];
        best = i;
      }
    if (best == kRuns) {
      heap_.push(t, std::move(v));
      heap_top_ = std::min(heap_top_, t);
    } else {
      runs_[best].items.emplace_back(t, std::move(v));
      back_[best] = t;
      if (best_back < 0) front_[best] = t;
    }
    if (size_ == 0 || t < top_) top_ = t;
    ++size_;
  }

  // Takes a value of the earliest time (not empty).
  T pop() {
    std::size_t from = kRuns;
    for (std::size_t i = 0; i < kRuns; ++i)
      if (front_[i] == top_) {
        from = i;
        break;
      }
    T v;
    if (from == kRuns) {
      v = heap_.pop();
      heap_top_ = heap_.empty() ? kNoTime : heap_.top_time();
    } else {
      Run& r = runs_[from];
      v = std::move(r.items[r.head].second);
      if (++r.head == r.items.size()) {
        r.items.clear();
        r.head = 0;
        front_[from] = kNoTime;
        back_[from] = -1;
      } else {
        front_[from] = r.items[r.head].first;
        if (r.head >= 4096 && r.head * 2 >= r.items.size()) {  // the front's space again
          r.items.erase(r.items.begin(), r.items.begin() + static_cast<std::ptrdiff_t>(r.head));
          r.head = 0;
        }
      }
    }
    last_ = top_;
    --size_;
    Tick m = heap_top_;
    for (std::size_t i = 0; i < kRuns; ++i) m = std::min(m, front_[i]);
    top_ = m;
    return v;
  }

 private:
  static constexpr Tick kNoTime = std::numeric_limits<Tick>::max();
  struct Run {
    std::vector<std::pair<Tick, T>> items;
    std::size_t head = 0;  // items before it are popped
  };

  // Per run: the times of its first and last values (kNoTime and -1 when
  // it is empty), kept apart from the values so that a push or a pop reads
  // one cache line of them.
  std::array<Tick, kRuns> front_ = filled(kNoTime), back_ = filled(-1);
  std::array<Run, kRuns> runs_;
  RadixQueue<T> heap_;
  Tick heap_top_ = kNoTime;
  Tick top_ = 0;   // the earliest time queued (when not empty)
  Tick last_ = 0;  // the last time popped
  std::size_t size_ = 0;

  static constexpr std::array<Tick, kRuns> filled(Tick t) {
    std::array<Tick, kRuns> a{};
    a.fill(t);
    return a;
  }
};

}  // namespace gemini::sim
