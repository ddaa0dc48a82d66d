#include "critical_path.h"

#include <algorithm>
#include <array>
#include <map>
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
       InFlight in_flight)
      : cores_(cores),
        period_(period),
        width_(std::max<std::uint32_t>(1, dispatch_width)),
        in_flight_(std::max<std::uint32_t>(1, in_flight.dma),
                   std::max<std::uint32_t>(1, in_flight.noc)) {
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
    // Each core's waits by instruction (the last told wins).
    waits_.resize(cores.size());
    for (std::size_t c = 0; c < cores.size(); ++c)
      if (cores[c].waits && !cores[c].waits->empty()) {
        auto& v = waits_[c];
        v.assign(cores[c].image->ops.size(), nullptr);
        for (const auto& [op, w] : *cores[c].waits) v[op] = &w;
      }
  }

  // One step of the path: instruction `op` of core `core`, and the interval
  // [from, to] of the path it accounts for, of kind `kind`.
  // `wait`: what it waited for; `whose`: the instruction that held
  // the resource or sent the token; `link`: the link of a link wait;
  // `piece`: a part of its instruction's own time split off by a wait.
  struct Step {
    std::uint32_t core, op;
    Tick from, to;
    PathKind kind;
    WaitKind wait = WaitKind::ordering;
    OpRef whose = kNoRef;
    std::int32_t link = -1;
    bool piece = false;
  };
  // A blocking wait the trace stepped through: (core, op) blocked for
  // `ticks` until `until` on (to_core, to_op).
  struct Jump {
    std::uint8_t kind;  // kJumpKinds: a wait for another core
    std::uint32_t core, op;
    Tick ticks, until;
    std::uint32_t to_core, to_op;
  };
  static constexpr const char* kJumpKinds[] = {"token", "l2_credit", "multicast"};
  const std::vector<Jump>& jumps() const { return jumps_; }

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
      const OpRef cause = (*cores_[core].causes)[op];
      if (o.op == Opcode::wait_token && x.done > gate && !cause.none()) {
        const auto [sc, so] = split(cause);
        const Tick sent = time(sc, so).done;
        const bool credit = o.kind == static_cast<std::uint8_t>(assembler::TokenKind::credit);
        steps.push_back({static_cast<std::uint32_t>(core), op, std::min(sent, t), t,
                         PathKind::token, credit ? WaitKind::l2_credit : WaitKind::token, cause});
        jump(credit ? 1 : 0, core, op, x.done - gate, x.done, sc, so);
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
      if (o.op == Opcode::dma_in && !cause.none() &&
          cause != OpRef{static_cast<std::int32_t>(core), op}) {
        const auto [mc, mo] = split(cause);
        if (time(mc, mo).start > start) {  // the read waited for that member to join
          jump(2, core, op, time(mc, mo).start - start, time(mc, mo).start, mc, mo);
          own(core, op, time(mc, mo).start, t, PathKind::dram, steps);
          core = mc;
          op = mo;
          t = time(mc, mo).start;
          if (!gate_of_start(core, op, t, steps)) break;
          continue;
        }
      }
      own(core, op, start, t, kind_of(o), steps);
      t = start;
      if (!gate_of_start(core, op, t, steps)) break;
    }
    std::reverse(steps.begin(), steps.end());
    return steps;
  }

 private:
  // X's own time [from, to] of kind k: split by what X's transfer waited
  // for (its link waits, DRAM port wait, in-order hold, each at most what
  // is left), the rest its own work. Pushed latest first, as the trace goes.
  void own(std::size_t c, std::uint32_t op, Tick from, Tick to, PathKind k,
           std::vector<Step>& steps) const {
    const auto core = static_cast<std::uint32_t>(c);
    const WaitKind base = k == PathKind::compute ? WaitKind::compute
                          : k == PathKind::dram  ? WaitKind::dram
                          : k == PathKind::noc   ? WaitKind::noc
                                                 : WaitKind::ordering;
    if (k == PathKind::dram || k == PathKind::noc) {
      const auto& v = waits_[c];
      if (op < v.size() && v[op]) {
        const OpWait& w = *v[op];
        auto piece = [&](Tick want, WaitKind wk, OpRef whose, std::int32_t link) {
          const Tick d = std::min(want, to - from);
          if (d <= 0) return;
          steps.push_back({core, op, to - d, to, k, wk, whose, link, true});
          to -= d;
        };
        piece(w.link, WaitKind::link, w.link_owner, w.link_id);
        // A read's delivery after its DRAM bytes were ready, but for the
        // link waits in it: the NoC's own time.
        if (k == PathKind::dram)
          piece(w.tail - std::min(w.tail, w.link), WaitKind::noc, kNoRef, -1);
        piece(w.port, WaitKind::dram_port, w.port_owner, -1);
        piece(w.held, WaitKind::in_order, kNoRef, -1);
      }
    }
    steps.push_back({core, op, from, to, k, base});
  }
  void jump(std::uint8_t kind, std::size_t c, std::uint32_t op, Tick ticks, Tick until,
            std::size_t to_c, std::uint32_t to_op) {
    if (ticks > 0)
      jumps_.push_back({kind, static_cast<std::uint32_t>(c), op, ticks, until,
                        static_cast<std::uint32_t>(to_c), to_op});
  }

  static std::pair<std::size_t, std::uint32_t> split(OpRef ref) {
    return {static_cast<std::size_t>(ref.core), ref.op};
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
    if (!windowed(o.queue) || o.op == Opcode::signal) return std::max(g, prev.retire);
    // The window: nothing issues while `limit` transfers before it are in
    // flight (CoreModule::step counts the timed ones that are not
    // multicast members; waits and views between them take no slot). The
    // transfers still in flight at g are among those not retired by then.
    const std::uint32_t lim = limit(o.queue);
    std::vector<Tick>& flying = scratch_;
    flying.clear();
    for (std::uint32_t k = p; k-- > 0;) {
      const OpTimes& y = time(c, q[k]);
      if (y.retire <= g) break;  // it and all before it retired by g
      if (takes_slot(rec(c, q[k])) && y.done > g) flying.push_back(y.done);
    }
    if (flying.size() >= lim) {
      // Issues when all but lim - 1 of them have completed.
      const auto nth = flying.begin() + static_cast<std::ptrdiff_t>(flying.size() - lim);
      std::nth_element(flying.begin(), nth, flying.end());
      g = std::max(g, *nth);
    }
    return g;
  }
  // A transfer that holds one of its queue's slots while in flight.
  static bool takes_slot(const OpRec& o) {
    return !waits_for_last_member(o) && (o.op == Opcode::dma_in || o.op == Opcode::dma_out ||
                                         o.op == Opcode::noc_send || o.op == Opcode::wl0_load);
  }
  // A queue whose transfers issue while earlier ones are in flight: the DMA
  // engines, and the noc engine with more than one send in flight.
  bool windowed(std::uint8_t queue) const {
    return queue == static_cast<std::uint8_t>(assembler::Engine::dma_in) ||
           queue == static_cast<std::uint8_t>(assembler::Engine::dma_out) ||
           in_flight_.of(queue) > 1;
  }
  std::uint32_t limit(std::uint8_t queue) const { return in_flight_.of(queue); }

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
      // retired at t (on a windowed queue, any not retired before t).
      for (std::uint32_t k = 1; k <= p; ++k) {
        const std::uint32_t y = q[p - k];
        const OpTimes& ty = time(c, y);
        if (ty.done == t || ty.retire == t) {
          op = y;
          return true;
        }
        if (!windowed(o.queue) || ty.retire < t) break;
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
  std::uint32_t width_;
  InFlight in_flight_;
  std::vector<std::array<std::vector<std::uint32_t>, assembler::kEngines>> queues_;
  std::vector<std::vector<std::uint32_t>> pos_;
  std::vector<std::vector<const OpWait*>> waits_;  // per core, by instruction
  std::vector<Jump> jumps_;
  mutable std::vector<Tick> scratch_;  // start_gate's transfers in flight
};

