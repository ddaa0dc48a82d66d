#pragma once
// The command timing of one `banked` DRAM channel (dram_banked.cpp): its
// banks' open rows and, for each command, the earliest clock at which it
// may issue after the commands issued so far. All times in DRAM clocks.
//
// Contract: commands are issued in time order, one per clock (the command
// bus), each no earlier than its *_at() says; the *_at() functions are pure.
// The constraints (JEDEC's, as Ramulator 2's DDR4/LPDDR5/HBM2 models have
// them), for bank b in bank group g:
//   PRE  >= ACT + tRAS, RD + tRTP, end of WR data + tWR          (bank)
//   ACT  >= PRE + tRP, REF + tRFC                                 (bank)
//        >= ACT + tRRD_S (tRRD_L in g); at most 4 ACTs in a tFAW  (channel)
//   RD/WR >= ACT + tRCD                                           (bank)
//        >= last of its direction + tCCD_S (tCCD_L in g)          (channel)
//   RD   >= end of any WR's data + tWTR_S, of one in g + tWTR_L
//   data  = command + CL (CWL for a write), after the bus is free (and
//           tRTW after a read's data, for a write's); it takes tBURST
//   PREA >= every open bank's PRE limit; REF >= PREA + tRPab (tRP if 0;
//           every bank's ACT limit), and holds the banks tRFC.
// With act_commands 2 (LPDDR5) an activate is ACT-1 (the limits above) and
// ACT-2 on a later clock, which opens the row of the burst that issues it
// (any of that bank: the row of ACT-1 stays open too, as in Ramulator 2);
// with cas_sync, a column command more than CL (CWL) + tBURST + 1 clocks
// after the last column command's (or sync's) issue needs a CAS first.
//
// Memos: a bank's next command and its clock but for the column limits
// (col_limit()) and the CAS sync stay what they were while
// unchanged_since(b, s) holds for the stamp() s they were computed at
// (every command but CAS changes its bank; ACT, PREA and REF all banks).
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "gemini/sim/dram_timing.h"

namespace gemini::sim {

class BankedChannel {
 public:
  static constexpr std::int64_t kLongAgo = -(std::int64_t{1} << 40);

  struct Bank {
    std::int64_t open_row = -1, also_open = -1;  // also_open: ACT-2 of another row
    bool half_open = false;                      // between ACT-1 and ACT-2
    std::int64_t next_act = 0, next_col = 0, next_pre = 0;
  };
  // A column command's issue clock and its data's first clock.
  struct Slot {
    std::int64_t col, data;
  };

  explicit BankedChannel(const DramTiming& t)
      : t_(t),
        banks_(static_cast<std::size_t>(t.banks)),
        groups_(static_cast<std::size_t>(t.bank_groups)),
        changed_(static_cast<std::size_t>(t.banks), 1) {
    for (std::size_t g = 0; g < groups_.size(); ++g) act_limits(g), col_limits(g);
  }

  std::uint64_t stamp() const { return stamp_; }
  bool unchanged_since(std::size_t b, std::uint64_t s) const {
    return (s >= changed_[b]) & (s >= all_changed_);
  }

  const Bank& bank(std::size_t b) const { return banks_[b]; }
  bool is_open(std::size_t b, std::int64_t row) const {
    const Bank& k = banks_[b];
    return !k.half_open && (k.open_row == row || k.also_open == row);
  }
  // Whether a column command at `at` needs a CAS sync first.
  bool needs_sync(std::int64_t at) const { return t_.cas_sync != 0 && synced_until_ < at; }
  std::int64_t synced_until() const { return synced_until_; }
  bool any_open() const {
    return std::any_of(banks_.begin(), banks_.end(), [](const Bank& b) { return b.open_row >= 0; });
  }

  std::int64_t pre_at(std::size_t b, std::int64_t from) const {
    return std::max(from, banks_[b].next_pre);
  }
  std::int64_t act_at(std::size_t b, std::size_t g, std::int64_t from) const {
    return std::max({from, banks_[b].next_act, act_limit(g)});
  }
  Slot col_at(std::size_t b, std::size_t g, bool write, std::int64_t from) const {
    const std::int64_t col = std::max({from, banks_[b].next_col, col_limit(g, write)});
    return {col, col + (write ? t_.cwl : t_.cl)};
  }
  // All banks precharged (PREA; with every bank closed, none is needed).
  std::int64_t prea_at(std::int64_t from) const {
    for (const Bank& b : banks_)
      if (b.open_row >= 0) from = std::max(from, b.next_pre);
    return from;
  }
  std::int64_t ref_at(std::int64_t from) const {
    for (const Bank& b : banks_) from = std::max(from, b.next_act);
    return from;
  }

  // The channel's limits on group g's next ACT and column commands (all
  // but its bank's own), each the later of the channel's and the group's
  // part, kept as the commands that change them issue: the ACT's (tRRD_S/L
  // and tFAW) by an ACT, the column commands' (tCCD_S/L, tWTR_S/L and the
  // bus: a command's data waits for the bus, tRTW after a read's for a
  // write) by a RD or WR.
  std::int64_t act_limit(std::size_t g) const { return std::max(act_limit_, groups_[g].act_limit); }
  // No column command issues before (the channel's part of col_limit()).
  std::int64_t col_floor() const { return std::min(col_limit_[0], col_limit_[1]); }
  std::int64_t col_limit(std::size_t g, bool write) const {
    const int d = write ? 1 : 0;
    return std::max(col_limit_[d], groups_[g].col_limit[d]);
  }

