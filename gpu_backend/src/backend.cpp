#include "gemini/gpu/backend.h"

#include "cpu_backend.h"
#include "cuda_backend.h"

namespace gemini::gpu {

std::unique_ptr<Backend> make_backend(const std::string& name, std::string& why) {
  if (name == "cpu") return make_cpu_backend();
  if (name == "cuda") return make_cuda_backend(why);
  why = "unknown backend \"" + name + "\" (cpu or cuda)";
  return nullptr;
}

}  // namespace gemini::gpu