std::int64_t to_cycles(Tick t, Tick period) { return (t + period - 1) / period; }

// Whole cycles per kind that add up to `end` rounded up: floors, then the
// leftover cycles to the largest remainders.
template <std::size_t N>
std::array<std::int64_t, N> whole_cycles(const std::array<Tick, N>& ticks, Tick end, Tick period) {
  std::array<std::int64_t, N> out{};
  std::int64_t sum = 0;
  for (std::size_t k = 0; k < N; ++k) sum += out[k] = ticks[k] / period;
  for (std::int64_t left = to_cycles(end, period) - sum; left > 0; --left) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < N; ++k)
      if (ticks[k] - out[k] * period > ticks[best] - out[best] * period) best = k;
    ++out[best];
  }
  return out;
}

// Names instructions by opcode and layer for the blame lists.
class Namer {
 public:
  Namer(const std::vector<PathCore>& cores, const WorkloadTable& workloads)
      : cores_(cores), workloads_(workloads) {}
  std::string layer(std::size_t c, std::uint32_t op) const {
    const CoreImage& img = *cores_[c].image;
    const OpRec& o = img.ops[op];
    if (o.wl < 0) return "(no workload)";
    auto t = workloads_.find(img.core_id);
    if (t == workloads_.end()) return "(no workload)";
    auto w = t->second.find(img.workload_ids[o.wl]);
    return w == t->second.end() ? "(no workload)" : w->second.layer;
  }
  std::string opcode(std::size_t c, std::uint32_t op) const {
    const auto* info = assembler::op_info(cores_[c].image->ops[op].op);
    return info ? std::string(info->mnemonic) : "?";
  }
  std::int32_t core_id(std::size_t c) const { return cores_[c].image->core_id; }
  // "<opcode> of <layer> (core N)" for an instruction.
  std::string ref(OpRef r) const {
    if (r.none() || static_cast<std::size_t>(r.core) >= cores_.size()) return "(unknown)";
    const auto c = static_cast<std::size_t>(r.core);
    const std::uint32_t op = r.op;
    if (op >= cores_[c].image->ops.size()) return "(unknown)";
    return opcode(c, op) + " of " + layer(c, op) + " (core " + std::to_string(core_id(c)) + ")";
  }

