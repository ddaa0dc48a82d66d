// DRAM timing presets from public JEDEC speed bins (approximate; see
// docs/timing-model.md for the sources and what each value means). Values are
// in the device clock tck_ps; one preset is one channel (HBM2: one pseudo
// channel).
#include <array>
#include <type_traits>

#include "gemini/sim/dram_timing.h"
#include "gemini/sim/params.h"

namespace gemini::sim {
namespace {

// DDR4-3200AA (22-22-22), 64-bit channel of 8 Gb x8 devices: 16 banks in
// 4 bank groups, 8 KiB rows, BL8 = 4 clocks per 64-byte burst -> 25.6 GB/s.
// tRAS 32 ns, tWR 15 ns, tRFC 350 ns, tREFI 7.8 us, tWTR_S/L 2.5/7.5 ns,
// tCCD_S/L 4/8 clocks, tRRD_S/L 4/8 clocks (x8: 1 KiB page), tFAW 21 ns,
// tRTP 7.5 ns; read to write data 2 clocks apart (RL + BL/2 + 2 - WL).
constexpr DramTiming kDdr4{625, 22, 16, 22,   22, 52, 24, 560, 12480, 4,  4, 12,
                           2,   64, 16, 8192, 4,  8,  4,  4,   8,     34, 12};
// LPDDR5-6400, 16-bit channel, CK 800 MHz: BL16 = 2 clocks per 32-byte burst
// -> 12.8 GB/s; tRCD/tRP 18 ns, tRAS 42 ns, tWR 34 ns, tRFCab 280 ns,
// tREFI 3.9 us, 16 banks in 4 bank groups (BG mode), 2 KiB rows; tCCD one
// burst in or across groups, tWTR_S/L 5/10, tRRD 4, tFAW 16, tRTP 4 clocks
// (Ramulator 2's LPDDR5_6400); read to write data 2 clocks apart; the
// two-step activate (ACT-1, ACT-2) and the CAS command that syncs WCK to CK
// before a column command after a pause (JESD209-5); tRPab 21 ns.
constexpr DramTiming kLpddr5{1250, 20, 10,   15, 15, 34, 28, 224, 3124, 2, 2, 10, 2,
                             32,   16, 2048, 4,  2,  5,  4,  4,   16,   4, 2, 1,  17};
// HBM2 pseudo channel, 2 Gb/s per pin, 64 bits, 1 GHz clock: BL4 = 2 clocks
// per 32-byte burst -> 16 GB/s; tRCD/tRP/CL 14 ns, tRAS 33 ns, tRFC 350 ns,
// tREFI 3.9 us, 16 banks in 4 bank groups, 1 KiB rows; tCCD_L 2, tWTR_S 3,
// tRRD_S/L 2/3, tFAW 15, tRTP_L 3 clocks (JESD235's, as Ramulator 2's
// HBM2_2Gbps has them); read to write data 2 clocks apart.
constexpr DramTiming kHbm2{1000, 14, 4,  14,   14, 33, 16, 350, 3900, 2,  2, 8,
                           2,    32, 16, 1024, 4,  2,  3,  2,   3,    15, 3};

struct Preset {
  const char* name;
  DramTiming t;
  const char* mapping;  // the address map its standard's controllers use
};

constexpr std::array<Preset, 3> kPresets{{
    {"ddr4_3200", kDdr4, "MOP4CLXOR"},
    {"lpddr5_6400", kLpddr5, "RoBaRaCoCh"},
    {"hbm2", kHbm2, "RoBaRaCoCh"},
}};

}  // namespace

const DramTiming* dram_preset(const std::string& name) {
  for (const Preset& p : kPresets)
    if (name == p.name) return &p.t;
  return nullptr;
}

std::string dram_preset_mapping(const std::string& name) {
  for (const Preset& p : kPresets)
    if (name == p.name) return p.mapping;
  return "RoBaRaCoCh";
}

std::vector<std::string> dram_preset_names() {
  std::vector<std::string> out;
  for (const Preset& p : kPresets) out.emplace_back(p.name);
  return out;
}

WriteWatermarks read_write_watermarks(ParamReader& r) {
  WriteWatermarks w;
  w.high = r.param<double>("write_high_watermark")
               .unit(Unit::fraction)
               .range(0.01, 1)
               .fallback(w.high)
               .describe("write queue share above which the controller turns to writes")
               .get();
  w.low = r.param<double>("write_low_watermark")
              .unit(Unit::fraction)
              .range(0, 1)
              .fallback(w.low)
              .describe("write queue share below which it turns back to reads")
              .get();
  if (w.low >= w.high)
    r.fail("write_low_watermark",
           "must be below write_high_watermark (" + std::to_string(w.high) + ")");
  return w;
}

DramTiming read_dram_timing(ParamReader& r, const DramTiming& preset) {
  ParamReader tr = r.section("timing", "the preset's timing, any field overridden");
  DramTiming t = preset;
  auto field = [&](const char* name, auto& v, std::int64_t lo, std::int64_t hi, Unit unit,
                   const char* what) {
    using T = std::remove_reference_t<decltype(v)>;
    v = tr.param<T>(name)
            .range(static_cast<T>(lo), static_cast<T>(hi))
            .fallback(v)
            .unit(unit)
            .describe(what)
            .get();
  };
  field("tck_ps", t.tck_ps, 1, 1 << 20, Unit::picoseconds, "the DRAM clock period");
  field("cl", t.cl, 1, 1 << 16, Unit::dram_clocks, "read command to data (CAS latency)");
  field("cwl", t.cwl, 1, 1 << 16, Unit::dram_clocks, "write command to data");
  field("trcd", t.trcd, 1, 1 << 16, Unit::dram_clocks, "activate to column command");
  field("trp", t.trp, 1, 1 << 16, Unit::dram_clocks, "precharge to activate");
  field("tras", t.tras, 1, 1 << 16, Unit::dram_clocks, "activate to precharge");
  field("twr", t.twr, 0, 1 << 16, Unit::dram_clocks, "end of write data to precharge");
  field("trfc", t.trfc, 0, 1 << 20, Unit::dram_clocks, "one refresh (below trefi)");
  field("trefi", t.trefi, 0, 1 << 24, Unit::dram_clocks, "refresh interval (0: no refresh)");
  field("tburst", t.tburst, 1, 1 << 16, Unit::dram_clocks, "one burst on the data bus");
  field("tccd", t.tccd, 1, 1 << 16, Unit::dram_clocks, "column command to column command");
  field("twtr", t.twtr, 0, 1 << 16, Unit::dram_clocks,
        "end of write data to a read command in its bank group (tWTR_L)");
  field("trtw", t.trtw, 0, 1 << 16, Unit::dram_clocks, "end of read data to write data on the bus");
  field("burst_bytes", t.burst_bytes, 1, 1 << 16, Unit::bytes, "data of one burst");
  field("banks", t.banks, 1, 1024, Unit::banks, "banks of the channel");
  field("row_bytes", t.row_bytes, 1, 1 << 24, Unit::bytes, "one row of a bank");
  field("bank_groups", t.bank_groups, 1, 1024, Unit::bank_groups,
        "bank groups of the channel (1: none)");
  field("tccd_l", t.tccd_l, 1, 1 << 16, Unit::dram_clocks,
        "column to column command in one bank group (tCCD_L; tccd is tCCD_S)");
  field("twtr_s", t.twtr_s, 0, 1 << 16, Unit::dram_clocks,
        "end of write data to a read command in another bank group (tWTR_S)");
  field("trrd_s", t.trrd_s, 0, 1 << 16, Unit::dram_clocks,
        "activate to activate in another bank group");
  field("trrd_l", t.trrd_l, 0, 1 << 16, Unit::dram_clocks,
        "activate to activate in one bank group");
  field("tfaw", t.tfaw, 0, 1 << 20, Unit::dram_clocks,
        "window of at most four activates (0: none)");
  field("trtp", t.trtp, 0, 1 << 16, Unit::dram_clocks, "read command to precharge");
  field("act_commands", t.act_commands, 1, 2, Unit::dram_clocks,
        "command clocks of an activate (LPDDR5: 2, ACT-1 and ACT-2)");
  field("cas_sync", t.cas_sync, 0, 1, Unit::commands,
        "1: a column command after the data clock stopped needs a CAS sync command first "
        "(LPDDR5)");
  field("trpab", t.trpab, 0, 1 << 16, Unit::dram_clocks,
        "all-bank precharge (a refresh's) to activate or refresh (0: trp)");
  if (t.banks % t.bank_groups != 0)
    tr.fail("bank_groups", "must divide banks (" + std::to_string(t.banks) + "), got " +
                               std::to_string(t.bank_groups));
  if (t.tccd_l < t.tccd)
    tr.fail("tccd_l", "must be at least tccd (" + std::to_string(t.tccd) + "): tCCD_L >= tCCD_S");
  if (t.trrd_l < t.trrd_s)
    tr.fail("trrd_l",
            "must be at least trrd_s (" + std::to_string(t.trrd_s) + "): tRRD_L >= tRRD_S");
  if (t.trefi > 0 && t.trfc >= t.trefi) {
    tr.fail("trfc", "must be below trefi (" + std::to_string(t.trefi) + ")");
  } else if (const std::int64_t need = std::int64_t{t.trfc} + t.trp + t.trcd + t.cl + t.tburst;
             t.trefi > 0 && t.trefi <= need) {
    // Between refreshes the banks are closed (trp), refreshed (trfc), and
    // one row must still open and one burst be read, or no request is served.
    tr.fail("trefi", "trefi " + std::to_string(t.trefi) +
                         " leaves no time to serve a request between refreshes: it must exceed "
                         "trfc + trp + trcd + cl + tburst = " +
                         std::to_string(need) + " clocks");
  }
  tr.finish();
  return t;
}

}  // namespace gemini::sim
