// noc.model "booksim2" (docs/timing-model.md, "NoC: booksim2"): the
// simulator's packets injected into BookSim 2's routers and stepped cycle by
// cycle, closed loop (noc_model.h): virtual channels, credits, allocators and
// the router pipeline as BookSim models them. Its configuration comes from
// booksim2_config() (one function, booksim2_config.h); the network from the
// driver (booksim2_network.h).
//
// Contract and timing: a closed-loop model. A packet handed over at t leaves
// in the first BookSim cycle that starts at or after t (BookSim cycle c
// starts at ceil(c * period / ratio) ps); each BookSim cycle c runs in two
// halves, the ejections at its start (arrivals reported at that time, or
// when the node has drained the packet's flits) and the injections and the
// network's cycle just after it, so that a packet handed over at that very
// time, in reply to an arrival, still leaves in it. A multicast is sent as
// its unicasts (BookSim 2 has no multicast): one copy per destination,
// each after the last from the same source; `injected` is when the last has
// left. Link statistics: flits over each channel times a BookSim cycle.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "booksim2_keys.h"
#include "gemini/sim/booksim2_config.h"
#include "gemini/sim/mesh_links.h"
#include "gemini/sim/mesh_noc.h"
#include "gemini/sim/model_stall.h"
#include "gemini/sim/noc_model.h"

#ifdef GEMINI_HAVE_BOOKSIM2
#include "booksim2_network.h"
#endif

namespace gemini::sim {

namespace {

const std::vector<std::string> kAllocators = {
    "separable_input_first", "separable_output_first", "islip", "pim", "loa",
    "wavefront",             "rr_wavefront",           "max_size"};

#ifdef GEMINI_HAVE_BOOKSIM2

// BookSim cycle c starts at ceil(c * period / ratio) ps.
class Clock {
 public:
  Clock(Tick period, std::int32_t ratio) : period_(period), ratio_(ratio) {}
  Tick time(std::int64_t c) const { return (c * period_ + ratio_ - 1) / ratio_; }
  Tick time(double c) const {
    return ceil_tick(c * static_cast<double>(period_) / ratio_ - 1e-6);
  }
  // The first cycle that starts at or after t.
  std::int64_t ready(Tick t) const { return t <= 0 ? 0 : (t - 1) * ratio_ / period_ + 1; }
  double ps_per_cycle() const { return static_cast<double>(period_) / ratio_; }

 private:
  Tick period_;
  std::int32_t ratio_;
};

class Booksim2Noc final : public ClosedLoopNocModel, private Booksim2Network::Sink {
 public:
  Booksim2Noc(Booksim2Setup s, std::unique_ptr<Booksim2Network> net)
      : s_(std::move(s)), net_(std::move(net)), clock_(s_.period, s_.clock_ratio),
        links_(s_.xlen, s_.ylen) {
    eject_cpf_.assign(static_cast<std::size_t>(s_.xlen * s_.ylen) + s_.port_x.size(), 1.0);
  }

  std::int32_t port_node(std::int32_t port) const override { return s_.xlen * s_.ylen + port; }
  void set_eject_ps_per_byte(std::int32_t node, double ps_per_byte) override {
    const double cpf = ps_per_byte > 0 ? ps_per_byte * s_.flit_bytes / clock_.ps_per_cycle() : 1;
    eject_cpf_[static_cast<std::size_t>(node)] = std::max(1.0, cpf);
    net_->set_eject_cycles_per_flit(bs_node(node), cpf);
  }

  void enqueue(Tick t, std::uint64_t tag, std::int32_t src, const std::vector<std::int32_t>& dsts,
               std::int64_t bytes) override;
  void advance(Tick now, Events& ev) override;
  Tick next_advance() const override {
    if (net_->idle()) return kNever;
    const Tick start = clock_.time(net_->cycle());
    return read_done_ ? start + 1 : start;  // its step just after time(c)
  }

  LinkUse router_link_use() const override { return link_use_of(loads(false, false)); }
  LinkUse d2d_link_use() const override { return link_use_of(loads(true, false)); }
  std::vector<LinkLoad> router_link_loads() const override { return loads(false, true); }
  std::vector<LinkLoad> d2d_link_loads() const override { return loads(true, false); }
  std::int64_t packets() const override { return counts_.packets; }
  std::int64_t bytes() const override { return counts_.bytes; }
  std::string name() const override { return "booksim2"; }
  std::string config_text() const override { return s_.text(); }
  std::string link_name(std::int32_t link) const override { return links_.name(link); }
  double peak_link_gbps() const override { return s_.flit_bytes / clock_.ps_per_cycle() * 1000; }
  void add_stats(StatGroup& g) const override {
    counts_.add_to(g);
    g.add("flits", &flits_, Unit::count, "BookSim flits written into the network");
    g.add("multicast_copies", &copies_, Unit::count,
          "unicast copies sent for multicast packets beyond one per packet");
    g.add("booksim_cycles", &cycles_, Unit::count, "BookSim cycles stepped");
  }

