// The verifier's entry points (verifier.h); the checks are under
// verifier/ (verification.h lists them).
#include "gemini/assembler/verifier.h"

#include "verifier/verification.h"

namespace gemini::assembler {
namespace {

// The checks, over the core programs wherever they live.
std::vector<std::string> verify_cores(const std::vector<const CoreProgram*>& cores,
                                      const VerifyLimits& lim, std::size_t max_problems) {
  return verifier::Verification(cores, lim, max_problems).run();
}

}  // namespace

std::vector<std::string> verify(const std::vector<CoreProgram>& cores, const VerifyLimits& limits,
                                std::size_t max_problems) {
  std::vector<const CoreProgram*> ptrs;
  ptrs.reserve(cores.size());
  for (const CoreProgram& c : cores) ptrs.push_back(&c);
  return verify_cores(ptrs, limits, max_problems);
}

std::vector<std::string> verify(const Program& p, std::size_t max_problems) {
  std::vector<const CoreProgram*> ptrs;
  ptrs.reserve(p.cores.size());
  for (const LoweredCore& c : p.cores) ptrs.push_back(&c.program);
  return verify_cores(ptrs, {p.l2_bytes, p.wl0_bytes}, max_problems);
}

}  // namespace gemini::assembler
