// "ramulator2" on a build without Ramulator 2 (cmake/ramulator2.cmake): the
// name stays registered so that `gemini sim --list-params` lists it and a
// configuration that chooses it is an error saying why it is missing,
// instead of "not one of simple, banked".
#include "dram_ramulator2.h"
#include "gemini/sim/dram_model.h"

#ifndef GEMINI_RAMULATOR2_WHY
#define GEMINI_RAMULATOR2_WHY "this build was configured without it"
#endif

namespace gemini::sim {
namespace {

constexpr const char* kWhy =
    "Ramulator 2 is not built into this gemini: " GEMINI_RAMULATOR2_WHY
    " (docs/timing-model.md, \"ramulator2\")";

DramBuilder configure(ParamReader& r) {
  r.fail("model", kWhy);
  return [](const DramContext&, std::string& error) -> std::unique_ptr<DramModel> {
    error = kWhy;
    return nullptr;
  };
}

}  // namespace

bool ramulator2_built() { return false; }

std::unique_ptr<DramModel> make_ramulator2_model(const Ramulator2Config&, std::string& error) {
  error = kWhy;
  return nullptr;
}

std::string ramulator2_timing_problem(const DramModel&) { return ""; }

std::string probe_ramulator2(const Ramulator2Config&) { return ""; }

DramModelInfo ramulator2_dram_model() {
  return {"ramulator2", std::string("not built: ") + GEMINI_RAMULATOR2_WHY, configure};
}

}  // namespace gemini::sim
