#pragma once
// Static checks on a lowered (or hand-written) program, run after every
// `gemini asm`:
//   V1 every wait can be satisfied: wait_local counts exist in their queue,
//      and each wait_token has that many matching tokens sent to its core;
//   V2 no deadlock: the graph of queue order, local waits and token waits
//      over all cores is acyclic (a cycle is reported as its chain);
//   V3 every access lies inside L2 (ring wrap allowed) or WL0;
//   V4 no instruction writes an L2 range that an earlier instruction of the
//      core reads unless the waits order the read first (write-after-read).
//      A credit signal stands for the remote write it permits.

#include <string>
#include <vector>

#include "gemini/assembler/lowering.h"

namespace gemini::assembler {

struct VerifyLimits {
  std::int64_t l2_bytes = 0;
  std::int64_t wl0_bytes = 0;
};

// Problems found, one line each ("core 3 #120 pe_run: ..."); empty when none.
std::vector<std::string> verify(const std::vector<CoreProgram>& cores, const VerifyLimits& limits,
                                std::size_t max_problems = 100);
// A lowered program, with its own L2 and WL0 sizes.
std::vector<std::string> verify(const Program& p, std::size_t max_problems = 100);

}  // namespace gemini::assembler
