#include "critical_path.h"

#include <algorithm>
#include <array>
#include <optional>

namespace gemini::sim {
namespace {

using assembler::Opcode;

PathKind kind_of(const OpRec& o) {
  switch (o.op) {
    case Opcode::pe_cfg:
    case Opcode::pe_run:
    case Opcode::vp_run:
      return PathKind::compute;
    case Opcode::wl0_load:
      return o.flag ? PathKind::dram : PathKind::compute;
    case Opcode::dma_in:
    case Opcode::dma_out:
      return PathKind::dram;
    case Opcode::noc_send:
      return PathKind::noc;
    default:
      return PathKind::other;
  }
}

class Walk {
 public:
  Walk(const std::vector<PathCore>& cores, Tick period, std::uint32_t dispatch_width,
       std::uint32_t dma_limit)
      : cores_(cores),
        period_(period),
        width_(std::max<std::uint32_t>(1, dispatch_width)),
        dma_limit_(std::max<std::uint32_t>(1, dma_limit)) {
    // Each core's engine queues and every instruction's place in its queue.
    queues_.resize(cores.size());
    pos_.resize(cores.size());
    for (std::size_t c = 0; c < cores.size(); ++c) {
      const auto& ops = cores[c].image->ops;
      pos_[c].resize(ops.size());
      for (std::uint32_t i = 0; i < ops.size(); ++i) {
        auto& q = queues_[c][ops[i].queue];
        pos_[c][i] = static_cast<std::uint32_t>(q.size());
        q.push_back(i);
      }
    }
  }

  // One step of the path: instruction `op` of core `core`, and the interval
  // [from, to] of the path it accounts for, of kind `kind`.
  struct Step {
    std::uint32_t core, op;
    Tick from, to;
    PathKind kind;
  };

  std::vector<Step> run() {
    std::vector<Step> steps;
    // The last instruction to retire.
    std::size_t core = 0;
    for (std::size_t c = 1; c < cores_.size(); ++c)
      if (cores_[c].finish > cores_[core].finish) core = c;
    const auto& last = *cores_[core].times;
    if (last.empty()) return steps;
    std::uint32_t op = 0;
    for (std::uint32_t i = 1; i < last.size(); ++i)
      if (last[i].retire >= last[op].retire) op = i;
    Tick t = last[op].retire;
    // A bound on steps, whatever the records say: every step goes to an
    // earlier time or an earlier instruction.
    std::size_t budget = 8;
    for (const PathCore& c : cores_) budget += 4 * c.image->ops.size();
    while (budget-- > 0) {
      const OpTimes& x = time(core, op);
      const OpRec& o = rec(core, op);
      if (t > x.done) {  // held in order behind a slower one of its queue
        if (auto y = completed_at(core, op, t)) {
          op = *y;
          continue;
        }
        steps.push_back({static_cast<std::uint32_t>(core), op, x.done, t, PathKind::other});
        t = x.done;
        continue;
      }
      const Tick gate = start_gate(core, op);
      const std::uint64_t cause = (*cores_[core].causes)[op];
      if (o.op == Opcode::wait_token && x.done > gate && cause != kNoRef) {
        const auto [sc, so] = split(cause);
        const Tick sent = time(sc, so).done;
        steps.push_back(
            {static_cast<std::uint32_t>(core), op, std::min(sent, t), t, PathKind::token});
        core = sc;
        op = so;
        t = std::min(sent, t);
        continue;
      }
      if (o.op == Opcode::wait_local && x.done > gate && o.count > 0) {
        const auto& q = queues_[core][o.kind];
        if (o.count <= q.size()) {
          op = q[o.count - 1];
          continue;  // its retirement is t
        }
      }
      Tick start = x.start;
      if (o.op == Opcode::dma_in && cause != kNoRef &&
          cause != op_ref(static_cast<std::int32_t>(core), op)) {
        const auto [mc, mo] = split(cause);
        if (time(mc, mo).start > start) {  // the read waited for that member to join
          steps.push_back(
              {static_cast<std::uint32_t>(core), op, time(mc, mo).start, t, PathKind::dram});
          core = mc;
          op = mo;
          t = time(mc, mo).start;
          if (!gate_of_start(core, op, t, steps)) break;
          continue;
        }
      }
      steps.push_back({static_cast<std::uint32_t>(core), op, start, t, kind_of(o)});
      t = start;
      if (!gate_of_start(core, op, t, steps)) break;
    }
    std::reverse(steps.begin(), steps.end());
    return steps;
  }

 private:
  static std::pair<std::size_t, std::uint32_t> split(std::uint64_t ref) {
    return {static_cast<std::size_t>(ref >> 32), static_cast<std::uint32_t>(ref)};
  }
  const OpTimes& time(std::size_t c, std::uint32_t i) const { return (*cores_[c].times)[i]; }
  const OpRec& rec(std::size_t c, std::uint32_t i) const { return cores_[c].image->ops[i]; }
  Tick dispatch(std::uint32_t i) const { return static_cast<Tick>(i / width_) * period_; }

  // The earliest time instruction `op` could have issued by its queue alone:
  // its dispatch, the retirement of the one before it (one in flight) or
  // the completion that freed a DMA slot.
  Tick start_gate(std::size_t c, std::uint32_t op) const {
    const OpRec& o = rec(c, op);
    const auto& q = queues_[c][o.queue];
    const std::uint32_t p = pos_[c][op];
    Tick g = dispatch(op);
    if (p == 0) return g;
    const OpTimes& prev = time(c, q[p - 1]);
    g = std::max(g, prev.start);  // issue is in order
    const bool dma = is_dma(o.queue);
    if (!dma || o.op == Opcode::signal) return std::max(g, prev.retire);
    if (p >= dma_limit_) g = std::max(g, std::min(prev.retire, time(c, q[p - dma_limit_]).done));
    return g;
  }
  static bool is_dma(std::uint8_t queue) {
    return queue == static_cast<std::uint8_t>(assembler::Engine::dma_in) ||
           queue == static_cast<std::uint8_t>(assembler::Engine::dma_out);
  }

