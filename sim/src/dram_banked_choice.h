#pragma once
// The first-ready choice of a `banked` controller queue (dram_banked.cpp):
// among the bursts that have arrived, the oldest of those whose next
// command can issue first -- found over the queue's classes
// (dram_banked_queue.h), each standing for its oldest burst.
//
// Contract: banked_first_ready() returns exactly the burst and command that
// a look at every arrived burst with banked_ready() of its own would (the
// earliest clock, the oldest on a tie); it only saves looking:
//   - a class's memo (BankedBursts::Memo) keeps its bank's next command and
//     clock, but for the column limits and the CAS sync, while the bank is
//     unchanged (BankedChannel::unchanged_since);
//   - a queue's floor (BankedFloor) is a clock before which none of its
//     classes whose next command is not a column command can issue. A RD,
//     WR or CAS makes no such class ready sooner (a RD or WR only delays
//     its bank's PRE), so the floor holds until another command issues
//     (the caller then drops it) and takes in each new class as it comes.
//     With the channel's column floor, once the oldest ready so far is at
//     the floor the younger classes are not looked at.
// All times are DRAM clocks.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "dram_banked_channel.h"
#include "dram_banked_queue.h"
#include "gemini/sim/dram_model.h"

namespace gemini::sim {

enum class BankedCmd : std::uint8_t { pre, act, act2, cas, col, prea, ref };

// Class k's memo: its next command and its clock but for the column limits
// and the sync (as from any time).
inline void banked_memo(const BankedChannel& ch, const BankedBursts::Class& k) {
  BankedBursts::Memo& m = k.memo;
  m.stamp = ch.stamp();
  const BankedChannel::Bank& b = ch.bank(k.bank);
  const std::int64_t any = BankedChannel::kLongAgo;
  BankedCmd c = BankedCmd::pre;
  m.at = ch.pre_at(k.bank, any);
  if (b.half_open) {  // any burst of the bank may issue ACT-2
    c = BankedCmd::act2, m.at = any;
  } else if (ch.is_open(k.bank, k.row)) {
    c = BankedCmd::col, m.at = b.next_col;
  } else if (b.open_row < 0) {
    c = BankedCmd::act, m.at = ch.act_at(k.bank, k.group, any);
  }
  m.cmd = static_cast<std::uint8_t>(c);
}

// The next command of class k's oldest burst, arrived by t, and its
// earliest clock from t: the memo's (made anew when stale), the column
// limits and the CAS sync as they are now.
inline std::int64_t banked_ready(const BankedChannel& ch, const BankedBursts::Class& k,
                                 std::int64_t t, BankedCmd& cmd) {
  const BankedBursts::Memo& m = k.memo;
  if (!ch.unchanged_since(k.bank, m.stamp)) banked_memo(ch, k);
  cmd = static_cast<BankedCmd>(m.cmd);
  const std::int64_t at = std::max(t, m.at);
  if (cmd != BankedCmd::col) return at;
  const std::int64_t col = std::max(at, ch.col_limit(k.group, k.write));
  if (!ch.needs_sync(col)) return col;
  cmd = BankedCmd::cas;
  return std::max(t, ch.synced_until() + 1);
}

// A queue's floor (header): valid until the caller drops it.
struct BankedFloor {
  std::int64_t at = 0;
  bool valid = false;

  // Takes in class k, new to the queue.
  void add(const BankedChannel& ch, const BankedBursts::Class& k) {
    if (!valid) return;
    banked_memo(ch, k);
    if (static_cast<BankedCmd>(k.memo.cmd) != BankedCmd::col) at = std::min(at, k.memo.at);
  }
  // No class of the queue can issue before this from t.
  std::int64_t all_from(const BankedChannel& ch, std::int64_t t) const {
    if (!valid) return BankedChannel::kLongAgo;
    std::int64_t f = std::min(ch.col_floor(), at);
    if (ch.needs_sync(kNever)) f = std::min(f, ch.synced_until() + 1);  // a CAS first
    return std::max(f, t);
  }
};

struct BankedPick {
  std::size_t i = 0;  // the burst's index in its queue
  BankedCmd cmd = BankedCmd::col;
  std::int64_t at = kNever;
};

// The oldest of the first ready among queue q's first n bursts (those
// arrived by t), from t (at kNever when n is 0); makes the floor when it
// looks at every class.
inline BankedPick banked_first_ready(const BankedChannel& ch, const BankedBursts& q, std::size_t n,
                                     std::int64_t t, BankedFloor& floor) {
  BankedPick p;
  const std::int64_t below = floor.all_from(ch, t);
  std::int64_t others = kNever;  // the floor, when every class is looked at
  for (const BankedBursts::Class& k : q.classes()) {
    if (k.first >= n || p.at <= below) return p;
    BankedCmd c = BankedCmd::col;
    const std::int64_t at = banked_ready(ch, k, t, c);
    if (static_cast<BankedCmd>(k.memo.cmd) != BankedCmd::col) others = std::min(others, k.memo.at);
    if (at < p.at) p.i = k.first, p.cmd = c, p.at = at;
    if (at == t) return p;  // none can come sooner, and it is the oldest
  }
  if (!floor.valid) floor.at = others, floor.valid = true;
  return p;
}

}  // namespace gemini::sim
