#pragma once
// The interface of a NoC timing model (docs/timing-model.md, "NoC"), and the
// table of models by name. Plain C++ in integer picoseconds, no SystemC: the
// NoC module of the simulator holds one model and calls it once per packet,
// in injection-time order; unit tests drive models directly.
//
// Contract: nodes are the cores (id = y * xlen + x) then the DRAM ports
// (port_node); send and multicast reserve the packet's route when called and
// never report a time earlier than `t`; the counters registered by
// register_stats are final once the last packet is sent.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gemini/sim/dram_model.h"
#include "gemini/sim/stats.h"

namespace gemini::sim {

struct NodePos {
  std::int32_t x = 0, y = 0;
};

class NocModel {
 public:
  struct Timing {
    Tick injected;       // the source may start its next packet
    Tick arrived;        // its tail is at the destination
    std::int32_t links;  // router-to-router links it crossed
  };
  // arrived[i] is when the tail is at dsts[i]; `injected` when the source
  // may send the next.
  struct MulticastTiming {
    Tick injected = 0;
    std::vector<Tick> arrived;
    std::int32_t links = 0;  // router-to-router links of its tree
  };
  // Statistics over the links between routers (not injection/ejection).
  struct LinkUse {
    Tick max_busy = 0;
    NodePos max_from, max_to;  // the busiest link (first of equals)
    double mean_busy = 0;
    std::int32_t links = 0;
  };

  virtual ~NocModel() = default;
  // The node of the DRAM port at the west (or east) end of `row`.
  virtual std::int32_t port_node(std::int32_t row, bool east) const = 0;
  // The rate at which `node` takes packets off its ejection link, in ps per
  // byte (0: the link's rate).
  virtual void set_eject_ps_per_byte(std::int32_t node, double ps_per_byte) = 0;
  // Sends one packet, injected no earlier than `t`.
  virtual Timing send(Tick t, std::int32_t src, std::int32_t dst, std::int64_t bytes) = 0;
  // Sends one packet to every node of `dsts` (distinct, none `src`).
  virtual MulticastTiming multicast(Tick t, std::int32_t src, const std::vector<std::int32_t>& dsts,
                                    std::int64_t bytes) = 0;
  virtual LinkUse router_link_use() const = 0;
  virtual std::int64_t packets() const = 0;
  virtual std::int64_t bytes() const = 0;
  // Registers the model's counters in `g`.
  virtual void register_stats(StatGroup& g) const = 0;
  virtual std::string name() const = 0;
};

// What every NoC model is built from.
struct NocParams {
  std::int32_t xlen = 1, ylen = 1;
  double link_gbps = 24.0;
  Tick router_ps = 0;
  std::int32_t buffer_packets = 0;  // 0: unbounded
};

// The model called `name`, from the table in noc_model.cpp ("mesh": the 2-D
// mesh, mesh_noc.h). Throws std::invalid_argument naming an unknown model.
std::unique_ptr<NocModel> make_noc_model(const std::string& name, const NocParams& p);
// The names make_noc_model knows, in registration order.
std::vector<std::string> noc_model_names();

}  // namespace gemini::sim
