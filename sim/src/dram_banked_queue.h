#pragma once
// The bursts of a `banked` controller queue (dram_banked.cpp): what the
// scheduler keeps of each, and the queue that holds them oldest first.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gemini::sim {

// One burst of a request, in a controller queue.
struct BankedBurst {      // (40 bytes: the queues are scanned every command)
  std::uint64_t req = 0;  // its request's id
  std::int64_t row = 0;
  std::int64_t arrival = 0;  // clocks: in the queue from
  std::uint32_t bank = 0, group = 0;
  std::int32_t bytes = 0;  // at most burst_bytes
  bool write = false, posted = false;
  bool counted = false;  // as a row hit, miss or conflict, at its first command
};

// Bursts oldest first, scanned every command: a vector whose front may be
// taken in O(1) -- an erase moves the shorter side (the oldest burst,
// mostly the one served, costs nothing) -- compacted now and then.
class BankedBursts {
 public:
  std::size_t size() const { return v_.size() - head_; }
  bool empty() const { return size() == 0; }
  const BankedBurst& operator[](std::size_t i) const { return v_[head_ + i]; }
  BankedBurst& operator[](std::size_t i) { return v_[head_ + i]; }
  void push_back(const BankedBurst& b) {
    if (head_ >= 64 && head_ * 2 >= v_.size()) {
      v_.erase(v_.begin(), v_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    v_.push_back(b);
  }
  void erase(std::size_t i) {
    const auto at = v_.begin() + static_cast<std::ptrdiff_t>(head_ + i);
    if (i < size() / 2) {
      std::move_backward(v_.begin() + static_cast<std::ptrdiff_t>(head_), at, at + 1);
      ++head_;
    } else {
      v_.erase(at);
    }
  }
  // How many have arrived by t (arrivals never decrease), and the first
  // arrival after t.
  std::size_t arrived(std::int64_t t, std::int64_t& next) const {
    const auto it =
        std::upper_bound(v_.begin() + static_cast<std::ptrdiff_t>(head_), v_.end(), t,
                         [](std::int64_t x, const BankedBurst& b) { return x < b.arrival; });
    if (it != v_.end()) next = std::min(next, it->arrival);
    return static_cast<std::size_t>(it - v_.begin()) - head_;
  }

 private:
  std::vector<BankedBurst> v_;
  std::size_t head_ = 0;
};

}  // namespace gemini::sim