 private:
  const std::vector<PathCore>& cores_;
  const WorkloadTable& workloads_;
};

// What a step of a wait kind was spent on, in words (PathBlame::what).
std::string blame_of(const Walk::Step& st, const Namer& n,
                     const std::function<std::string(std::int32_t)>& link_name) {
  switch (st.wait) {
    case WaitKind::dram_port:
      return "requests of " + n.ref(st.whose);
    case WaitKind::link:
      return (link_name ? link_name(st.link) : "link " + std::to_string(st.link)) +
             ", packets of " + n.ref(st.whose);
    case WaitKind::token:
    case WaitKind::l2_credit:
      return "from " + n.ref(st.whose);
    default:
      return n.ref(OpRef{static_cast<std::int32_t>(st.core), st.op});
  }
}

// The blame lists and the jumps of a traced path.
void summarise_waits(CriticalPath& cp, const std::vector<Walk::Step>& steps,
                     const std::vector<Walk::Jump>& jumps, const Namer& n, Tick period,
                     const std::function<std::string(std::int32_t)>& link_name) {
  constexpr std::size_t kPerKind = 5;
  std::map<std::pair<WaitKind, std::string>, std::pair<Tick, std::int64_t>> by;
  for (const Walk::Step& st : steps) {
    if (st.wait == WaitKind::compute || st.wait == WaitKind::dram || st.wait == WaitKind::noc ||
        st.to <= st.from)
      continue;
    auto& e = by[{st.wait, blame_of(st, n, link_name)}];
    e.first += st.to - st.from;
    ++e.second;
  }
  std::vector<PathBlame> all;
  for (const auto& [key, v] : by)
    all.push_back({key.first, key.second, to_cycles(v.first, period), v.second});
  std::stable_sort(all.begin(), all.end(), [](const PathBlame& a, const PathBlame& b) {
    return a.kind != b.kind ? a.kind < b.kind : a.cycles > b.cycles;
  });
  std::array<std::size_t, kWaitKinds> shown{};
  for (PathBlame& b : all)
    if (shown[static_cast<std::size_t>(b.kind)]++ < kPerKind) cp.blames.push_back(std::move(b));
  constexpr std::size_t kJumps = std::size(Walk::kJumpKinds);
  std::array<Tick, kJumps> jt{};
  std::array<std::int64_t, kJumps> jn{};
  for (const Walk::Jump& j : jumps) {
    jt[j.kind] += j.ticks;
    ++jn[j.kind];
  }
  for (std::size_t k = 0; k < kJumps; ++k)
    cp.jump_sums.push_back({Walk::kJumpKinds[k], to_cycles(jt[k], period), jn[k]});
  std::vector<const Walk::Jump*> longest;
  for (const Walk::Jump& j : jumps) longest.push_back(&j);
  std::stable_sort(longest.begin(), longest.end(),
                   [](const Walk::Jump* a, const Walk::Jump* b) { return a->ticks > b->ticks; });
  if (longest.size() > 10) longest.resize(10);
  for (const Walk::Jump* j : longest) {
    cp.jumps.push_back({Walk::kJumpKinds[j->kind],
                        n.core_id(j->core),
                        n.opcode(j->core, j->op),
                        n.layer(j->core, j->op),
                        to_cycles(j->ticks, period),
                        n.core_id(j->to_core),
                        n.opcode(j->to_core, j->to_op),
                        n.layer(j->to_core, j->to_op),
                        {}});
    // Why the one waited for was late: what the path (its chain) waited
    // for while this one was blocked.
    const Tick from = j->until - j->ticks;
    auto it = std::upper_bound(steps.begin(), steps.end(), from,
                               [](Tick t, const Walk::Step& st) { return t < st.to; });
    std::array<Tick, kWaitKinds> during{};
    for (; it != steps.end() && it->from < j->until; ++it)
      during[static_cast<std::size_t>(it->wait)] +=
          std::max<Tick>(0, std::min(it->to, j->until) - std::max(it->from, from));
    for (std::size_t k = 0; k < kWaitKinds; ++k) cp.jumps.back().meanwhile[k] = during[k] / period;
  }
}

}  // namespace

