#pragma once
// parallel_for(n, fn): calls fn(i) for every i in [0, n), spread over up to
// eight threads (the calling one included), each taking the next index
// until none is left; returns when all calls have returned. fn(i) must only
// write what belongs to index i, so the result does not depend on the
// number of threads or the interleaving.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace gemini::ir {

template <typename Fn>
void parallel_for(std::size_t n, Fn&& fn) {
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < n; i = next++) fn(i);
  };
  const std::size_t hw = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads = std::min<std::size_t>({hw, 8, n});
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

}  // namespace gemini::ir
