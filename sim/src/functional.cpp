#include "functional.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "gemini/ir/checked_int.h"
#include "gemini/model/cpu_kernels.h"
#include "gemini/model/layer_params.h"

namespace gemini::sim {

using assembler::Engine;
using assembler::Instr;
using assembler::Opcode;
using model::Box4;

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Field slots of the instructions this unit reads, looked up once.
struct Slots {
  static std::size_t s(Opcode op, std::string_view n) { return assembler::field_slot(op, n).index; }
  std::size_t v_shift = s(Opcode::view, "shift"), v_box0 = s(Opcode::view, "box0"),
              v_box1 = s(Opcode::view, "box1");
  std::size_t di_l2 = s(Opcode::dma_in, "l2"), di_dram = s(Opcode::dma_in, "dram"),
              di_dst = s(Opcode::dma_in, "dst_box"), di_src = s(Opcode::dma_in, "src_box");
  std::size_t do_l2 = s(Opcode::dma_out, "l2"), do_dram = s(Opcode::dma_out, "dram"),
              do_src = s(Opcode::dma_out, "src_box");
  std::size_t ns_src = s(Opcode::noc_send, "src"), ns_dst = s(Opcode::noc_send, "dst"),
              ns_to = s(Opcode::noc_send, "to"), ns_sbox = s(Opcode::noc_send, "src_box"),
              ns_dbox = s(Opcode::noc_send, "dst_box");
  std::size_t w0_source = s(Opcode::wl0_load, "source"), w0_wl0 = s(Opcode::wl0_load, "wl0"),
              w0_bytes = s(Opcode::wl0_load, "bytes"), w0_l2 = s(Opcode::wl0_load, "l2"),
              w0_dram = s(Opcode::wl0_load, "dram");
  std::size_t pc_pad_t = s(Opcode::pe_cfg, "pad_t"), pc_pad_l = s(Opcode::pe_cfg, "pad_l"),
              pc_r = s(Opcode::pe_cfg, "r"), pc_s = s(Opcode::pe_cfg, "s"),
              pc_sh = s(Opcode::pe_cfg, "stride_h"), pc_sw = s(Opcode::pe_cfg, "stride_w"),
              pc_wl0 = s(Opcode::pe_cfg, "wl0"), pc_gk = s(Opcode::pe_cfg, "gk"),
              pc_gc = s(Opcode::pe_cfg, "gc"), pc_in_h = s(Opcode::pe_cfg, "in_h"),
              pc_in_w = s(Opcode::pe_cfg, "in_w"), pc_shift = s(Opcode::pe_cfg, "shift"),
              pc_chain = s(Opcode::pe_cfg, "chain");
  std::size_t pr_ifmap = s(Opcode::pe_run, "ifmap"), pr_weight = s(Opcode::pe_run, "weight"),
              pr_wbytes = s(Opcode::pe_run, "weight_bytes"), pr_ofmap = s(Opcode::pe_run, "ofmap"),
              pr_ibox = s(Opcode::pe_run, "ifmap_box"), pr_obox = s(Opcode::pe_run, "ofmap_box");
  std::size_t vc_r = s(Opcode::vp_cfg, "r"), vc_s = s(Opcode::vp_cfg, "s"),
              vc_sh = s(Opcode::vp_cfg, "stride_h"), vc_sw = s(Opcode::vp_cfg, "stride_w"),
              vc_pad_t = s(Opcode::vp_cfg, "pad_t"), vc_pad_l = s(Opcode::vp_cfg, "pad_l"),
              vc_in_h = s(Opcode::vp_cfg, "in_h"), vc_in_w = s(Opcode::vp_cfg, "in_w"),
              vc_shift = s(Opcode::vp_cfg, "shift"), vc_perm = s(Opcode::vp_cfg, "perm");
  std::size_t vp_op = s(Opcode::vp_run, "op"), vp_inputs = s(Opcode::vp_run, "inputs"),
              vp_in0 = s(Opcode::vp_run, "in0"), vp_in1 = s(Opcode::vp_run, "in1"),
              vp_out = s(Opcode::vp_run, "out"), vp_ibox = s(Opcode::vp_run, "in_box"),
              vp_obox = s(Opcode::vp_run, "out_box");
};
const Slots& slots() {
  static const Slots s;
  return s;
}

Box4 box4(const assembler::Box& b) {
  Box4 r;
  for (int d = 0; d < 4; ++d) {
    r.lo[d] = static_cast<std::int32_t>(b.lo[d]);
    r.hi[d] = static_cast<std::int32_t>(b.hi[d]);
  }
  return r;
}
Box4 shifted(Box4 b, std::int64_t shift) {
  b.lo[1] = static_cast<std::int32_t>(b.lo[1] + shift);
  b.hi[1] = static_cast<std::int32_t>(b.hi[1] + shift);
  return b;
}
std::string show(const Box4& b) {
  std::string s(1, '[');
  for (int d = 0; d < 4; ++d) {
    if (d > 0) s += ',';
    s += std::to_string(b.lo[d]);
  }
  s += "]:[";
  for (int d = 0; d < 4; ++d) {
    if (d > 0) s += ',';
    s += std::to_string(b.hi[d]);
  }
  s += ']';
  return s;
}
// The dense offset of point (lo corner of `at`) in `layout`, linear even
// outside it.
std::int64_t offset_of(const Box4& layout, const std::int32_t at[4]) {
  std::int64_t o = 0;
  for (int d = 0; d < 4; ++d) o = o * layout.extent(d) + (at[d] - layout.lo[d]);
  return o;
}

}  // namespace

