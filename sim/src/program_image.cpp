#include "program_image.h"

#include <algorithm>
#include <array>
#include <boost/unordered/unordered_flat_map.hpp>
#include <limits>
#include <map>
#include <unordered_map>

#include "byte_ranges.h"
#include "gemini/assembler/instr_views.h"

namespace gemini::sim {
namespace {

using assembler::decode;
using assembler::Opcode;

// L2 liveness for the occupancy statistic: a tensor is keyed by its start
// address; it becomes live when an instruction writes it (or a credit grants
// it to a sender) and dies when its last reader before the next write to the
// same address retires (or when its writer retires if nothing reads it).
class Liveness {
 public:
  explicit Liveness(std::vector<OpRec>& ops) : ops_(ops) {}
  void write(std::size_t i, std::int64_t addr, std::int64_t bytes) {
    if (bytes <= 0) return;
    auto it = live_.find(addr);
    if (it != live_.end()) {
      if (ops_[i].op == Opcode::pe_run && it->second.writer == i) return;
      close(it->second);
      live_.erase(it);
    }
    ops_[i].l2_add += bytes;
    live_.emplace(addr, Tensor{bytes, i, i});
  }
  void read(std::size_t i, std::int64_t addr) {
    auto it = live_.find(addr);
    if (it != live_.end()) it->second.last = i;
  }
  void finish() {
    for (auto& [a, t] : live_) close(t);
    live_.clear();
  }

