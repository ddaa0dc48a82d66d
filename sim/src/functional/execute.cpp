// The functional unit's execution (functional.h): what each instruction does
// to the memories, at the times the timing units report. start() sets an
// engine's registers (view, pe_cfg, vp_cfg) or reads a data instruction's
// sources and computes its tile; complete() and arrived() write what it
// produced. Fields are read through the typed views (instr_views.h); each
// pe_run / vp_run's tile operation comes from the op-to-tile factory
// (model::tile_op_for, of the layer operation its VP operation computes)
// and is computed by model::compute_tile_cpu, as the reference's are. A
// malformed operation (no view before it, a box outside its tensor, a tile
// larger than L2) is a fault: reported, and what can be done safely is done.
#include <algorithm>
#include <chrono>

#include "../functional.h"
#include "gemini/assembler/instr_views.h"
#include "gemini/model/cpu_kernels.h"
#include "gemini/model/layer_params.h"
#include "gemini/model/tile_op_factory.h"

namespace gemini::sim {

using assembler::decode;
using assembler::Engine;
using assembler::Instr;
using assembler::Opcode;
using ir::Box;

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}
}  // namespace

Functional::View Functional::take_view(std::int32_t core, std::uint8_t queue, std::uint32_t instr) {
  View& v = cores_[static_cast<std::size_t>(core)].view[queue];
  View out = v;
  v.valid = false;
  if (!out.valid)
    fault(core, instr, "no view precedes it on its queue: its operands' layouts are unknown");
  return out;
}

