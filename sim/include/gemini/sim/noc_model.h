#pragma once
// The interface of a NoC timing model (docs/timing-model.md, "NoC"), and the
// registry of models by the name `noc.model` gives, each with the
// parameters it declares (params.h). Plain C++ in integer picoseconds, no
// SystemC: the NoC module of the simulator holds one model and calls it once
// per packet, in injection-time order; unit tests drive models directly.
//
// Contract: a model is built for a NocLayout: the cores (node id = core id =
// y * xlen + x) and the DRAM ports at the grid positions the layout gives
// (port_node(i) is port i's node); how they are connected is the model's.
// send and multicast reserve the packet's route when called and never report
// a time earlier than `t`; the counters registered by register_stats are
// final once the last packet is sent.
//
// A closed-loop model (closed_loop(): a flit-level network, where a packet
// sent later may still delay one sent earlier) cannot time a packet when it
// is sent: its caller hands packets over with enqueue() instead of send()
// and multicast(), and learns their timing through NocModel::Events as
// advance() runs the network, calling advance(next_advance()) whenever that
// is not kNever (and may call it at any time in between). Reports are never
// earlier than the `now` of the advance() that makes them.

#include <boost/json/object.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gemini/ir/hw_config.h"
#include "gemini/sim/dram_model.h"
#include "gemini/sim/params.h"
#include "gemini/sim/stats.h"

namespace gemini::sim {

struct NodePos {
  std::int32_t x = 0, y = 0;
};

class NocModel {
 public:
  // `waited`: time the packet's head waited for links another owner's
  // packets held (set_owner); `wait_link` the link of its longest such
  // wait (link_name), `wait_owner` whose packet held it. A model that does
  // not measure this leaves them empty.
  struct Timing {
    Tick injected;               // the source may start its next packet
    Tick arrived;                // its tail is at the destination
    std::int32_t links;          // router-to-router links it crossed
    std::int32_t d2d_links = 0;  // of which die-to-die links (chiplets.h)
    Tick waited = 0;
    std::int32_t wait_link = -1;
    std::uint64_t wait_owner = ~std::uint64_t{0};
  };
  // arrived[i] is when the tail is at dsts[i]; `injected` when the source
  // may send the next.
  struct MulticastTiming {
    Tick injected = 0;
    std::vector<Tick> arrived;
    std::int32_t links = 0;      // router-to-router links of its tree
    std::int32_t d2d_links = 0;  // of which die-to-die links (chiplets.h)
    Tick last = 0;               // the latest of `arrived`
    Tick waited = 0;             // as Timing's, over the whole tree
    std::int32_t wait_link = -1;
    std::uint64_t wait_owner = ~std::uint64_t{0};
  };
  // Statistics over the links between routers (not injection/ejection).
  struct LinkUse {
    Tick max_busy = 0;
    NodePos max_from, max_to;  // the busiest link (first of equals)
    double mean_busy = 0;
    std::int32_t links = 0;
  };

  virtual ~NocModel() = default;
  // The node of DRAM port `port` (its index in the layout's ports).
  virtual std::int32_t port_node(std::int32_t port) const = 0;
  // The rate at which `node` takes packets off its ejection link, in ps per
  // byte (0: the link's rate).
  virtual void set_eject_ps_per_byte(std::int32_t node, double ps_per_byte) = 0;
  // Sends one packet, injected no earlier than `t`.
  virtual Timing send(Tick t, std::int32_t src, std::int32_t dst, std::int64_t bytes) = 0;
  // Sends one packet to every node of `dsts` (distinct, none `src`).
  virtual MulticastTiming multicast(Tick t, std::int32_t src, const std::vector<std::int32_t>& dsts,
                                    std::int64_t bytes) = 0;
  // What a model may remember of a multicast stream between its packets
  // (MeshNoc: its tree), kept by the caller: one per stream of packets
  // that all go from the same src to the same dsts, value-initialised
  // before the first. A model that keeps nothing leaves it as it is.
  struct MulticastMemo {
    std::uint32_t index = 0;
    std::uint64_t generation = 0;  // 0: nothing remembered
  };
  // As multicast(), for one packet of the stream of `memo`: the same
  // timing, into `out` (whose vector's capacity a model may reuse).
  virtual void multicast_stream(Tick t, std::int32_t src, const std::vector<std::int32_t>& dsts,
                                std::int64_t bytes, MulticastMemo& /*memo*/, MulticastTiming& out) {
    out = multicast(t, src, dsts, bytes);
  }
  // The on-chip links between routers, and the die-to-die links (none when
  // the mesh is one die).
  virtual LinkUse router_link_use() const = 0;
  virtual LinkUse d2d_link_use() const { return {}; }
  // The owner (an opaque id: the simulator's instruction) of the packets
  // sent from now on, for Timing::wait_owner.
  void set_owner(std::uint64_t owner) { owner_ = owner; }
  // A link of Timing::wait_link, in words.
  virtual std::string link_name(std::int32_t link) const { return "link " + std::to_string(link); }
  // Each die-to-die link, in link order: its ends, bytes and busy time.
  struct LinkLoad {
    NodePos from, to;
    std::int64_t bytes = 0;
    Tick busy = 0;
  };
  virtual std::vector<LinkLoad> d2d_link_loads() const { return {}; }
  // The peak rate of one router-to-router link, in GB/s (bytes per ns):
  // what the layer roofline and the silicon model take as the NoC's
  // bandwidth, as DramModel::peak_gbps is the DRAM's.
  virtual double peak_link_gbps() const = 0;
  // Each link between routers (DRAM port links included, injection and
  // ejection links not), in the mesh's order (MeshLinks::for_each_link):
  // its ends and busy time; bytes where the model counts them.
  virtual std::vector<LinkLoad> router_link_loads() const { return {}; }