  void pre(std::size_t b, std::int64_t at) {
    changed_[b] = ++stamp_;
    Bank& k = banks_[b];
    k.open_row = k.also_open = -1;
    k.half_open = false;
    k.next_act = std::max(k.next_act, at + t_.trp);
  }
  void act(std::size_t b, std::size_t g, std::int64_t row, std::int64_t at) {
    all_changed_ = ++stamp_;  // every group's ACT limit
    Bank& k = banks_[b];
    k.open_row = row;
    k.half_open = t_.act_commands > 1;
    k.next_col = at + t_.trcd;
    k.next_pre = at + t_.tras;
    last_act_ = at;
    groups_[g].act = at;
    faw_[faw_next_] = at;
    faw_next_ = (faw_next_ + 1) % faw_.size();
    act_limits(g);
  }
  // ACT-2 of a burst to `row` (act_commands 2).
  void act2(std::size_t b, std::int64_t row) {
    changed_[b] = ++stamp_;
    Bank& k = banks_[b];
    k.half_open = false;
    if (row != k.open_row) k.also_open = row;
  }
  void cas(bool write, std::int64_t at) {
    synced_until_ = at + (write ? t_.cwl : t_.cl) + t_.tburst + 1;
  }
  // Issues the column command at s.col; returns the end of its data.
  std::int64_t col(std::size_t b, std::size_t g, bool write, Slot s) {
    const int d = write ? 1 : 0;
    const std::int64_t end = s.data + t_.tburst;
    changed_[b] = ++stamp_;  // its PRE limit
    Bank& k = banks_[b];
    last_col_[d] = s.col;
    groups_[g].col[d] = s.col;
    if (write) {
      k.next_pre = std::max(k.next_pre, end + t_.twr);
      last_write_end_ = end;
      groups_[g].write_end = end;
    } else {
      k.next_pre = std::max(k.next_pre, s.col + t_.trtp);
    }
    bus_free_ = end;
    synced_until_ = s.col + (write ? t_.cwl : t_.cl) + t_.tburst;
    last_write_ = write;
    any_col_ = true;
    col_limits(g);
    return end;
  }
  void prea(std::int64_t at) {
    all_changed_ = ++stamp_;
    for (Bank& k : banks_) {
      if (k.open_row < 0) continue;
      k.open_row = k.also_open = -1;
      k.half_open = false;
      k.next_act = std::max(k.next_act, at + (t_.trpab > 0 ? t_.trpab : t_.trp));
    }
  }
  void ref(std::int64_t at) {
    all_changed_ = ++stamp_;
    for (Bank& b : banks_) b.next_act = std::max(b.next_act, at + t_.trfc);
  }

 private:
  struct Group {
    std::int64_t act = kLongAgo;
    std::int64_t write_end = kLongAgo;                          // the end of its last write's data
    std::array<std::int64_t, 2> col{kLongAgo, kLongAgo};        // the last RD, WR
    std::int64_t act_limit = kLongAgo;                          // its part of act_limit()
    std::array<std::int64_t, 2> col_limit{kLongAgo, kLongAgo};  // of col_limit(): RD, WR
  };
  // The limits after an ACT (RD or WR) to group g: the channel's part and g's.
  void act_limits(std::size_t g) {
    act_limit_ = last_act_ + t_.trrd_s;
    if (t_.tfaw > 0) act_limit_ = std::max(act_limit_, faw_[faw_next_] + t_.tfaw);  // 4th last
    groups_[g].act_limit = groups_[g].act + std::max(t_.trrd_l, t_.trrd_s);
  }
  void col_limits(std::size_t g) {
    Group& k = groups_[g];
    for (int d = 0; d < 2; ++d) {
      const std::int64_t turn = (any_col_ && d == 1 && !last_write_) ? t_.trtw : 0;
      col_limit_[d] =
          std::max(last_col_[d] + t_.tccd, bus_free_ + turn - (d == 1 ? t_.cwl : t_.cl));
      k.col_limit[d] = k.col[d] + std::max(t_.tccd_l, t_.tccd);
    }
    col_limit_[0] = std::max(col_limit_[0], last_write_end_ + t_.twtr_s);
    k.col_limit[0] = std::max(k.col_limit[0], k.write_end + t_.twtr);
  }
  DramTiming t_;
  std::vector<Bank> banks_;
  std::vector<Group> groups_;
  std::int64_t act_limit_ = kLongAgo;                          // the channel's part
  std::array<std::int64_t, 2> col_limit_{kLongAgo, kLongAgo};  // of each: RD, WR
  std::array<std::int64_t, 2> last_col_{kLongAgo, kLongAgo};
  std::int64_t last_act_ = kLongAgo;
  std::array<std::int64_t, 4> faw_{kLongAgo, kLongAgo, kLongAgo, kLongAgo};  // a ring
  std::size_t faw_next_ = 0;  // the oldest of the last four ACTs, next to replace
  std::int64_t bus_free_ = 0;
  std::int64_t synced_until_ = kLongAgo;  // cas_sync: column commands need no CAS until then
  std::int64_t last_write_end_ = kLongAgo;
  bool last_write_ = false, any_col_ = false;
  std::uint64_t stamp_ = 1;             // memos: a count of the changes
  std::vector<std::uint64_t> changed_;  // per bank: the stamp of its last change
  std::uint64_t all_changed_ = 1;       // the stamp of the last change to all banks
};

}  // namespace gemini::sim
