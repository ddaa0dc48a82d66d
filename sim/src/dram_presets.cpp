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

struct Preset {
  const char* name;
  DramTiming t;
};

// DDR4-3200AA (22-22-22), 64-bit channel of 8 Gb x8 devices: 16 banks,
// 8 KiB rows, BL8 = 4 clocks per 64-byte burst -> 25.6 GB/s.
// tRAS 32 ns, tWR 15 ns, tRFC 350 ns, tREFI 7.8 us, tWTR_L 7.5 ns.
constexpr DramTiming kDdr4{625, 22, 16, 22, 22, 52, 24, 560, 12480, 4, 4, 12, 12, 64, 16, 8192};
// LPDDR5-6400, 16-bit channel, CK 800 MHz: BL16 = 2 clocks per 32-byte burst
// -> 12.8 GB/s; tRCD/tRP 18 ns, tRAS 42 ns, tWR 34 ns, tRFCab 280 ns,
// tREFI 3.9 us, 16 banks, 2 KiB rows.
constexpr DramTiming kLpddr5{1250, 20, 10, 15, 15, 34, 28, 224, 3124, 2, 2, 10, 14, 32, 16, 2048};
// HBM2 pseudo channel, 2 Gb/s per pin, 64 bits, 1 GHz clock: BL4 = 2 clocks
// per 32-byte burst -> 16 GB/s; tRCD/tRP/CL 14 ns, tRAS 33 ns, tRFC 350 ns,
// tREFI 3.9 us, 16 banks, 1 KiB rows.
constexpr DramTiming kHbm2{1000, 14, 4, 14, 14, 33, 16, 350, 3900, 2, 2, 8, 8, 32, 16, 1024};

constexpr std::array<Preset, 3> kPresets{{
    {"ddr4_3200", kDdr4},
    {"lpddr5_6400", kLpddr5},
    {"hbm2", kHbm2},
}};

}  // namespace

const DramTiming* dram_preset(const std::string& name) {
  for (const Preset& p : kPresets)
    if (name == p.name) return &p.t;
  return nullptr;
}

std::vector<std::string> dram_preset_names() {
  std::vector<std::string> out;
  for (const Preset& p : kPresets) out.emplace_back(p.name);
  return out;
}

DramTiming read_dram_timing(ParamReader& r, const DramTiming& preset) {
  ParamReader tr = r.section("timing", "the preset's timing, any field overridden");
  DramTiming t = preset;
  auto field = [&](const char* name, auto& v, std::int64_t lo, std::int64_t hi, const char* unit,
                   const char* what) {
    using T = std::remove_reference_t<decltype(v)>;
    v = tr.param<T>(name)
            .range(static_cast<T>(lo), static_cast<T>(hi))
            .fallback(v)
            .unit(unit)
            .describe(what)
            .get();
  };
  field("tck_ps", t.tck_ps, 1, 1 << 20, "ps", "the DRAM clock period");
  field("cl", t.cl, 1, 1 << 16, "clocks", "read command to data (CAS latency)");
  field("cwl", t.cwl, 1, 1 << 16, "clocks", "write command to data");
  field("trcd", t.trcd, 1, 1 << 16, "clocks", "activate to column command");
  field("trp", t.trp, 1, 1 << 16, "clocks", "precharge to activate");
  field("tras", t.tras, 1, 1 << 16, "clocks", "activate to precharge");
  field("twr", t.twr, 0, 1 << 16, "clocks", "end of write data to precharge");
  field("trfc", t.trfc, 0, 1 << 20, "clocks", "one refresh (below trefi)");
  field("trefi", t.trefi, 0, 1 << 24, "clocks", "refresh interval (0: no refresh)");
  field("tburst", t.tburst, 1, 1 << 16, "clocks", "one burst on the data bus");
  field("tccd", t.tccd, 1, 1 << 16, "clocks", "column command to column command");
  field("twtr", t.twtr, 0, 1 << 16, "clocks", "bus turnaround after a write");
  field("trtw", t.trtw, 0, 1 << 16, "clocks", "bus turnaround after a read");
  field("burst_bytes", t.burst_bytes, 1, 1 << 16, "bytes", "data of one burst");
  field("banks", t.banks, 1, 1024, "", "banks of the channel");
  field("row_bytes", t.row_bytes, 1, 1 << 24, "bytes", "one row of a bank");
  if (t.trefi > 0 && t.trfc >= t.trefi) {
    tr.fail("trfc", "must be below trefi (" + std::to_string(t.trefi) + ")");
  } else if (const std::int64_t need = std::int64_t{t.trfc} + t.trp + t.trcd + t.cl + t.tburst;
             t.trefi > 0 && t.trefi <= need) {
    // Between refreshes the banks are closed (trp), refreshed (trfc), and
    // one row must still open and one burst be read, or no request is served.
    tr.fail("trefi", "trefi " + std::to_string(t.trefi) +
                         " leaves no time to serve a request between refreshes: it must exceed "
                         "trfc + trp + trcd + cl + tburst = " + std::to_string(need) + " clocks");
  }
  tr.finish();
  return t;
}

}  // namespace gemini::sim
