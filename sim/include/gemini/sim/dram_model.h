#pragma once
// DRAM channel timing models (docs/timing-model.md, "DRAM"). Plain C++ in
// integer picoseconds, no SystemC: the DRAM controller module drives one
// model per port, and unit tests drive them directly.
//
// Contract: requests are enqueued with the earliest time the controller may
// serve them; advance(now) commits scheduling decisions for requests already
// enqueued, reporting through the sink when bytes of a request are done, and
// returns when it wants to be called again (kNever when nothing is pending).
// A model never reports a time earlier than `now`.

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gemini/ir/hw_config.h"
#include "gemini/sim/stats.h"

namespace gemini::sim {

using Tick = std::int64_t;  // picoseconds
inline constexpr Tick kNever = std::numeric_limits<Tick>::max();

struct DramRequest {
  std::uint64_t tag = 0;  // the caller's id, echoed in progress()
  bool write = false;
  std::uint64_t addr = 0;
  std::int64_t bytes = 0;
  Tick arrival = 0;              // not served before this
  std::int64_t chunk_bytes = 0;  // reads report progress every chunk (0: only at the end)
};

class DramSink {
 public:
  virtual ~DramSink() = default;
  // `done` bytes (cumulative) of request `tag` are at the port (read) or
  // written (write) at time `t`; the last call has done == bytes.
  virtual void progress(std::uint64_t tag, std::int64_t done, Tick t) = 0;
};

// Plain counters, read once at the end.
struct DramStats {
  std::int64_t bytes_read = 0, bytes_written = 0;
  std::int64_t requests = 0, bursts = 0;
  std::int64_t row_hits = 0, row_misses = 0, row_conflicts = 0;  // per burst
  std::int64_t refreshes = 0;
  Tick data_busy = 0;  // time the data bus carried data
};

class DramModel {
 public:
  virtual ~DramModel() = default;
  virtual void enqueue(const DramRequest& r) = 0;
  virtual Tick advance(Tick now, DramSink& sink) = 0;
  virtual double peak_gbps() const = 0;  // bytes per ns
  virtual std::string name() const = 0;
  const DramStats& stats() const { return stats_; }
  // Registers every DramStats counter in the port's group.
  void register_stats(StatGroup& g) const;

 protected:
  DramStats stats_;
};

// The model named by `cfg.model`, from the table of models in dram_model.cpp:
// "simple" (FCFS, `port_gbps` and a fixed latency) or "banked" (cfg.timing,
// FR-FCFS over banks and rows).
std::unique_ptr<DramModel> make_dram_model(const ir::DramConfig& cfg, double port_gbps);
// The names make_dram_model knows, in registration order.
std::vector<std::string> dram_model_names();

}  // namespace gemini::sim
