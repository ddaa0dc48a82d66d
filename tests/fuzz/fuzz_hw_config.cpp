// Hardware configurations: the reader (every parameter's type and range,
// ring regions, the DRAM and NoC models' own parameters) and, for one that loads, a timing
// simulation of a fixed small schedule (tests/data/spec_minimal.json) on it, so that extreme but
// accepted parameters reach the NoC, DRAM and core models. Its dictionary,
// tests/fuzz/hw_config.dict, has every key gemini declares (fuzz.dict.hw_config
// checks it); its seeds (tests/fuzz/seeds.txt) choose every model.
#include <algorithm>
#include <boost/json/object.hpp>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "gemini/assembler/assemble_file.h"
#include "gemini/ir/hw_config.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/simulator.h"

namespace {

using gemini::ir::RawComponent;

// The `model` a raw section chooses ("" when it names none).
std::string model_of(const RawComponent& c) {
  const boost::json::value* m = c.json.if_contains("model");
  return m && m->is_string() ? std::string(m->get_string()) : std::string();
}

// What one input may cost the models that step every cycle of their own,
// under the sanitizers on a loaded 2-core machine: BookSim 2 moves each
// flit of each packet every BookSim cycle (some 1000 cycles a second with
// packets of a thousand flits), Ramulator 2 ticks every DRAM clock (some 1e5
// a second), whatever the core clock. Both keep an input's run to a few
// seconds, under libFuzzer's 10 s, and far above what the seeds take (1000
// core cycles, about 1 us at 1 GHz).
constexpr std::int64_t kBookSimCycles = 4'000;
constexpr double kRamulatorPs = 50e6;  // 50 us: 8e4 clocks of DDR4-3200

// The core cycles to simulate: 5e7 (the CLI runs any number), fewer for
// BookSim 2 (its cycles) and Ramulator 2 (the simulated time); 0 when not
// one fits.
std::int64_t cycle_bound(const gemini::ir::HardwareConfig& hw) {
  std::int64_t bound = 50'000'000;
  if (model_of(hw.noc.raw) == "booksim2") {
    // BookSim cycles per core cycle: clock_ratio, or the fewest that make a
    // hop of router_cycles (default 2) at least 3 (booksim2_config.h).
    const auto integer = [&hw](const char* key, std::int64_t fallback) {
      const boost::json::value* v = hw.noc.raw.json.if_contains(key);
      return v && v->is_int64() && v->get_int64() > 0 ? v->get_int64() : fallback;
    };
    std::int64_t ratio = integer("clock_ratio", 0);
    if (ratio == 0) {
      const std::int64_t hop = integer("router_cycles", 2);
      ratio = hop >= 3 ? 1 : hop == 2 ? 2 : 3;
    }
    bound = std::min(bound, kBookSimCycles / ratio);
  }
  if (model_of(hw.dram.raw) == "ramulator2") {
    const double period_ps = 1e6 / hw.clock.frequency_mhz;
    bound = std::min(bound, static_cast<std::int64_t>(kRamulatorPs / period_ps));
  }
  return bound;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gemini;  // NOLINT(google-build-using-namespace): harness
  const std::string text(reinterpret_cast<const char*>(data), size);
  ir::ConfigErrors errors;
  const std::optional<ir::HardwareConfig> hw = sim::parse_hw_config(text, "fuzz.json", errors);
  fuzz::require(hw.has_value() == errors.empty(), "a configuration loads exactly without errors");
  if (!hw) {
    fuzz::note("not loaded: " + errors.front().pointer + ": " + errors.front().message);
    return 0;
  }
  static const fuzz::MemFile schedule(fuzz::test_data("spec_minimal.json"));
  ir::Diagnostics d(100);
  const assembler::AssembledFile f = assembler::assemble_file(schedule.path(), *hw, {}, d);
  if (f.failed != assembler::AssembledFile::Failed::none) {
    fuzz::note("not assembled");
    return 0;
  }
  sim::SimOptions so;
  so.xlen = f.model.xlen;
  so.ylen = f.model.ylen;
  // Bounded: a configuration may make the schedule take years of cycles.
  so.until_cycles = cycle_bound(*hw);
  if (so.until_cycles < 1) {
    fuzz::note("not simulated: not one core cycle within the bound");
    return 0;
  }
  sim::Report report;
  std::string error;
  if (sim::simulate(*f.program, *hw, sim::workload_table(f.model), so, report, error)) {
    fuzz::require(report.total_cycles >= 0, "simulated time is never negative");
    fuzz::note("simulated: " + std::to_string(report.total_cycles) + " cycles");
  } else {
    fuzz::note("not simulated: " + error);
  }
  return 0;
}
