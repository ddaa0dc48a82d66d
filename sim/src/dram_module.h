#pragma once
// One DRAM port: a controller process driving a DramModel (dram_model.h).
//
// Behaviour: requests are enqueued by the NoC when they reach the port; the
// SC_METHOD runs the model's advance() at once and then only at the time the
// model asks for (its commit horizon or the next arrival), never per cycle.
// Progress goes back to the NoC, which injects read data and acks writes.
// Each request's wait at the port is measured for the critical path: when
// its last bytes are done, the time it spent at the port beyond its own
// bytes at the model's peak rate, if another request (its `owner`: the
// latest one not yet done when it arrived) was there before it
// (MemoryClient::dram_waited). Distributions (stats.h, group "dram"):
// read_latency and write_latency, from a request's arrival at the port to
// its last bytes read or written (ps); queue_occupancy, the requests not
// yet done that an arriving request finds at the port.

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>

#include "gemini/sim/dram_model.h"
#include "memory_port.h"
#include "sc_include.h"
#include "sim_context.h"

namespace gemini::sim {

class DramModule final : public sc_core::sc_module, public MemoryPort, private DramSink {
 public:
  DramModule(const sc_core::sc_module_name& name, std::int32_t port,
             std::unique_ptr<DramModel> model, SimContext& ctx, MemoryClient& client);
  void enqueue(const DramRequest& r, OpRef owner) override;
  const DramModel& model() const { return *model_; }
  const StatGroup& stats() const { return stats_; }

 private:
  void run();
  void progress(std::uint64_t tag, std::int64_t done, Tick t) override;

  std::int32_t port_;
  std::unique_ptr<DramModel> model_;
  SimContext& ctx_;
  MemoryClient& client_;
  struct Open {
    Tick arrival;
    std::int64_t bytes;
    bool write;
  };
  std::unordered_map<std::uint64_t, Open> open_;  // tracing only
  // The requests not yet done, in arrival order: the one before a request
  // is what it waited behind.
  struct Pending {
    std::uint64_t tag;
    OpRef owner, before;
    Tick arrival;
    std::int64_t bytes;
    bool write;
  };
  std::deque<Pending> pending_;
  Tick busy_until_ = 0;               // the latest last-bytes time reported
  OpRef busy_owner_;                  // its request's owner
  double ps_per_byte_ = 0;  // at the model's peak
  sc_core::sc_event ev_;
  Distribution read_latency_, write_latency_, occupancy_;
  StatGroup stats_;
};

}  // namespace gemini::sim
