#pragma once
// The "cpu" backend (backend.h): host memory, every element through
// model::tile_element, spread over the hardware's threads.

#include "gemini/gpu/backend.h"

namespace gemini::gpu {

std::unique_ptr<Backend> make_cpu_backend();

}  // namespace gemini::gpu
