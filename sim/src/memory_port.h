#pragma once
// A DRAM port as the network sees it: the port takes requests (MemoryPort;
// the DRAM module implements it) and tells the network how they progress
// (MemoryClient; the NoC module implements it). Owned by the memory side:
// the NoC includes this and not the DRAM module, the DRAM module calls its
// client through it and does not include the NoC.
//
// Timing: the network enqueues a request at its arrival time at the port
// (DramRequest::arrival, its process's now); the port reports progress
// from its own process at or after the time it happens.

#include <bit>
#include <cstdint>

#include "gemini/sim/dram_model.h"
#include "sim_context.h"

namespace gemini::sim {

// A request's identity: the network's message it belongs to and its
// number within it (each packet of a write is a request of its own). The
// DRAM model keeps it as the opaque DramRequest::tag: value() and of() are
// the one conversion, bit for bit.
struct RequestTag {
  std::uint32_t msg = 0;
  std::uint32_t part = 0;
  std::uint64_t value() const { return std::bit_cast<std::uint64_t>(*this); }
  static RequestTag of(std::uint64_t tag) { return std::bit_cast<RequestTag>(tag); }
};

class MemoryClient {
 public:
  // `done` bytes of the request `tag` are read (at the port) or written at
  // time t.
  virtual void dram_progress(RequestTag tag, std::int64_t done, Tick t) = 0;
  // Before the last progress of request `tag`: it waited `waited` at the
  // port behind the request of `before` (OpWait::port).
  virtual void dram_waited(RequestTag tag, Tick waited, OpRef before) = 0;

 protected:
  ~MemoryClient() = default;
};

class MemoryPort {
 public:
  // `r.tag` is a RequestTag's value(); `owner` the instruction the request
  // is for.
  virtual void enqueue(const DramRequest& r, OpRef owner) = 0;

 protected:
  ~MemoryPort() = default;
};

}  // namespace gemini::sim
