#include "gemini/assembler/verifier.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <unordered_map>

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
      auto field = [&](std::string_view name) { return find_field(o, name)->field; };
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

// At most four memory operands per instruction.
struct Accesses {
  std::array<MemAccess, 4> a{};
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
// The checks, over the core programs wherever they live.
std::vector<std::string> verify_cores(const std::vector<const CoreProgram*>& cores,
                                      const VerifyLimits& lim, std::size_t max_problems) {
  std::vector<std::string> problems;
  auto problem = [&](std::string s) {
    if (problems.size() < max_problems) problems.push_back(std::move(s));
  };
  const std::size_t n = cores.size();
  std::unordered_map<std::int32_t, std::size_t> index;
  for (std::size_t c = 0; c < n; ++c) index[cores[c]->core_id] = c;

  // Global numbering and per-queue positions.
  std::vector<std::size_t> base(n + 1, 0);
  for (std::size_t c = 0; c < n; ++c) base[c + 1] = base[c] + cores[c]->instrs.size();
  if (base[n] >= std::numeric_limits<std::uint32_t>::max()) {
    problem("the program has " + std::to_string(base[n]) +
            " instructions; the verifier numbers them in 32 bits");
    return problems;
  }
  std::vector<std::uint32_t> qpos(base[n]);
  std::vector<std::array<std::vector<std::size_t>, kEngines>> queues(n);
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t i = 0; i < cores[c]->instrs.size(); ++i) {
      auto& q = queues[c][static_cast<std::size_t>(cores[c]->instrs[i].queue)];
      q.push_back(i);
      qpos[base[c] + i] = static_cast<std::uint32_t>(q.size());
    }
  auto name = [&](std::size_t c, std::size_t i) {
    return "core " + std::to_string(cores[c]->core_id) + " #" + std::to_string(i) + " " +
           std::string(cores[c]->instrs[i].info().mnemonic);
  };

  // Scalar slots of the token fields, looked up once.
  auto slot = [](Opcode op, std::string_view f) { return find_field(*op_info(op), f)->index; };
  const std::size_t send_to = slot(Opcode::noc_send, "to");
  const std::size_t send_transfer = slot(Opcode::noc_send, "transfer");
  const std::size_t sig_to = slot(Opcode::signal, "to"), sig_kind = slot(Opcode::signal, "kind");
  const std::size_t sig_transfer = slot(Opcode::signal, "transfer");
  const std::size_t wt_kind = slot(Opcode::wait_token, "kind");
  const std::size_t wt_transfer = slot(Opcode::wait_token, "transfer");
  const std::size_t wt_from = slot(Opcode::wait_token, "from");
  const std::size_t wt_count = slot(Opcode::wait_token, "count");
  const std::size_t wl_on = slot(Opcode::wait_local, "on");
  const std::size_t wl_count = slot(Opcode::wait_local, "count");

