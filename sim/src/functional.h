#pragma once
// The functional half of `gemini sim --functional` (docs/isa.md, "Data
// layout" and "Functional semantics"): the DRAM image and every core's L2
// and WL0 as real bytes, and the effect of every instruction on them.
//
// Contract with the timing units, which call it and never read anything
// back (so the cycles are identical with and without it):
//   * start(): when an instruction starts on its engine. A view or a
//     pe_cfg / vp_cfg sets its engine's registers; a data instruction reads
//     its sources (and a pe_run / vp_run computes its tile) at that time.
//   * complete(): when the engine's oldest in-flight data instruction
//     retires (a DMA engine may have several in flight; they retire in
//     order); it writes its results (not noc_send: see arrived()).
//   * arrived(): when a noc_send's last packet lands at the receiver, just
//     before its data token is delivered: the bytes are in the receiver's
//     L2 before any instruction waiting for the token can read them.
// Every computed tile is compared with the reference when it is written;
// finish() compares what the program stored in DRAM and reports.
//
// Timing: none. This unit only observes.
//
// Where it is written (sim/src/functional/):
//   setup.cpp      create(), the memories' and faults' bookkeeping;
//   memory.cpp     the bytes: tensors (Place) copied to and from dense tiles;
//   execute.cpp    start / complete / arrived: each opcode's effect, its
//                  fields read through the typed views (instr_views.h);
//   check.cpp      tiles and DRAM stores against the reference, finish();
//   provenance.cpp where the first wrong value of a layer came from.
// Boxes are ir::Box throughout (gemini/ir/box.h: offsets, intersections,
// shifts and the "[n,c,h,w]:[n,c,h,w]" notation of the fault messages).

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "gemini/assembler/instr_views.h"
#include "gemini/assembler/lowering.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"
#include "gemini/model/tile_ops.h"
#include "gemini/sim/report.h"
#include "gemini/sim/tile_hook.h"

namespace gemini::sim {

class Functional {
 public:
  // False (with `error`) when the program cannot be run functionally: it
  // was lowered without the model's geometry, its DRAM tensors do not
  // match the model's, or its memories (functional_bytes) exceed `limit`.
  static std::unique_ptr<Functional> create(const assembler::Program& p, const model::Network& net,
                                            const model::Reference& ref,
                                            const ir::MemoryLimit& limit, std::string& error);

  // Tile operations go to `hook` too (nullptr: none).
  void set_tile_hook(TileHook* hook) { hook_ = hook; }

  void start(std::int32_t core, std::uint32_t instr);
  void complete(std::int32_t core, std::uint8_t engine);
  // `instr`: the sender's noc_send that arrived.
  void arrived(std::int32_t sender, std::uint8_t engine, std::uint32_t instr);
  FunctionalReport finish();

 private:
  Functional(const assembler::Program& p, const model::Network& net, const model::Reference& ref);

  // A tensor in one of the memories: dense over `layout` from `base`; L2
  // addresses wrap inside their ring region.
  enum class Mem : std::uint8_t { l2, wl0, dram };
  struct Place {
    Mem mem = Mem::l2;
    std::int32_t core = 0;
    std::int64_t base = 0;
    ir::Box layout;
  };
  struct View {
    bool valid = false;
    std::int64_t shift = 0;
    ir::Box box0, box1;
  };
  // One operand a tile read, kept with the tile until it is compared (for
  // the provenance of a wrong value): where, what (dense over `box`), and
  // how long the log of writes into that memory was at the read.
  struct InputRead {
    const char* operand = "";
    Place place;
    ir::Box box;
    std::vector<std::int8_t> data;
    std::size_t log_len = 0;
  };
  // A write into a core's L2 (or WL0: raw bytes at `raw_addr`), in order.
  struct WriteRecord {
    std::uint32_t instr = 0;
    std::int32_t by = 0;  // the issuing core (a send's sender)
    Place dst;
    ir::Box box;
    std::int64_t raw_addr = -1, raw_bytes = 0;
  };
  // An operation between its start and its completion.
  struct InFlight {
    bool active = false;
    std::uint32_t instr = 0;
    std::vector<std::int8_t> data;  // dense over `box` (raw bytes for WL0 loads)
    Place dst;
    ir::Box box;                // in the destination's frame
    std::int64_t raw_addr = 0;  // WL0 loads: destination address
    bool compare = false;       // a computed tile: compare with the reference
    std::int32_t layer = -1;    // model op index
    ir::Box out;                // the tile in the layer's output frame
    bool store = false;         // a dma_out: record what it wrote
    // A computed tile: what it read and how (provenance).
    std::vector<InputRead> reads;
    model::ConvParams conv;
    model::PoolParams pool;
    assembler::VpOp vp_op = assembler::VpOp::copy;
    std::int32_t perm[4] = {0, 1, 2, 3};
  };
  struct Core {
    std::vector<std::int8_t> l2, wl0;
    std::vector<ir::RingRegion> ring;
    std::array<View, 7> view{};
    std::array<InFlight, 7> flight{};
    // dma_in / dma_out: the transfers in flight, oldest first.
    std::array<std::deque<InFlight>, 7> queued{};
    // noc_send: the sends in flight (several: a multicast's members), by
    // instruction.
    std::unordered_map<std::uint32_t, InFlight> sends;
    // PE registers (pe_cfg) and the chain's int32 partial sums.
    model::ConvParams pe;
    std::int32_t pe_shift = 0, pe_chain = 1, pe_done = 0;
    std::int64_t pe_wl0 = 0;
    std::vector<std::int32_t> partial;
    std::int64_t chain_needed = 0, chain_covered = 0;
    // VP registers (vp_cfg).
    model::PoolParams vp;
    std::int32_t vp_shift = 0;
    std::array<std::int32_t, 4> perm{0, 1, 2, 3};
    // Writes into this core's L2 and WL0, in order; a PE chain's reads.
    std::vector<WriteRecord> l2_log, wl0_log;
    std::vector<InputRead> chain_reads;
  };
  struct Store {
    ir::Box box;  // in the DRAM tensor's frame
    std::int32_t core = 0;
    std::int64_t workload = -1;
  };

