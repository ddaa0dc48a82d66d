#include "gemini/assembler/verifier.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <unordered_map>

#include "gemini/ir/parallel.h"

namespace gemini::assembler {
namespace {

// The memory operands of each opcode, from the ISA table, worked out once:
// the fields that hold the address and the byte count, and when the
// operand is not used.
struct OperandSlot {
  const Field* addr;
  const Field* bytes;  // nullptr: none
  bool write;
  Memory memory;
  bool remote;  // noc_send's destination: another core's L2
  // Unused when this field is below 2 (vp_run's in1: `inputs`) or not 0
  // (wl0_load's l2: `source`).
  const Field* needs_two = nullptr;
  const Field* needs_zero = nullptr;
};
const std::vector<OperandSlot>& operand_slots(Opcode op) {
  static const auto table = [] {
    std::array<std::vector<OperandSlot>, 256> t;
    for (const OpInfo& o : all_ops()) {
      auto field = [&](std::string_view name) { return field_slot(o.op, name).field; };
      for (const Field& f : o.fields) {
        if (f.access == Access::none) continue;
        const Field* bytes = nullptr;
        for (const Field& g : o.fields)
          if (g.role == f.role && g.access == Access::none && g.type != FieldType::box) {
            bytes = &g;
            break;
          }
        const bool noc_dst = o.op == Opcode::noc_send && f.name == "dst";
        if (noc_dst) bytes = field("bytes");
        OperandSlot x{&f, bytes, f.access == Access::write, f.memory, noc_dst};
        if (o.op == Opcode::vp_run && f.name == "in1") x.needs_two = field("inputs");
        if (o.op == Opcode::wl0_load && f.name == "l2") x.needs_zero = field("source");
        t[static_cast<std::size_t>(o.op)].push_back(x);
      }
    }
    return t;
  }();
  return table[static_cast<std::size_t>(op)];
}

struct MemAccess {
  std::int64_t addr, bytes;
  bool write;
  Memory memory;
  bool remote;  // noc_send's destination: another core's L2
};

// At most four memory operands per instruction; [0, n) are set (the rest
// is left uninitialised: this is built for every instruction of a program).
struct Accesses {
  std::array<MemAccess, 4> a;
  std::size_t n = 0;
  const MemAccess* begin() const { return a.data(); }
  const MemAccess* end() const { return a.data() + n; }
};

Accesses accesses(const Instr& in) {
  Accesses out;
  for (const OperandSlot& s : operand_slots(in.op)) {
    const std::int64_t bytes = s.bytes ? in.value(*s.bytes) : 0;
    if (s.needs_two && in.value(*s.needs_two) < 2) continue;
    if (s.needs_zero && in.value(*s.needs_zero) != 0) continue;
    if (bytes <= 0 || out.n == out.a.size())
      continue;  // an unused slot (no weights, a data token's grant)
    out.a[out.n++] = {in.value(*s.addr), bytes, s.write, s.memory, s.remote};
  }
  return out;
}

// Every range of b lies inside some range of a.
bool covers(const ir::Footprint& a, const ir::Footprint& b) {
  return std::all_of(b.begin(), b.end(), [&](const ir::ByteRange& y) {
    return std::any_of(a.begin(), a.end(), [&](const ir::ByteRange& x) {
      return x.begin <= y.begin && y.end <= x.end;
    });
  });
}

}  // namespace

namespace {

// Scalar slots of the token and wait fields, looked up once.
struct SyncSlots {
  std::size_t send_to, send_transfer, sig_to, sig_kind, sig_transfer;
  std::size_t wt_kind, wt_transfer, wt_from, wt_count, wl_on, wl_count;
  SyncSlots() {
    auto slot = [](Opcode op, std::string_view f) { return field_slot(op, f).index; };
    send_to = slot(Opcode::noc_send, "to");
    send_transfer = slot(Opcode::noc_send, "transfer");
    sig_to = slot(Opcode::signal, "to");
    sig_kind = slot(Opcode::signal, "kind");
    sig_transfer = slot(Opcode::signal, "transfer");
    wt_kind = slot(Opcode::wait_token, "kind");
    wt_transfer = slot(Opcode::wait_token, "transfer");
    wt_from = slot(Opcode::wait_token, "from");
    wt_count = slot(Opcode::wait_token, "count");
    wl_on = slot(Opcode::wait_local, "on");
    wl_count = slot(Opcode::wait_local, "count");
  }
};

// A token sent to a core, as its receiver looks it up: (sending core id,
// transfer << 2 | kind), then the sending instruction's global number, so
// that the sends of one token sort into a run in program order. Packed
// without loss: transfers are u32 fields, kinds take two bits.
struct Produced {
  std::int64_t from;
  std::uint64_t transfer_kind;
  std::uint32_t instr;
  bool operator<(const Produced& o) const {
    return std::tie(from, transfer_kind, instr) < std::tie(o.from, o.transfer_kind, o.instr);
  }
};
std::uint64_t transfer_kind(std::int64_t transfer, std::int64_t kind) {
  return static_cast<std::uint64_t>(transfer) << 2 | static_cast<std::uint64_t>(kind);
}

// Problems found per core, merged in core order, so that the report does
// not depend on how the cores were spread over threads.
class Problems {
 public:
  Problems(std::size_t cores, std::size_t max) : per_core_(cores), max_(max) {}
  void add(std::size_t core, std::string s) {
    if (per_core_[core].size() < max_) per_core_[core].push_back(std::move(s));
  }
  void drain_into(std::vector<std::string>& out) {
    for (auto& list : per_core_) {
      for (std::string& s : list)
        if (out.size() < max_) out.push_back(std::move(s));
      list.clear();
    }
  }

