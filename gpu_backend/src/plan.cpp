// The plan model's own methods (plan.h); reading is plan_read.cpp, writing
// plan_write.cpp.
#include "gemini/gpu/plan.h"

namespace gemini::gpu {

bool PlanRange::within(const PlanRange& outer, std::int64_t& outside) const {
  const std::int64_t n = count();
  if (n == 0) return true;
  if (!outer.contains(begin)) {
    outside = begin;
    return false;
  }
  // From begin (outer's), the elements stay on outer's grid exactly when
  // the step is a multiple of outer's; then the first one past outer's end
  // is the first outside.
  if (n > 1 && step % outer.step != 0) {
    outside = at(1);
    return false;
  }
  if (at(n - 1) >= outer.end) {
    outside = at(ir::ceil_div(outer.end - begin, step));
    return false;
  }
  return true;
}

const PlanTaskInfo* Plan::task_info(std::int64_t id) const {
  for (const PlanTaskInfo& t : task_infos)
    if (t.id == id) return &t;
  return nullptr;
}

}  // namespace gemini::gpu