const char* to_string(WaitKind k) {
  switch (k) {
    case WaitKind::compute:
      return "compute";
    case WaitKind::dram:
      return "dram";
    case WaitKind::noc:
      return "noc";
    case WaitKind::dram_port:
      return "dram_port";
    case WaitKind::link:
      return "link";
    case WaitKind::in_order:
      return "in_order";
    case WaitKind::token:
      return "token";
    case WaitKind::l2_credit:
      return "l2_credit";
    case WaitKind::ordering:
    case WaitKind::kCount:
      break;
  }
  return "ordering";
}

CriticalPath trace_critical_path(const std::vector<PathCore>& cores, Tick period,
                                 std::uint32_t dispatch_width, InFlight in_flight,
                                 const WorkloadTable& workloads,
                                 const std::function<std::string(std::int32_t)>& link_name) {
  CriticalPath cp;
  if (cores.empty()) return cp;
  Walk walk(cores, period, dispatch_width, in_flight);
  const std::vector<Walk::Step> steps = walk.run();
  cp.traced = true;
  // Ticks per kind, then whole cycles; segments by (core, workload) runs.
  std::array<Tick, kPathKinds> ticks{};
  std::array<Tick, kWaitKinds> wait_ticks{};
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
    if (!st.piece) ++cp.steps;
    ticks[static_cast<std::size_t>(st.kind)] += len;
    wait_ticks[static_cast<std::size_t>(st.wait)] += len;
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
  cp.cycles = whole_cycles(ticks, end, period);
  cp.waits = whole_cycles(wait_ticks, end, period);
  summarise_waits(cp, steps, walk.jumps(), Namer(cores, workloads), period, link_name);
  return cp;
}

}  // namespace gemini::sim