std::unique_ptr<Functional> Functional::create(const assembler::Program& p,
                                               const model::Network& net,
                                               const model::Reference& ref,
                                               const ir::MemoryLimit& limit, std::string& error) {
  if (!p.exact_geometry) {
    error = "the program was lowered without the layer semantics (--model): it cannot compute";
    return nullptr;
  }
  // The memories it holds: the DRAM image and every core's L2 and WL0.
  ir::CheckedI64 per_core(std::max<std::int64_t>(p.l2_bytes, 0));
  per_core += std::max<std::int64_t>(p.wl0_bytes, 0);
  ir::CheckedI64 bytes = per_core;
  bytes *= static_cast<std::int64_t>(p.cores.size());
  bytes += std::max<std::int64_t>(p.dram_bytes, 0);
  if (auto why = ir::exceeds(limit, bytes.get(), "the functional simulation",
                             ir::format_bytes(std::max<std::int64_t>(p.dram_bytes, 0)) +
                                 " of DRAM image, " + std::to_string(p.cores.size()) +
                                 " cores x (" + ir::format_bytes(p.l2_bytes) + " of L2 + " +
                                 ir::format_bytes(p.wl0_bytes) + " of WL0)")) {
    error = *why;
    return nullptr;
  }
  std::unique_ptr<Functional> f(new Functional(p, net, ref));
  // The DRAM image: network inputs and constant weights from the
  // generator, at the addresses the assembler chose; layer outputs zero.
  for (std::size_t r = 0; r < p.dram_regions.size(); ++r) {
    const assembler::DramRegion& g = p.dram_regions[r];
    const model::Tensor8* t = nullptr;
    model::Tensor8 weights;
    if (g.kind == assembler::DramRegion::Kind::input) {
      for (std::size_t e = 0; e < net.externals.size(); ++e)
        if (net.externals[e].tensor_id == g.tensor_id) t = &ref.externals[e];
      if (!t) {
        error = "DRAM tensor " + g.name + " is no input of the model";
        return nullptr;
      }
    } else if (g.kind == assembler::DramRegion::Kind::weight) {
      const model::Op* op = net.find(g.layer);
      if (!op || !op->has_weights() || op->weight_from_fmap) {
        error =
            "DRAM tensor " + g.name + ": the model has no constant weights for layer " + g.layer;
        return nullptr;
      }
      weights = model::generate_weights(*op, ref.seed);
      t = &weights;
    } else {
      f->region_layer_[r] = net.index_of(g.layer);
      continue;
    }
    if (static_cast<std::int64_t>(t->data.size()) != g.bytes) {
      error = "DRAM tensor " + g.name + " holds " + std::to_string(g.bytes) +
              " bytes; the model's has " + std::to_string(t->data.size());
      return nullptr;
    }
    std::copy(t->data.begin(), t->data.end(), f->dram_.begin() + g.base);
  }
  return f;
}

Functional::Functional(const assembler::Program& p, const model::Network& net,
                       const model::Reference& ref)
    : program_(p),
      net_(net),
      ref_(ref),
      dram_(static_cast<std::size_t>(std::max<std::int64_t>(p.dram_bytes, 0)), 0),
      cores_(p.cores.size()),
      region_layer_(p.dram_regions.size(), -1),
      stores_(p.dram_regions.size()),
      checks_(net.ops.size()),
      computed_(net.ops.size()) {
  for (std::size_t c = 0; c < p.cores.size(); ++c) {
    cores_[c].l2.assign(static_cast<std::size_t>(p.l2_bytes), 0);
    cores_[c].wl0.assign(static_cast<std::size_t>(p.wl0_bytes), 0);
    cores_[c].ring = p.cores[c].ring;
  }
  for (std::size_t i = 0; i < net.ops.size(); ++i) checks_[i].layer = net.ops[i].name;
}

void Functional::fault(std::int32_t core, std::uint32_t instr, const std::string& message) {
  ++fault_count_;
  if (faults_.size() >= 100) return;
  const assembler::LoweredCore& lc = program_.cores[static_cast<std::size_t>(core)];
  FunctionalFault f;
  f.core_id = lc.program.core_id;
  f.instruction = instr;
  const std::uint32_t wl = lc.program.instrs[instr].workload;
  if (wl != 0xffffffffu) {
    f.workload_id = wl;
    if (auto it = lc.layers.find(wl); it != lc.layers.end()) f.layer = it->second;
  }
  f.message = std::string(lc.program.instrs[instr].info().mnemonic) + ": " + message;
  faults_.push_back(std::move(f));
}

std::int32_t Functional::layer_of(std::int32_t core, std::uint32_t workload) const {
  const auto& layers = program_.cores[static_cast<std::size_t>(core)].layers;
  auto it = layers.find(workload);
  return it == layers.end() ? -1 : net_.index_of(it->second);
}

std::int8_t* Functional::byte(Mem mem, std::int32_t core, std::int64_t addr, bool& ok) {
  ok = false;
  if (mem == Mem::dram) {
    if (addr < 0 || addr >= static_cast<std::int64_t>(dram_.size())) return nullptr;
    ok = true;
    return dram_.data() + addr;
  }
  Core& c = cores_[static_cast<std::size_t>(core)];
  std::vector<std::int8_t>& m = mem == Mem::l2 ? c.l2 : c.wl0;
  if (addr < 0 || addr >= static_cast<std::int64_t>(m.size())) return nullptr;
  ok = true;
  return m.data() + addr;
}

