// Where a wrong value came from (functional.h, Functional::explain; docs/isa.md,
// "Provenance"): for the first wrong element of a layer, the input elements
// its tile read that differ from the reference, and the instruction that last
// wrote each of them into L2 or WL0 before the read -- so that one run tells
// a schedule that brings the wrong data (or lets other data overwrite it)
// from a computation that is wrong on right inputs.
#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "../functional.h"
#include "gemini/assembler/instr_views.h"

namespace gemini::sim {
namespace {

using assembler::Opcode;
using ir::Box;

std::int32_t element(const model::Tensor8& t, std::int64_t n, std::int64_t c, std::int64_t h,
                     std::int64_t w) {
  const auto& s = t.shape;
  return t.data[static_cast<std::size_t>(((n * s[1] + c) * s[2] + h) * s[3] + w)];
}

// The ring region of a core holding address `a` (size 0: none).
ir::RingRegion ring_of(const std::vector<ir::RingRegion>& rings, std::int64_t a) {
  for (const ir::RingRegion& r : rings)
    if (a >= r.begin && a < r.end) return r;
  return {0, 0};
}

std::int64_t wrap(const ir::RingRegion& r, std::int64_t a) {
  if (r.size() <= 0 || (a >= r.begin && a < r.end)) return a;
  return r.begin + ((a - r.begin) % r.size() + r.size()) % r.size();
}

// Most writers are listed with their count; this many are looked up.
constexpr std::int64_t kLookups = 4096;
constexpr std::size_t kExamples = 8, kWriters = 8;

// What the differing inputs and their last writers (out.writers) say about
// where the wrong value came from: the provenance's verdict.
std::string verdict(const Provenance& out, const model::Op& op, const Mismatch& m,
                    const model::Network& net, const assembler::Program& program) {
  if (out.inputs_differing == 0)
    return "every input element the tile read equals the reference: its own computation is wrong "
           "(its configuration as the program sets it, or the simulator)";
  std::set<std::string> producers{op.name};  // its own weights
  for (const auto* parts : {&op.inputs, &op.weights})
    for (const model::InputPart& p : *parts)
      if (!p.external) producers.insert(net.ops[static_cast<std::size_t>(p.producer)].name);
  auto region_layer = [&](std::int64_t dram) -> std::string {
    for (const assembler::DramRegion& g : program.dram_regions)
      if (dram >= g.base && dram < g.base + g.bytes)
        return g.kind == assembler::DramRegion::Kind::input ? op.name : g.layer;
    return {};
  };
  std::int64_t never = 0, foreign = 0, own = 0;
  std::string v, other, own_load;
  for (const auto& [x, count] : out.writers) {
    if (x.none) {
      never += count;
      continue;
    }
    const std::string from = x.dram >= 0 ? region_layer(x.dram) : x.layer;
    if (producers.count(from) || (x.opcode == "wl0_load" && x.dram < 0)) continue;
    // Another layer's data: brought by a load of this very workload (the
    // schedule points it at the wrong data), or written over the tensor.
    if (x.core_id == out.core_id && x.workload_id == m.workload_id) {
      own += count;
      if (own_load.empty())
        own_load =
            x.opcode +
            (x.transfer >= 0 ? " of transfer " + std::to_string(x.transfer) : std::string()) +
            ", which read " + (from.empty() ? std::string("other") : from + "'s") + " data";
    } else {
      foreign += count;
      if (other.empty()) other = from.empty() ? x.opcode : from;
    }
  }
  if (never > 0)
    v += std::to_string(never) +
         " differing input(s) were written by no instruction before the read: nothing "
         "brings that data there (a transfer the schedule lacks, or a tensor at the "
         "wrong address). ";
  if (own > 0)
    v += std::to_string(own) + " came from the workload's own " + own_load + ", not an input of " +
         op.name +
         ": the schedule points it at the wrong transfer (or the transfer at the "
         "wrong data). ";
  if (foreign > 0)
    v += std::to_string(foreign) + " were last written with " + other +
         "'s data, not an input of " + op.name +
         ": it overwrote the tensor before the tile read it (L2 placement or order: "
         "the schedule's addresses, or the allocation of a public-dialect file). ";
  if (never == 0 && foreign == 0 && own == 0)
    v = "its inputs' own transfers brought values that differ from the reference: where every "
        "layer it reads matched the reference, a transfer moved the wrong part of its tensor "
        "(its box, channel offset or DRAM address); else its producers computed them wrong";
  while (!v.empty() && v.back() == ' ') v.pop_back();
  return v;
}

}  // namespace

Provenance::Writer Functional::describe(std::int32_t core, std::uint32_t instr) const {
  const assembler::LoweredCore& c = program_.cores[static_cast<std::size_t>(core)];
  const assembler::Instr& in = c.program.instrs[instr];
  Provenance::Writer w;
  w.none = false;
  w.core_id = c.program.core_id;
  w.pc = instr;
  w.opcode = std::string(in.info().mnemonic);
  if (in.workload != 0xffffffffu) {
    w.workload_id = in.workload;
    const std::int32_t l = layer_of(core, in.workload);
    if (l >= 0) w.layer = net_.ops[static_cast<std::size_t>(l)].name;
  }
  switch (in.op) {
    case Opcode::dma_in: {
      const auto x = assembler::decode<assembler::DmaIn>(in);
      w.transfer = x.transfer;
      w.dram = x.dram;
      break;
    }
    case Opcode::noc_send:
      w.transfer = assembler::decode<assembler::NocSend>(in).transfer;
      break;
    case Opcode::wl0_load: {
      const auto x = assembler::decode<assembler::Wl0Load>(in);
      if (x.source == assembler::Wl0Src::dram) w.dram = x.dram;
      break;
    }
    default:
      break;
  }
  return w;
}

Provenance::Writer Functional::last_writer(const InputRead& r, const std::int32_t at[4]) const {
  const Core& c = cores_[static_cast<std::size_t>(r.place.core)];
  const std::int64_t linear = r.place.base + r.place.layout.offset(at[0], at[1], at[2], at[3]);
  if (r.place.mem == Mem::wl0) {
    for (std::size_t k = std::min(r.log_len, c.wl0_log.size()); k-- > 0;) {
      const WriteRecord& x = c.wl0_log[k];
      if (linear >= x.raw_addr && linear < x.raw_addr + x.raw_bytes) return describe(x.by, x.instr);
    }
    return {};
  }
  if (r.place.mem != Mem::l2) return {};
  const std::int64_t addr = wrap(ring_of(c.ring, r.place.base), linear);
  for (std::size_t k = std::min(r.log_len, c.l2_log.size()); k-- > 0;) {
    const WriteRecord& x = c.l2_log[k];
    const ir::RingRegion ring = ring_of(c.ring, x.dst.base);
    std::int64_t o = addr - x.dst.base;
    if (o < 0 && ring.size() > 0) o += ring.size();
    if (o < 0 || o >= x.dst.layout.volume()) continue;
    std::int32_t p[4];
    for (int d = 3; d >= 0; --d) {
      const std::int64_t e = x.dst.layout.extent(d);
      p[d] = static_cast<std::int32_t>(x.dst.layout.lo[d] + o % e);
      o /= e;
    }
    if (x.box.holds(p[0], p[1], p[2], p[3])) return describe(x.by, x.instr);
  }
  return {};
}

Provenance Functional::explain(std::int32_t core, const InFlight& f, const Mismatch& m) {
  Provenance out;
  const assembler::LoweredCore& lc = program_.cores[static_cast<std::size_t>(core)];
  const assembler::Instr& in = lc.program.instrs[f.instr];
  out.core_id = lc.program.core_id;
  out.pc = f.instr;
  out.opcode = std::string(in.info().mnemonic);
  const model::Op& op = net_.ops[static_cast<std::size_t>(f.layer)];
  model::Tensor8 scratch;
  const model::Tensor8& input = model::op_input(op, ref_, scratch);
  std::map<std::string, std::int64_t> tally;  // writer (as text) -> count
  std::vector<Provenance::Writer> seen;
  auto key = [](const Provenance::Writer& w) {
    return std::to_string(w.core_id) + ":" + std::to_string(w.pc) + (w.none ? "-" : "+");
  };
  // One input element the output element reads: compared, and where it differs, its writer.
  auto check = [&](const char* operand, const std::int32_t at[4], std::vector<std::int32_t> want) {
    const InputRead* r = nullptr;
    for (const InputRead& x : f.reads)
      if (std::strcmp(x.operand, operand) == 0 && x.box.holds(at[0], at[1], at[2], at[3])) r = &x;
    if (!r) return;  // not read: outside the input (padding), or a fault already reported
    ++out.inputs_read;
    const std::int32_t got =
        r->data[static_cast<std::size_t>(r->box.offset(at[0], at[1], at[2], at[3]))];
    if (std::find(want.begin(), want.end(), got) != want.end()) return;
    ++out.inputs_differing;
    auto by = std::find_if(out.differing_by_operand.begin(), out.differing_by_operand.end(),
                           [&](const auto& x) { return x.first == operand; });
    if (by == out.differing_by_operand.end())
      out.differing_by_operand.emplace_back(operand, 1);
    else
      ++by->second;
    if (out.inputs_differing > kLookups && out.examples.size() >= kExamples) return;
    Provenance::Writer w = last_writer(*r, at);
    const std::string k = key(w);
    if (tally[k]++ == 0) seen.push_back(w);
    if (out.examples.size() < kExamples) {
      Provenance::Input x;
      x.operand = operand;
      std::copy(at, at + 4, x.at);
      x.got = got;
      x.want = std::move(want);
      x.writer = std::move(w);
      out.examples.push_back(std::move(x));
    }
  };
  const std::int32_t n = m.n, k = m.k, h = m.h, w = m.w;
  if (in.op == Opcode::pe_run) {
    const model::ConvParams& p = f.conv;
    model::Tensor8 weights = op.weight_from_fmap ? model::fmap_weights(op, ref_)
                                                 : model::generate_weights(op, ref_.seed);
    const std::int32_t g = k / std::max(p.group_k, 1);
    for (std::int32_t c = 0; c < p.group_c; ++c) {
      const std::int32_t ci = g * p.group_c + c;
      model::for_each_tap(
          p, h, w, [&](std::int32_t r, std::int32_t s, std::int32_t ih, std::int32_t iw) {
            const std::int32_t at[4] = {n, ci, ih, iw};
            check("ifmap", at, {element(input, n, ci, ih, iw)});
            if (p.per_sample) {
              const std::int32_t wat[4] = {n, k, c, r * p.kernel_s + s};
              check("weights", wat, {element(weights, n, k, c, wat[3])});
            } else {
              // [K, C/G, R, S] (FC: [K, C*IH*IW, 1, 1], the same bytes in order).
              const std::int32_t wat[4] = {k, c, r, s};
              const std::int64_t idx =
                  ((std::int64_t{k} * p.group_c + c) * p.kernel_r + r) * p.kernel_s + s;
              check("weights", wat, {weights.data[static_cast<std::size_t>(idx)]});
            }
          });
    }
  } else if (f.vp_op == assembler::VpOp::pool_max || f.vp_op == assembler::VpOp::pool_avg) {
    model::for_each_tap(f.pool, h, w,
                        [&](std::int32_t, std::int32_t, std::int32_t ih, std::int32_t iw) {
                          const std::int32_t at[4] = {n, k, ih, iw};
                          check("in0", at, {element(input, n, k, ih, iw)});
                        });
  } else if (f.vp_op == assembler::VpOp::add) {
    // Operand coordinates: any operand's value is a right input of the sum.
    const auto width = static_cast<std::int32_t>(op.ofmap_shape[1]);
    std::vector<std::int32_t> want;
    for (std::int64_t i = 0; i < std::max<std::int64_t>(op.operands, 1); ++i)
      want.push_back(element(input, n, k + i * width, h, w));
    const std::int32_t at[4] = {n, k, h, w};
    for (const InputRead& r : f.reads)
      // A chain's running sum (its own output tensor) is no operand.
      if (!(r.place.mem == f.dst.mem && r.place.base == f.dst.base && op.operands > 2))
        check(r.operand, at, want);
  } else {  // copy, transpose: output element o reads input element i[d] = o[perm[d]]
    const std::int32_t o[4] = {n, k, h, w};
    const std::int32_t at[4] = {o[f.perm[0]], o[f.perm[1]], o[f.perm[2]], o[f.perm[3]]};
    check("in0", at, {element(input, at[0], at[1], at[2], at[3])});
  }
  for (const Provenance::Writer& x : seen) out.writers.emplace_back(x, tally[key(x)]);
  std::stable_sort(out.writers.begin(), out.writers.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (out.writers.size() > kWriters) out.writers.resize(kWriters);

  out.verdict = verdict(out, op, m, net_, program_);
  return out;
}

}  // namespace gemini::sim