 private:
  NodePos pos(std::int32_t node) const {
    const std::int32_t cores = s_.xlen * s_.ylen;
    if (node < cores) return {node % s_.xlen, node / s_.xlen};
    const auto p = static_cast<std::size_t>(node - cores);
    return {s_.port_x[p], s_.port_y[p]};
  }
  std::int32_t bs_node(std::int32_t node) const {
    const NodePos p = pos(node);
    return s_.node(p.x, p.y);
  }
  bool on_grid(NodePos p) const {
    return s_.column_offset > 0 || (p.x >= 0 && p.x < s_.xlen);
  }
  std::vector<LinkLoad> loads(bool d2d, bool all) const;

  // Booksim2Network::Sink
  void injected(std::uint32_t id, std::int64_t cycle) override;
  void arrived(std::uint32_t id, double cycle) override;

  // A packet handed over, and its copies (one per destination).
  struct Packet {
    std::uint64_t tag = 0;
    std::int32_t to_inject = 0, to_arrive = 0;
  };
  struct Copy {
    std::uint32_t packet = 0;
    std::size_t dst = 0;
    std::int32_t links = 0, d2d_links = 0;
    double ideal = 0;  // its zero-load arrival, in BookSim cycles
  };
  template <typename T>
  static std::uint32_t take(std::vector<T>& pool, std::vector<std::uint32_t>& free) {
    if (!free.empty()) {
      const std::uint32_t i = free.back();
      free.pop_back();
      pool[i] = T{};
      return i;
    }
    pool.emplace_back();
    return static_cast<std::uint32_t>(pool.size() - 1);
  }

