// End to end, as `gemini sim --model M --functional` runs: a fixed small
// schedule (tests/data/spec_minimal.json) against a mutated model file --
// the model loaded and its reference computed, the schedule validated,
// checked and corrected against it, assembled, verified and simulated
// with real data.
#include "fuzz_support.h"
#include "gemini/assembler/assemble_file.h"
#include "gemini/assembler/verifier.h"
#include "gemini/model/layer_semantics.h"
#include "gemini/model/stats.h"
#include "gemini/sim/simulator.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gemini;  // NOLINT(google-build-using-namespace): harness
  static const fuzz::MemFile schedule(fuzz::test_data("spec_minimal.json"));
  static const ir::HardwareConfig hw = [] {
    ir::ConfigErrors errors;
    auto h = ir::load_hw_config(std::string(GEMINI_SOURCE_DIR) + "/configs/set-polar.json", errors);
    fuzz::require(h.has_value(), "configs/set-polar.json loads");
    return *h;
  }();
  const std::string text(reinterpret_cast<const char*>(data), size);
  {
    // Only networks that compute in a moment.
    ir::Diagnostics d(10);
    const auto net = model::parse_network(text, "m", d);
    if (!net || model::network_macs(*net) > 20'000'000) return 0;
  }
  const fuzz::MemFile model_file(text);
  ir::Diagnostics d(100);
  const auto semantics =
      model::LayerSemantics::load(model_file.path(), 1, d, 1, ir::MemoryLimit{64 << 20});
  if (!semantics) return fuzz::note("model refused"), 0;
  assembler::AssembleOptions ao;
  ao.lower.geometry = &semantics->geometry;
  ao.semantics = [&](ir::Model& m, ir::Diagnostics& sd) { return semantics->apply(m, sd); };
  const assembler::AssembledFile f =
      assembler::assemble_file(schedule.path(), hw, {}, d, {}, {}, ao);
  if (f.failed != assembler::AssembledFile::Failed::none) return fuzz::note("not assembled"), 0;
  fuzz::require(assembler::verify(*f.program).empty(),
                "a schedule that checks against its model is lowered into programs that verify");
  sim::SimOptions so;
  so.xlen = f.model.xlen;
  so.ylen = f.model.ylen;
  so.network = &semantics->net;
  so.reference = &semantics->ref;
  so.memory_limit = ir::MemoryLimit{256 << 20};
  so.until_cycles = 50'000'000;
  sim::Report report;
  std::string error;
  if (!sim::simulate(*f.program, hw, sim::workload_table(f.model), so, report, error))
    return fuzz::note("not simulated: " + error), 0;
  fuzz::note("simulated: " + std::to_string(report.total_cycles) + " cycles, " +
             std::to_string(report.functional.mismatches()) + " mismatches");
  return 0;
}