// Copies box `b` (inside p.layout, rows of W contiguous) between `p` and
// the dense tile `dense`. L2 bytes wrap inside the ring region holding the
// tensor's base address. Fast path: when the box's bytes lie in the memory
// without wrapping, they are checked once and copied row by row, rows that
// are contiguous in the layout merged into one.
void Functional::copy_rows(const Place& p, const Box4& b, std::int8_t* dense, bool write) {
  if (b.empty() || !fits(p)) return;
  ir::RingRegion ring{0, 0};
  if (p.mem == Mem::l2) {
    for (const ir::RingRegion& r : cores_[static_cast<std::size_t>(p.core)].ring)
      if (p.base >= r.begin && p.base < r.end) ring = r;
  }
  const std::int64_t e1 = p.layout.extent(1), e2 = p.layout.extent(2), e3 = p.layout.extent(3);
  const std::int64_t first = p.base + offset_of(p.layout, b.lo);
  const std::int64_t last = p.base + offset_of(p.layout, b.hi);
  bool ok0 = false, ok1 = false;
  std::int8_t* m0 = byte(p.mem, p.core, first, ok0);
  byte(p.mem, p.core, last, ok1);
  const bool in_ring = ring.size() == 0 || (first >= ring.begin && last < ring.end);
  if (ok0 && ok1 && in_ring) {
    // Merge contiguous rows: a box as wide as its layout continues on the
    // next row, one as tall continues in the next channel.
    std::int64_t row = b.extent(3);
    std::int64_t nh = b.extent(2), nc = b.extent(1);
    if (row == e3) {
      row *= nh;
      nh = 1;
      if (b.extent(2) == e2) {
        row *= nc;
        nc = 1;
      }
    }
    std::int8_t* tile = dense;
    for (std::int64_t n = 0; n < b.extent(0); ++n)
      for (std::int64_t c = 0; c < nc; ++c)
        for (std::int64_t h = 0; h < nh; ++h) {
          std::int8_t* m = m0 + (n * e1 + c) * e2 * e3 + h * e3;
          if (write) {
            std::memcpy(m, tile, static_cast<std::size_t>(row));
          } else {
            std::memcpy(tile, m, static_cast<std::size_t>(row));
          }
          tile += row;
        }
    return;
  }
  // Byte by byte through the ring (a tensor that wraps), or out of bounds.
  const std::int64_t row = b.extent(3);
  std::int64_t k = 0;
  std::int32_t at[4];
  for (at[0] = b.lo[0]; at[0] <= b.hi[0]; ++at[0])
    for (at[1] = b.lo[1]; at[1] <= b.hi[1]; ++at[1])
      for (at[2] = b.lo[2]; at[2] <= b.hi[2]; ++at[2]) {
        at[3] = b.lo[3];
        std::int64_t a = p.base + offset_of(p.layout, at);
        std::int8_t* tile = dense + k;
        k += row;
        std::int64_t left = row;
        while (left > 0) {
          std::int64_t n = left;
          if (ring.size() > 0) {
            a = ring.begin + ((a - ring.begin) % ring.size() + ring.size()) % ring.size();
            n = std::min(n, ring.end - a);
          }
          bool ok = false, ok_end = false;
          std::int8_t* m = byte(p.mem, p.core, a, ok);
          byte(p.mem, p.core, a + n - 1, ok_end);
          if (!ok || !ok_end) return;  // callers checked the layout against the memory
          if (write) {
            std::copy(tile, tile + n, m);
          } else {
            std::copy(m, m + n, tile);
          }
          tile += n;
          a += n;
          left -= n;
        }
      }
}

void Functional::gather_part(const Place& p, const Box4& want, std::vector<std::int8_t>& out) {
  out.assign(static_cast<std::size_t>(want.volume()), 0);
  if (!fits(p)) return;
  const Box4 have = model::intersect(want, p.layout);
  if (have.empty()) return;
  if (!(have.lo[0] == want.lo[0] && have.hi[0] == want.hi[0] && have.lo[1] == want.lo[1] &&
        have.hi[1] == want.hi[1] && have.lo[2] == want.lo[2] && have.hi[2] == want.hi[2] &&
        have.lo[3] == want.lo[3] && have.hi[3] == want.hi[3])) {
    std::vector<std::int8_t> part(static_cast<std::size_t>(have.volume()));
    gather(p, have, part.data());
    std::int64_t k = 0;
    for (std::int32_t a = have.lo[0]; a <= have.hi[0]; ++a)
      for (std::int32_t b = have.lo[1]; b <= have.hi[1]; ++b)
        for (std::int32_t c = have.lo[2]; c <= have.hi[2]; ++c) {
          std::copy(part.begin() + k, part.begin() + k + have.extent(3),
                    out.begin() + want.offset(a, b, c, have.lo[3]));
          k += have.extent(3);
        }
    return;
  }
  gather(p, want, out.data());
}

bool Functional::fits(const Place& p) const {
  // A tensor is never larger than its memory (and no extent product
  // overflows on the way: each is at most 65536).
  const std::int64_t cap = p.mem == Mem::dram ? static_cast<std::int64_t>(dram_.size())
                           : p.mem == Mem::l2 ? static_cast<std::int64_t>(program_.l2_bytes)
                                              : static_cast<std::int64_t>(program_.wl0_bytes);
  std::int64_t v = 1;
  for (int d = 0; d < 4; ++d) {
    if (p.layout.hi[d] < p.layout.lo[d]) return false;
    v *= p.layout.extent(d);
    if (v > cap) return false;
  }
  return true;
}

Functional::View Functional::take_view(std::int32_t core, std::uint8_t queue, std::uint32_t instr) {
  View& v = cores_[static_cast<std::size_t>(core)].view[queue];
  View out = v;
  v.valid = false;
  if (!out.valid)
    fault(core, instr, "no view precedes it on its queue: its operands' layouts are unknown");
  return out;
}