  Booksim2Setup s_;
  std::unique_ptr<Booksim2Network> net_;
  Clock clock_;
  MeshLinks links_;
  std::vector<double> eject_cpf_;  // per node: BookSim cycles per flit it takes off
  bool read_done_ = false;         // the current cycle's ejections are taken
  Events* ev_ = nullptr;           // advance()'s
  std::vector<Packet> packets_pool_;
  std::vector<Copy> copies_pool_;
  std::vector<std::uint32_t> free_packets_, free_copies_;
  NocCounters counts_;
  std::int64_t flits_ = 0, copies_ = 0, cycles_ = 0;
};

void Booksim2Noc::enqueue(Tick t, std::uint64_t tag, std::int32_t src,
                          const std::vector<std::int32_t>& dsts, std::int64_t bytes) {
  const std::int64_t ready = std::max(clock_.ready(t), net_->cycle());
  if (net_->idle() && ready > net_->cycle()) {
    net_->skip_to(ready);
    read_done_ = true;  // an idle network ejects nothing
  }
  const std::uint32_t p = take(packets_pool_, free_packets_);
  packets_pool_[p].tag = tag;
  packets_pool_[p].to_inject = packets_pool_[p].to_arrive = static_cast<std::int32_t>(dsts.size());
  const std::int32_t flits = s_.flits(bytes);
  const NodePos a = pos(src);
  for (std::size_t i = 0; i < dsts.size(); ++i) {
    const std::uint32_t c = take(copies_pool_, free_copies_);
    Copy& cp = copies_pool_[c];
    cp.packet = p;
    cp.dst = i;
    const NodePos b = pos(dsts[i]);
    links_.xy_route(a, b, [&](std::int32_t link) {
      ++cp.links;
      cp.d2d_links += s_.d2d_links[static_cast<std::size_t>(link)];
    });
    // Zero load: the head at its ejection channel's end (h + 1) hops after
    // it left, the flits drained behind it.
    cp.ideal = static_cast<double>(ready + (cp.links + 1) * s_.hop_cycles + s_.d2d_cycles * cp.d2d_links) +
               flits * eject_cpf_[static_cast<std::size_t>(dsts[i])];
    net_->enqueue(c, bs_node(src), bs_node(dsts[i]), flits, ready);
    counts_.byte_hops += bytes * cp.links;
    counts_.d2d_byte_hops += bytes * cp.d2d_links;
    flits_ += flits;
  }
  ++counts_.packets;
  counts_.bytes += bytes;
  copies_ += static_cast<std::int64_t>(dsts.size()) - 1;
}

// Cycle c's ejections are taken as soon as cycle c - 1 has run (the
// network's state then is final) and reported for time(c) or later; its
// injections and its step wait until time has passed time(c), so that a
// packet handed over at time(c) in reply to an arrival then still goes in
// it. One wake per BookSim cycle while anything is in flight.
void Booksim2Noc::advance(Tick now, Events& ev) {
  ev_ = &ev;
  while (!net_->idle()) {
    const std::int64_t c = net_->cycle();
    if (!read_done_) {  // the first cycle
      if (clock_.time(c) > now) break;
      net_->read(*this);
      read_done_ = true;
      continue;
    }
    if (clock_.time(c) >= now) break;
    if (c >= Booksim2Network::clock_limit() || clock_.time(c) >= kTickLimit)
      throw ModelStall("noc.model \"booksim2\": the run passed BookSim 2's clock (2^31 cycles, " +
                       std::to_string(s_.clock_ratio) + " per core cycle of " +
                       std::to_string(s_.period) + " ps)");
    net_->step(*this);  // cycle c's injections and the network's cycle
    ++cycles_;
    net_->read(*this);  // cycle c + 1's ejections, at time(c + 1) or later
  }
  ev_ = nullptr;
}

void Booksim2Noc::injected(std::uint32_t id, std::int64_t cycle) {
  Packet& p = packets_pool_[copies_pool_[id].packet];
  if (--p.to_inject == 0) ev_->injected(p.tag, clock_.time(cycle));
}

void Booksim2Noc::arrived(std::uint32_t id, double cycle) {
  const Copy cp = copies_pool_[id];
  free_copies_.push_back(id);
  Packet& p = packets_pool_[cp.packet];
  Arrival a;
  a.tag = p.tag;
  a.dst = cp.dst;
  a.t = clock_.time(cycle);
  a.links = cp.links;
  a.d2d_links = cp.d2d_links;
  a.waited = std::max<Tick>(0, a.t - clock_.time(cp.ideal));
  if (--p.to_arrive == 0) free_packets_.push_back(cp.packet);
  ev_->arrived(a);
}

std::vector<NocModel::LinkLoad> Booksim2Noc::loads(bool d2d, bool all) const {
  std::vector<LinkLoad> out;
  links_.for_each_link([&](std::int32_t link, NodePos from, NodePos to) {
    LinkLoad l{from, to, 0, 0};
    if (on_grid(from) && on_grid(to)) {
      if (!all && (s_.d2d_links[static_cast<std::size_t>(link)] != 0) != d2d) return;
      const std::int32_t ch = s_.channel(from, to);
      const std::int64_t flits = net_->channel_flits(ch / 4, ch % 4);
      l.bytes = static_cast<std::int64_t>(std::llround(static_cast<double>(flits) * s_.flit_bytes));
      l.busy = static_cast<Tick>(std::llround(static_cast<double>(flits) * clock_.ps_per_cycle()));
    } else if (!all) {
      return;
    }
    out.push_back(l);
  });
  return out;
}

#endif  // GEMINI_HAVE_BOOKSIM2

// The router's pipeline, crossbar and allocators (BookSim's iq router):
// declared and read into `p`.
void read_router_params(ParamReader& r, Booksim2Params& p) {
  p.routing_delay = r.param<std::int32_t>("routing_delay")
                        .unit(Unit::booksim_cycles)
                        .range(-1, 1 << 10)
                        .fallback(-1)
                        .describe(
                            "route computation (0: lookahead; -1: what makes a hop "
                            "router_cycles)")
                        .get();
  // The router pipeline's stages (BookSim's minimum, 1, each; the switch's
  // preparation and a credit's hold may take none).
  auto stage = [&r](const char* name, std::int32_t lo, std::int32_t fallback, const char* what) {
    return r.param<std::int32_t>(name)
        .unit(Unit::booksim_cycles)
        .range(lo, 1 << 10)
        .fallback(fallback)
        .describe(what)
        .get();
  };
  p.vc_alloc_delay = stage("vc_alloc_delay", 1, 1, "VC allocation");
  p.sw_alloc_delay = stage("sw_alloc_delay", 1, 1, "switch allocation");
  p.st_prepare_delay = stage("st_prepare_delay", 0, 0, "the switch traversal's preparation");
  p.st_final_delay = stage("st_final_delay", 1, 1, "switch traversal");
  p.credit_delay = stage("credit_delay", 0, 0,
                         "a router's hold of a credit before it goes upstream");
  // The crossbar: 0 divides by zero in BookSim.
  auto speedup = [&r](const char* name, const char* what) {
    return r.param<std::int32_t>(name)
        .unit(Unit::ratio)
        .range(1, 16)
        .fallback(1)
        .describe(what)
        .get();
  };
  p.input_speedup = speedup("input_speedup", "crossbar inputs per router input port");
  p.output_speedup = speedup("output_speedup", "crossbar outputs per router output port");
  p.internal_speedup = r.param<double>("internal_speedup")
                           .unit(Unit::ratio)
                           .range(1, 16)
                           .fallback(1.0)
                           .describe("router cycles per channel cycle")
                           .get();
  p.speculative = r.param<bool>("speculative")
                      .fallback(true)
                      .describe("switch allocation speculatively alongside VC allocation")
                      .get();
  p.vc_allocator = r.param<std::string>("vc_allocator")
                       .choices(kAllocators)
                       .fallback(p.vc_allocator)
                       .describe("BookSim's VC allocator")
                       .get();
  p.sw_allocator = r.param<std::string>("sw_allocator")
                       .choices(kAllocators)
                       .fallback(p.sw_allocator)
                       .describe("BookSim's switch allocator")
                       .get();
  p.alloc_iters = r.param<std::int32_t>("alloc_iters")
                      .unit(Unit::iterations)
                      .range(1, 16)
                      .fallback(1)
                      .describe("iterations of the iterative allocators (islip, pim)")
                      .get();
  p.arb_type = r.param<std::string>("arb_type")
                   .choices({"round_robin", "matrix"})
                   .fallback(p.arb_type)
                   .describe("the separable allocators' arbiters")
                   .get();
}

// Declares and reads the model's parameters: the mesh's three (the same
// meaning, so that switching noc.model keeps them), then BookSim's.
NocBuilder configure(ParamReader& r) {
  Booksim2Params p;
  const MeshNocParams mesh = read_mesh_noc_params(r);
  p.link_gbps = mesh.link_gbps;
  p.router_cycles = mesh.router_cycles;
  p.buffer_packets = mesh.buffer_packets;
  p.num_vcs = r.param<std::int32_t>("num_vcs")
                  .unit(Unit::virtual_channels)
                  .range(1, 64)
                  .fallback(p.num_vcs)
                  .describe("virtual channels per router port")
                  .get();
  p.deep_packets =
      r.param<std::int32_t>("deep_packets")
          .unit(Unit::packets)
          .range(1, 1 << 12)
          .fallback(p.deep_packets)
          .describe("packets each VC buffer holds when buffer_packets is 0 (unbounded)")
          .get();
  p.clock_ratio = r.param<std::int32_t>("clock_ratio")
                      .unit(Unit::booksim_cycles_per_cycle)
                      .range(0, 64)
                      .fallback(0)
                      .describe(
                          "BookSim cycles per core cycle (0: the fewest that fit "
                          "router_cycles: a hop takes 3 BookSim cycles at least)")
                      .get();
  read_router_params(r, p);
  p.seed = r.param<std::int32_t>("seed")
               .unit(Unit::id)
               .range(0, 1 << 30)
               .fallback(1)
               .describe("BookSim's random seed (random arbitration)")
               .get();
  ParamReader extra =
      r.section("booksim", "BookSim 2's other router and buffer keys, as its manual names them "
                           "(e.g. \"vc_busy_when_full\": 1); each checked by gemini "
                           "(booksim.<key> below), any other key refused");
  std::function<bool(const std::string&)> booksim_knows;  // none without BookSim 2
#ifdef GEMINI_HAVE_BOOKSIM2
  booksim_knows = [](const std::string& key) {
    return Booksim2Network::key_kind(key, true) != 0 || Booksim2Network::key_kind(key, false) != 0;
  };
#endif
  p.extra = read_booksim2_keys(extra, p.num_vcs, booksim_knows);
#ifndef GEMINI_HAVE_BOOKSIM2
  r.fail("model", "this gemini was built without BookSim 2 (" GEMINI_BOOKSIM2_MISSING
                  "): rebuild with its source and flex and bison at hand "
                  "(scripts/setup.sh, docs/timing-model.md), or use noc.model \"mesh\"");
#endif
  return [p](const NocLayout& l, std::string& error) { return make_booksim2_noc(p, l, error); };
}

}  // namespace

std::unique_ptr<NocModel> make_booksim2_noc(const Booksim2Params& p, const NocLayout& layout,
                                            std::string& error) {
#ifdef GEMINI_HAVE_BOOKSIM2
  Booksim2Setup s;
  if (!booksim2_config(p, layout, s, error)) return nullptr;
  auto net = Booksim2Network::create(s, error);
  if (!net) return nullptr;
  return std::make_unique<Booksim2Noc>(std::move(s), std::move(net));
#else
  (void)p;
  (void)layout;
  error = "noc.model \"booksim2\": this gemini was built without BookSim 2 (" GEMINI_BOOKSIM2_MISSING ")";
  return nullptr;
#endif
}

bool booksim2_built(std::string* why) {
#ifdef GEMINI_HAVE_BOOKSIM2
  if (why) why->clear();
  return true;
#else
  if (why) *why = GEMINI_BOOKSIM2_MISSING;
  return false;
#endif
}

NocModelInfo booksim2_noc_model() {
  return {"booksim2",
          "BookSim 2's input-queued routers on a mesh, flit by flit, closed loop (DOR, VCs, "
          "credits)",
          configure};
}

}  // namespace gemini::sim