 private:
  std::vector<std::vector<std::string>> per_core_;
  std::size_t max_;
};

// The checks, over the core programs wherever they live. Each core's part
// of V1, V3 and V4 reads only that core's instructions and the tokens sent
// to it, so cores are checked in parallel; V2 is one pass over all cores.
std::vector<std::string> verify_cores(const std::vector<const CoreProgram*>& cores,
                                      const VerifyLimits& lim, std::size_t max_problems) {
  std::vector<std::string> problems;
  const std::size_t n = cores.size();
  Problems found(n, max_problems);
  std::unordered_map<std::int32_t, std::size_t> index;
  for (std::size_t c = 0; c < n; ++c) index[cores[c]->core_id] = c;

  // Global numbering and per-queue positions.
  std::vector<std::size_t> base(n + 1, 0);
  for (std::size_t c = 0; c < n; ++c) base[c + 1] = base[c] + cores[c]->instrs.size();
  if (base[n] >= std::numeric_limits<std::uint32_t>::max()) {
    problems.push_back("the program has " + std::to_string(base[n]) +
                       " instructions; the verifier numbers them in 32 bits");
    return problems;
  }
  const SyncSlots sl;
  std::vector<std::uint32_t> qpos(base[n]);
  std::vector<std::array<std::vector<std::uint32_t>, kEngines>> queues(n);
  auto receiver = [&](std::int64_t to) -> std::optional<std::uint32_t> {
    if (to < std::numeric_limits<std::int32_t>::min() ||
        to > std::numeric_limits<std::int32_t>::max())
      return std::nullopt;
    auto it = index.find(static_cast<std::int32_t>(to));
    if (it == index.end()) return std::nullopt;
    return static_cast<std::uint32_t>(it->second);
  };
  // Per core: its queues, and the tokens it sends as (receiving core, token).
  std::vector<std::vector<std::pair<std::uint32_t, Produced>>> sends(n);
  ir::parallel_for(n, [&](std::size_t c) {
    const auto& ins = cores[c]->instrs;
    for (std::size_t i = 0; i < ins.size(); ++i) {
      const Instr& in = ins[i];
      auto& q = queues[c][static_cast<std::size_t>(in.queue)];
      q.push_back(static_cast<std::uint32_t>(i));
      qpos[base[c] + i] = static_cast<std::uint32_t>(q.size());
      std::optional<std::uint32_t> r;
      std::uint64_t tk = 0;
      if (in.op == Opcode::noc_send) {
        r = receiver(in.scalar(sl.send_to));
        tk = transfer_kind(in.scalar(sl.send_transfer), static_cast<std::int64_t>(TokenKind::data));
      } else if (in.op == Opcode::signal) {
        r = receiver(in.scalar(sl.sig_to));
        tk = transfer_kind(in.scalar(sl.sig_transfer), in.scalar(sl.sig_kind));
      }
      if (r)
        sends[c].push_back(
            {*r, Produced{cores[c]->core_id, tk, static_cast<std::uint32_t>(base[c] + i)}});
    }
  });
  // received[r]: the tokens sent to core r, sorted, so that the sends of
  // one token are a run in program order.
  std::vector<std::vector<Produced>> received(n);
  {
    std::vector<std::size_t> count(n, 0);
    for (const auto& list : sends)
      for (const auto& x : list) ++count[x.first];
    for (std::size_t r = 0; r < n; ++r) received[r].reserve(count[r]);
    for (auto& list : sends) {
      for (const auto& [r, x] : list) received[r].push_back(x);
      std::vector<std::pair<std::uint32_t, Produced>>().swap(list);
    }
  }
  ir::parallel_for(n, [&](std::size_t r) { std::sort(received[r].begin(), received[r].end()); });

  auto name = [&](std::size_t c, std::size_t i) {
    return "core " + std::to_string(cores[c]->core_id) + " #" + std::to_string(i) + " " +
           std::string(cores[c]->instrs[i].info().mnemonic);
  };

  // V1 and the edges of V2: each instruction has at most two predecessors,
  // the previous instruction of its queue and what it waits for.
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::array<std::uint32_t, 2>> preds(base[n], {kNone, kNone});
  auto add_pred = [&](std::size_t g, std::size_t p) {
    preds[g][preds[g][0] == kNone ? 0 : 1] = static_cast<std::uint32_t>(p);
  };
  ir::parallel_for(n, [&](std::size_t c) {
    // The tokens this core can wait for (those sent to the last core with
    // its id, which is where index sends them).
    const std::vector<Produced>& tokens = received[index.at(cores[c]->core_id)];
    std::array<std::size_t, kEngines> last{};
    std::array<bool, kEngines> have{};
    for (std::size_t i = 0; i < cores[c]->instrs.size(); ++i) {
      const Instr& in = cores[c]->instrs[i];
      const auto q = static_cast<std::size_t>(in.queue);
      const std::size_t g = base[c] + i;
      if (have[q]) add_pred(g, last[q]);
      last[q] = g;
      have[q] = true;
      if (in.op == Opcode::wait_local) {
        const auto on = static_cast<std::size_t>(in.scalar(sl.wl_on));
        const auto cnt = static_cast<std::size_t>(in.scalar(sl.wl_count));
        if (on >= kEngines || cnt == 0) {
          found.add(c, name(c, i) + ": waits on queue " + std::to_string(on) + " for " +
                           std::to_string(cnt) +
                           " instructions (no such queue, or nothing to wait for)");
          continue;
        }
        if (cnt > queues[c][on].size()) {
          found.add(c, name(c, i) + ": waits for " + std::to_string(cnt) +
                           " instructions of queue " +
                           std::string(to_string(static_cast<Engine>(on))) + ", which has only " +
                           std::to_string(queues[c][on].size()));
          continue;
        }
        add_pred(g, base[c] + queues[c][on][cnt - 1]);
      } else if (in.op == Opcode::wait_token) {
        const Produced key{in.scalar(sl.wt_from),
                           transfer_kind(in.scalar(sl.wt_transfer), in.scalar(sl.wt_kind)), 0};
        const auto lo = std::lower_bound(tokens.begin(), tokens.end(), key);
        auto hi = lo;
        while (hi != tokens.end() && hi->from == key.from && hi->transfer_kind == key.transfer_kind)
          ++hi;
        const auto cnt = static_cast<std::size_t>(in.scalar(sl.wt_count));
        const auto have_n = static_cast<std::size_t>(hi - lo);
        if (cnt == 0 || cnt > have_n) {
          found.add(c, name(c, i) + ": waits for " + std::to_string(cnt) +
                           " token(s) of transfer " + std::to_string(in.scalar(sl.wt_transfer)) +
                           " from core " + std::to_string(in.scalar(sl.wt_from)) + " but only " +
                           std::to_string(have_n) + " are ever sent to this core");
          continue;
        }
        add_pred(g, lo[static_cast<std::ptrdiff_t>(cnt) - 1].instr);
      }
    }
  });
  found.drain_into(problems);
  // V2: Kahn over all instructions; what remains lies on or behind a cycle.
  {
    // Successors in one flat array (CSR), 32-bit: a program of more than
    // 4G instructions is refused above.
    const std::size_t total = base[n];
    std::vector<std::uint32_t> indeg(total, 0);
    std::vector<std::uint32_t> start(total + 1, 0);
    for (std::size_t g = 0; g < total; ++g)
      for (std::uint32_t p : preds[g])
        if (p != kNone) {
          ++start[p + 1];
          ++indeg[g];
        }
    for (std::size_t g = 0; g < total; ++g) start[g + 1] += start[g];
    std::vector<std::uint32_t> succ(start[total]), fill(start.begin(), start.end() - 1);
    for (std::size_t g = 0; g < total; ++g)
      for (std::uint32_t p : preds[g])
        if (p != kNone) succ[fill[p]++] = static_cast<std::uint32_t>(g);
    std::vector<std::uint32_t> ready;
    for (std::size_t g = 0; g < total; ++g)
      if (indeg[g] == 0) ready.push_back(static_cast<std::uint32_t>(g));
    std::size_t done = 0;
    while (!ready.empty()) {
      const std::uint32_t g = ready.back();
      ready.pop_back();
      ++done;
      for (std::uint32_t k = start[g]; k < start[g + 1]; ++k)
        if (--indeg[succ[k]] == 0) ready.push_back(succ[k]);
    }
    if (done != base[n]) {
      auto where = [&](std::size_t g) {
        const std::size_t c =
            static_cast<std::size_t>(std::upper_bound(base.begin(), base.end(), g) - base.begin()) -
            1;
        return name(c, g - base[c]);
      };
      std::size_t g = 0;
      while (indeg[g] == 0) ++g;
      // Walk back through unfinished predecessors until a node repeats.
      std::vector<std::size_t> path;
      std::unordered_map<std::size_t, std::size_t> seen;
      while (!seen.count(g)) {
        seen[g] = path.size();
        path.push_back(g);
        for (std::uint32_t p : preds[g])
          if (p != kNone && indeg[p] > 0) {
            g = p;
            break;
          }
      }
      std::string chain;
      for (std::size_t k = path.size(); k-- > seen[g];) chain += where(path[k]) + " -> ";
      chain += where(g);
      if (problems.size() < max_problems) problems.push_back("deadlock: " + chain);
    }
  }

  // V3 and V4, per core.
  // L2 is checked as one ring over [0, l2_bytes).
  const ir::RingRegion l2{0, lim.l2_bytes};
  ir::parallel_for(n, [&](std::size_t c) {
    const auto& ins = cores[c]->instrs;
    std::vector<std::array<std::uint32_t, kEngines>> vc(ins.size());
    std::array<std::optional<std::size_t>, kEngines> prev{};
    struct Read {
      ir::Footprint s;
      std::size_t instr;
      std::size_t queue;
      std::uint32_t pos;
    };
    std::vector<Read> open;
    for (std::size_t i = 0; i < ins.size(); ++i) {
      const Instr& in = ins[i];
      const auto q = static_cast<std::size_t>(in.queue);
      std::array<std::uint32_t, kEngines> k{};
      if (prev[q]) {
        k = vc[*prev[q]];
        k[q] = std::max(k[q], qpos[base[c] + *prev[q]]);
      }
      if (in.op == Opcode::wait_local) {
        const auto on = static_cast<std::size_t>(in.scalar(sl.wl_on));
        const auto cnt = static_cast<std::size_t>(in.scalar(sl.wl_count));
        if (on < kEngines) k[on] = std::max<std::uint32_t>(k[on], static_cast<std::uint32_t>(cnt));
        if (on < kEngines && cnt > 0 && cnt <= queues[c][on].size()) {
          const std::size_t j = queues[c][on][cnt - 1];
          if (j < i)
            for (std::size_t e = 0; e < kEngines; ++e) k[e] = std::max(k[e], vc[j][e]);
        }
      }
      vc[i] = k;
      prev[q] = i;

      const Accesses xs = accesses(in);
      for (const MemAccess& x : xs) {
        const std::int64_t cap = x.memory == Memory::wl0 ? lim.wl0_bytes : lim.l2_bytes;
        if (x.memory == Memory::dram) continue;
        if (x.addr < 0 || x.addr >= cap || x.bytes > cap ||
            (x.memory == Memory::wl0 && x.addr + x.bytes > cap)) {
          found.add(c, name(c, i) + ": accesses [" + std::to_string(x.addr) + ", " +
                           std::to_string(x.addr + x.bytes) + ") outside " +
                           (x.memory == Memory::wl0 ? "WL0" : "L2") + " of " + std::to_string(cap) +
                           " bytes");
          continue;
        }
        if (x.memory != Memory::l2 || x.remote || !x.write) continue;
        const ir::Footprint a = l2.footprint(x.addr, x.bytes);
        for (auto it = open.begin(); it != open.end();) {
          if (it->instr == i || !a.overlaps(it->s)) {
            ++it;
            continue;
          }
          const bool ordered = it->queue == q || vc[i][it->queue] >= it->pos;
          if (!ordered)
            found.add(c, name(c, i) + ": writes [" + std::to_string(x.addr) + ", " +
                             std::to_string(x.addr + x.bytes) + ") which " + name(c, it->instr) +
                             " reads, and no wait orders the read first");
          it = ordered && covers(a, it->s) ? open.erase(it) : it + 1;
        }
      }
      for (const MemAccess& x : xs) {
        if (x.memory != Memory::l2 || x.write || x.addr >= lim.l2_bytes || x.bytes > lim.l2_bytes)
          continue;
        open.push_back({l2.footprint(x.addr, x.bytes), i, q, qpos[base[c] + i]});
      }
    }
  });
  found.drain_into(problems);
  return problems;
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