  // ---- Closed-loop models (above) ----
  // One destination's arrival of a packet handed over with enqueue():
  // `dst` its index in the packet's dsts; links and d2d_links the links it
  // adds to the packet's count (its route's, or of a multicast forked in
  // the routers the tree's links first crossed on its way: a packet's
  // arrivals sum to the links it crossed, each once); `waited` its delay
  // beyond its zero-load latency, from enqueue() on; wait_link and
  // wait_owner as Timing's (the owner: set_owner()'s when the packet that
  // held it was handed over), where the model knows them.
  struct Arrival {
    std::uint64_t tag = 0;
    std::size_t dst = 0;
    Tick t = 0;
    std::int32_t links = 0, d2d_links = 0;
    Tick waited = 0;
    std::int32_t wait_link = -1;
    std::uint64_t wait_owner = ~std::uint64_t{0};
  };
  class Events {
   public:
    virtual ~Events() = default;
    // Packet `tag` has left its source at `t`: the source may hand over its
    // next (t >= now).
    virtual void injected(std::uint64_t tag, Tick t) = 0;
    virtual void arrived(const Arrival& a) = 0;
  };
  virtual bool closed_loop() const { return false; }
  // Hands over a packet of `bytes` from `src` to every node of `dsts`
  // (distinct, none `src`) at `t` (no earlier than the last advance()'s
  // `now`): it leaves no earlier than `t`, after the source's packets
  // handed over before it. `tag` is the caller's, echoed in the reports.
  virtual void enqueue(Tick /*t*/, std::uint64_t /*tag*/, std::int32_t /*src*/,
                       const std::vector<std::int32_t>& /*dsts*/, std::int64_t /*bytes*/) {}
  // Where the model reports from now on (before the first enqueue()): what
  // advance() runs, and what enqueue() may report at once (the router
  // model: a source's injection, when nothing but the source's own packets
  // decides it).
  virtual void set_events(Events& /*ev*/) {}
  // Runs the network through `now` -- and beyond, up to its lookahead: the
  // events no packet handed over at `now` or later can change -- reporting
  // to `ev`.
  virtual void advance(Tick /*now*/, Events& /*ev*/) {}
  // When advance() must run next (kNever: nothing in flight).
  virtual Tick next_advance() const { return kNever; }
  virtual std::int64_t packets() const = 0;
  virtual std::int64_t bytes() const = 0;
  // Registers the model's counters in `g`, tied to the model's lifetime
  // (stats.h).
  void register_stats(StatGroup& g) const {
    g.owned_by(stat_owner_);
    add_stats(g);
  }
  virtual std::string name() const = 0;
  // The model's configuration in its own simulator's terms, where it has
  // one (booksim2: BookSim's configuration file); empty otherwise.
  virtual std::string config_text() const { return {}; }

 protected:
  // The model's counters, for register_stats().
  virtual void add_stats(StatGroup& g) const = 0;
  std::uint64_t owner_ = ~std::uint64_t{0};

