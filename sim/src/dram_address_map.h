#pragma once
// Where a byte address lands in one channel of `banked`: its bank, that
// bank's group and the row, by one of two maps named as Ramulator 2 names
// its mappers (the ramulator2 model's `address_mapping` takes the same
// names, so both models can be run on the same map):
//
//   RoBaRaCoCh  row : bank : bank group : column (one rank, one channel).
//               column = addr % row_bytes; f = (addr / row_bytes) % banks,
//               group = f % bank_groups; row = addr / (row_bytes x banks).
//               A stream fills a row of one bank, then moves to the next
//               bank group.
//   MOP4CLXOR   in bursts (addr / burst_bytes), least significant first:
//               2 bits of column, the bank group, the bank in its group, the
//               rest of the column, the row; then, as Ramulator 2 computes
//               it, the group, the bank and the row are each XORed with the
//               column's bits taken in that order (group ^= column's low
//               bits, bank ^= the next ones, row ^= the rest). A stream
//               moves to the next bank group every burst.
//
// MOP4CLXOR needs powers of two: banks, bank groups and bursts per row (at
// least 4); `problem()` says which is not. RoBaRaCoCh takes any sizes.
// Banks are numbered bank_in_group x bank_groups + group, so that
// `group(bank) = bank % bank_groups` under both maps.

#include <cstdint>
#include <string>
#include <vector>

#include "gemini/sim/dram_timing.h"

namespace gemini::sim {

class DramAddressMap {
 public:
  enum class Kind { row_bank_column, mop4clxor };
  struct Location {
    std::size_t bank = 0;
    std::int64_t row = 0;
  };

  static std::vector<std::string> names() { return {"RoBaRaCoCh", "MOP4CLXOR"}; }
  static Kind kind(const std::string& name) {
    return name == "MOP4CLXOR" ? Kind::mop4clxor : Kind::row_bank_column;
  }
  // "" when `kind` can map the channel `t`, else what is wrong (naming the
  // timing field).
  static std::string problem(Kind kind, const DramTiming& t);

  DramAddressMap(Kind kind, const DramTiming& t);

  Location locate(std::uint64_t addr) const {
    return kind_ == Kind::mop4clxor ? locate_mop(addr) : locate_rbc(addr);
  }
  std::size_t group(std::size_t bank) const { return bank % groups_; }
  // Bytes from `addr` to the end of the run of consecutive addresses that
  // stay in its bank and row (a row under RoBaRaCoCh; a burst under
  // MOP4CLXOR: one burst, the next is in another group), so that a
  // request's bursts up to there hit one open row.
  std::int64_t run_bytes(std::uint64_t addr) const {
    return run_ - static_cast<std::int64_t>(addr % static_cast<std::uint64_t>(run_));
  }

 private:
  Location locate_rbc(std::uint64_t a) const;
  Location locate_mop(std::uint64_t a) const;

  Kind kind_;
  std::uint64_t row_bytes_, banks_, groups_;
  std::int64_t run_;
  // Shifts: RoBaRaCoCh when row_bytes and banks are powers of two (-1
  // otherwise: divisions); MOP4CLXOR always.
  int row_shift_ = -1, bank_shift_ = -1;
  int burst_shift_ = 0, group_bits_ = 0, bank_bits_ = 0, col_hi_bits_ = 0;
};

}  // namespace gemini::sim