void Functional::start(std::int32_t core, std::uint32_t i) {
  const Slots& s = slots();
  const Instr& in = program_.cores[static_cast<std::size_t>(core)].program.instrs[i];
  Core& c = cores_[static_cast<std::size_t>(core)];
  switch (in.op) {
    case Opcode::view: {
      View& v = c.view[static_cast<std::size_t>(in.queue)];
      v.valid = true;
      v.shift = in.scalar(s.v_shift);
      v.box0 = box4(in.box_at(s.v_box0));
      v.box1 = box4(in.box_at(s.v_box1));
      return;
    }
    case Opcode::pe_cfg: {
      model::ConvParams& p = c.pe;
      p.pad_t = static_cast<std::int32_t>(in.scalar(s.pc_pad_t));
      p.pad_l = static_cast<std::int32_t>(in.scalar(s.pc_pad_l));
      p.kernel_r = static_cast<std::int32_t>(in.scalar(s.pc_r));
      p.kernel_s = static_cast<std::int32_t>(in.scalar(s.pc_s));
      p.stride_h = static_cast<std::int32_t>(in.scalar(s.pc_sh));
      p.stride_w = static_cast<std::int32_t>(in.scalar(s.pc_sw));
      p.group_k = static_cast<std::int32_t>(in.scalar(s.pc_gk));
      p.group_c = static_cast<std::int32_t>(in.scalar(s.pc_gc));
      p.in_h = static_cast<std::int32_t>(in.scalar(s.pc_in_h));
      p.in_w = static_cast<std::int32_t>(in.scalar(s.pc_in_w));
      p.per_sample = (in.flags & 1) != 0;
      c.pe_shift = static_cast<std::int32_t>(in.scalar(s.pc_shift));
      c.pe_chain = static_cast<std::int32_t>(in.scalar(s.pc_chain));
      c.pe_wl0 = in.scalar(s.pc_wl0);
      c.pe_done = 0;
      c.chain_needed = c.chain_covered = 0;
      return;
    }
    case Opcode::vp_cfg: {
      model::PoolParams& p = c.vp;
      p.kernel_r = static_cast<std::int32_t>(in.scalar(s.vc_r));
      p.kernel_s = static_cast<std::int32_t>(in.scalar(s.vc_s));
      p.stride_h = static_cast<std::int32_t>(in.scalar(s.vc_sh));
      p.stride_w = static_cast<std::int32_t>(in.scalar(s.vc_sw));
      p.pad_t = static_cast<std::int32_t>(in.scalar(s.vc_pad_t));
      p.pad_l = static_cast<std::int32_t>(in.scalar(s.vc_pad_l));
      p.in_h = static_cast<std::int32_t>(in.scalar(s.vc_in_h));
      p.in_w = static_cast<std::int32_t>(in.scalar(s.vc_in_w));
      c.vp_shift = static_cast<std::int32_t>(in.scalar(s.vc_shift));
      const std::int64_t perm = in.scalar(s.vc_perm);
      for (int d = 0; d < 4; ++d) c.perm[d] = static_cast<std::int32_t>((perm >> (2 * d)) & 3);
      return;
    }
    case Opcode::dma_in:
    case Opcode::dma_out: {
      // Several may be in flight on a DMA engine; they retire in order.
      start_move(core, i);
      const auto q = static_cast<std::size_t>(in.queue);
      c.queued[q].push_back(std::move(c.flight[q]));
      return;
    }
    case Opcode::noc_send: {
      // The members of a NoC multicast are in flight together: each is
      // written when its data arrives (arrived()).
      start_move(core, i);
      const auto q = static_cast<std::size_t>(in.queue);
      c.sends[i] = std::move(c.flight[q]);
      return;
    }
    case Opcode::wl0_load:
      start_move(core, i);
      return;
    case Opcode::pe_run:
      start_pe(core, i);
      return;
    case Opcode::vp_run:
      start_vp(core, i);
      return;
    default:
      return;
  }
}