  // The instruction of op's queue before it that completed at t (the one
  // op retired behind).
  std::optional<std::uint32_t> completed_at(std::size_t c, std::uint32_t op, Tick t) const {
    const auto& q = queues_[c][rec(c, op).queue];
    for (std::uint32_t p = pos_[c][op]; p-- > 0;) {
      const OpTimes& y = time(c, q[p]);
      if (y.done == t) return q[p];
      if (y.retire < t) break;
    }
    return std::nullopt;
  }

  // What let instruction op start at t: sets (c, op, t) to the predecessor
  // on the path. False when the path starts here (its dispatch).
  bool gate_of_start(std::size_t& c, std::uint32_t& op, Tick& t, std::vector<Step>& steps) const {
    for (;;) {
      const OpRec& o = rec(c, op);
      const auto& q = queues_[c][o.queue];
      const std::uint32_t p = pos_[c][op];
      if (t <= dispatch(op) || p == 0) {
        if (t > 0) steps.push_back({static_cast<std::uint32_t>(c), op, 0, t, PathKind::other});
        return false;
      }
      // The nearest earlier instruction of the queue that completed or
      // retired at t.
      const std::uint32_t back = is_dma(o.queue) ? dma_limit_ + 1 : 1;
      for (std::uint32_t k = 1; k <= back && k <= p; ++k) {
        const std::uint32_t y = q[p - k];
        const OpTimes& ty = time(c, y);
        if (ty.done == t || ty.retire == t) {
          op = y;
          return true;
        }
      }
      const std::uint32_t y = q[p - 1];
      const OpTimes& ty = time(c, y);
      if (ty.start == t) {  // issued together: what let the earlier one issue
        op = y;
        continue;
      }
      // Unexplained: a gap after the one before it.
      const Tick prev = std::min(t, ty.retire);
      if (prev < t) steps.push_back({static_cast<std::uint32_t>(c), op, prev, t, PathKind::other});
      op = y;
      t = prev;
      return true;
    }
  }

  const std::vector<PathCore>& cores_;
  Tick period_;
  std::uint32_t width_, dma_limit_;
  std::vector<std::array<std::vector<std::uint32_t>, assembler::kEngines>> queues_;
  std::vector<std::vector<std::uint32_t>> pos_;
};

std::int64_t to_cycles(Tick t, Tick period) { return (t + period - 1) / period; }

}  // namespace

CriticalPath trace_critical_path(const std::vector<PathCore>& cores, Tick period,
                                 std::uint32_t dispatch_width, std::uint32_t dma_limit,
                                 const WorkloadTable& workloads) {
  CriticalPath cp;
  if (cores.empty()) return cp;
  Walk walk(cores, period, dispatch_width, dma_limit);
  const std::vector<Walk::Step> steps = walk.run();
  cp.traced = true;
  cp.steps = static_cast<std::int64_t>(steps.size());
  // Ticks per kind, then whole cycles; segments by (core, workload) runs.
  std::array<Tick, kPathKinds> ticks{};
  std::array<Tick, kPathKinds> seg_ticks{};
  Tick seg_from = 0, seg_to = 0;
  auto close = [&] {
    if (cp.segments.empty()) return;
    PathSegment& s = cp.segments.back();
    s.start = seg_from / period;
    s.end = to_cycles(seg_to, period);
    for (std::size_t k = 0; k < kPathKinds; ++k) s.cycles[k] = to_cycles(seg_ticks[k], period);
  };
  for (const Walk::Step& st : steps) {
    const PathCore& pc = cores[st.core];
    const OpRec& o = pc.image->ops[st.op];
    const std::int64_t wid =
        o.wl >= 0 ? static_cast<std::int64_t>(pc.image->workload_ids[o.wl]) : std::int64_t{-1};
    const Tick len = std::max<Tick>(0, st.to - st.from);
    ticks[static_cast<std::size_t>(st.kind)] += len;
    const PathSegment* cur = cp.segments.empty() ? nullptr : &cp.segments.back();
    if (!cur || cur->core_id != pc.image->core_id || cur->workload_id != wid) {
      close();
      PathSegment s;
      s.core_id = pc.image->core_id;
      s.workload_id = wid;
      if (wid >= 0)
        if (auto t = workloads.find(s.core_id); t != workloads.end())
          if (auto w = t->second.find(static_cast<std::uint32_t>(wid)); w != t->second.end())
            s.layer = w->second.layer;
      cp.segments.push_back(std::move(s));
      seg_ticks = {};
      seg_from = st.from;
    }
    seg_to = st.to;
    seg_ticks[static_cast<std::size_t>(st.kind)] += len;
  }
  close();
  // Whole cycles per kind that add up to the path's end.
  const Tick end = steps.empty() ? 0 : steps.back().to;
  std::int64_t sum = 0;
  for (std::size_t k = 0; k < kPathKinds; ++k) sum += cp.cycles[k] = ticks[k] / period;
  for (std::int64_t left = to_cycles(end, period) - sum; left > 0; --left) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < kPathKinds; ++k)
      if (ticks[k] - cp.cycles[k] * period > ticks[best] - cp.cycles[best] * period) best = k;
    ++cp.cycles[best];
  }
  return cp;
}

}  // namespace gemini::sim
