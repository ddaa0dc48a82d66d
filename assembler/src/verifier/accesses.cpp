// V3 and V4 (verification.h). Contract, for one core: V3, every L2 or
// WL0 access starts inside its memory and is no larger than it (L2 wraps
// as one ring over [0, l2_bytes); WL0 does not wrap); V4, no instruction
// writes an L2 range that an instruction of another queue of the core
// reads unless the waits order the read first (a credit signal stands for
// the remote write it permits). Problems of both in instruction order.
// Order is known through vector clocks: for each queue, how many of its
// instructions are ordered before an instruction.
#include <algorithm>
#include <tuple>

#include "verification.h"

namespace gemini::assembler::verifier {
namespace {

// The memory operands of each opcode, from the ISA table, worked out once:
// the fields that hold the address and the byte count, and when the
// operand is not used (the table's operand rules, isa.h OperandRule).
struct OperandSlot {
  const Field* addr;
  const Field* bytes;  // nullptr: none
  bool write;
  Memory memory;
  bool remote;  // another core's L2 (noc_send's destination)
  // Used only while this field lies in [lo, hi] (nullptr: always).
  const Field* when = nullptr;
  std::int64_t lo = 0, hi = 0;
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
        OperandSlot x{&f, bytes, f.access == Access::write, f.memory, false};
        for (const OperandRule& r : o.rules) {
          if (r.slot != f.name) continue;
          if (r.remote) {
            x.remote = true;
            x.bytes = field(r.field);
          } else {
            x.when = field(r.field);
            x.lo = r.lo;
            x.hi = r.hi;
          }
        }
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
    if (s.when) {
      const std::int64_t v = in.value(*s.when);
      if (v < s.lo || v > s.hi) continue;
    }
    if (bytes <= 0 || out.n == out.a.size())
      continue;  // an unused slot (no weights, a data token's grant)
    out.a[out.n++] = {in.value(*s.addr), bytes, s.write, s.memory, s.remote};
  }
  return out;
}

// Which of 64 equal sectors of L2 the bytes of f touch. Only [0, l2_bytes)
// is compared (a read outside it was reported).
std::uint64_t sectors(const ir::Footprint& f, std::int64_t l2_bytes) {
  const std::int64_t sector_bytes = l2_bytes / 64 + 1;  // 64 of them cover L2
  std::uint64_t m = 0;
  for (const ir::ByteRange& r : f) {
    const std::int64_t b = std::max<std::int64_t>(r.begin, 0);
    const std::int64_t e = std::min(r.end, l2_bytes);
    if (e <= b) continue;
    const auto first = static_cast<std::uint64_t>(b / sector_bytes);
    const auto last = static_cast<std::uint64_t>((e - 1) / sector_bytes);
    const std::uint64_t width = last - first + 1;
    m |= (width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1) << first;
  }
  return m;
}

// V3: an access outside a memory of `cap` bytes (WL0 accesses may not wrap).
bool outside(const MemAccess& x, std::int64_t cap) {
  return x.addr < 0 || x.addr >= cap || x.bytes > cap ||
         (x.memory == Memory::wl0 && x.addr + x.bytes > cap);
}

}  // namespace

void Verification::check_accesses(std::size_t c) {
  // L2 is checked as one ring over [0, l2_bytes).
  const ir::RingRegion l2{0, lim_.l2_bytes};
  const auto& ins = cores_[c]->instrs;
  // Vector clocks: for each queue, how many of its instructions are
  // ordered before an instruction. Kept for the latest instruction of each
  // queue and for the instructions a wait_local of this core names (the
  // only earlier clocks read), not for every instruction.
  using Clock = std::array<std::uint32_t, kEngines>;
  std::vector<std::uint32_t> snapshot_of(ins.size(), kNone);
  std::vector<Clock> snapshots;
  for (std::size_t i = 0; i < ins.size(); ++i) {
    const Wait& w = waits_for_[base_[c] + i];
    if (ins[i].op != Opcode::wait_local || w.instr == kNone) continue;
    const std::size_t j = w.instr - base_[c];
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
  for (std::size_t i = 0; i < ins.size(); ++i) {
    const Instr& in = ins[i];
    const auto q = static_cast<std::size_t>(in.queue);
    // Updated in place: a copy of the whole clock right after one of its
    // entries is stored cannot be forwarded from the store, and stalls.
    Clock& k = latest[q];
    k[q] = std::max(k[q], issued[q]);  // the queue's earlier instructions
    if (in.op == Opcode::wait_local) {
      const auto on = static_cast<std::size_t>(in.value(*sl_.wl_on));
      const auto cnt = static_cast<std::size_t>(in.value(*sl_.wl_count));
      if (on < kEngines) k[on] = std::max<std::uint32_t>(k[on], static_cast<std::uint32_t>(cnt));
      // An earlier instruction it waits for (V1 found it) orders all it was ordered after.
      const Wait& w = waits_for_[base_[c] + i];
      if (w.instr != kNone && w.instr - base_[c] < i) {
        const Clock& kj = snapshots[snapshot_of[w.instr - base_[c]]];
        for (std::size_t e = 0; e < kEngines; ++e) k[e] = std::max(k[e], kj[e]);
      }
    }
    ++issued[q];
    if (snapshot_of[i] != kNone) snapshots[snapshot_of[i]] = k;

    const Accesses xs = accesses(in);
    for (const MemAccess& x : xs) {
      if (x.memory == Memory::dram) continue;
      if (const std::int64_t cap = x.memory == Memory::wl0 ? lim_.wl0_bytes : lim_.l2_bytes;
          outside(x, cap)) {
        hazards_found_.add(c, name(c, i) + ": accesses [" + std::to_string(x.addr) + ", " +
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
      const std::uint64_t mine = sectors(a, lim_.l2_bytes);
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
        hazards_found_.add(c, name(c, i) + ": writes [" + std::to_string(x.addr) + ", " +
                                  std::to_string(x.addr + x.bytes) + ") which " + name(c, h.instr) +
                                  " reads, and no wait orders the read first");
    }
    for (const MemAccess& x : xs) {
      if (x.memory != Memory::l2 || x.write || x.addr >= lim_.l2_bytes || x.bytes > lim_.l2_bytes)
        continue;
      const ir::Footprint f = l2.footprint(x.addr, x.bytes);
      reads[q].push_back(
          {f, sectors(f, lim_.l2_bytes), static_cast<std::uint32_t>(i), qpos_[base_[c] + i]});
    }
  }
}

}  // namespace gemini::assembler::verifier
