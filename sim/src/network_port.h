#pragma once
// The network as a core sees it (docs/timing-model.md, "NoC" and "DMA"):
// the port a core sends on (NetworkPort; the NoC module implements it) and
// what the network tells a core (NetworkClient; the core implements it).
// Owned by the network's side: the core includes this and not the NoC, the
// NoC calls its clients through it and does not include the core.
//
// Timing: a core calls its port from its own process at its simulated time
// `now` (ps); the network calls a client from its own process at the time
// the event happens there, never ahead of it.

#include <cstdint>
#include <vector>

#include "gemini/sim/energy.h"
#include "sim_context.h"

namespace gemini::sim {

// One receiver of a NoC multicast: the receiving core, the sender's
// noc_send for it (an instruction of the sender) and that noc_send's token
// slot at the receiver (OpRec::slot).
struct MulticastTarget {
  std::int32_t core = 0;
  std::uint32_t op = 0;
  std::uint32_t slot = 0;
};

// What the network tells a core, and what the network's transfers cost it.
class NetworkClient {
 public:
  // A token arrives: `slot` is the token's slot on this core (kNoSlot:
  // nothing here waits for it), `from` the instruction that sent it.
  virtual void deliver(std::uint32_t slot, Tick now, OpRef from) = 0;
  // Operation `op` (an instruction index) of `engine` completes at `at`.
  virtual void finish(std::uint8_t engine, std::uint32_t op, Tick at, Tick now) = 0;
  // What transfer `op` waited for inside its own time (OpWait), told when it
  // completes.
  virtual void note_wait(std::uint32_t op, const OpWait& w) = 0;
  // A multicast dma_in `op` waited for the request of `from`.
  virtual void set_cause(std::uint32_t op, OpRef from) = 0;
  // Energy events (energy.h): `spend` where they are spent (this core's
  // units), `cause` which of its instructions caused them; `count` both.
  virtual void spend(Event e, std::int64_t n) = 0;
  virtual void cause(std::uint32_t op, Event e, std::int64_t n) = 0;
  void count(std::uint32_t op, Event e, std::int64_t n) {
    spend(e, n);
    cause(op, e, n);
  }
  // Engines streaming the core's L2 now (docs/timing-model.md, "L2 port").
  virtual std::int32_t l2_streams() const = 0;

 protected:
  ~NetworkClient() = default;
};

// The port a core sends on. `engine` and `op` (the instruction's index)
// name the core's operation a transfer completes (NetworkClient::finish);
// cores are named by their index.
class NetworkPort {
 public:
  // `bytes` of L2 data to core `dst`; `slot`: the token's slot at the
  // receiver (NetworkClient::deliver).
  virtual void send_data(std::int32_t src, std::uint8_t engine, std::uint32_t op, std::int32_t dst,
                         std::int64_t bytes, std::uint32_t slot, double src_ps_per_byte,
                         Tick now) = 0;
  // `from`: the signal that sends it, told to the receiver.
  virtual void send_token(std::int32_t src, std::int32_t dst, std::uint32_t slot, OpRef from,
                          Tick now) = 0;
  // A NoC multicast (noc_send members >= 2): `bytes` of L2 data sent once
  // along the XY tree to every target; each receiver gets the data token of
  // its member when the last packet reaches it, and that member's noc_send
  // completes then.
  virtual void send_multicast(std::int32_t src, std::uint8_t engine,
                              const std::vector<MulticastTarget>& to, std::int64_t bytes,
                              double src_ps_per_byte, Tick now) = 0;
  virtual void dram_read(std::int32_t core, std::uint8_t engine, std::uint32_t op,
                         std::uint64_t addr, std::int64_t bytes, Tick now) = 0;
  // One member's part of a multicast DRAM read (dma_in members >= 2).
  virtual void dram_multicast_read(std::int32_t core, std::uint8_t engine, std::uint32_t op,
                                   std::uint64_t addr, std::int64_t bytes, std::uint32_t transfer,
                                   std::uint16_t part, std::uint16_t members, Tick now) = 0;
  virtual void dram_write(std::int32_t core, std::uint8_t engine, std::uint32_t op,
                          std::uint64_t addr, std::int64_t bytes, double src_ps_per_byte,
                          Tick now) = 0;
  // Whether NoC data (a send's or a DRAM read's) is being written into
  // `core`'s L2: from the first packet's injection to the last's arrival.
  virtual bool writing_l2(std::int32_t core) const = 0;

 protected:
  ~NetworkPort() = default;
};

}  // namespace gemini::sim
