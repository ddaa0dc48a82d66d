#pragma once
// Items put in buckets by a small integer key, each bucket in the order its
// items were produced: how the lowering and the verifier hand data from one
// core to another without sharing writes between threads. Internal to the
// assembler library.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gemini::assembler::detail {

// Items in buckets by a key in [0, n), each bucket in the order the items
// were produced (a counting sort): bucket k is of(k). A stage that hands
// items from one core to another buckets them by receiving core on the
// sending core's thread; each core then reads its bucket of every core's.
template <typename T>
struct Buckets {
  std::vector<T> items;
  std::vector<std::uint32_t> first;  // items[first[k] .. first[k + 1]) are bucket k
  std::span<const T> of(std::size_t k) const {
    return {items.data() + first[k], items.data() + first[k + 1]};
  }
};

// The buckets of what `each` produces: each(put) calls put(key, item) for
// every item, the same way both times it is called (once to count, once to
// place).
template <typename T, typename Each>
Buckets<T> bucket(std::size_t n, const Each& each) {
  Buckets<T> out;
  out.first.assign(n + 1, 0);
  each([&](std::size_t k, const T&) { ++out.first[k + 1]; });
  for (std::size_t k = 0; k < n; ++k) out.first[k + 1] += out.first[k];
  out.items.resize(out.first[n]);
  std::vector<std::uint32_t> fill(out.first.begin(), out.first.end() - 1);
  each([&](std::size_t k, const T& x) { out.items[fill[k]++] = x; });
  return out;
}

}  // namespace gemini::assembler::detail
