#include "dram_address_map.h"

namespace gemini::sim {
namespace {

int log2_exact(std::int64_t v) {  // -1 unless a power of two
  if (v <= 0 || (v & (v - 1)) != 0) return -1;
  int k = 0;
  while ((std::int64_t{1} << k) < v) ++k;
  return k;
}

}  // namespace

std::string DramAddressMap::problem(Kind kind, const DramTiming& t) {
  if (kind != Kind::mop4clxor) return "";
  if (log2_exact(t.burst_bytes) < 0) return "burst_bytes: MOP4CLXOR needs a power of two";
  if (log2_exact(t.bank_groups) < 0) return "bank_groups: MOP4CLXOR needs a power of two";
  if (log2_exact(t.banks) < 0) return "banks: MOP4CLXOR needs a power of two";
  const std::int64_t per_row = t.row_bytes / t.burst_bytes;
  if (t.row_bytes % t.burst_bytes != 0 || log2_exact(per_row) < 2)
    return "row_bytes: MOP4CLXOR needs a power of two of bursts per row, at least 4";
  return "";
}

DramAddressMap::DramAddressMap(Kind kind, const DramTiming& t)
    : kind_(kind),
      row_bytes_(static_cast<std::uint64_t>(t.row_bytes)),
      banks_(static_cast<std::uint64_t>(t.banks)),
      groups_(static_cast<std::uint64_t>(t.bank_groups)),
      run_(kind == Kind::mop4clxor ? t.burst_bytes : t.row_bytes) {
  if (kind == Kind::mop4clxor) {
    burst_shift_ = log2_exact(t.burst_bytes);
    group_bits_ = log2_exact(t.bank_groups);
    bank_bits_ = log2_exact(t.banks / t.bank_groups);
    col_hi_bits_ = log2_exact(t.row_bytes / t.burst_bytes) - 2;
  } else if (log2_exact(t.row_bytes) >= 0 && log2_exact(t.banks) >= 0) {
    row_shift_ = log2_exact(t.row_bytes);
    bank_shift_ = log2_exact(t.banks);
  }
}

DramAddressMap::Location DramAddressMap::locate_rbc(std::uint64_t a) const {
  // The bank field is bank_in_group : group, so f is already bank x groups
  // + group with the numbering of the header.
  if (row_shift_ >= 0)
    return {static_cast<std::size_t>((a >> row_shift_) & (banks_ - 1)),
            static_cast<std::int64_t>(a >> (row_shift_ + bank_shift_))};
  return {static_cast<std::size_t>((a / row_bytes_) % banks_),
          static_cast<std::int64_t>(a / (row_bytes_ * banks_))};
}

DramAddressMap::Location DramAddressMap::locate_mop(std::uint64_t a) const {
  std::uint64_t x = a >> burst_shift_;
  auto take = [&x](int bits) {
    const std::uint64_t v = x & ((std::uint64_t{1} << bits) - 1);
    x >>= bits;
    return v;
  };
  const std::uint64_t col_lo = take(2);
  std::uint64_t group = take(group_bits_);
  std::uint64_t bank = take(bank_bits_);
  const std::uint64_t col = col_lo | take(col_hi_bits_) << 2;
  std::uint64_t row = x;
  // Each field of the bank hierarchy XORed with the column's next bits,
  // fields of no bits skipped (Ramulator 2's MOP4CLXOR).
  int used = 0;
  auto mix = [&](std::uint64_t& field, int bits) {
    if (bits <= 0) return;
    field ^= (col >> used) & ((std::uint64_t{1} << bits) - 1);
    used += bits;
  };
  mix(group, group_bits_);
  mix(bank, bank_bits_);
  // The row's field is as wide as Ramulator's row count; the column has
  // fewer bits left than that, so the mask keeps all of them.
  row ^= col >> used;
  return {static_cast<std::size_t>(bank * groups_ + group), static_cast<std::int64_t>(row)};
}

}  // namespace gemini::sim
