// ARK plan files: the reader (ranges, ids, Tile / TaskTiles) and, for a
// plan that loads, its run on the CPU backend against a fixed small model
// (tests/data/spec_minimal.model.json): the plan's ops resolved and their
// Args checked against the model's, its tasks computed.
#include "fuzz_support.h"
#include "gemini/gpu/backend.h"
#include "gemini/gpu/plan.h"
#include "gemini/gpu/plan_exec.h"
#include "gemini/model/network.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gemini;  // NOLINT(google-build-using-namespace): harness
  static const model::Network net = [] {
    ir::Diagnostics d;
    auto n = model::parse_network(fuzz::test_data("spec_minimal.model.json"), "model", d);
    fuzz::require(n.has_value(), "the fixture model loads");
    return *n;
  }();
  static const std::unique_ptr<gpu::Backend> cpu = [] {
    std::string why;
    auto b = gpu::make_backend("cpu", why);
    fuzz::require(b != nullptr, "the CPU backend runs");
    return b;
  }();
  ir::Diagnostics d(100);
  const std::optional<gpu::Plan> plan =
      gpu::parse_plan_text(std::string(reinterpret_cast<const char*>(data), size), d);
  fuzz::require(plan.has_value() == (d.errors() == 0), "a plan loads exactly without errors");
  if (!plan) return 0;
  const std::optional<model::Reference> r = gpu::run_plan(*plan, net, 1, *cpu, d);
  fuzz::require(r.has_value() == (d.errors() == 0), "a plan runs exactly without errors");
  fuzz::note(r ? "ran" : "refused to run");
  return 0;
}
