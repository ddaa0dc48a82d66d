// Where each workload's result is written (B010, B011): into an ofmap
// entry of its own in its snapshot, or -- a workload without one --
// straight into the same-core tensor that receives it, in its snapshot or
// the next (tensor_runs.h, result_run: the rule the lowering follows). A
// result with neither has nowhere to go; one written into a tensor first
// listed in the next snapshot takes that tensor's bytes a snapshot early,
// so they must be free of everything the writer's own snapshot holds.
#include <algorithm>

#include "gemini/ir/tensor_runs.h"
#include "gemini/ir/validator.h"

namespace gemini::ir::checks {
namespace {

std::string range(std::int64_t b, std::int64_t e) { return to_string(ByteRange{b, e}); }

void no_tensor(const Model& m, const Core& c, const Workload& w, Diagnostics& d) {
  std::string sent;
  for (const Ofmap& o : w.ofmap) {
    sent += sent.empty() ? "" : ", ";
    sent += std::to_string(o.transfer_id);
  }
  d.report(Check::result_without_tensor, m.pointer(w.origin, "/buffer"),
           "core " + std::to_string(c.core_id) + " workload " + std::to_string(w.workload_id) +
               " (" + w.layer_name + ") has no L2 tensor for its result: its snapshot has no " +
               "ofmap entry of its layer, and no tensor of core " + std::to_string(c.core_id) +
               " in its snapshot or the next receives its transfer(s) " +
               (sent.empty() ? std::string("(it has no ofmap)") : sent) + " from it");
}

// Full dialect: the tensor a result is written into a snapshot early
// overlaps nothing of the writer's snapshot.
void early_write(const Model& m, const Core& c, std::uint32_t i, const TensorRuns& runs,
                 std::uint32_t r, std::int64_t buffersize, Diagnostics& d) {
  const TensorRun& run = runs.runs[r];
  if (run.first <= i) return;  // listed in the writer's snapshot: B003's
  const BufferEntry& t = *run.entry;
  // Only tensors inside L2 (B001 reports the others).
  auto placed = [&](const BufferEntry& e) {
    return e.address && e.size && *e.address < buffersize && *e.size <= buffersize;
  };
  if (!placed(t)) return;
  auto region = [&](std::size_t s, std::int64_t a) {
    const auto& regs = c.workloads[s].ring_buffer_info;
    if (regs)
      for (const RingRegion& g : *regs)
        if (a >= g.begin && a < g.end) return g;
    return RingRegion{0, buffersize};
  };
  const Footprint mine = region(run.first, *t.address).footprint(*t.address, *t.size);
  const Workload& w = c.workloads[i];
  for (const BufferEntry& e : w.buffer) {
    if (!placed(e)) continue;
    if (!mine.overlaps(region(i, *e.address).footprint(*e.address, *e.size))) continue;
    d.report(Check::early_write_overlap, m.pointer(t.origin),
             "core " + std::to_string(c.core_id) + " workload " + std::to_string(w.workload_id) +
                 " (" + w.layer_name + ") has no ofmap entry of its own and writes its result " +
                 "into this " + to_string(t.type) + " at " +
                 range(*t.address, *t.address + *t.size) + ", first listed before workload " +
                 std::to_string(c.workloads[run.first].workload_id) + "; its bytes overlap " +
                 to_string(e.type) + " of " + e.layer_name + " at " +
                 range(*e.address, *e.address + *e.size) + " (" + m.pointer(e.origin) +
                 "), which workload " + std::to_string(w.workload_id) +
                 "'s snapshot holds while the result is written, counting ring wrap-around");
    return;
  }
}

}  // namespace

void results(const Model& m, const HardwareConfig& hw, Diagnostics& d) {
  const std::int64_t buffersize = m.buffersize.value_or(hw.l2.size_bytes);
  for (const Core& c : m.cores) {
    std::optional<TensorRuns> runs;  // full dialect, built on first use
    for (std::uint32_t i = 0; i < c.workloads.size(); ++i) {
      const Workload& w = c.workloads[i];
      if (has_own_ofmap_entry(w)) continue;
      if (m.dialect != Dialect::full) {
        if (!snapshot_receives_result(c, i, w) && !snapshot_receives_result(c, i + 1, w))
          no_tensor(m, c, w, d);
        continue;
      }
      if (!runs) runs = tensor_runs<TensorIdentityHash, TensorIdentityEq>(c.workloads);
      if (const auto r = result_run(c, i, *runs))
        early_write(m, c, i, *runs, *r, buffersize, d);
      else
        no_tensor(m, c, w, d);
    }
  }
}

}  // namespace gemini::ir::checks
