#include "host_memory.h"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "gemini/ir/parallel.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gemini::gpu {

void prefault_host_memory(std::int64_t bytes) {
#if defined(__GLIBC__)
  constexpr std::int64_t kBlock = std::int64_t{16} << 20;  // under malloc's largest mmap threshold
  constexpr std::int64_t kMost = std::int64_t{1} << 30;    // under M_TRIM_THRESHOLD (an int)
  if (bytes < (std::int64_t{64} << 20)) return;
  if (bytes > kMost) bytes = kMost;
  if (mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1 || mallopt(M_TRIM_THRESHOLD, INT_MAX) != 1) return;
  std::vector<void*> blocks;
  for (std::int64_t got = 0; got < bytes; got += kBlock) {
    void* p = std::malloc(static_cast<std::size_t>(kBlock));
    if (!p) break;
    blocks.push_back(p);
  }
  ir::parallel_for(blocks.size(), [&](std::size_t i) {
    std::memset(blocks[i], 0, static_cast<std::size_t>(kBlock));
  });
  for (void* p : blocks) std::free(p);
#else
  (void)bytes;
#endif
}

}  // namespace gemini::gpu