 private:
  StatOwner stat_owner_;
};

// The counters every NoC model keeps (packets, bytes, byte-hops, D2D
// byte-hops), registered under the same names by add_to() in a model's
// add_stats().
struct NocCounters {
  std::int64_t packets = 0, bytes = 0;
  std::int64_t byte_hops = 0;      // bytes x router-to-router links crossed
  std::int64_t d2d_byte_hops = 0;  // of byte_hops, over die-to-die links
  void add_to(StatGroup& g) const;
};

// The base of a closed-loop model: packets come by enqueue() only, so
// send() and multicast() on it are an internal error (naming the model).
class ClosedLoopNocModel : public NocModel {
 public:
  bool closed_loop() const final { return true; }
  Timing send(Tick, std::int32_t, std::int32_t, std::int64_t) final { misuse("send"); }
  MulticastTiming multicast(Tick, std::int32_t, const std::vector<std::int32_t>&,
                            std::int64_t) final {
    misuse("multicast");
  }

 private:
  [[noreturn]] void misuse(const char* what) const;
};

// The busiest of `loads` (the first of equals) and their mean busy time:
// a model's router_link_use() or d2d_link_use() from its link loads.
NocModel::LinkUse link_use_of(const std::vector<NocModel::LinkLoad>& loads);

// What a model is built for: the cores on the xlen x ylen grid and the DRAM
// ports, each at a grid position beside a row (x = -1 west, x = xlen east).
struct NocLayout {
  std::int32_t xlen = 1, ylen = 1;
  std::vector<NodePos> ports;
  Tick period = 1000;  // the core clock (ps), for parameters in cycles
  std::int32_t packet_bytes = 512;  // noc.packet_bytes: a data packet's payload
  // Die-to-die links (chiplets.h): the mesh cut into x_cut x y_cut equal
  // dies (1 x 1: one die, no D2D links); with io_die the ports' links into
  // a cut mesh are D2D links too (an IO die). Each D2D link carries
  // d2d_gbps per direction and adds d2d_latency to a packet's header.
  std::int32_t x_cut = 1, y_cut = 1;
  bool io_die = false;
  double d2d_gbps = 16;
  Tick d2d_latency = 0;
};

// Builds the model from the parameter values it holds; nullptr with `error`
// when they do not fit the layout (naming the parameter).
using NocBuilder =
    std::function<std::unique_ptr<NocModel>(const NocLayout& layout, std::string& error)>;

// A NoC model by the name `noc.model` gives: `configure` declares and reads
// the model's parameters from the `noc` section (params.h) and returns the
// builder holding their values.
struct NocModelInfo {
  std::string name;
  std::string description;  // one line, for listings
  NocBuilder (*configure)(ParamReader& r) = nullptr;
};

// The registry. The built-in models are listed in noc_model.cpp (each
// defined in its own file); a model defined elsewhere, e.g. in a test,
// registers itself with a static NocModelRegistration. A name registered
// twice is an internal error.
void register_noc_model(NocModelInfo info);
struct NocModelRegistration {
  explicit NocModelRegistration(NocModelInfo info) { register_noc_model(std::move(info)); }
};
const std::vector<NocModelInfo>& noc_models();
// Their names, in registration order; `builtin_only`: the models gemini
// ships, not those a test registered.
std::vector<std::string> noc_model_names(bool builtin_only = false);

// The `noc` section read: the NoC's own parameters (every model has them)
// and the chosen model's builder.
struct NocSetup {
  std::string model;
  std::int32_t packet_bytes = 512;  // payload per packet; messages are split
  std::int32_t control_bytes = 16;  // a token, DMA read request or write ack
  NocBuilder build;
};
// Reads and checks the `noc` component ir keeps raw. Returns nullopt with one
// error per problem ("file:pointer: message") naming the model and the
// parameter: a bad value, or a key the chosen model does not have.
std::optional<NocSetup> read_noc_setup(const ir::RawComponent& noc, ir::ConfigErrors& errors);
// Every declared parameter: the NoC's own (ParamInfo::model empty), then each
// model's.
std::vector<ParamInfo> noc_params();
// The model a `noc` section chooses, built for `layout` (unit tests);
// nullptr with `error` when the section does not read.
std::unique_ptr<NocModel> make_noc_model(const boost::json::object& noc, const NocLayout& layout,
                                         std::string& error);

}  // namespace gemini::sim
