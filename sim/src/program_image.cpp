#include "program_image.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <unordered_map>

#include "byte_ranges.h"

namespace gemini::sim {
namespace {

using assembler::Opcode;

std::size_t slot(Opcode op, std::string_view name) { return assembler::field_slot(op, name).index; }

struct FieldIndex {
  // Scalar and box slot indices (Instr::scalar, Instr::box_at), per opcode.
  std::size_t wl_on, wl_count;
  std::size_t wt_kind, wt_transfer, wt_from, wt_count;
  std::size_t sg_kind, sg_transfer, sg_to, sg_grant, sg_grant_bytes;
  std::size_t di_l2, di_bytes, di_dram, di_transfer, di_members, di_part;
  std::size_t do_l2, do_bytes, do_dram;
  std::size_t ns_src, ns_dst, ns_bytes, ns_to, ns_transfer, ns_members, ns_part;
  std::size_t w0_source, w0_bytes, w0_l2, w0_dram;
  std::size_t pc_r, pc_s, pc_gc;
  std::size_t pr_ifmap, pr_ifmap_bytes, pr_weight, pr_weight_bytes, pr_ofmap, pr_ofmap_bytes;
  std::size_t pr_ifmap_box, pr_ofmap_box;
  std::size_t vp_op, vp_inputs, vp_window, vp_in0, vp_in1, vp_out, vp_in_bytes, vp_out_bytes;
  std::size_t vp_in_box, vp_out_box;
  FieldIndex() {
    wl_on = slot(Opcode::wait_local, "on");
    wl_count = slot(Opcode::wait_local, "count");
    wt_kind = slot(Opcode::wait_token, "kind");
    wt_transfer = slot(Opcode::wait_token, "transfer");
    wt_from = slot(Opcode::wait_token, "from");
    wt_count = slot(Opcode::wait_token, "count");
    sg_kind = slot(Opcode::signal, "kind");
    sg_transfer = slot(Opcode::signal, "transfer");
    sg_to = slot(Opcode::signal, "to");
    sg_grant = slot(Opcode::signal, "grant");
    sg_grant_bytes = slot(Opcode::signal, "grant_bytes");
    di_l2 = slot(Opcode::dma_in, "l2");
    di_bytes = slot(Opcode::dma_in, "bytes");
    di_dram = slot(Opcode::dma_in, "dram");
    di_transfer = slot(Opcode::dma_in, "transfer");
    di_members = slot(Opcode::dma_in, "members");
    di_part = slot(Opcode::dma_in, "part");
    do_l2 = slot(Opcode::dma_out, "l2");
    do_bytes = slot(Opcode::dma_out, "bytes");
    do_dram = slot(Opcode::dma_out, "dram");
    ns_src = slot(Opcode::noc_send, "src");
    ns_dst = slot(Opcode::noc_send, "dst");
    ns_bytes = slot(Opcode::noc_send, "bytes");
    ns_to = slot(Opcode::noc_send, "to");
    ns_transfer = slot(Opcode::noc_send, "transfer");
    ns_members = slot(Opcode::noc_send, "members");
    ns_part = slot(Opcode::noc_send, "part");
    w0_source = slot(Opcode::wl0_load, "source");
    w0_bytes = slot(Opcode::wl0_load, "bytes");
    w0_l2 = slot(Opcode::wl0_load, "l2");
    w0_dram = slot(Opcode::wl0_load, "dram");
    pc_r = slot(Opcode::pe_cfg, "r");
    pc_s = slot(Opcode::pe_cfg, "s");
    pc_gc = slot(Opcode::pe_cfg, "gc");
    pr_ifmap = slot(Opcode::pe_run, "ifmap");
    pr_ifmap_bytes = slot(Opcode::pe_run, "ifmap_bytes");
    pr_weight = slot(Opcode::pe_run, "weight");
    pr_weight_bytes = slot(Opcode::pe_run, "weight_bytes");
    pr_ofmap = slot(Opcode::pe_run, "ofmap");
    pr_ofmap_bytes = slot(Opcode::pe_run, "ofmap_bytes");
    pr_ifmap_box = slot(Opcode::pe_run, "ifmap_box");
    pr_ofmap_box = slot(Opcode::pe_run, "ofmap_box");
    vp_op = slot(Opcode::vp_run, "op");
    vp_inputs = slot(Opcode::vp_run, "inputs");
    vp_window = slot(Opcode::vp_run, "window");
    vp_in0 = slot(Opcode::vp_run, "in0");
    vp_in1 = slot(Opcode::vp_run, "in1");
    vp_out = slot(Opcode::vp_run, "out");
    vp_in_bytes = slot(Opcode::vp_run, "in_bytes");
    vp_out_bytes = slot(Opcode::vp_run, "out_bytes");
    vp_in_box = slot(Opcode::vp_run, "in_box");
    vp_out_box = slot(Opcode::vp_run, "out_box");
  }
};

const FieldIndex& fields() {
  static const FieldIndex f;
  return f;
}

std::int64_t extent(const assembler::Box& b, int d) { return b.hi[d] - b.lo[d] + 1; }
std::int64_t volume(const assembler::Box& b) {
  return extent(b, 0) * extent(b, 1) * extent(b, 2) * extent(b, 3);
}

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

}  // namespace

bool build_images(const assembler::Program& p, std::vector<CoreImage>& out, std::string& error) {
  const FieldIndex& f = fields();
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
    // The last pe_cfg's kernel and group width (every channel before one).
    std::int64_t r = 1, s = 1;
    std::int64_t gc = std::numeric_limits<std::int64_t>::max();
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
      auto v = [&in](std::size_t slot) { return in.scalar(slot); };
      auto peer = [&](std::int64_t id) {
        if (core_index(id, o.peer)) return true;
        error = "core " + std::to_string(prog.core_id) + " instruction " + std::to_string(i) +
                " (" + std::string(in.info().mnemonic) + ") names core " + std::to_string(id) +
                ", which is not in the program";
        return false;
      };
      switch (in.op) {
        case Opcode::wait_local:
          o.kind = static_cast<std::uint8_t>(v(f.wl_on));
          o.count = static_cast<std::uint32_t>(v(f.wl_count));
          break;
        case Opcode::wait_token:
          o.kind = static_cast<std::uint8_t>(v(f.wt_kind));
          o.transfer = static_cast<std::uint32_t>(v(f.wt_transfer));
          o.count = static_cast<std::uint32_t>(v(f.wt_count));
          if (!peer(v(f.wt_from))) return false;
          break;
        case Opcode::signal:
          o.kind = static_cast<std::uint8_t>(v(f.sg_kind));
          o.transfer = static_cast<std::uint32_t>(v(f.sg_transfer));
          if (!peer(v(f.sg_to))) return false;
          if (o.kind == static_cast<std::uint8_t>(assembler::TokenKind::credit))
            live.write(i, v(f.sg_grant), v(f.sg_grant_bytes));
          break;
        case Opcode::dma_in:
          o.bytes = v(f.di_bytes);
          o.dram = static_cast<std::uint64_t>(v(f.di_dram));
          o.transfer = static_cast<std::uint32_t>(v(f.di_transfer));
          o.members = static_cast<std::uint16_t>(v(f.di_members));
          o.part = static_cast<std::uint16_t>(v(f.di_part));
          live.write(i, v(f.di_l2), o.bytes);
          break;
        case Opcode::dma_out:
          o.bytes = v(f.do_bytes);
          o.dram = static_cast<std::uint64_t>(v(f.do_dram));
          live.read(i, v(f.do_l2));
          break;
        case Opcode::noc_send:
          o.bytes = v(f.ns_bytes);
          o.transfer = static_cast<std::uint32_t>(v(f.ns_transfer));
          o.members = static_cast<std::uint16_t>(v(f.ns_members));
          o.part = static_cast<std::uint16_t>(v(f.ns_part));
          if (!peer(v(f.ns_to))) return false;
          live.read(i, v(f.ns_src));
          break;
        case Opcode::wl0_load:
          o.bytes = v(f.w0_bytes);
          o.flag = v(f.w0_source) == static_cast<std::int64_t>(assembler::Wl0Src::dram);
          o.dram = static_cast<std::uint64_t>(v(f.w0_dram));
          if (!o.flag) live.read(i, v(f.w0_l2));
          break;
        case Opcode::pe_cfg:
          r = v(f.pc_r);
          s = v(f.pc_s);
          gc = v(f.pc_gc);
          break;
        case Opcode::pe_run: {
          const assembler::Box& ib = in.box_at(f.pr_ifmap_box);
          const assembler::Box& ob = in.box_at(f.pr_ofmap_box);
          o.pe = static_cast<std::uint32_t>(img.pe_tiles.size());
          img.pe_tiles.push_back(PeTile{extent(ob, 0), extent(ob, 1), extent(ob, 2), extent(ob, 3),
                                        std::min(extent(ib, 1), gc), r, s, v(f.pr_ifmap_bytes),
                                        v(f.pr_weight_bytes), v(f.pr_ofmap_bytes)});
          live.read(i, v(f.pr_ifmap));
          if (v(f.pr_weight_bytes) > 0) live.read(i, v(f.pr_weight));
          live.write(i, v(f.pr_ofmap), v(f.pr_ofmap_bytes));
          break;
        }
        case Opcode::vp_run: {
          const auto op = static_cast<assembler::VpOp>(v(f.vp_op));
          const std::int64_t inputs = v(f.vp_inputs);
          const std::int64_t win = v(f.vp_window);
          const std::int64_t out_el = volume(in.box_at(f.vp_out_box));
          const std::int64_t in_el = volume(in.box_at(f.vp_in_box));
          switch (op) {
            case assembler::VpOp::pool_max:
            case assembler::VpOp::pool_avg:
              o.vp_elements = out_el * win * win;
              break;
            case assembler::VpOp::add:
              o.vp_elements = out_el * inputs;
              break;
            case assembler::VpOp::transpose:
            case assembler::VpOp::copy:
              o.vp_elements = in_el;
              break;
          }
          o.vp_l2_bytes = v(f.vp_in_bytes) * inputs + v(f.vp_out_bytes);
          live.read(i, v(f.vp_in0));
          if (inputs > 1) live.read(i, v(f.vp_in1));
          live.write(i, v(f.vp_out), v(f.vp_out_bytes));
          break;
        }
        case Opcode::nop:
        case Opcode::end:
        case Opcode::view:    // layouts for the functional units: no time
        case Opcode::vp_cfg:  // VP registers: no time
          break;
      }
    }
    live.finish();
  }
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
