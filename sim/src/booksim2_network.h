#pragma once
// A BookSim 2 mesh stepped cycle by cycle (noc.model "booksim2",
// booksim2_noc.cpp): the driver over BookSim's Network, Router, Flit and
// Credit classes, doing what BookSim's own traffic manager does at the
// network's edge -- a source queue per node, a head flit's VC chosen at
// injection and credits tracked for the router's input buffer, ejected flits
// taken off each cycle and their credits returned -- and defining what
// BookSim's main.cpp would (the clock its classes read, its globals). Only
// this file's .cpp sees BookSim's headers.
//
// Contract: one network per process at a time (BookSim keeps its
// configuration, routing tables, clock and flit pool in globals): create()
// refuses a second while one lives. Cycles are BookSim's. Each cycle c is
// run in two halves: read(c) takes the flits the ejection channels hold
// (the network's state after cycle c - 1) and reports packets whose tail has
// arrived; step() then writes the flits of ready packets into the injection
// channels, runs the network's cycle and reports packets whose tail it
// wrote. A flit is written before the network reads its inputs, so the
// injection channel adds no cycle: zero-load latency of a packet of L flits
// over h hops is (h + 1) * hop + L cycles (BookSim's own traffic manager,
// writing after the network has read its inputs, takes one more).
//
// Timing: a packet enqueued with `ready` = r has its head written in cycle
// max(r, when its source's earlier packets and the router's buffer let it);
// injected(id, c + 1) when its tail was written in cycle c; arrived(id, t)
// when its tail has been taken off its ejection channel, t in cycles
// (fractional when the node takes flits slower than one per cycle,
// set_eject_cycles_per_flit: a flit then holds its buffer slot, and its
// credit, until it has drained).

#include <cstdint>
#include <memory>
#include <string>

#include "gemini/sim/booksim2_config.h"

namespace gemini::sim {

class Booksim2Network {
 public:
  class Sink {
   public:
    virtual ~Sink() = default;
    virtual void injected(std::uint32_t id, std::int64_t cycle) = 0;
    virtual void arrived(std::uint32_t id, double cycle) = 0;
  };

  // Builds BookSim's network for `s`; nullptr with `error` when BookSim 2
  // rejects the configuration (checked by building it once in a child
  // process when `s` carries keys beyond the declared ones: BookSim stops
  // its process on a value it rejects) or another network lives.
  static std::unique_ptr<Booksim2Network> create(const Booksim2Setup& s, std::string& error);
  // Whether BookSim 2 knows `key`, and as which kind ('i', 'f', 's'; 0: not).
  static char key_kind(const std::string& key, bool number);
  ~Booksim2Network();
  Booksim2Network(const Booksim2Network&) = delete;
  Booksim2Network& operator=(const Booksim2Network&) = delete;

  // Queues packet `id` of `flits` flits at BookSim node `src` for `dst`,
  // to be written from cycle `ready` (>= cycle()) on.
  void enqueue(std::uint32_t id, std::int32_t src, std::int32_t dst, std::int32_t flits,
               std::int64_t ready);
  // Node `n` takes flits off its ejection channel every `c` cycles (<= 1:
  // every cycle).
  void set_eject_cycles_per_flit(std::int32_t n, double c);

  // The cycle read() and step() run next.
  std::int64_t cycle() const;
  void read(Sink& sink);
  void step(Sink& sink);
  // Nothing queued, in flight or owed (flits, credits): skip_to() may jump
  // the clock.
  bool idle() const;
  void skip_to(std::int64_t cycle);
  // The first cycle BookSim's int clock cannot reach.
  static std::int64_t clock_limit();

  // Flits sent over BookSim node `node`'s outgoing channel in direction `dir`
  // (0 east, 1 west, 2 south, 3 north).
  std::int64_t channel_flits(std::int32_t node, std::int32_t dir) const;

  struct Impl;  // the driver's state (booksim2_network.cpp)

 private:
  explicit Booksim2Network(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gemini::sim