  // Token producers, (to core, from core, transfer, kind) then instruction,
  // sorted: the producers of one token are a run, in program order. Packed
  // into two words without loss: `to` and `transfer` are u16 / u32 fields,
  // core ids are 32-bit, kinds take two bits.
  struct TokenKey {
    std::uint64_t cores, transfer_kind;
    bool operator==(const TokenKey&) const = default;
    bool operator<(const TokenKey& o) const {
      return std::tie(cores, transfer_kind) < std::tie(o.cores, o.transfer_kind);
    }
  };
  auto token_key = [](std::int64_t to, std::int64_t from, std::int64_t transfer,
                      std::int64_t kind) {
    return TokenKey{static_cast<std::uint64_t>(to) << 32 | static_cast<std::uint32_t>(from),
                    static_cast<std::uint64_t>(transfer) << 2 | static_cast<std::uint64_t>(kind)};
  };
  std::size_t n_produced = 0;
  for (std::size_t c = 0; c < n; ++c)
    for (const Instr& in : cores[c]->instrs)
      n_produced += in.op == Opcode::noc_send || in.op == Opcode::signal;
  std::vector<std::pair<TokenKey, std::size_t>> produced;
  produced.reserve(n_produced);
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t i = 0; i < cores[c]->instrs.size(); ++i) {
      const Instr& in = cores[c]->instrs[i];
      if (in.op == Opcode::noc_send)
        produced.push_back(
            {token_key(in.scalar(send_to), cores[c]->core_id, in.scalar(send_transfer),
                       static_cast<std::int64_t>(TokenKind::data)),
             base[c] + i});
      if (in.op == Opcode::signal)
        produced.push_back({token_key(in.scalar(sig_to), cores[c]->core_id, in.scalar(sig_transfer),
                                      in.scalar(sig_kind)),
                            base[c] + i});
    }
  std::sort(produced.begin(), produced.end());
  // The producers of a token: [first, last) of `produced`.
  auto producers = [&](const TokenKey& k) {
    const auto lo =
        std::lower_bound(produced.begin(), produced.end(), std::pair{k, std::size_t{0}});
    auto hi = lo;
    while (hi != produced.end() && hi->first == k) ++hi;
    return std::pair{lo, hi};
  };

  // V1 and the edges of V2: each instruction has at most two predecessors,
  // the previous instruction of its queue and what it waits for.
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::array<std::uint32_t, 2>> preds(base[n], {kNone, kNone});
  auto add_pred = [&](std::size_t g, std::size_t p) {
    preds[g][preds[g][0] == kNone ? 0 : 1] = static_cast<std::uint32_t>(p);
  };
  for (std::size_t c = 0; c < n; ++c) {
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
        const auto on = static_cast<std::size_t>(in.scalar(wl_on));
        const auto cnt = static_cast<std::size_t>(in.scalar(wl_count));
        if (on >= kEngines || cnt == 0) {
          problem(name(c, i) + ": waits on queue " + std::to_string(on) + " for " +
                  std::to_string(cnt) + " instructions (no such queue, or nothing to wait for)");
          continue;
        }
        if (cnt > queues[c][on].size()) {
          problem(name(c, i) + ": waits for " + std::to_string(cnt) + " instructions of queue " +
                  std::string(to_string(static_cast<Engine>(on))) + ", which has only " +
                  std::to_string(queues[c][on].size()));
          continue;
        }
        add_pred(g, base[c] + queues[c][on][cnt - 1]);
      } else if (in.op == Opcode::wait_token) {
        const auto [lo, hi] = producers(token_key(cores[c]->core_id, in.scalar(wt_from),
                                                  in.scalar(wt_transfer), in.scalar(wt_kind)));
        const auto cnt = static_cast<std::size_t>(in.scalar(wt_count));
        const auto have_n = static_cast<std::size_t>(hi - lo);
        if (cnt == 0 || cnt > have_n) {
          problem(name(c, i) + ": waits for " + std::to_string(cnt) + " token(s) of transfer " +
                  std::to_string(in.scalar(wt_transfer)) + " from core " +
                  std::to_string(in.scalar(wt_from)) + " but only " + std::to_string(have_n) +
                  " are ever sent to this core");
          continue;
        }
        add_pred(g, lo[static_cast<std::ptrdiff_t>(cnt) - 1].second);
      }
    }
  }

  // V2: Kahn over all instructions; what remains lies on or behind a cycle.
  {
    // Successors in one flat array (CSR), 32-bit: a program of more than
    // 4G instructions is refused below.
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
      problem("deadlock: " + chain);
    }
  }

  // V3 and V4, per core.
  // L2 is checked as one ring over [0, l2_bytes).
  const ir::RingRegion l2{0, lim.l2_bytes};
  for (std::size_t c = 0; c < n; ++c) {
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
        const auto on = static_cast<std::size_t>(in.scalar(wl_on));
        const auto cnt = static_cast<std::size_t>(in.scalar(wl_count));
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
          problem(name(c, i) + ": accesses [" + std::to_string(x.addr) + ", " +
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
            problem(name(c, i) + ": writes [" + std::to_string(x.addr) + ", " +
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
  }
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
