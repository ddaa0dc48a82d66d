#include "gemini/assembler/verifier.h"

#include <algorithm>
#include <boost/unordered/unordered_flat_map.hpp>
#include <limits>
#include <span>
#include <tuple>
#include <unordered_map>

#include "buckets.h"
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

}  // namespace

namespace {

// The token and wait fields, looked up once (read by table entry: no slot
// lookup per read).
struct SyncFields {
  const Field *send_to, *send_transfer, *sig_to, *sig_kind, *sig_transfer;
  const Field *wt_kind, *wt_transfer, *wt_from, *wt_count, *wl_on, *wl_count;
  const Field *di_transfer, *di_members, *di_part;
  const Field *ns_members, *ns_part, *ns_src, *ns_bytes;
  SyncFields() {
    auto field = [](Opcode op, std::string_view f) { return field_slot(op, f).field; };
    send_to = field(Opcode::noc_send, "to");
    send_transfer = field(Opcode::noc_send, "transfer");
    sig_to = field(Opcode::signal, "to");
    sig_kind = field(Opcode::signal, "kind");
    sig_transfer = field(Opcode::signal, "transfer");
    wt_kind = field(Opcode::wait_token, "kind");
    wt_transfer = field(Opcode::wait_token, "transfer");
    wt_from = field(Opcode::wait_token, "from");
    wt_count = field(Opcode::wait_token, "count");
    wl_on = field(Opcode::wait_local, "on");
    wl_count = field(Opcode::wait_local, "count");
    di_transfer = field(Opcode::dma_in, "transfer");
    di_members = field(Opcode::dma_in, "members");
    di_part = field(Opcode::dma_in, "part");
    ns_members = field(Opcode::noc_send, "members");
    ns_part = field(Opcode::noc_send, "part");
    ns_src = field(Opcode::noc_send, "src");
    ns_bytes = field(Opcode::noc_send, "bytes");
  }
};

// A token sent to a core: which token it is -- (sending core id, transfer
// << 2 | kind), packed without loss: transfers are u32 fields, kinds take
// two bits -- and the sending instruction's global number and queue (core
// index * kEngines + engine), which V2 needs.
struct TokenKey {
  std::int64_t from;
  std::uint64_t transfer_kind;
  bool operator==(const TokenKey&) const = default;
};
struct TokenKeyHash {
  std::size_t operator()(const TokenKey& k) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(k.from) * 0x9e3779b97f4a7c15ULL) ^
                                    (k.transfer_kind * 0xc2b2ae3d27d4eb4fULL));
  }
};
struct Produced {
  TokenKey key;
  std::uint32_t instr;
  std::uint32_t queue = 0;
};

// The tokens sent to one core, grouped by token, each group in program
// order (the order a wait counts them in), and where each group lies.
struct Received {
  static constexpr std::uint32_t kUnplaced = std::numeric_limits<std::uint32_t>::max();
  struct Run {
    std::uint32_t first = 0, count = 0;
    std::uint32_t next = kUnplaced;  // while grouping: where its next token goes
  };
  std::vector<Produced> tokens;
  boost::unordered_flat_map<TokenKey, Run, TokenKeyHash> runs;

