#pragma once
// The simulator's pre-decoded form of a core program: one compact OpRec per
// instruction with the fields the units need, the fixed parts of its timing,
// the L2 occupancy it adds and releases, and its dense workload index. Built
// once before simulation so the hot path never looks a field up by name.

#include <cstdint>
#include <string>
#include <vector>

#include "gemini/assembler/lowering.h"
#include "gemini/ir/hw_config.h"
#include "gemini/sim/compute_timing.h"

namespace gemini::sim {

// A token no wait_token of its receiver waits for (OpRec::slot).
inline constexpr std::uint32_t kNoSlot = 0xffffffffu;

struct OpRec {
  assembler::Opcode op = assembler::Opcode::nop;
  std::uint8_t queue = 0;
  std::uint8_t kind = 0;   // token kind (waits, signals); wait_local: the engine waited on
  bool flag = false;       // pe_run acc; wl0_load from DRAM
  std::int32_t wl = -1;    // dense workload index on the core, -1 none
  std::int32_t peer = -1;  // core index: signal `to`, wait_token `from`, noc_send `to`
  std::uint32_t transfer = 0;
  std::uint32_t count = 0;  // waits
  // wait_token: the token's slot on this core; signal, noc_send: the slot
  // on the receiving core (`peer`) of the token it sends (kNoSlot: no
  // wait_token there waits for it). Dense per core (CoreImage::token_slots).
  std::uint32_t slot = kNoSlot;
  std::int64_t bytes = 0;               // bytes moved (DMA, NoC, WL0)
  std::uint64_t dram = 0;               // DRAM address
  std::uint32_t pe = 0;                 // pe_run: index into CoreImage::pe_tiles
  std::uint16_t members = 0, part = 0;  // dma_in, noc_send: its multicast group (members >= 2)
  std::int64_t vp_elements = 0, vp_l2_bytes = 0;
  std::int64_t l2_add = 0;  // live L2 bytes this instruction starts (writes)
  std::int64_t l2_sub = 0;  // live L2 bytes whose last reader this is (at retire)
};

// Transfers each engine keeps in flight: core.dma_in_flight for the DMA
// engines, core.noc_in_flight for the noc engine, one on the others.
struct InFlight {
  std::uint32_t dma = 1, noc = 1;
  explicit InFlight(const ir::CoreConfig& c)
      : dma(static_cast<std::uint32_t>(c.dma_in_flight)),
        noc(static_cast<std::uint32_t>(c.noc_in_flight)) {}
  InFlight(std::uint32_t dma_limit, std::uint32_t noc_limit) : dma(dma_limit), noc(noc_limit) {}
  std::uint32_t of(std::uint8_t engine) const {
    using assembler::Engine;
    return engine == static_cast<std::uint8_t>(Engine::dma_in) ||
                   engine == static_cast<std::uint8_t>(Engine::dma_out)
               ? dma
           : engine == static_cast<std::uint8_t>(Engine::noc) ? noc
                                                              : 1;
  }
};

// A noc_send of a NoC multicast that is not its last member: it issues
// without an in-flight slot, and the last member sends for all of them.
inline bool waits_for_last_member(const OpRec& o) {
  return o.op == assembler::Opcode::noc_send && o.members >= 2 && o.part + 1 < o.members;
}

struct CoreImage {
  std::int32_t core_id = 0;
  std::vector<OpRec> ops;
  // The distinct tokens (kind, sender, transfer) its wait_tokens wait for:
  // slots 0 .. token_slots - 1, in order of their first wait_token.
  std::uint32_t token_slots = 0;
  std::vector<PeTile> pe_tiles;             // one per pe_run (kernel from the preceding pe_cfg)
  std::vector<std::uint32_t> workload_ids;  // dense index -> IR workload id
};

// Token key: kind (2 bits), source core (16 bits), transfer id (32 bits).
inline std::uint64_t token_key(std::uint8_t kind, std::int32_t from, std::uint32_t transfer) {
  return (std::uint64_t{kind} << 48) | (std::uint64_t(static_cast<std::uint16_t>(from)) << 32) |
         transfer;
}

// The schedule's unique DRAM reads: for every DRAM out entry (a dma_in's
// `transfer`) the union of the byte ranges [dram, dram + bytes) its loads
// read, once; WL0 loads from DRAM as one more such entry. What a run reads
// when every entry is read once, all its destinations sharing the read.
std::int64_t unique_dram_reads(const std::vector<CoreImage>& images);

// Fails (returns false, fills `error`) when a program names a core that is
// not in the mesh.
bool build_images(const assembler::Program& p, std::vector<CoreImage>& out, std::string& error);

}  // namespace gemini::sim
