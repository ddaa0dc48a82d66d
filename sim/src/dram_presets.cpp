// DRAM timing presets from public JEDEC speed bins (approximate; see
// docs/timing-model.md for the sources and what each value means). Values are
// in the device clock tck_ps; one preset is one channel (HBM2: one pseudo
// channel).
#include <array>

#include "gemini/sim/dram_timing.h"

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

}  // namespace gemini::sim
