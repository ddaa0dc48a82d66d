#pragma once
// The verifier's shared state and its checks (internal to the assembler;
// verifier.h states the checks, docs/isa.md "Verifier" describes them).
// One Verification runs, in this order:
//   scan.cpp       numbering, each queue's instructions, the tokens each
//                  core sends, and V5 on each core's multicast members
//   multicast.cpp  V5 across cores: the dma_in groups of a multicast
//   waits.cpp      V1: what each wait waits for (per core)
//   accesses.cpp   V3 and V4: bounds and write-after-read (per core)
//   deadlock.cpp   V2: every queue retires; else the cycle, reported
// V1, V3 and V4 read one core's instructions and the tokens sent to it,
// so cores are checked in parallel; V2 is one pass over all cores.
// Problems are reported in the order of the checks: V1, V2, then V3 and
// V4, then V5.

#include <algorithm>
#include <array>
#include <boost/unordered/unordered_flat_map.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "buckets.h"
#include "gemini/assembler/verifier.h"

namespace gemini::assembler::verifier {

// The token and wait fields, looked up once (read by table entry: no slot
// lookup per read).
struct SyncFields {
  const Field *send_to, *send_transfer, *sig_to, *sig_kind, *sig_transfer;
  const Field *wt_kind, *wt_transfer, *wt_from, *wt_count, *wl_on, *wl_count;
  const Field *di_transfer, *di_members, *di_part;
  const Field *ns_members, *ns_part, *ns_src, *ns_bytes;
  SyncFields();
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
inline std::uint64_t transfer_kind(std::int64_t transfer, std::int64_t kind) {
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

// V5: the dma_ins of a multicast group -- (transfer, part) -- are one on
// each of `members` distinct cores, and agree on `members`. Valid groups
// join in V2: none of them retires before all have been reached.
struct Join {
  std::vector<std::uint32_t> instrs;  // global numbers, in core order
  std::uint32_t arrived = 0;
  std::vector<std::uint32_t> parked;  // queues stopped at a member
  bool valid = true;
};

// Besides the previous instruction of its queue, an instruction waits for
// at most one other, the one whose retirement its wait names (V1 finds
// it). Queue k * kEngines + e is queue e of core k.
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
struct Wait {
  std::uint32_t instr = kNone;  // what it waits for, or kNone
  std::uint32_t queue = 0;      // that instruction's queue
};

class Verification {
 public:
  Verification(const std::vector<const CoreProgram*>& cores, const VerifyLimits& lim,
               std::size_t max_problems)
      : cores_(cores),
        n_(cores.size()),
        lim_(lim),
        max_(max_problems),
        found_(n_, max_problems),
        mc_found_(n_, max_problems),
        hazards_found_(n_, max_problems) {}
  std::vector<std::string> run();

 private:
  // scan.cpp
  bool number();
  void scan(std::size_t c);
  // multicast.cpp
  void check_multicast_groups();
  // waits.cpp
  void check_waits(std::size_t c);
  // accesses.cpp
  void check_accesses(std::size_t c);
  // deadlock.cpp
  void check_deadlock(std::vector<std::string>& problems);
  void report_deadlock(const std::vector<std::uint32_t>& retired,
                       std::vector<std::string>& problems) const;

  // The core of global instruction g.
  std::size_t core_of(std::size_t g) const {
    return static_cast<std::size_t>(std::upper_bound(base_.begin(), base_.end(), g) -
                                    base_.begin()) -
           1;
  }
  const Instr& instr_at(std::uint32_t g) const {
    const std::size_t c = core_of(g);
    return cores_[c]->instrs[g - base_[c]];
  }
  // "core 3 #120 pe_run": how problems name an instruction.
  std::string name(std::size_t c, std::size_t i) const {
    return "core " + std::to_string(cores_[c]->core_id) + " #" + std::to_string(i) + " " +
           std::string(cores_[c]->instrs[i].info().mnemonic);
  }
  // The core index a send or signal to core id `to` reaches.
  std::optional<std::uint32_t> receiver(std::int64_t to) const {
    if (to < std::numeric_limits<std::int32_t>::min() ||
        to > std::numeric_limits<std::int32_t>::max())
      return std::nullopt;
    auto it = index_.find(static_cast<std::int32_t>(to));
    if (it == index_.end()) return std::nullopt;
    return it->second;
  }

  const std::vector<const CoreProgram*>& cores_;
  const std::size_t n_;
  const VerifyLimits lim_;
  const std::size_t max_;
  const SyncFields sl_;
  Problems found_, mc_found_, hazards_found_;  // V1; V5; V3 and V4
  // Core id -> index (every send and signal looks its receiver up).
  boost::unordered_flat_map<std::int32_t, std::uint32_t> index_;
  // Global numbering: core c's instruction i is base_[c] + i; qpos_ its
  // position (from 1) in its queue.
  std::vector<std::size_t> base_;
  std::vector<std::uint32_t> qpos_;
  std::vector<std::array<std::vector<std::uint32_t>, kEngines>> queues_;
  // Per core: the tokens it sends bucketed by receiving core, and its
  // multicast dma_ins (global number).
  std::vector<detail::Buckets<Produced>> sent_;
  std::vector<std::vector<std::uint32_t>> joins_;
  std::vector<Join> groups_;
  boost::unordered_flat_map<std::uint32_t, std::uint32_t> group_of_;  // instruction -> group
  std::vector<Wait> waits_for_;
};

}  // namespace gemini::assembler::verifier
