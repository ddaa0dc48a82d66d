#pragma once
// Host memory a run is about to fill, mapped in advance by all threads.
//
// A whole network's reference keeps every layer's output on the host (a
// ResNet-50 at batch 16: 176 MB). Fresh memory costs a page fault per 4 KiB
// on its first touch, which one thread pays at about 1.5 GB/s (measured:
// 120 ms for 176 MB in vectors, against 15 ms to copy over the same pages
// once mapped) -- more than a GPU takes to compute the whole network. So
// before such a run, prefault_host_memory(bytes) asks glibc's malloc to
// keep blocks up to its mmap threshold (32 MiB) in its heap and not to
// give freed heap back, takes `bytes` there in blocks, touches them from
// up to eight threads (ir::parallel_for), and frees them: the outputs allocated next reuse
// those mapped pages. Process-wide (malloc's policy stays so); nothing on
// a C library without mallopt, or for fewer than 64 MiB.

#include <cstdint>

namespace gemini::gpu {

void prefault_host_memory(std::int64_t bytes);

}  // namespace gemini::gpu
