#pragma once
// One DRAM port: a controller process driving a DramModel (dram_model.h).
//
// Behaviour: requests are enqueued by the NoC when they reach the port; the
// SC_METHOD runs the model's advance() at once and then only at the time the
// model asks for (its commit horizon or the next arrival), never per cycle.
// Progress goes back to the NoC, which injects read data and acks writes.

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "gemini/sim/dram_model.h"
#include "sc_include.h"
#include "sim_context.h"

namespace gemini::sim {

class NocModule;

class DramModule : public sc_core::sc_module, private DramSink {
 public:
  DramModule(const sc_core::sc_module_name& name, std::int32_t port,
             std::unique_ptr<DramModel> model, SimContext& ctx, NocModule& noc);
  void enqueue(const DramRequest& r);
  const DramModel& model() const { return *model_; }
  const StatGroup& stats() const { return stats_; }

 private:
  void run();
  void progress(std::uint64_t tag, std::int64_t done, Tick t) override;

  std::int32_t port_;
  std::unique_ptr<DramModel> model_;
  SimContext& ctx_;
  NocModule& noc_;
  struct Open {
    Tick arrival;
    std::int64_t bytes;
    bool write;
  };
  std::unordered_map<std::uint64_t, Open> open_;  // tracing only
  sc_core::sc_event ev_;
  StatGroup stats_;
};

}  // namespace gemini::sim
