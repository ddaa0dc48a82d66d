// Hardware configurations: the reader (every parameter's type and range,
// ring regions, the DRAM and NoC models' own parameters) and, for one that loads, a timing
// simulation of a fixed small schedule (tests/data/spec_minimal.json) on it, so that extreme but
// accepted parameters reach the NoC, DRAM and core models.
#include "fuzz_support.h"
#include "gemini/assembler/assemble_file.h"
#include "gemini/ir/hw_config.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sim/simulator.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gemini;  // NOLINT(google-build-using-namespace): harness
  const std::string text(reinterpret_cast<const char*>(data), size);
  ir::ConfigErrors errors;
  const std::optional<ir::HardwareConfig> hw = sim::parse_hw_config(text, "fuzz.json", errors);
  fuzz::require(hw.has_value() == errors.empty(), "a configuration loads exactly without errors");
  if (!hw) return 0;
  static const fuzz::MemFile schedule(fuzz::test_data("spec_minimal.json"));
  ir::Diagnostics d(100);
  const assembler::AssembledFile f = assembler::assemble_file(schedule.path(), *hw, {}, d);
  if (f.failed != assembler::AssembledFile::Failed::none) return 0;
  sim::SimOptions so;
  so.xlen = f.model.xlen;
  so.ylen = f.model.ylen;
  // Bounded: a configuration may make the schedule take years of cycles.
  so.until_cycles = 50'000'000;
  sim::Report report;
  std::string error;
  if (sim::simulate(*f.program, *hw, sim::workload_table(f.model), so, report, error)) {
    fuzz::require(report.total_cycles >= 0, "simulated time is never negative");
    fuzz::note("simulated: " + std::to_string(report.total_cycles) + " cycles");
  }
  return 0;
}
