#include "core_module.h"

#include <algorithm>
#include <string>

#include "functional.h"
#include "gemini/assembler/text.h"
#include "noc_module.h"

namespace gemini::sim {

using assembler::Opcode;
using assembler::TokenKind;

CoreModule::CoreModule(const sc_core::sc_module_name& name, std::int32_t index,
                       const CoreImage& image, const assembler::CoreProgram& program,
                       SimContext& ctx, NocModule& noc)
    : sc_core::sc_module(name),
      index_(index),
      img_(image),
      program_(program),
      ctx_(ctx),
      noc_(noc),
      dispatch_width_(static_cast<std::uint32_t>(ctx.params.hw->core.dispatch_per_cycle)) {
  for (std::uint32_t i = 0; i < img_.ops.size(); ++i) eng_[img_.ops[i].queue].queue.push_back(i);
  std::size_t tokens = 0;
  for (const OpRec& o : img_.ops) tokens += o.op == Opcode::wait_token;
  tokens_.reserve(tokens * 2);
  const std::size_t nwl = img_.workload_ids.size();
  wl_first_.assign(nwl, kNever);
  wl_compute_.assign(nwl, kNever);
  wl_end_.assign(nwl, 0);
  counts_[kOther] = static_cast<std::int32_t>(assembler::kEngines);
  for (std::uint8_t e = 0; e < assembler::kEngines; ++e) {
    if (eng_[e].queue.empty()) {  // never runs: done from the start
      set_act(e, kDone, 0);
      ++engines_done_;
      continue;
    }
    sc_core::sc_spawn_options opt;
    opt.spawn_method();
    opt.set_sensitivity(&ev_[e]);
    sc_core::sc_spawn([this, e] { step(e); },
                      std::string(assembler::to_string(static_cast<assembler::Engine>(e))).c_str(),
                      &opt);
  }
}

void CoreModule::wake(std::uint8_t e, Tick delay) { ev_[e].notify(ps(delay)); }

void CoreModule::account(Tick now) {
  Act cur = kDone;
  for (int a = kCompute; a > kDone; --a)
    if (counts_[a] > 0) {
      cur = static_cast<Act>(a);
      break;
    }
  acc_[cur] += now - last_;
  last_ = now;
}

void CoreModule::set_act(std::uint8_t e, Act a, Tick now) {
  Engine& en = eng_[e];
  if (en.act == a) return;
  account(now);
  --counts_[en.act];
  ++counts_[a];
  en.act = a;
}

std::int32_t CoreModule::l2_streams_begin(std::uint8_t e) {
  eng_[e].l2_stream = true;
  return ++l2_streams_;
}

void CoreModule::run_for(std::uint8_t e, std::int64_t cycles, Tick now) {
  Engine& en = eng_[e];
  en.done_at = now + cycles * ctx_.params.period;
  wake(e, en.done_at - now);
}

void CoreModule::finish(std::uint8_t e, Tick at, Tick now) {
  eng_[e].done_at = at;
  wake(e, at - now);
}

void CoreModule::wake_waiters(std::vector<Waiter>& w, std::uint32_t count) {
  for (std::size_t i = 0; i < w.size();) {
    if (w[i].count <= count) {
      wake(w[i].engine, 0);
      w[i] = w.back();
      w.pop_back();
    } else {
      ++i;
    }
  }
}

void CoreModule::deliver(std::uint64_t key, Tick /*now*/) {
  TokenSlot& s = tokens_[key];
  ++s.count;
  wake_waiters(s.waiters, s.count);
}

void CoreModule::retire(std::uint8_t e, Tick now) {
  Engine& en = eng_[e];
  const std::uint32_t i = en.queue[en.head];
  const OpRec& o = img_.ops[i];
  if (en.in_flight) {
    en.in_flight = false;
    if (ctx_.functional) ctx_.functional->complete(index_, e);
    if (en.l2_stream) {
      en.l2_stream = false;
      --l2_streams_;
    }
    if (ctx_.tracing)
      ctx_.trace.push_back({index_, e, static_cast<std::uint8_t>(o.op),
                            o.wl >= 0 ? static_cast<std::int32_t>(img_.workload_ids[o.wl]) : -1,
                            o.bytes, en.started, now});
  }
  ++en.head;
  ++en.retired;
  l2_live_ -= o.l2_sub;
  if (o.wl >= 0) {
    wl_end_[o.wl] = std::max(wl_end_[o.wl], now);
    wl_first_[o.wl] = std::min(wl_first_[o.wl], now);
  }
  if ((++ctx_.retired & 8191) == 0) ctx_.progress.tick(ctx_.retired);
  wake_waiters(local_waiters_[e], en.retired);
}

void CoreModule::step(std::uint8_t e) {
  Engine& en = eng_[e];
  const Tick now = now_ps();
  if (en.in_flight) {
    if (now < en.done_at) {  // woken early: keep the completion's wake-up
      if (en.done_at != kNever) wake(e, en.done_at - now);
      return;
    }
    retire(e, now);
  }
  while (en.head < en.queue.size()) {
    const std::uint32_t i = en.queue[en.head];
    const OpRec& o = img_.ops[i];
    const Tick d = dispatch_at(i);
    if (d > now) {
      set_act(e, kOther, now);
      wake(e, d - now);
      return;
    }
    switch (o.op) {
      case Opcode::wait_local:
        if (eng_[o.kind].retired >= o.count) {
          retire(e, now);
          continue;
        }
        local_waiters_[o.kind].push_back({e, o.count});
        set_act(e, kOther, now);
        return;
      case Opcode::wait_token: {
        TokenSlot& s = tokens_[token_key(o.kind, o.peer, o.transfer)];
        if (s.count >= o.count) {
          retire(e, now);
          continue;
        }
        s.waiters.push_back({e, o.count});
        set_act(e, o.kind == static_cast<std::uint8_t>(TokenKind::credit) ? kSpace : kToken, now);
        return;
      }
      case Opcode::signal:
        l2_live_ += o.l2_add;
        peak_l2_ = std::max(peak_l2_, l2_live_);
        noc_.send_token(index_, o.peer, token_key(o.kind, index_, o.transfer), now);
        retire(e, now);
        continue;
      case Opcode::view:
      case Opcode::vp_cfg:
        if (ctx_.functional) ctx_.functional->start(index_, i);
        retire(e, now);
        continue;
      case Opcode::nop:
      case Opcode::end:
        retire(e, now);
        continue;
      default:
        start(e, o, now);
        return;
    }
  }
  set_act(e, kDone, now);
  if (++engines_done_ == assembler::kEngines) {
    finish_ = now;
    account(now);
  }
}

void CoreModule::start(std::uint8_t e, const OpRec& o, Tick now) {
  Engine& en = eng_[e];
  if (ctx_.functional) ctx_.functional->start(index_, en.queue[en.head]);
  en.in_flight = true;
  en.started = now;
  en.done_at = kNever;
  l2_live_ += o.l2_add;
  peak_l2_ = std::max(peak_l2_, l2_live_);
  if (o.wl >= 0) wl_first_[o.wl] = std::min(wl_first_[o.wl], now);
  const ir::HardwareConfig& hw = *ctx_.params.hw;
  const Tick period = ctx_.params.period;
  switch (o.op) {
    case Opcode::pe_cfg:
      set_act(e, kCompute, now);
      run_for(e, hw.pe.cfg_cycles, now);
      break;
    case Opcode::pe_run:
      set_act(e, kCompute, now);
      if (o.wl >= 0) wl_compute_[o.wl] = std::min(wl_compute_[o.wl], now);
      run_for(e, pe_run_cycles(hw, img_.pe_tiles[o.pe], l2_port_rate(hw.l2, l2_streams_begin(e))),
              now);
      break;
    case Opcode::vp_run:
      set_act(e, kCompute, now);
      if (o.wl >= 0) wl_compute_[o.wl] = std::min(wl_compute_[o.wl], now);
      run_for(e,
              vp_run_cycles(hw.vp, o.vp_elements, o.vp_l2_bytes,
                            l2_port_rate(hw.l2, l2_streams_begin(e))),
              now);
      break;
    case Opcode::wl0_load:
      if (o.flag) {
        set_act(e, kDram, now);
        noc_.dram_read(index_, e, o.dram, o.bytes, now);
      } else {
        set_act(e, kCompute, now);
        run_for(e, wl0_fill_cycles(hw, o.bytes, l2_port_rate(hw.l2, l2_streams_begin(e))), now);
      }
      break;
    case Opcode::dma_in:
      set_act(e, kDram, now);
      if (o.members >= 2) {
        noc_.dram_multicast_read(index_, e, o.dram, o.bytes, o.transfer, o.part, o.members, now);
      } else {
        noc_.dram_read(index_, e, o.dram, o.bytes, now);
      }
      break;
    case Opcode::dma_out: {
      set_act(e, kDram, now);
      const double rate = l2_port_rate(hw.l2, l2_streams_begin(e));
      noc_.dram_write(index_, e, o.dram, o.bytes, static_cast<double>(period) / rate, now);
      break;
    }
    case Opcode::noc_send: {
      set_act(e, kNoc, now);
      const double rate = l2_port_rate(hw.l2, l2_streams_begin(e));
      noc_.send_data(index_, e, o.peer, o.bytes,
                     token_key(static_cast<std::uint8_t>(TokenKind::data), index_, o.transfer),
                     static_cast<double>(period) / rate, now);
      break;
    }
    default:
      break;
  }
}

void CoreModule::describe_blocked(std::vector<std::string>& out) const {
  for (std::uint8_t e = 0; e < assembler::kEngines; ++e) {
    const Engine& en = eng_[e];
    if (en.head >= en.queue.size()) continue;
    const std::uint32_t i = en.queue[en.head];
    const OpRec& o = img_.ops[i];
    std::string line = "core " + std::to_string(img_.core_id) + " queue " +
                       std::string(assembler::to_string(static_cast<assembler::Engine>(e))) + " #" +
                       std::to_string(i) + " " + assembler::print(program_.instrs[i]);
    if (en.in_flight) {
      line += "  (in flight)";
    } else if (o.op == Opcode::wait_local) {
      line += "  (engine " +
              std::string(assembler::to_string(static_cast<assembler::Engine>(o.kind))) +
              " has retired " + std::to_string(eng_[o.kind].retired) + ")";
    } else if (o.op == Opcode::wait_token) {
      auto it = tokens_.find(token_key(o.kind, o.peer, o.transfer));
      line += "  (" + std::to_string(it == tokens_.end() ? 0 : it->second.count) +
              " such tokens arrived)";
    }
    out.push_back(line);
  }
}

}  // namespace gemini::sim