 private:
  struct Tensor {
    std::int64_t bytes;
    std::size_t writer, last;
  };
  void close(const Tensor& t) { ops_[t.last].l2_sub += t.bytes; }
  std::vector<OpRec>& ops_;
  std::unordered_map<std::int64_t, Tensor> live_;
};

// The registers of the last pe_cfg a pe_run's timing needs: its kernel and
// group width (every channel before one).
struct PeRegisters {
  std::int64_t r = 1, s = 1;
  std::int64_t gc = std::numeric_limits<std::int64_t>::max();
};

// A compute instruction's record: pe_cfg sets the registers, a pe_run adds
// its tile (with them) and a vp_run its element count; both read and write
// L2 tensors.
void add_compute(const assembler::Instr& in, std::size_t i, OpRec& o, CoreImage& img,
                 Liveness& live, PeRegisters& pe) {
  switch (in.op) {
    case Opcode::pe_cfg: {
      const auto x = decode<assembler::PeConfig>(in);
      pe.r = x.r;
      pe.s = x.s;
      pe.gc = x.gc;
      break;
    }
    case Opcode::pe_run: {
      const auto x = decode<assembler::PeRun>(in);
      const ir::Box& ib = x.ifmap_box;
      const ir::Box& ob = x.ofmap_box;
      o.pe = static_cast<std::uint32_t>(img.pe_tiles.size());
      img.pe_tiles.push_back(PeTile{ob.extent(0), ob.extent(1), ob.extent(2), ob.extent(3),
                                    std::min(ib.extent(1), pe.gc), pe.r, pe.s, x.ifmap_bytes,
                                    x.weight_bytes, x.ofmap_bytes});
      live.read(i, x.ifmap);
      if (x.weight_bytes > 0) live.read(i, x.weight);
      live.write(i, x.ofmap, x.ofmap_bytes);
      break;
    }
    case Opcode::vp_run: {
      const auto x = decode<assembler::VpRun>(in);
      const std::int64_t out_el = x.out_box.volume();
      const std::int64_t in_el = x.in_box.volume();
      switch (x.op) {
        case assembler::VpOp::pool_max:
        case assembler::VpOp::pool_avg:
          o.vp_elements = out_el * x.window * x.window;
          break;
        case assembler::VpOp::add:
          o.vp_elements = out_el * x.inputs;
          break;
        case assembler::VpOp::transpose:
        case assembler::VpOp::copy:
          o.vp_elements = in_el;
          break;
      }
      o.vp_l2_bytes = x.in_bytes * x.inputs + x.out_bytes;
      live.read(i, x.in0);
      if (x.inputs > 1) live.read(i, x.in1);
      live.write(i, x.out, x.out_bytes);
      break;
    }
    default:
      break;
  }
}

// Numbers each core's tokens densely (OpRec::slot): the distinct keys its
// wait_tokens wait for, then, for each signal and noc_send, its receiver's
// slot for the token it sends.
void assign_token_slots(std::vector<CoreImage>& images) {
  std::vector<boost::unordered_flat_map<std::uint64_t, std::uint32_t>> slots(images.size());
  for (std::size_t c = 0; c < images.size(); ++c)
    for (OpRec& o : images[c].ops) {
      if (o.op != Opcode::wait_token) continue;
      const auto [it, fresh] =
          slots[c].emplace(token_key(o.kind, o.peer, o.transfer), images[c].token_slots);
      if (fresh) ++images[c].token_slots;
      o.slot = it->second;
    }
  for (std::size_t c = 0; c < images.size(); ++c)
    for (OpRec& o : images[c].ops) {
      if (o.op != Opcode::signal && o.op != Opcode::noc_send) continue;
      const auto kind =
          o.op == Opcode::signal ? o.kind : static_cast<std::uint8_t>(assembler::TokenKind::data);
      const auto& to = slots[static_cast<std::size_t>(o.peer)];
      const auto it = to.find(token_key(kind, static_cast<std::int32_t>(c), o.transfer));
      o.slot = it == to.end() ? kNoSlot : it->second;
    }
}

}  // namespace

bool build_images(const assembler::Program& p, std::vector<CoreImage>& out, std::string& error) {
  const auto n = static_cast<std::int32_t>(p.cores.size());
  std::unordered_map<std::int32_t, std::int32_t> index;
  for (std::int32_t c = 0; c < n; ++c) index.emplace(p.cores[c].program.core_id, c);
  auto core_index = [&](std::int64_t id, std::int32_t& to) {
    auto it = index.find(static_cast<std::int32_t>(id));
    if (it == index.end()) return false;
    to = it->second;
    return true;
  };
  out.assign(static_cast<std::size_t>(n), {});
  for (std::int32_t c = 0; c < n; ++c) {
    const assembler::CoreProgram& prog = p.cores[c].program;
    CoreImage& img = out[c];
    img.core_id = prog.core_id;
    img.ops.resize(prog.instrs.size());
    std::unordered_map<std::uint32_t, std::int32_t> wl_index;
    Liveness live(img.ops);
    PeRegisters pe;
    for (std::size_t i = 0; i < prog.instrs.size(); ++i) {
      const assembler::Instr& in = prog.instrs[i];
      OpRec& o = img.ops[i];
      o.op = in.op;
      o.queue = static_cast<std::uint8_t>(in.queue);
      o.flag = (in.flags & 1) != 0;
      if (in.workload != 0xffffffffu) {
        auto [it, fresh] =
            wl_index.emplace(in.workload, static_cast<std::int32_t>(img.workload_ids.size()));
        if (fresh) img.workload_ids.push_back(in.workload);
        o.wl = it->second;
      }
      auto peer = [&](std::int64_t id) {
        if (core_index(id, o.peer)) return true;
        error = "core " + std::to_string(prog.core_id) + " instruction " + std::to_string(i) +
                " (" + std::string(in.info().mnemonic) + ") names core " + std::to_string(id) +
                ", which is not in the program";
        return false;
      };
      switch (in.op) {
        case Opcode::wait_local: {
          const auto x = decode<assembler::WaitLocal>(in);
          o.kind = static_cast<std::uint8_t>(x.on);
          o.count = static_cast<std::uint32_t>(x.count);
          break;
        }
        case Opcode::wait_token: {
          const auto x = decode<assembler::WaitToken>(in);
          o.kind = static_cast<std::uint8_t>(x.kind);
          o.transfer = static_cast<std::uint32_t>(x.transfer);
          o.count = static_cast<std::uint32_t>(x.count);
          if (!peer(x.from)) return false;
          break;
        }
        case Opcode::signal: {
          const auto x = decode<assembler::Signal>(in);
          o.kind = static_cast<std::uint8_t>(x.kind);
          o.transfer = static_cast<std::uint32_t>(x.transfer);
          if (!peer(x.to)) return false;
          if (x.kind == assembler::TokenKind::credit) live.write(i, x.grant, x.grant_bytes);
          break;
        }
        case Opcode::dma_in: {
          const auto x = decode<assembler::DmaIn>(in);
          o.bytes = x.bytes;
          o.dram = static_cast<std::uint64_t>(x.dram);
          o.transfer = static_cast<std::uint32_t>(x.transfer);
          o.members = static_cast<std::uint16_t>(x.members);
          o.part = static_cast<std::uint16_t>(x.part);
          live.write(i, x.l2, o.bytes);
          break;
        }
        case Opcode::dma_out: {
          const auto x = decode<assembler::DmaOut>(in);
          o.bytes = x.bytes;
          o.dram = static_cast<std::uint64_t>(x.dram);
          live.read(i, x.l2);
          break;
        }
        case Opcode::noc_send: {
          const auto x = decode<assembler::NocSend>(in);
          o.bytes = x.bytes;
          o.transfer = static_cast<std::uint32_t>(x.transfer);
          o.members = static_cast<std::uint16_t>(x.members);
          o.part = static_cast<std::uint16_t>(x.part);
          if (!peer(x.to)) return false;
          live.read(i, x.src);
          break;
        }
        case Opcode::wl0_load: {
          const auto x = decode<assembler::Wl0Load>(in);
          o.bytes = x.bytes;
          o.flag = x.source == assembler::Wl0Src::dram;
          o.dram = static_cast<std::uint64_t>(x.dram);
          if (!o.flag) live.read(i, x.l2);
          break;
        }
        case Opcode::pe_cfg:
        case Opcode::pe_run:
        case Opcode::vp_run:
          add_compute(in, i, o, img, live, pe);
          break;
        case Opcode::nop:
        case Opcode::end:
        case Opcode::view:    // layouts for the functional units: no time
        case Opcode::vp_cfg:  // VP registers: no time
          break;
      }
    }
    live.finish();
  }
  assign_token_slots(out);
  return true;
}

std::int64_t unique_dram_reads(const std::vector<CoreImage>& images) {
  constexpr std::uint64_t kWl0 = std::uint64_t{1} << 32;   // above every transfer id
  std::vector<std::pair<std::uint64_t, ByteRange>> reads;  // (entry, range)
  for (const CoreImage& img : images)
    for (const OpRec& o : img.ops) {
      const bool dma = o.op == Opcode::dma_in, wl0 = o.op == Opcode::wl0_load && o.flag;
      if ((dma || wl0) && o.bytes > 0)
        reads.push_back(
            {dma ? o.transfer : kWl0, {o.dram, o.dram + static_cast<std::uint64_t>(o.bytes)}});
    }
  std::sort(reads.begin(), reads.end());
  std::int64_t total = 0;
  std::vector<ByteRange> entry;
  for (std::size_t a = 0, b = 0; a < reads.size(); a = b) {
    entry.clear();
    for (b = a; b < reads.size() && reads[b].first == reads[a].first; ++b)
      entry.push_back(reads[b].second);
    total += merge_ranges(entry);
  }
  return total;
}

}  // namespace gemini::sim
