#pragma once
// Synthetic traffic for any registered NoC model (`gemini noc`,
// docs/timing-model.md, "Synthetic traffic"): the latency and throughput
// curves the field draws for a network, so that two models -- the packet-
// level mesh and BookSim 2's routers -- are compared on the same packets.
//
// Contract: every core of an xlen x ylen mesh (no DRAM ports) is a source
// with an unbounded FIFO queue. Synthetic patterns generate a packet at a
// source in each cycle with probability `load * link bytes per cycle /
// packet_bytes` (Bernoulli; load is the offered bytes per source and cycle
// as a fraction of one link's), to a destination the pattern gives:
//   uniform    any other core, uniformly
//   transpose  (x, y) -> (y, x) (square meshes; the diagonal sends nothing)
//   bitcomp    (x, y) -> (xlen-1-x, ylen-1-y) (a centre core sends nothing)
//   hotspot    the hotspot core with probability hotspot_fraction, else
//              uniform (the hotspot itself: uniform)
//   neighbor   one of its (up to four) neighbours, uniformly
//   permutation  a fixed destination per source, traffic_permutation(cores,
//              seed): a random permutation without fixed points, so that
//              each core sends to one core and receives from one
//   trace      the packets of a trace (read_traffic_trace), each at its
//              cycle, all measured
// Each source draws from its own generator seeded from (seed, source), so
// every model gets exactly the same packets. A source hands its queue's
// head to the model when its previous packet has left (send()'s
// `injected`, or a closed-loop model's injected report). Each source's
// packets warmup .. warmup + packets - 1 are measured; sources go on
// generating until every measured packet has arrived. Latency is from a
// packet's generation to its tail's arrival, source queueing included, in
// cycles. With zero_load, the pattern's packets go one at a time through
// an empty network (every pair the pattern has, or `packets` drawn for
// hotspot): the zero-load latency.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "gemini/sim/noc_model.h"

namespace gemini::sim {

struct TracePacket {
  std::int64_t cycle = 0;
  std::int32_t src = 0, dst = 0;
  std::int64_t bytes = 0;
};

struct TrafficSpec {
  std::int32_t xlen = 8, ylen = 8;
  std::string pattern = "uniform";  // traffic_patterns()
  double load = 0.1;                // offered, as a fraction of one link's bytes per cycle
  std::int64_t packet_bytes = 512;
  std::int64_t packets = 200;  // measured per source
  std::int64_t warmup = 50;    // per source, before those
  std::uint64_t seed = 1;
  std::int32_t hotspot = -1;  // the hotspot core (-1: the centre)
  double hotspot_fraction = 0.2;
  bool zero_load = false;
  std::vector<TracePacket> trace;  // pattern "trace"
  Tick period = 1000;              // the core clock, ps
  double link_bytes_per_cycle = 24;
};

struct TrafficResult {
  std::int64_t measured = 0;  // packets
  double mean = 0, p50 = 0, p99 = 0, max = 0;  // latency, cycles
  double offered = 0, accepted = 0;            // bytes per source and cycle / link's, in the window
  double window_cycles = 0;                    // the measurement window
  std::int32_t sources = 0;                    // that send
  double run_cycles = 0;                       // until the last measured arrival
  // Links between routers: busy time over run_cycles.
  double link_max = 0, link_mean = 0;
  std::string busiest;  // "(x,y)->(x',y')"
  std::vector<NocModel::LinkLoad> links;
};

const std::vector<std::string>& traffic_patterns();

// Runs `spec` on `noc`, a model freshly built for spec's mesh without ports
// (traffic_layout): false with `error` for a spec that does not fit (a
// pattern the mesh lacks, a trace core outside it).
bool run_traffic(NocModel& noc, const TrafficSpec& spec, TrafficResult& out, std::string& error);

// The permutation pattern's destinations: element i is where core i sends.
// A uniformly drawn cyclic permutation of the cores (Sattolo's algorithm,
// from `seed` alone), so no core sends to itself; the same for every model
// and run with that seed. Fewer than two cores: each sends nowhere (-1).
std::vector<std::int32_t> traffic_permutation(std::int32_t cores, std::uint64_t seed);

// The layout run_traffic wants its model built for.
NocLayout traffic_layout(const TrafficSpec& spec);

// Reads a packet trace: CSV lines "cycle,source core,destination core,bytes"
// (a header line and blank lines skipped); false with `error` naming
// file:line otherwise.
bool read_traffic_trace(std::istream& in, const std::string& name, std::vector<TracePacket>& out,
                        std::string& error);

}  // namespace gemini::sim
