#pragma once
// DRAM request traces (gemini sim --dram-trace FILE; docs/timing-model.md,
// "DRAM request trace") and their open-loop replay through one DRAM model
// (gemini dram-replay).
//
// FILE holds every request the DRAM ports received, in arrival order, one
// per line after a '#' header: `<time_ps> <port> <R|W> 0x<address> <bytes>`.
// Beside it, FILE.port<P>.trace holds port P's requests in the format of
// Ramulator 2's LoadStoreTrace frontend (`LD 0x<address>` / `ST 0x<address>`,
// one line per `access_bytes` of each request), so that a port's traffic
// replays through Ramulator 2 alone (closed loop: that frontend sends as
// fast as the controller accepts, without the times).

#include <cstdint>
#include <string>
#include <vector>

#include "gemini/sim/dram_model.h"

namespace gemini::sim {

struct DramTraceRecord {
  Tick arrival = 0;  // ps
  std::int32_t port = 0;
  bool write = false;
  std::uint64_t addr = 0;
  std::int64_t bytes = 0;
};

// Writes `records` (in arrival order) to `path` and each port's
// LoadStoreTrace beside it, accesses of `access_bytes`. False with
// "path: why" when a file cannot be written.
bool write_dram_trace(const std::string& path, const std::vector<DramTraceRecord>& records,
                      std::int32_t ports, std::int64_t access_bytes, std::string& error);

// Reads a trace `path` wrote; false with "path:line: why" on a line that is
// not one, or when records are out of arrival order.
bool read_dram_trace(const std::string& path, std::vector<DramTraceRecord>& records,
                     std::string& error);

// One request's time in the model: arrival to its last byte.
struct ReplayedRequest {
  Tick arrival = 0, done = 0;
  bool write = false;
  std::int64_t bytes = 0;
};

// Replays `records` open loop through `model`: each enqueued at its arrival
// time whatever the model is doing (reads report progress every
// `chunk_bytes`, as the NoC asks for packets), the model advanced at the
// times it asks for. Returns one entry per record, in order; a model that
// cannot make progress throws ModelStall (model_stall.h).
std::vector<ReplayedRequest> replay_dram(const std::vector<DramTraceRecord>& records,
                                         DramModel& model, std::int64_t chunk_bytes);

}  // namespace gemini::sim