// dma_in, dma_out, noc_send: a moved box from a source tensor to a
// destination tensor, shifted by the view's channel shift; wl0_load: raw
// bytes into WL0.
void Functional::start_move(std::int32_t core, std::uint32_t i) {
  const Slots& s = slots();
  const Instr& in = program_.cores[static_cast<std::size_t>(core)].program.instrs[i];
  InFlight& f = cores_[static_cast<std::size_t>(core)].flight[static_cast<std::size_t>(in.queue)];
  f = InFlight{};
  f.active = true;
  f.instr = i;
  if (in.op == Opcode::wl0_load) {
    const std::int64_t bytes = in.scalar(s.w0_bytes);
    const bool from_dram =
        in.scalar(s.w0_source) == static_cast<std::int64_t>(assembler::Wl0Src::dram);
    Place src{from_dram ? Mem::dram : Mem::l2,
              core,
              from_dram ? in.scalar(s.w0_dram) : in.scalar(s.w0_l2),
              {}};
    src.layout.hi[3] = static_cast<std::int32_t>(bytes - 1);
    f.data.assign(static_cast<std::size_t>(bytes), 0);
    bool ok = false, ok_end = false;
    byte(src.mem, core, src.base, ok);
    if (!ok || (from_dram && (byte(Mem::dram, core, src.base + bytes - 1, ok_end), !ok_end))) {
      fault(core, i, "reads outside its memory");
      f.active = false;
      return;
    }
    gather(src, src.layout, f.data.data());
    f.raw_addr = in.scalar(s.w0_wl0);
    if (f.raw_addr + bytes > static_cast<std::int64_t>(program_.wl0_bytes)) {
      fault(core, i, "writes past the end of WL0");
      f.active = false;
    }
    bytes_ += bytes;
    return;
  }
  const View v = take_view(core, static_cast<std::uint8_t>(in.queue), i);
  if (!v.valid) {
    f.active = false;
    return;
  }
  Place src, dst;
  Box4 moved;
  switch (in.op) {
    case Opcode::dma_in:
      moved = box4(in.box_at(s.di_src));
      src = {Mem::dram, core, 0, v.box0};
      src.base = in.scalar(s.di_dram) - offset_of(v.box0, moved.lo);
      dst = {Mem::l2, core, in.scalar(s.di_l2), box4(in.box_at(s.di_dst))};
      break;
    case Opcode::dma_out:
      moved = box4(in.box_at(s.do_src));
      src = {Mem::l2, core, in.scalar(s.do_l2), v.box0};
      dst = {Mem::dram, core, 0, v.box1};
      dst.base = in.scalar(s.do_dram) - offset_of(v.box1, shifted(moved, v.shift).lo);
      f.store = true;
      break;
    default: {  // noc_send
      moved = box4(in.box_at(s.ns_sbox));
      src = {Mem::l2, core, in.scalar(s.ns_src), v.box0};
      const std::int64_t to = in.scalar(s.ns_to);
      std::int32_t dc = -1;
      for (std::size_t k = 0; k < program_.cores.size(); ++k)
        if (program_.cores[k].program.core_id == to) dc = static_cast<std::int32_t>(k);
      if (dc < 0) {
        fault(core, i, "sends to core " + std::to_string(to) + ", which has no program");
        f.active = false;
        return;
      }
      dst = {Mem::l2, dc, in.scalar(s.ns_dst), box4(in.box_at(s.ns_dbox))};
      break;
    }
  }
  if (!fits(src) || !fits(dst)) {
    fault(core, i, "addresses a tensor larger than its memory");
    f.active = false;
    return;
  }
  // What moves must lie inside both tensors; the rest is a fault and stays.
  const Box4 to_dst = shifted(moved, v.shift);
  if (!src.layout.contains(moved))
    fault(core, i,
          "moves " + show(moved) + ", which its source tensor " + show(src.layout) +
              " does not hold");
  if (!dst.layout.contains(to_dst))
    fault(core, i,
          "writes " + show(to_dst) + " outside its destination tensor " + show(dst.layout));
  Box4 part = model::intersect(moved, src.layout);
  part = model::intersect(part, shifted(dst.layout, -v.shift));
  if (part.empty()) {
    f.active = false;
    return;
  }
  f.data.resize(static_cast<std::size_t>(part.volume()));
  gather(src, part, f.data.data());
  f.dst = dst;
  f.box = shifted(part, v.shift);
  bytes_ += part.volume();
}

void Functional::start_pe(std::int32_t core, std::uint32_t i) {
  const Slots& s = slots();
  const Instr& in = program_.cores[static_cast<std::size_t>(core)].program.instrs[i];
  Core& c = cores_[static_cast<std::size_t>(core)];
  InFlight& f = c.flight[static_cast<std::size_t>(Engine::pe)];
  f = InFlight{};
  const View v = take_view(core, static_cast<std::uint8_t>(Engine::pe), i);
  if (!v.valid) return;
  const model::ConvParams& p = c.pe;
  const Box4 out = box4(in.box_at(s.pr_obox));
  if (out.empty()) return fault(core, i, "computes an empty box");
  // A tile, its input and its weights live in L2 (or WL0): none is larger.
  const std::int64_t cap = program_.l2_bytes;
  if (out.volume() > cap || model::conv_input_box(p, out).volume() > cap ||
      model::conv_weight_box(p, out).volume() > cap)
    return fault(core, i, "computes a tile larger than L2");
  // The input tile the outputs read (the halo rule), from the ifmap tensor.
  const Place ifmap{Mem::l2, core, in.scalar(s.pr_ifmap), box4(in.box_at(s.pr_ibox))};
  const Box4 need = model::conv_input_box(p, out);
  std::vector<std::int8_t> in_tile, w_tile;
  gather_part(ifmap, need, in_tile);
  const Box4 held = model::intersect(need, ifmap.layout);
  if (c.pe_done == 0) c.chain_needed = need.volume();
  c.chain_covered += held.empty() ? 0 : held.volume();
  // Weights: the L2 tensor streamed through WL0, or WL0 alone.
  const bool from_l2 = in.scalar(s.pr_wbytes) > 0;
  const Place weights{from_l2 ? Mem::l2 : Mem::wl0, core,
                      from_l2 ? in.scalar(s.pr_weight) : c.pe_wl0, v.box0};
  const Box4 wneed = model::conv_weight_box(p, out);
  if (!weights.layout.contains(wneed))
    fault(core, i,
          "needs weights " + show(wneed) + "; its weight tensor holds " + show(weights.layout));
  gather_part(weights, wneed, w_tile);
  if (c.pe_done == 0) c.chain_reads.clear();
  const std::size_t n = static_cast<std::size_t>(out.volume());
  std::vector<std::int32_t> acc(n);
  const bool observe = hook_ && hook_->wants(site(core, i), model::TileKind::conv);
  const auto t0 = observe ? Clock::now() : Clock::time_point{};
  model::conv_tile_cpu(p, {in_tile.data(), need}, {w_tile.data(), wneed}, out, acc.data());
  if (observe) {
    model::TileOp op;
    op.kind = model::TileKind::conv;
    op.conv = p;
    op.in[0] = {in_tile.data(), need};
    op.weights = {w_tile.data(), wneed};
    op.out = out;
    hook_->seen(op, site(core, i), acc.data(), seconds_since(t0));
  }
  macs_ += out.volume() * p.group_c * p.kernel_r * p.kernel_s;
  c.chain_reads.push_back(input_read("ifmap", ifmap, need, std::move(in_tile)));
  c.chain_reads.push_back(input_read("weights", weights, wneed, std::move(w_tile)));
  if (c.pe_done == 0 || c.partial.size() != n) {
    c.partial = std::move(acc);
  } else {
    for (std::size_t k = 0; k < n; ++k) c.partial[k] += acc[k];
  }
  if (++c.pe_done < c.pe_chain) return;  // partial sums stay in the PE
  if (c.chain_covered < c.chain_needed)
    fault(core, i,
          "its ifmap tensors hold " + std::to_string(c.chain_covered) + " of the " +
              std::to_string(c.chain_needed) + " input elements " + show(need) +
              " its outputs read (the rest read as zero)");
  f.active = true;
  f.instr = i;
  f.data.resize(n);
  const bool observe_end = hook_ && hook_->wants(site(core, i), model::TileKind::requantize);
  const auto t1 = observe_end ? Clock::now() : Clock::time_point{};
  model::requantize_all(c.partial.data(), static_cast<std::int64_t>(n), c.pe_shift, f.data.data());
  if (observe_end) {
    model::TileOp op;
    op.kind = model::TileKind::requantize;
    op.shift = c.pe_shift;
    op.sums = c.partial.data();
    op.out = out;
    hook_->seen(op, site(core, i), f.data.data(), seconds_since(t1));
  }
  f.dst = {Mem::l2, core, in.scalar(s.pr_ofmap), v.box1};
  f.box = shifted(out, v.shift);
  f.compare = true;
  f.out = out;
  f.layer = layer_of(core, in.workload);
  f.reads = std::move(c.chain_reads);
  c.chain_reads.clear();
  f.conv = p;
  c.pe_done = 0;
  if (!f.dst.layout.contains(f.box)) {
    fault(core, i,
          "writes " + show(f.box) + " outside its destination tensor " + show(f.dst.layout));
    f.box = model::intersect(f.box, f.dst.layout);
  }
}