  std::int8_t* byte(Mem mem, std::int32_t core, std::int64_t addr, bool& ok);
  // Whether p's layout fits its memory (else its copies are faults).
  bool fits(const Place& p) const;
  void copy_rows(const Place& p, const ir::Box& b, std::int8_t* dense, bool write);
  void gather(const Place& p, const ir::Box& b, std::int8_t* out) { copy_rows(p, b, out, false); }
  void scatter(const Place& p, const ir::Box& b, const std::int8_t* in) {
    copy_rows(p, b, const_cast<std::int8_t*>(in), true);
  }
  // A box of `p` into a dense tile over `want` (zero where `p` lacks it).
  void gather_part(const Place& p, const ir::Box& want, std::vector<std::int8_t>& out);
  View take_view(std::int32_t core, std::uint8_t queue, std::uint32_t instr);
  void fault(std::int32_t core, std::uint32_t instr, const std::string& message);
  std::int32_t layer_of(std::int32_t core, std::uint32_t workload) const;
  void compare_tile(std::int32_t core, const InFlight& f);
  // A read of `p` over `box` into `data`, kept for provenance.
  InputRead input_read(const char* operand, const Place& p, const ir::Box& box,
                       std::vector<std::int8_t>&& data) const;
  // The provenance of wrong element `m` of tile `f` (functional/provenance.cpp).
  Provenance explain(std::int32_t core, const InFlight& f, const Mismatch& m);
  Provenance::Writer last_writer(const InputRead& r, const std::int32_t at[4]) const;
  Provenance::Writer describe(std::int32_t core, std::uint32_t instr) const;
  static void configure_pe(Core& c, const assembler::PeConfig& x);
  static void configure_vp(Core& c, const assembler::VpConfig& x);
  void start_move(std::int32_t core, std::uint32_t i);
  void start_pe(std::int32_t core, std::uint32_t i);
  void start_vp(std::int32_t core, std::uint32_t i);
  void target_tile(std::int32_t core, std::uint32_t i, InFlight& f, const ir::Box& out,
                   std::int64_t addr, const View& v);
  void write(std::int32_t core, InFlight& f);
  TileSite site(std::int32_t core, std::uint32_t instr) const;

  const assembler::Program& program_;
  const model::Network& net_;
  const model::Reference& ref_;
  std::vector<std::int8_t> dram_;
  std::vector<Core> cores_;
  std::vector<std::int32_t> region_layer_;  // per DRAM region: model op (ofmap), else -1
  std::vector<std::vector<Store>> stores_;  // per DRAM region
  std::vector<LayerCheck> checks_;          // per model op
  // Per model op, which elements of its output a tile computed (allocated
  // when its first tile is compared): the coverage.
  std::vector<std::vector<bool>> computed_;
  std::vector<FunctionalFault> faults_;
  std::int64_t fault_count_ = 0, bytes_ = 0, macs_ = 0;
  TileHook* hook_ = nullptr;
};

}  // namespace gemini::sim