  // The tokens of core r's bucket of every core's sends, taken sender by
  // sender, each sender's in its program order: so each token's sends come
  // in program order (they all come from one sender, or from cores sharing
  // its id, in core order). Grouped by a counting sort, which keeps that
  // order; groups lie in the order of their first token.
  Received(const std::vector<detail::Buckets<Produced>>& sent, std::size_t r) {
    std::size_t count = 0;
    for (const auto& from : sent) count += from.of(r).size();
    tokens.resize(count);
    runs.reserve(count);
    for (const auto& from : sent)
      for (const Produced& x : from.of(r)) ++runs[x.key].count;
    std::uint32_t at = 0;
    for (const auto& from : sent)
      for (const Produced& x : from.of(r)) {
        Run& g = runs.find(x.key)->second;
        if (g.next == kUnplaced) {
          g.first = g.next = at;
          at += g.count;
        }
        tokens[g.next++] = x;
      }
  }
  // The run of token `key`, in program order (empty if it is never sent here).
  std::span<const Produced> of(const TokenKey& key) const {
    auto it = runs.find(key);
    if (it == runs.end()) return {};
    return {tokens.data() + it->second.first, it->second.count};
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
  // Core id -> index (every send and signal looks its receiver up).
  boost::unordered_flat_map<std::int32_t, std::uint32_t> index;
  for (std::size_t c = 0; c < n; ++c) index[cores[c]->core_id] = static_cast<std::uint32_t>(c);

  // Global numbering and per-queue positions.
  std::vector<std::size_t> base(n + 1, 0);
  for (std::size_t c = 0; c < n; ++c) base[c + 1] = base[c] + cores[c]->instrs.size();
  if (base[n] >= std::numeric_limits<std::uint32_t>::max()) {
    problems.push_back("the program has " + std::to_string(base[n]) +
                       " instructions; the verifier numbers them in 32 bits");
    return problems;
  }
  const SyncFields sl;
  // The core of global instruction g.
  auto core_of = [&](std::size_t g) {
    return static_cast<std::size_t>(std::upper_bound(base.begin(), base.end(), g) - base.begin()) -
           1;
  };
  std::vector<std::uint32_t> qpos(base[n]);
  std::vector<std::array<std::vector<std::uint32_t>, kEngines>> queues(n);
  auto receiver = [&](std::int64_t to) -> std::optional<std::uint32_t> {
    if (to < std::numeric_limits<std::int32_t>::min() ||
        to > std::numeric_limits<std::int32_t>::max())
      return std::nullopt;
    auto it = index.find(static_cast<std::int32_t>(to));
    if (it == index.end()) return std::nullopt;
    return it->second;
  };
  // Per core: its queues, and the tokens it sends bucketed by receiving core.
  std::vector<detail::Buckets<Produced>> sent(n);
  // Per core: its multicast dma_ins (global number), and V5's problems.
  std::vector<std::vector<std::uint32_t>> joins(n);
  Problems mc_found(n, max_problems);
  ir::parallel_for(n, [&](std::size_t c) {
    std::vector<std::pair<std::uint32_t, Produced>> sends;  // (receiving core, token)
    // V5 for NoC multicast: the noc_sends of the open group (local
    // numbers) and their entries in `sends`. A member's data token comes
    // when the last member is sent: its producer is the last member.
    std::vector<std::pair<std::size_t, std::size_t>> group;
    auto bad_group = [&](std::size_t i, const std::string& why) {
      mc_found.add(c, "core " + std::to_string(cores[c]->core_id) + " #" + std::to_string(i) +
                          " noc_send: " + why);
      group.clear();
    };
    const auto& ins = cores[c]->instrs;
    std::array<std::size_t, kEngines> per_queue{};
    for (const Instr& in : ins) ++per_queue[static_cast<std::size_t>(in.queue)];
    for (std::size_t e = 0; e < kEngines; ++e) queues[c][e].reserve(per_queue[e]);
    for (std::size_t i = 0; i < ins.size(); ++i) {
      const Instr& in = ins[i];
      auto& q = queues[c][static_cast<std::size_t>(in.queue)];
      q.push_back(static_cast<std::uint32_t>(i));
      qpos[base[c] + i] = static_cast<std::uint32_t>(q.size());
      std::optional<std::uint32_t> r;
      std::uint64_t tk = 0;
      if (in.op == Opcode::dma_in) {
        const std::int64_t members = in.value(*sl.di_members), part = in.value(*sl.di_part);
        if (members == 1 || (members == 0 && part != 0))
          mc_found.add(c, "core " + std::to_string(cores[c]->core_id) + " #" + std::to_string(i) +
                              " dma_in: members=" + std::to_string(members) +
                              " part=" + std::to_string(part) +
                              " (a multicast has two or more members; part needs one)");
        else if (members >= 2)
          joins[c].push_back(static_cast<std::uint32_t>(base[c] + i));
      }
      if (in.op == Opcode::noc_send) {
        r = receiver(in.value(*sl.send_to));
        tk = transfer_kind(in.value(*sl.send_transfer), static_cast<std::int64_t>(TokenKind::data));
        const std::int64_t members = in.value(*sl.ns_members), part = in.value(*sl.ns_part);
        if (!group.empty() && part != static_cast<std::int64_t>(group.size()))
          bad_group(group.back().first, "its multicast group ends after " +
                                            std::to_string(group.size()) + " of " +
                                            std::to_string(members) + " members");
        if (members == 1 || (members == 0 && part != 0) || (members >= 2 && part >= members)) {
          bad_group(i, "members=" + std::to_string(members) + " part=" + std::to_string(part) +
                           " (a multicast has two or more members, parts 0 to members - 1)");
        } else if (members >= 2) {
          if (!group.empty()) {
            const Instr& f = ins[group.front().first];
            bool dup = false;
            for (const auto& [j, s] : group)
              dup |= ins[j].value(*sl.send_to) == in.value(*sl.send_to);
            if (f.value(*sl.ns_members) != members || f.value(*sl.ns_src) != in.value(*sl.ns_src) ||
                f.value(*sl.ns_bytes) != in.value(*sl.ns_bytes) ||
                f.value(*sl.send_transfer) != in.value(*sl.send_transfer) || dup)
              bad_group(i,
                        "a multicast member differs from its group's first (members, src, "
                        "bytes, transfer) or sends to a core twice");
          }
          if (part == static_cast<std::int64_t>(group.size()))
            group.push_back({i, r ? sends.size() : SIZE_MAX});
        }
      } else if (in.op == Opcode::signal) {
        r = receiver(in.value(*sl.sig_to));
        tk = transfer_kind(in.value(*sl.sig_transfer), in.value(*sl.sig_kind));
      }
      if (r)
        sends.push_back({*r, Produced{{cores[c]->core_id, tk},
                                      static_cast<std::uint32_t>(base[c] + i),
                                      static_cast<std::uint32_t>(
                                          c * kEngines + static_cast<std::size_t>(in.queue))}});
      if (!group.empty() && group.back().first == i &&
          static_cast<std::int64_t>(group.size()) == in.value(*sl.ns_members)) {
        for (const auto& [j, s] : group)
          if (s < sends.size()) sends[s].second.instr = static_cast<std::uint32_t>(base[c] + i);
        group.clear();
      }
    }
    if (!group.empty())
      bad_group(group.back().first,
                "its multicast group ends after " + std::to_string(group.size()) + " members");
    sent[c] = detail::bucket<Produced>(n, [&](const auto& put) {
      for (const auto& [r, x] : sends) put(r, x);
    });
  });

  auto name = [&](std::size_t c, std::size_t i) {
    return "core " + std::to_string(cores[c]->core_id) + " #" + std::to_string(i) + " " +
           std::string(cores[c]->instrs[i].info().mnemonic);
  };

  // V5: the dma_ins of a multicast group -- (transfer, part) -- are one
  // on each of `members` distinct cores, and agree on `members`. Valid
  // groups join in V2: none of them retires before all have been reached.
  struct Join {
    std::vector<std::uint32_t> instrs;  // global numbers, in core order
    std::uint32_t arrived = 0;
    std::vector<std::uint32_t> parked;  // queues stopped at a member
    bool valid = true;
  };
  std::vector<Join> groups;
  boost::unordered_flat_map<std::uint32_t, std::uint32_t> group_of;  // instruction -> group
  {
    auto instr_at = [&](std::uint32_t g) -> const Instr& {
      const std::size_t c = core_of(g);
      return cores[c]->instrs[g - base[c]];
    };
    boost::unordered_flat_map<std::uint64_t, std::uint32_t> by_key;
    for (std::size_t c = 0; c < n; ++c)
      for (const std::uint32_t g : joins[c]) {
        const Instr& in = instr_at(g);
        const std::uint64_t key = static_cast<std::uint64_t>(in.value(*sl.di_transfer)) << 16 |
                                  static_cast<std::uint64_t>(in.value(*sl.di_part));
        auto [it, fresh] = by_key.try_emplace(key, static_cast<std::uint32_t>(groups.size()));
        if (fresh) groups.emplace_back();
        groups[it->second].instrs.push_back(g);
        group_of[g] = it->second;
      }
    for (Join& j : groups) {
      const Instr& first = instr_at(j.instrs.front());
      const std::int64_t members = first.value(*sl.di_members);
      std::string cores_list;
      bool twice = false;
      for (std::size_t k = 0; k < j.instrs.size(); ++k) {
        const std::size_t c = core_of(j.instrs[k]);
        twice |= k > 0 && core_of(j.instrs[k - 1]) == c;
        cores_list += (k ? ", " : "") + std::to_string(cores[c]->core_id);
        if (instr_at(j.instrs[k]).value(*sl.di_members) != members) j.valid = false;
      }
      if (twice || !j.valid || static_cast<std::int64_t>(j.instrs.size()) != members) {
        j.valid = false;
        mc_found.add(core_of(j.instrs.front()),
                     "multicast of transfer " + std::to_string(first.value(*sl.di_transfer)) +
                         " part " + std::to_string(first.value(*sl.di_part)) +
                         ": members=" + std::to_string(members) + " but its dma_ins are on cores " +
                         cores_list + (twice ? " (a core twice)" : ""));
      }
    }
  }

  // V1 and the edges of V2: besides the previous instruction of its queue,
  // an instruction waits for at most one other, the one whose retirement
  // its wait names.
  // Queue k * kEngines + e is queue e of core k.
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  struct Wait {
    std::uint32_t instr = kNone;  // what it waits for, or kNone
    std::uint32_t queue = 0;      // that instruction's queue
  };
  std::vector<Wait> waits_for(base[n]);
  // V1 for a core, which fills its part of waits_for.
  auto check_waits = [&](std::size_t c) {
    // The tokens this core can wait for (those sent to the last core with
    // its id, which is where index sends them), grouped on the thread that
    // reads them, while they are in its cache.
    const Received tokens(sent, index.at(cores[c]->core_id));
    for (std::size_t i = 0; i < cores[c]->instrs.size(); ++i) {
      const Instr& in = cores[c]->instrs[i];
      const std::size_t g = base[c] + i;
      if (in.op == Opcode::wait_local) {
        const auto on = static_cast<std::size_t>(in.value(*sl.wl_on));
        const auto cnt = static_cast<std::size_t>(in.value(*sl.wl_count));
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
        waits_for[g] = {static_cast<std::uint32_t>(base[c] + queues[c][on][cnt - 1]),
                        static_cast<std::uint32_t>(c * kEngines + on)};
      } else if (in.op == Opcode::wait_token) {
        const std::span<const Produced> run =
            tokens.of({in.value(*sl.wt_from),
                       transfer_kind(in.value(*sl.wt_transfer), in.value(*sl.wt_kind))});
        const auto cnt = static_cast<std::size_t>(in.value(*sl.wt_count));
        const std::size_t have_n = run.size();
        if (cnt == 0 || cnt > have_n) {
          found.add(c, name(c, i) + ": waits for " + std::to_string(cnt) +
                           " token(s) of transfer " + std::to_string(in.value(*sl.wt_transfer)) +
                           " from core " + std::to_string(in.value(*sl.wt_from)) + " but only " +
                           std::to_string(have_n) + " are ever sent to this core");
          continue;
        }
        const Produced& w = run[cnt - 1];
        waits_for[g] = {w.instr, w.queue};
      }
    }
  };
  // V3 and V4, per core.
  // L2 is checked as one ring over [0, l2_bytes).
  const ir::RingRegion l2{0, lim.l2_bytes};
  Problems hazards_found(n, max_problems);
  auto check_accesses = [&](std::size_t c) {
    const auto& ins = cores[c]->instrs;
    // Vector clocks: for each queue, how many of its instructions are
    // ordered before an instruction. Kept for the latest instruction of each
    // queue and for the instructions a wait_local of this core names (the
    // only earlier clocks read), not for every instruction.
    using Clock = std::array<std::uint32_t, kEngines>;
    std::vector<std::uint32_t> snapshot_of(ins.size(), kNone);
    std::vector<Clock> snapshots;
    for (std::size_t i = 0; i < ins.size(); ++i) {
      const Wait& w = waits_for[base[c] + i];
      if (ins[i].op != Opcode::wait_local || w.instr == kNone) continue;
      const std::size_t j = w.instr - base[c];
      if (j < i && snapshot_of[j] == kNone) {
        snapshot_of[j] = static_cast<std::uint32_t>(snapshots.size());
        snapshots.emplace_back();
      }
    }
    std::array<Clock, kEngines> latest{};          // of the latest instruction of each queue
    std::array<std::uint32_t, kEngines> issued{};  // instructions of each queue so far
    // The L2 reads so far, per queue, in program order (so by position in
    // their queue); beside each, which of 64 equal sectors of L2 its bytes
    // touch, so that a write tests the exact ranges only of the reads that
    // share a sector with it.
    struct Read {
      ir::Footprint s;
      std::uint64_t sectors;
      std::uint32_t instr;
      std::uint32_t pos;  // its position in its queue, from 1
    };
    std::array<std::vector<Read>, kEngines> reads;
    // A write on queue q is ordered after the reads of queue Q up to position
    // k[Q] of its clock. Clocks of one queue's instructions only grow, so
    // the first read of Q that queue q's next write is not known to be
    // ordered after only moves forward: unordered[q][Q].
    std::array<std::array<std::size_t, kEngines>, kEngines> unordered{};
    struct Hazard {
      std::uint32_t instr;
      std::size_t index;  // in its queue's list: an instruction's reads in operand order
      bool operator<(const Hazard& o) const {
        return std::tie(instr, index) < std::tie(o.instr, o.index);
      }
    };
    std::vector<Hazard> hazards;
    const std::int64_t sector_bytes = lim.l2_bytes / 64 + 1;  // 64 of them cover L2
    auto sectors = [&](const ir::Footprint& f) {
      std::uint64_t m = 0;
      for (const ir::ByteRange& r : f) {
        // Only [0, l2_bytes) is compared (a read outside it was reported).
        const std::int64_t b = std::max<std::int64_t>(r.begin, 0);
        const std::int64_t e = std::min(r.end, lim.l2_bytes);
        if (e <= b) continue;
        const auto first = static_cast<std::uint64_t>(b / sector_bytes);
        const auto last = static_cast<std::uint64_t>((e - 1) / sector_bytes);
        const std::uint64_t width = last - first + 1;
        m |= (width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1) << first;
      }
      return m;
    };
    for (std::size_t i = 0; i < ins.size(); ++i) {
      const Instr& in = ins[i];
      const auto q = static_cast<std::size_t>(in.queue);
      // Updated in place: a copy of the whole clock right after one of its
      // entries is stored cannot be forwarded from the store, and stalls.
      Clock& k = latest[q];
      k[q] = std::max(k[q], issued[q]);  // the queue's earlier instructions
      if (in.op == Opcode::wait_local) {
        const auto on = static_cast<std::size_t>(in.value(*sl.wl_on));
        const auto cnt = static_cast<std::size_t>(in.value(*sl.wl_count));
        if (on < kEngines) k[on] = std::max<std::uint32_t>(k[on], static_cast<std::uint32_t>(cnt));
        // An earlier instruction it waits for (V1 found it) orders all it was ordered after.
        const Wait& w = waits_for[base[c] + i];
        if (w.instr != kNone && w.instr - base[c] < i) {
          const Clock& kj = snapshots[snapshot_of[w.instr - base[c]]];
          for (std::size_t e = 0; e < kEngines; ++e) k[e] = std::max(k[e], kj[e]);
        }
      }
      ++issued[q];
      if (snapshot_of[i] != kNone) snapshots[snapshot_of[i]] = k;

      const Accesses xs = accesses(in);
      for (const MemAccess& x : xs) {
        const std::int64_t cap = x.memory == Memory::wl0 ? lim.wl0_bytes : lim.l2_bytes;
        if (x.memory == Memory::dram) continue;
        if (x.addr < 0 || x.addr >= cap || x.bytes > cap ||
            (x.memory == Memory::wl0 && x.addr + x.bytes > cap)) {
          hazards_found.add(c, name(c, i) + ": accesses [" + std::to_string(x.addr) + ", " +
                                   std::to_string(x.addr + x.bytes) + ") outside " +
                                   (x.memory == Memory::wl0 ? "WL0" : "L2") + " of " +
                                   std::to_string(cap) + " bytes");
          continue;
        }
        if (x.memory != Memory::l2 || x.remote || !x.write) continue;
        // The reads of other queues not ordered before this write: any of
        // them that overlaps it is a hazard. (A read of its own queue
        // retires first.)
        const ir::Footprint a = l2.footprint(x.addr, x.bytes);
        const std::uint64_t mine = sectors(a);
        hazards.clear();
        for (std::size_t rq = 0; rq < kEngines; ++rq) {
          if (rq == q) continue;
          const std::vector<Read>& list = reads[rq];
          std::size_t& from = unordered[q][rq];
          while (from < list.size() && list[from].pos <= k[rq]) ++from;
          for (std::size_t j = from; j < list.size(); ++j) {
            const Read& r = list[j];
            if ((r.sectors & mine) != 0 && r.instr != i && a.overlaps(r.s))
              hazards.push_back({r.instr, j});
          }
        }
        std::sort(hazards.begin(), hazards.end());  // the report in program order
        for (const Hazard& h : hazards)
          hazards_found.add(c, name(c, i) + ": writes [" + std::to_string(x.addr) + ", " +
                                   std::to_string(x.addr + x.bytes) + ") which " +
                                   name(c, h.instr) + " reads, and no wait orders the read first");
      }
      for (const MemAccess& x : xs) {
        if (x.memory != Memory::l2 || x.write || x.addr >= lim.l2_bytes || x.bytes > lim.l2_bytes)
          continue;
        const ir::Footprint f = l2.footprint(x.addr, x.bytes);
        reads[q].push_back({f, sectors(f), static_cast<std::uint32_t>(i), qpos[base[c] + i]});
      }
    }
  };
  // Per core, V1 and then V3 and V4, which read only that core's part of
  // waits_for: one pass over the core while its instructions are in the
  // cache of the thread that checks it. Their problems are reported in
  // the order of the checks: V1, V2, then V3 and V4.
  ir::parallel_for(n, [&](std::size_t c) {
    check_waits(c);
    check_accesses(c);
  });
  found.drain_into(problems);
  // V2: every queue retires in order, and an instruction that waits
  // retires once what it waits for has. Queues advance as far as they can;
  // one that stops at a wait is parked on the queue it waits for and woken
  // when that queue passes the instruction. What never retires lies on or
  // behind a cycle. (The same fixpoint as Kahn's algorithm over the
  // queue-order and wait edges, without building the edge lists.)
  {
    // retired[k] counts queue k's retired instructions, so instruction g
    // has retired iff retired[queue_of(g)] >= qpos[g].
    auto queue_of = [&](std::size_t g) {
      const std::size_t c = core_of(g);
      return c * kEngines + static_cast<std::size_t>(cores[c]->instrs[g - base[c]].queue);
    };
    std::vector<std::uint32_t> retired(n * kEngines, 0);
    struct Parked {
      std::uint32_t until;  // the position the queue must pass
      std::uint32_t queue;  // the parked queue
    };
    std::vector<std::vector<Parked>> parked(n * kEngines);
    // Per queue: the position (from 1) of the multicast member it has reached.
    std::vector<std::uint32_t> reached(n * kEngines, 0);
    std::vector<std::uint32_t> work;
    for (std::size_t k = 0; k < n * kEngines; ++k)
      if (!queues[k / kEngines][k % kEngines].empty())
        work.push_back(static_cast<std::uint32_t>(k));
    while (!work.empty()) {
      const std::uint32_t k = work.back();
      work.pop_back();
      const std::size_t c = k / kEngines;
      const std::vector<std::uint32_t>& list = queues[c][k % kEngines];
      std::uint32_t& done = retired[k];
      while (done < list.size()) {
        const std::uint32_t g = static_cast<std::uint32_t>(base[c] + list[done]);
        const Wait& w = waits_for[g];
        if (w.instr != kNone && retired[w.queue] < qpos[w.instr]) {
          parked[w.queue].push_back({qpos[w.instr], k});
          break;
        }
        if (!group_of.empty() && cores[c]->instrs[list[done]].op == Opcode::dma_in) {
          auto it = group_of.find(g);
          if (it != group_of.end() && groups[it->second].valid) {
            Join& j = groups[it->second];
            if (reached[k] != done + 1) {  // this queue reaches the member now
              reached[k] = done + 1;
              if (++j.arrived == j.instrs.size())
                for (const std::uint32_t q : j.parked) work.push_back(q);
            }
            if (j.arrived < j.instrs.size()) {
              j.parked.push_back(k);
              break;
            }
          }
        }
        ++done;
      }
      std::vector<Parked>& waiting = parked[k];
      for (std::size_t i = 0; i < waiting.size();) {
        if (waiting[i].until <= done) {
          work.push_back(waiting[i].queue);
          waiting[i] = waiting.back();
          waiting.pop_back();
        } else {
          ++i;
        }
      }
    }
    bool all_retired = true;
    for (std::size_t k = 0; k < n * kEngines; ++k)
      all_retired &= retired[k] == queues[k / kEngines][k % kEngines].size();
    if (!all_retired) {
      auto unfinished = [&](std::size_t g) { return retired[queue_of(g)] < qpos[g]; };
      std::size_t g = 0;
      while (!unfinished(g)) ++g;
      auto where = [&](std::size_t x) {
        const std::size_t c = core_of(x);
        return name(c, x - base[c]);
      };
      // Walk back through unfinished predecessors (the previous instruction
      // of the queue first, then the waited-for one) until a node repeats.
      std::vector<std::size_t> path;
      std::unordered_map<std::size_t, std::size_t> seen;
      while (!seen.count(g)) {
        seen[g] = path.size();
        path.push_back(g);
        const std::size_t c = core_of(g);
        const std::uint32_t pos = qpos[g];
        const auto& list = queues[c][static_cast<std::size_t>(cores[c]->instrs[g - base[c]].queue)];
        if (pos >= 2 && unfinished(base[c] + list[pos - 2])) {
          g = base[c] + list[pos - 2];
        } else if (waits_for[g].instr != kNone && unfinished(waits_for[g].instr)) {
          g = waits_for[g].instr;
        } else if (auto it = group_of.find(static_cast<std::uint32_t>(g)); it != group_of.end()) {
          // A member waits for the members whose queues have not reached them.
          for (const std::uint32_t m : groups[it->second].instrs) {
            const std::size_t mc = core_of(m);
            const auto& ml =
                queues[mc][static_cast<std::size_t>(cores[mc]->instrs[m - base[mc]].queue)];
            if (qpos[m] >= 2 && unfinished(base[mc] + ml[qpos[m] - 2])) {
              g = m;
              break;
            }
          }
        }
      }
      std::string chain;
      for (std::size_t k = path.size(); k-- > seen[g];) chain += where(path[k]) + " -> ";
      chain += where(g);
      if (problems.size() < max_problems) problems.push_back("deadlock: " + chain);
    }
  }

  hazards_found.drain_into(problems);
  mc_found.drain_into(problems);
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