void Functional::start(std::int32_t core, std::uint32_t i) {
  const Instr& in = program_.cores[static_cast<std::size_t>(core)].program.instrs[i];
  Core& c = cores_[static_cast<std::size_t>(core)];
  switch (in.op) {
    case Opcode::view: {
      const auto x = decode<assembler::ViewInstr>(in);
      View& v = c.view[static_cast<std::size_t>(in.queue)];
      v.valid = true;
      v.shift = x.shift;
      v.box0 = x.box0;
      v.box1 = x.box1;
      return;
    }
    case Opcode::pe_cfg:
      return configure_pe(c, decode<assembler::PeConfig>(in));
    case Opcode::vp_cfg:
      return configure_vp(c, decode<assembler::VpConfig>(in));
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

// The PE registers: the convolution the following pe_runs compute, and
// the chain of pe_runs whose partial sums accumulate before requantising.
void Functional::configure_pe(Core& c, const assembler::PeConfig& x) {
  model::ConvParams& p = c.pe;
  p.pad_t = static_cast<std::int32_t>(x.pad_t);
  p.pad_l = static_cast<std::int32_t>(x.pad_l);
  p.kernel_r = static_cast<std::int32_t>(x.r);
  p.kernel_s = static_cast<std::int32_t>(x.s);
  p.stride_h = static_cast<std::int32_t>(x.stride_h);
  p.stride_w = static_cast<std::int32_t>(x.stride_w);
  p.group_k = static_cast<std::int32_t>(x.gk);
  p.group_c = static_cast<std::int32_t>(x.gc);
  p.in_h = static_cast<std::int32_t>(x.in_h);
  p.in_w = static_cast<std::int32_t>(x.in_w);
  p.per_sample = x.per_sample;
  c.pe_shift = static_cast<std::int32_t>(x.shift);
  c.pe_chain = static_cast<std::int32_t>(x.chain);
  c.pe_wl0 = x.wl0;
  c.pe_done = 0;
  c.chain_needed = c.chain_covered = 0;
}

// The VP registers: the window, requantisation and permutation of the
// following vp_runs.
void Functional::configure_vp(Core& c, const assembler::VpConfig& x) {
  model::PoolParams& p = c.vp;
  p.kernel_r = static_cast<std::int32_t>(x.r);
  p.kernel_s = static_cast<std::int32_t>(x.s);
  p.stride_h = static_cast<std::int32_t>(x.stride_h);
  p.stride_w = static_cast<std::int32_t>(x.stride_w);
  p.pad_t = static_cast<std::int32_t>(x.pad_t);
  p.pad_l = static_cast<std::int32_t>(x.pad_l);
  p.in_h = static_cast<std::int32_t>(x.in_h);
  p.in_w = static_cast<std::int32_t>(x.in_w);
  c.vp_shift = static_cast<std::int32_t>(x.shift);
  c.perm = assembler::unpack_permutation(x.perm);
}

// dma_in, dma_out, noc_send: a moved box from a source tensor to a
// destination tensor, shifted by the view's channel shift; wl0_load: raw
// bytes into WL0.
void Functional::start_move(std::int32_t core, std::uint32_t i) {
  const Instr& in = program_.cores[static_cast<std::size_t>(core)].program.instrs[i];
  InFlight& f = cores_[static_cast<std::size_t>(core)].flight[static_cast<std::size_t>(in.queue)];
  f = InFlight{};
  f.active = true;
  f.instr = i;
  if (in.op == Opcode::wl0_load) {
    const auto x = decode<assembler::Wl0Load>(in);
    const std::int64_t bytes = x.bytes;
    const bool from_dram = x.source == assembler::Wl0Src::dram;
    Place src{from_dram ? Mem::dram : Mem::l2, core, from_dram ? x.dram : x.l2, {}};
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
    f.raw_addr = x.wl0;
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
  ir::Box moved;
  switch (in.op) {
    case Opcode::dma_in: {
      const auto x = decode<assembler::DmaIn>(in);
      moved = x.src_box;
      src = {Mem::dram, core, 0, v.box0};
      src.base = x.dram - v.box0.offset(moved.lo[0], moved.lo[1], moved.lo[2], moved.lo[3]);
      dst = {Mem::l2, core, x.l2, x.dst_box};
      break;
    }
    case Opcode::dma_out: {
      const auto x = decode<assembler::DmaOut>(in);
      moved = x.src_box;
      src = {Mem::l2, core, x.l2, v.box0};
      dst = {Mem::dram, core, 0, v.box1};
      dst.base =
          x.dram - v.box1.offset(moved.lo[0], static_cast<std::int64_t>(moved.lo[1]) + v.shift,
                                 moved.lo[2], moved.lo[3]);
      f.store = true;
      break;
    }
    default: {  // noc_send
      const auto x = decode<assembler::NocSend>(in);
      moved = x.src_box;
      src = {Mem::l2, core, x.src, v.box0};
      const std::int64_t to = x.to;
      std::int32_t dc = -1;
      for (std::size_t k = 0; k < program_.cores.size(); ++k)
        if (program_.cores[k].program.core_id == to) dc = static_cast<std::int32_t>(k);
      if (dc < 0) {
        fault(core, i, "sends to core " + std::to_string(to) + ", which has no program");
        f.active = false;
        return;
      }
      dst = {Mem::l2, dc, x.dst, x.dst_box};
      break;
    }
  }
  if (!fits(src) || !fits(dst)) {
    fault(core, i, "addresses a tensor larger than its memory");
    f.active = false;
    return;
  }
  // What moves must lie inside both tensors; the rest is a fault and stays.
  const ir::Box to_dst = ir::shifted(moved, 1, v.shift);
  if (!src.layout.contains(moved))
    fault(core, i,
          "moves " + ir::to_string(moved, ir::BoxStyle::corners) + ", which its source tensor " +
              ir::to_string(src.layout, ir::BoxStyle::corners) + " does not hold");
  if (!dst.layout.contains(to_dst))
    fault(core, i,
          "writes " + ir::to_string(to_dst, ir::BoxStyle::corners) +
              " outside its destination tensor " +
              ir::to_string(dst.layout, ir::BoxStyle::corners));
  ir::Box part = ir::intersect(moved, src.layout);
  part = ir::intersect(part, ir::shifted(dst.layout, 1, -v.shift));
  if (part.empty()) {
    f.active = false;
    return;
  }
  f.data.resize(static_cast<std::size_t>(part.volume()));
  gather(src, part, f.data.data());
  f.dst = dst;
  f.box = ir::shifted(part, 1, v.shift);
  bytes_ += part.volume();
}

void Functional::start_pe(std::int32_t core, std::uint32_t i) {
  const Instr& in = program_.cores[static_cast<std::size_t>(core)].program.instrs[i];
  const auto x = decode<assembler::PeRun>(in);
  Core& c = cores_[static_cast<std::size_t>(core)];
  InFlight& f = c.flight[static_cast<std::size_t>(Engine::pe)];
  f = InFlight{};
  const View v = take_view(core, static_cast<std::uint8_t>(Engine::pe), i);
  if (!v.valid) return;
  const model::ConvParams& p = c.pe;
  const ir::Box out = x.ofmap_box;
  if (out.empty()) return fault(core, i, "computes an empty box");
  // The tile operation, from the PE registers (the op-to-tile factory).
  model::TileParams params;
  params.conv = p;
  model::TileOp op = model::tile_op_for(ir::LayerOp::conv, params, out, false);
  // A tile, its input and its weights live in L2 (or WL0): none is larger.
  const std::int64_t cap = program_.l2_bytes;
  const ir::Box need = model::tile_input_box(op);
  const ir::Box wneed = model::conv_weight_box(p, out);
  if (out.volume() > cap || need.volume() > cap || wneed.volume() > cap)
    return fault(core, i, "computes a tile larger than L2");
  // The input tile the outputs read (the halo rule), from the ifmap tensor.
  const Place ifmap{Mem::l2, core, x.ifmap, x.ifmap_box};
  std::vector<std::int8_t> in_tile, w_tile;
  gather_part(ifmap, need, in_tile);
  const ir::Box held = ir::intersect(need, ifmap.layout);
  if (c.pe_done == 0) c.chain_needed = need.volume();
  c.chain_covered += held.empty() ? 0 : held.volume();
  // Weights: the L2 tensor streamed through WL0, or WL0 alone.
  const bool from_l2 = x.weight_bytes > 0;
  const Place weights{from_l2 ? Mem::l2 : Mem::wl0, core, from_l2 ? x.weight : c.pe_wl0, v.box0};
  if (!weights.layout.contains(wneed))
    fault(core, i,
          "needs weights " + ir::to_string(wneed, ir::BoxStyle::corners) +
              "; its weight tensor holds " + ir::to_string(weights.layout, ir::BoxStyle::corners));
  gather_part(weights, wneed, w_tile);
  if (c.pe_done == 0) c.chain_reads.clear();
  const std::size_t n = static_cast<std::size_t>(out.volume());
  std::vector<std::int32_t> acc(n);
  op.in[0] = {in_tile.data(), need};
  op.weights = {w_tile.data(), wneed};
  const bool observe = hook_ && hook_->wants(site(core, i), op.kind);
  const auto t0 = observe ? Clock::now() : Clock::time_point{};
  model::compute_tile_cpu(op, {}, acc.data(), nullptr);
  if (observe) hook_->seen(op, site(core, i), acc.data(), seconds_since(t0));
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
              std::to_string(c.chain_needed) + " input elements " +
              ir::to_string(need, ir::BoxStyle::corners) +
              " its outputs read (the rest read as zero)");
  f.active = true;
  f.instr = i;
  f.data.resize(n);
  const model::TileOp rq = model::requantize_op(c.partial.data(), c.pe_shift, out);
  const bool observe_end = hook_ && hook_->wants(site(core, i), rq.kind);
  const auto t1 = observe_end ? Clock::now() : Clock::time_point{};
  model::compute_tile_cpu(rq, {}, nullptr, f.data.data());
  if (observe_end) hook_->seen(rq, site(core, i), f.data.data(), seconds_since(t1));
  f.reads = std::move(c.chain_reads);
  c.chain_reads.clear();
  f.conv = p;
  c.pe_done = 0;
  target_tile(core, i, f, out, x.ofmap, v);
}

void Functional::start_vp(std::int32_t core, std::uint32_t i) {
  const Instr& in = program_.cores[static_cast<std::size_t>(core)].program.instrs[i];
  const auto x = decode<assembler::VpRun>(in);
  Core& c = cores_[static_cast<std::size_t>(core)];
  InFlight& f = c.flight[static_cast<std::size_t>(Engine::vp)];
  f = InFlight{};
  const View v = take_view(core, static_cast<std::uint8_t>(Engine::vp), i);
  if (!v.valid) return;
  const ir::Box out = x.out_box;
  if (out.empty() || out.volume() > program_.l2_bytes ||
      model::pool_input_box(c.vp, out).volume() > program_.l2_bytes)
    return fault(core, i, "computes a tile larger than L2 (or an empty one)");
  // The tile operation of the layer operation its VP operation computes,
  // from the VP registers (the op-to-tile factory).
  model::TileParams params;
  params.pool = c.vp;
  params.pool.shift = c.vp_shift;
  params.shift = c.vp_shift;
  params.perm = c.perm;
  model::TileOp tile = model::tile_op_for(assembler::layer_op_of(x.op), params, out, false);
  // Its operands: in0, and in1 (laid out as the view's box0) for a sum of two.
  const int operands = tile.kind == model::TileKind::add ? static_cast<int>(x.inputs) : 1;
  const Place place[2] = {{Mem::l2, core, x.in0, x.in_box}, {Mem::l2, core, x.in1, v.box0}};
  const ir::Box need = model::tile_input_box(tile);
  std::vector<std::int8_t> data[2];
  for (int k = 0; k < operands; ++k) {
    if (!place[k].layout.contains(need))
      fault(core, i,
            "reads " + ir::to_string(need, ir::BoxStyle::corners) + "; its input tensor holds " +
                ir::to_string(place[k].layout, ir::BoxStyle::corners));
    gather_part(place[k], need, data[k]);
    tile.in[k] = {data[k].data(), need};
  }
  tile.inputs = operands;
  f.data.resize(static_cast<std::size_t>(out.volume()));
  const bool observe = hook_ && hook_->wants(site(core, i), tile.kind);
  const auto t0 = observe ? Clock::now() : Clock::time_point{};
  model::compute_tile_cpu(tile, {}, nullptr, f.data.data());
  if (observe) hook_->seen(tile, site(core, i), f.data.data(), seconds_since(t0));
  f.pool = tile.pool;
  for (int d = 0; d < 4; ++d) f.perm[d] = tile.perm[d];
  for (int k = 0; k < operands; ++k)
    f.reads.push_back(input_read(k == 0 ? "in0" : "in1", place[k], need, std::move(data[k])));
  f.vp_op = x.op;
  f.active = true;
  f.instr = i;
  target_tile(core, i, f, out, x.out, v);
}

// Where computed tile `out` of instruction i goes: the L2 tensor at `addr`
// laid out as the view's box1, shifted by its channel shift; a part outside
// that tensor is a fault and is not written.
void Functional::target_tile(std::int32_t core, std::uint32_t i, InFlight& f, const ir::Box& out,
                             std::int64_t addr, const View& v) {
  f.dst = {Mem::l2, core, addr, v.box1};
  f.box = ir::shifted(out, 1, v.shift);
  f.compare = true;
  f.out = out;
  f.layer =
      layer_of(core, program_.cores[static_cast<std::size_t>(core)].program.instrs[i].workload);
  if (!f.dst.layout.contains(f.box)) {
    fault(core, i,
          "writes " + ir::to_string(f.box, ir::BoxStyle::corners) +
              " outside its destination tensor " +
              ir::to_string(f.dst.layout, ir::BoxStyle::corners));
    f.box = ir::intersect(f.box, f.dst.layout);
  }
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

}  // namespace gemini::sim