void Functional::start_vp(std::int32_t core, std::uint32_t i) {
  const Slots& s = slots();
  const Instr& in = program_.cores[static_cast<std::size_t>(core)].program.instrs[i];
  Core& c = cores_[static_cast<std::size_t>(core)];
  InFlight& f = c.flight[static_cast<std::size_t>(Engine::vp)];
  f = InFlight{};
  const View v = take_view(core, static_cast<std::uint8_t>(Engine::vp), i);
  if (!v.valid) return;
  const Box4 out = box4(in.box_at(s.vp_obox));
  const auto op = static_cast<assembler::VpOp>(in.scalar(s.vp_op));
  if (out.empty() || out.volume() > program_.l2_bytes ||
      model::pool_input_box(c.vp, out).volume() > program_.l2_bytes)
    return fault(core, i, "computes a tile larger than L2 (or an empty one)");
  const Place in0{Mem::l2, core, in.scalar(s.vp_in0), box4(in.box_at(s.vp_ibox))};
  const std::size_t n = static_cast<std::size_t>(out.volume());
  f.data.resize(n);
  std::vector<std::int8_t> a, b;
  // The operation as the hook sees it (when it wants this one).
  model::TileOp tile;
  tile.out = out;
  const model::TileKind kind = op == assembler::VpOp::pool_max || op == assembler::VpOp::pool_avg
                                   ? model::TileKind::pool
                               : op == assembler::VpOp::add ? model::TileKind::add
                                                            : model::TileKind::transpose;
  const bool observe = hook_ && hook_->wants(site(core, i), kind);
  auto t0 = Clock::time_point{};
  auto need_from = [&](const Place& p, const Box4& need) {
    if (!p.layout.contains(need))
      fault(core, i, "reads " + show(need) + "; its input tensor holds " + show(p.layout));
  };
  switch (op) {
    case assembler::VpOp::pool_max:
    case assembler::VpOp::pool_avg: {
      model::PoolParams p = c.vp;
      p.average = op == assembler::VpOp::pool_avg;
      p.shift = c.vp_shift;
      const Box4 need = model::pool_input_box(p, out);
      need_from(in0, need);
      gather_part(in0, need, a);
      if (observe) t0 = Clock::now();
      model::pool_tile_cpu(p, {a.data(), need}, out, f.data.data());
      tile.kind = model::TileKind::pool;
      tile.pool = p;
      tile.in[0] = {a.data(), need};
      f.pool = p;
      if (observe) hook_->seen(tile, site(core, i), f.data.data(), seconds_since(t0));
      f.reads.push_back(input_read("in0", in0, need, std::move(a)));
      break;
    }
    case assembler::VpOp::add: {
      need_from(in0, out);
      gather_part(in0, out, a);
      std::vector<model::ConstTile> ops{{a.data(), out}};
      if (in.scalar(s.vp_inputs) > 1) {
        const Place in1{Mem::l2, core, in.scalar(s.vp_in1), v.box0};
        need_from(in1, out);
        gather_part(in1, out, b);
        ops.push_back({b.data(), out});
      }
      if (observe) t0 = Clock::now();
      model::add_tile_cpu(ops.data(), static_cast<int>(ops.size()), c.vp_shift, out, f.data.data());
      tile.kind = model::TileKind::add;
      tile.shift = c.vp_shift;
      tile.inputs = static_cast<std::int32_t>(ops.size());
      for (std::size_t k = 0; k < ops.size(); ++k) tile.in[k] = ops[k];
      if (observe) hook_->seen(tile, site(core, i), f.data.data(), seconds_since(t0));
      f.reads.push_back(input_read("in0", in0, out, std::move(a)));
      if (in.scalar(s.vp_inputs) > 1)
        f.reads.push_back(
            input_read("in1", {Mem::l2, core, in.scalar(s.vp_in1), v.box0}, out, std::move(b)));
      break;
    }
    case assembler::VpOp::copy:
    case assembler::VpOp::transpose: {
      // Output element o reads input element i with i[d] = o[perm[d]].
      const std::int32_t identity[4] = {0, 1, 2, 3};
      const std::int32_t* perm = op == assembler::VpOp::copy ? identity : c.perm;
      Box4 need;
      for (int d = 0; d < 4; ++d) {
        need.lo[d] = out.lo[perm[d]];
        need.hi[d] = out.hi[perm[d]];
      }
      need_from(in0, need);
      gather_part(in0, need, a);
      if (observe) t0 = Clock::now();
      model::transpose_tile_cpu(perm, {a.data(), need}, out, f.data.data());
      tile.kind = model::TileKind::transpose;
      for (int d = 0; d < 4; ++d) tile.perm[d] = f.perm[d] = perm[d];
      tile.in[0] = {a.data(), need};
      if (observe) hook_->seen(tile, site(core, i), f.data.data(), seconds_since(t0));
      f.reads.push_back(input_read("in0", in0, need, std::move(a)));
      break;
    }
  }
  f.vp_op = op;
  f.active = true;
  f.instr = i;
  f.dst = {Mem::l2, core, in.scalar(s.vp_out), v.box1};
  f.box = shifted(out, v.shift);
  f.compare = true;
  f.out = out;
  f.layer = layer_of(core, in.workload);
  if (!f.dst.layout.contains(f.box)) {
    fault(core, i,
          "writes " + show(f.box) + " outside its destination tensor " + show(f.dst.layout));
    f.box = model::intersect(f.box, f.dst.layout);
  }
}

