#pragma once
// The bursts of a `banked` controller queue (dram_banked.cpp): what the
// scheduler keeps of each, and the queue that holds them oldest first.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gemini::sim {

// One burst of a request, in a controller queue.
struct BankedBurst {      // (40 bytes)
  std::uint64_t req = 0;  // its request's id
  std::int64_t row = 0;
  std::int64_t arrival = 0;  // clocks: in the queue from
  std::uint32_t bank = 0, group = 0;
  std::int32_t bytes = 0;  // at most burst_bytes
  bool write = false, posted = false;
  bool counted = false;  // as a row hit, miss or conflict, at its first command
};

// Bursts oldest first: a vector whose front may be taken in O(1) -- an
// erase moves the shorter side (the oldest burst, mostly the one served,
// costs nothing) -- compacted now and then.
//
// Over them it keeps their classes, oldest first by their oldest burst: a
// class is the bursts of one bank, row and direction, which once arrived
// have the same next command at the same clock, so that the scheduler,
// choosing the oldest of the first ready, looks at each class's oldest
// burst only -- at each command it scans the classes, not the bursts (a
// served queue of 32 bursts holds about 10 classes on a DDR4 schedule, 2 on
// LPDDR5). Indices are of the bursts, oldest 0; an erase moves the younger
// ones down by one.
class BankedBursts {
 public:
  // The scheduler's memo of a class's next command (dram_banked.cpp).
  struct Memo {
    std::uint64_t stamp = 0;  // of the channel state it holds for (0: none)
    std::int64_t at = 0;
    std::uint8_t cmd = 0, slot = 0;
  };
  struct Class {
    std::int64_t row = 0;
    std::uint32_t bank = 0, group = 0;
    std::uint32_t first = 0, count = 0;  // its oldest burst's index; its bursts
    bool write = false;
    mutable Memo memo;

    bool has(const BankedBurst& b) const {
      return (row == b.row) & (bank == b.bank) & (write == b.write);
    }
  };

  std::size_t size() const { return v_.size() - head_; }
  bool empty() const { return size() == 0; }
  const BankedBurst& operator[](std::size_t i) const { return v_[head_ + i]; }
  BankedBurst& operator[](std::size_t i) { return v_[head_ + i]; }
  // The classes, by their oldest burst, oldest first.
  const std::vector<Class>& classes() const { return classes_; }

  // Appends a burst that fill(BankedBurst&) writes in place (built
  // elsewhere and copied, its narrow fields' stores would stall the copy's
  // wide loads).
  // Whether it made a new class (the last of classes()).
  template <class Fill>
  bool push_back(Fill fill) {
    if (head_ >= 64 && head_ * 2 >= v_.size()) {
      v_.erase(v_.begin(), v_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    const auto i = static_cast<std::uint32_t>(size());
    fill(v_.emplace_back());
    const BankedBurst& b = v_.back();
    for (Class& c : classes_)
      if (c.has(b)) {
        ++c.count;
        return false;
      }
    Class c;
    c.row = b.row;
    c.bank = b.bank;
    c.group = b.group;
    c.write = b.write;
    c.first = i;
    c.count = 1;
    classes_.push_back(c);
    return true;
  }
  // Erases burst i; its class's next burst, if any, then stands for it.
  void erase(std::size_t i) {
    remove(i);
    const auto at = static_cast<std::uint32_t>(i);
    std::size_t k = classes_.size();
    for (std::size_t j = 0; j < classes_.size(); ++j) {
      Class& c = classes_[j];
      if (c.first == at) k = j;
      c.first -= c.first > at ? 1 : 0;
    }
    if (k == classes_.size()) {  // not a class's oldest: its class is older
      for (Class& c : classes_)
        if (c.first < at && c.has(erased_)) --c.count;
      return;
    }
    if (--classes_[k].count == 0) {
      classes_.erase(classes_.begin() + static_cast<std::ptrdiff_t>(k));
      return;
    }
    std::uint32_t next = at;  // its next burst: younger, at or after i now
    while (!classes_[k].has((*this)[next])) ++next;
    classes_[k].first = next;
    for (; k + 1 < classes_.size() && classes_[k + 1].first < next; ++k)
      std::swap(classes_[k], classes_[k + 1]);
  }
  // How many have arrived by t (arrivals never decrease), and the first
  // arrival after t.
  std::size_t arrived(std::int64_t t, std::int64_t& next) const {
    if (v_.size() == head_ || v_.back().arrival <= t) return size();  // mostly: all
    const auto it =
        std::upper_bound(v_.begin() + static_cast<std::ptrdiff_t>(head_), v_.end(), t,
                         [](std::int64_t x, const BankedBurst& b) { return x < b.arrival; });
    if (it != v_.end()) next = std::min(next, it->arrival);
    return static_cast<std::size_t>(it - v_.begin()) - head_;
  }

 private:
  // Takes burst i out, keeping its class's key in erased_.
  void remove(std::size_t i) {
    const auto at = v_.begin() + static_cast<std::ptrdiff_t>(head_ + i);
    erased_.row = at->row;
    erased_.bank = at->bank;
    erased_.write = at->write;
    if (i < size() / 2) {
      std::move_backward(v_.begin() + static_cast<std::ptrdiff_t>(head_), at, at + 1);
      ++head_;
    } else {
      v_.erase(at);
    }
  }

  std::vector<BankedBurst> v_;
  std::size_t head_ = 0;
  std::vector<Class> classes_;  // by first, oldest first
  BankedBurst erased_;          // the last erased burst's class
};

}  // namespace gemini::sim