TileSite Functional::site(std::int32_t core, std::uint32_t instr) const {
  const assembler::LoweredCore& c = program_.cores[static_cast<std::size_t>(core)];
  const std::uint32_t wl = c.program.instrs[instr].workload;
  return {c.program.core_id, instr, wl == 0xffffffffu ? -1 : static_cast<std::int64_t>(wl),
          layer_of(core, wl)};
}

void Functional::compare_tile(std::int32_t core, const InFlight& f) {
  const std::uint32_t wl =
      program_.cores[static_cast<std::size_t>(core)].program.instrs[f.instr].workload;
  if (f.layer < 0) {
    fault(core, f.instr, "its workload's layer is not an op of the model");
    return;
  }
  const model::Tensor8& want = ref_.outputs[static_cast<std::size_t>(f.layer)];
  const Box4 whole{
      {0, 0, 0, 0},
      {static_cast<std::int32_t>(want.shape[0] - 1), static_cast<std::int32_t>(want.shape[1] - 1),
       static_cast<std::int32_t>(want.shape[2] - 1), static_cast<std::int32_t>(want.shape[3] - 1)}};
  if (!whole.contains(f.out)) {
    fault(core, f.instr, "computes " + show(f.out) + " outside its layer's output " + show(whole));
    return;
  }
  LayerCheck& lc = checks_[static_cast<std::size_t>(f.layer)];
  const bool had_first = lc.first.has_value();
  std::vector<bool>& seen = computed_[static_cast<std::size_t>(f.layer)];
  if (seen.empty()) seen.assign(static_cast<std::size_t>(want.size()), false);
  for (std::int32_t n = f.out.lo[0]; n <= f.out.hi[0]; ++n)
    for (std::int32_t c = f.out.lo[1]; c <= f.out.hi[1]; ++c)
      for (std::int32_t h = f.out.lo[2]; h <= f.out.hi[2]; ++h) {
        const auto at = static_cast<std::size_t>(whole.offset(n, c, h, f.out.lo[3]));
        for (std::size_t w = 0; w < static_cast<std::size_t>(f.out.extent(3)); ++w)
          if (!seen[at + w]) {
            seen[at + w] = true;
            ++lc.computed;
          }
      }
  std::int64_t k = 0;
  for (std::int32_t n = f.out.lo[0]; n <= f.out.hi[0]; ++n)
    for (std::int32_t c = f.out.lo[1]; c <= f.out.hi[1]; ++c)
      for (std::int32_t h = f.out.lo[2]; h <= f.out.hi[2]; ++h) {
        const std::int8_t* ref = want.data.data() + whole.offset(n, c, h, f.out.lo[3]);
        for (std::int32_t w = f.out.lo[3]; w <= f.out.hi[3]; ++w, ++k) {
          const auto got = static_cast<std::int32_t>(f.data[static_cast<std::size_t>(k)]);
          const auto exp = static_cast<std::int32_t>(ref[w - f.out.lo[3]]);
          if (got == exp) continue;
          ++lc.tile_mismatches;
          lc.max_abs_diff = std::max(lc.max_abs_diff, std::abs(got - exp));
          if (!lc.first)
            lc.first = Mismatch{
                n,  c,      h,   w,  program_.cores[static_cast<std::size_t>(core)].program.core_id,
                wl, "tile", got, exp};
        }
      }
  lc.tile_elements += k;
  if (!had_first && lc.first) lc.provenance = explain(core, f, *lc.first);
}

Functional::InputRead Functional::input_read(const char* operand, const Place& p, const Box4& box,
                                             std::vector<std::int8_t>&& data) const {
  const Core& at = cores_[static_cast<std::size_t>(p.core)];
  return {operand, p, box, std::move(data),
          p.mem == Mem::wl0 ? at.wl0_log.size() : at.l2_log.size()};
}

// `core` issued the operation; its destination may be another core's L2.
void Functional::write(std::int32_t core, InFlight& f) {
  if (!f.active) return;
  f.active = false;
  const Instr& in = program_.cores[static_cast<std::size_t>(core)].program.instrs[f.instr];
  if (in.op == Opcode::wl0_load) {
    bool ok = false;
    std::int8_t* m = byte(Mem::wl0, core, f.raw_addr, ok);
    if (ok) std::copy(f.data.begin(), f.data.end(), m);
    WriteRecord rec;
    rec.instr = f.instr;
    rec.by = core;
    rec.raw_addr = f.raw_addr;
    rec.raw_bytes = static_cast<std::int64_t>(f.data.size());
    cores_[static_cast<std::size_t>(core)].wl0_log.push_back(rec);
    return;
  }
  if (f.compare) compare_tile(core, f);
  if (f.dst.mem == Mem::l2 && !f.box.empty())
    cores_[static_cast<std::size_t>(f.dst.core)].l2_log.push_back(
        {f.instr, core, f.dst, f.box, -1, 0});
  if (f.box.empty()) return;
  if (f.dst.mem == Mem::dram) {
    // Bounds: the DRAM tensor the layout names must lie in the image.
    bool ok0 = false, ok1 = false;
    byte(Mem::dram, core, f.dst.base, ok0);
    byte(Mem::dram, core, f.dst.base + f.dst.layout.volume() - 1, ok1);
    if (!ok0 || !ok1) return fault(core, f.instr, "writes outside DRAM");
    for (std::size_t r = 0; r < program_.dram_regions.size(); ++r)
      if (program_.dram_regions[r].base == f.dst.base) {
        stores_[r].push_back(
            {f.box, program_.cores[static_cast<std::size_t>(core)].program.core_id, in.workload});
        break;
      }
  }
  scatter(f.dst, f.box, f.data.data());
}

void Functional::complete(std::int32_t core, std::uint8_t engine) {
  if (engine == static_cast<std::uint8_t>(Engine::noc)) return;  // written on arrival
  Core& c = cores_[static_cast<std::size_t>(core)];
  std::deque<InFlight>& q = c.queued[engine];
  if (q.empty()) return write(core, c.flight[engine]);
  write(core, q.front());
  q.pop_front();
}

void Functional::arrived(std::int32_t sender, std::uint8_t /*engine*/, std::uint32_t instr) {
  Core& c = cores_[static_cast<std::size_t>(sender)];
  auto it = c.sends.find(instr);
  if (it == c.sends.end()) return;
  write(sender, it->second);
  c.sends.erase(it);
}

FunctionalReport Functional::finish() {
  // What the program stored in DRAM, each element once, against the
  // reference.
  for (std::size_t r = 0; r < program_.dram_regions.size(); ++r) {
    const std::int32_t layer = region_layer_[r];
    if (layer < 0 || stores_[r].empty()) continue;
    const assembler::DramRegion& g = program_.dram_regions[r];
    const model::Tensor8& want = ref_.outputs[static_cast<std::size_t>(layer)];
    const Box4 layout = box4(g.layout);
    LayerCheck& lc = checks_[static_cast<std::size_t>(layer)];
    if (layout.volume() != want.size()) {
      ++fault_count_;
      faults_.push_back(
          {-1, 0, -1, g.layer, "DRAM tensor " + g.name + " is not the layer's output shape"});
      continue;
    }
    std::vector<bool> seen(static_cast<std::size_t>(layout.volume()), false);
    for (const Store& st : stores_[r]) {
      const Box4 b = model::intersect(st.box, layout);
      for (std::int32_t n = b.lo[0]; n <= b.hi[0]; ++n)
        for (std::int32_t c = b.lo[1]; c <= b.hi[1]; ++c)
          for (std::int32_t h = b.lo[2]; h <= b.hi[2]; ++h)
            for (std::int32_t w = b.lo[3]; w <= b.hi[3]; ++w) {
              const auto at = static_cast<std::size_t>(layout.offset(n, c, h, w));
              if (seen[at]) continue;
              seen[at] = true;
              ++lc.dram_elements;
              const auto got =
                  static_cast<std::int32_t>(dram_[static_cast<std::size_t>(g.base) + at]);
              const auto exp = static_cast<std::int32_t>(want.data[at]);
              if (got == exp) continue;
              ++lc.dram_mismatches;
              lc.max_abs_diff = std::max(lc.max_abs_diff, std::abs(got - exp));
              if (!lc.first) {
                // The last store that wrote it.
                const Store* by = &st;
                for (const Store& x : stores_[r])
                  if (x.box.holds(n, c, h, w)) by = &x;
                lc.first = Mismatch{n, c, h, w, by->core, by->workload, "dram", got, exp};
              }
            }
    }
  }
  for (std::size_t i = 0; i < net_.ops.size(); ++i) {
    checks_[i].reference_digest = model::digest(ref_.outputs[i].data);
    checks_[i].defined = ref_.outputs[i].size();
  }
  for (std::size_t r = 0; r < program_.dram_regions.size(); ++r) {
    const std::int32_t layer = region_layer_[r];
    if (layer < 0 || stores_[r].empty()) continue;
    const assembler::DramRegion& g = program_.dram_regions[r];
    const std::vector<std::int8_t> image(dram_.begin() + g.base, dram_.begin() + g.base + g.bytes);
    checks_[static_cast<std::size_t>(layer)].dram_digest = model::digest(image);
  }
  FunctionalReport out;
  out.enabled = true;
  out.seed = ref_.seed;
  out.model = net_.path;
  for (std::int32_t i : net_.order) {
    const LayerCheck& l = checks_[static_cast<std::size_t>(i)];
    out.layers.push_back(l);
    if (l.mismatches() == 0) continue;
    bool inputs_ok = true;
    const model::Op& op = net_.ops[static_cast<std::size_t>(i)];
    for (const auto* parts : {&op.inputs, &op.weights})
      for (const model::InputPart& p : *parts)
        if (!p.external && checks_[static_cast<std::size_t>(p.producer)].mismatches() > 0)
          inputs_ok = false;
    if (inputs_ok) out.origins.push_back(l.layer);
  }
  out.faults = faults_;
  out.fault_count = fault_count_;
  out.bytes_moved = bytes_;
  out.macs = macs_;
  return out;
}

}  // namespace gemini::sim
