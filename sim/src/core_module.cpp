#include "core_module.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "functional.h"
#include "gemini/assembler/text.h"
#include "process_guard.h"

namespace gemini::sim {

using assembler::Opcode;
using assembler::TokenKind;

CoreModule::CoreModule(const sc_core::sc_module_name& name, std::int32_t index,
                       const CoreImage& image, const assembler::CoreProgram& program,
                       SimContext& ctx, NetworkPort& net)
    : sc_core::sc_module(name),
      index_(index),
      img_(image),
      program_(program),
      ctx_(ctx),
      net_(net),
      dispatch_width_(static_cast<std::uint32_t>(ctx.params.hw->core.dispatch_per_cycle)),
      power_(ctx.power),
      core_stats_("core", basename()),
      l2_stats_("l2", std::string(basename()) + ".l2"),
      wl0_stats_("wl0", std::string(basename()) + ".wl0") {
  register_stats();
  for (std::uint32_t i = 0; i < img_.ops.size(); ++i) eng_[img_.ops[i].queue].queue.push_back(i);
  std::size_t transfers = 0;
  for (const OpRec& o : img_.ops)
    transfers += o.op == Opcode::dma_in || o.op == Opcode::dma_out || o.op == Opcode::noc_send ||
                 o.op == Opcode::wl0_load;
  tokens_.resize(img_.token_slots);
  waits_.reserve(transfers);  // at most one note per transfer
  const std::size_t nwl = img_.workload_ids.size();
  wl_first_.assign(nwl, kNever);
  wl_compute_.assign(nwl, kNever);
  wl_end_.assign(nwl, 0);
  wl_events_.assign(nwl, EventCounts{});
  wl_left_.assign(nwl, 0);
  for (const OpRec& o : img_.ops)
    if (o.wl >= 0) ++wl_left_[o.wl];
  times_.resize(img_.ops.size());
  cause_.assign(img_.ops.size(), kNoRef);
  counts_[kOther] = static_cast<std::int32_t>(assembler::kEngines);
  const InFlight in_flight(ctx.params.hw->core);
  for (std::uint8_t e = 0; e < assembler::kEngines; ++e) {
    eng_[e].limit = in_flight.of(e);
    if (eng_[e].queue.empty()) {  // never runs: done from the start
      set_act(e, kDone, 0);
      ++engines_done_;
      continue;
    }
    sc_core::sc_spawn_options opt;
    opt.spawn_method();
    opt.set_sensitivity(&ev_[e]);
    sc_core::sc_spawn([this, e] { run_guarded(ctx_, "", [this, e] { step(e); }); },
                      std::string(assembler::to_string(static_cast<assembler::Engine>(e))).c_str(),
                      &opt);
  }
}

void CoreModule::register_stats() {
  instructions_ = static_cast<std::int64_t>(img_.ops.size());
  core_stats_.add("instructions", &instructions_, Unit::count,
                  "instructions of the core's program");
  // Every event of the energy table, in the group of the unit that counts it.
  for (std::size_t e = 0; e < kEvents; ++e) {
    const EventInfo& ev = kEventTable[e];
    const std::string group = ev.group;
    (group == "l2"    ? l2_stats_
     : group == "wl0" ? wl0_stats_
                      : core_stats_)
        .add(ev.name, &events_[e], ev.counted_in, ev.description);
  }
  l2_stats_.add("peak_bytes", &peak_l2_, Unit::bytes, "peak occupancy of the core's L2");
}

void CoreModule::wake(std::uint8_t e, Tick delay) { ev_[e].notify(ps(delay)); }

void CoreModule::record_power(Event e, std::int64_t n) {
  // DRAM bytes are counted when their request reaches the port; their
  // power goes where the port moves them (NocModule::dram_progress).
  if (e == Event::dram_byte) return;
  const Tick now = now_ps();
  power_->add(static_cast<std::size_t>(index_), e, n, now, std::max(now, span_to_));
}

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

void CoreModule::run_for(Slot& s, std::uint8_t e, std::int64_t cycles, Tick now) {
  s.done_at = now + cycles * ctx_.params.period;
  wake(e, s.done_at - now);
}

void CoreModule::finish(std::uint8_t e, std::uint32_t op, Tick at, Tick now) {
  for (Slot& s : eng_[e].window)
    if (s.instr == op && s.timed) {
      s.done_at = at;
      wake(e, at - now);
      return;
    }
  std::fprintf(stderr,
               "gemini: internal error: core %d engine %u: instruction %u is not in flight\n",
               img_.core_id, static_cast<unsigned>(e), static_cast<unsigned>(op));
  std::abort();
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

void CoreModule::deliver(std::uint32_t slot, Tick /*now*/, OpRef from) {
  if (slot == kNoSlot) return;
  TokenSlot& s = tokens_[slot];
  ++s.count;
  s.last_from = from;
  wake_waiters(s.waiters, s.count);
}

void CoreModule::retire(std::uint8_t e, const Slot& s, Tick now) {
  Engine& en = eng_[e];
  const OpRec& o = img_.ops[s.instr];
  if (s.timed) {
    if (ctx_.functional) ctx_.functional->complete(index_, e);
    if (s.l2_stream) --l2_streams_;
    if (ctx_.tracing)
      ctx_.trace.push_back({index_, e, static_cast<std::uint8_t>(o.op),
                            o.wl >= 0 ? static_cast<std::int32_t>(img_.workload_ids[o.wl]) : -1,
                            o.bytes, s.started, now});
  }
  ++en.head;
  ++en.retired;
  times_[s.instr] = {s.started, s.done_at, now};
  l2_live_ -= o.l2_sub;
  if (o.wl >= 0) {
    wl_end_[o.wl] = std::max(wl_end_[o.wl], now);
    wl_first_[o.wl] = std::min(wl_first_[o.wl], now);
  }
  ctx_.progress.retired(now);
  if (o.wl >= 0 && --wl_left_[o.wl] == 0) ctx_.progress.workload_done();
  wake_waiters(local_waiters_[e], en.retired);
}

void CoreModule::complete_now(std::uint8_t e, Tick now) {
  Engine& en = eng_[e];
  Slot s;
  s.instr = en.queue[en.issue++];
  s.done_at = s.started = now;
  if (en.window.empty()) {
    retire(e, s, now);
  } else {
    en.window.push_back(s);  // retires after what is in flight before it
  }
}

void CoreModule::step(std::uint8_t e) {
  Engine& en = eng_[e];
  const Tick now = now_ps();
  while (!en.window.empty() && en.window.front().done_at <= now) {
    const Slot s = en.window.front();
    en.window.pop_front();
    retire(e, s, now);
  }
  Act blocked = kOther;
  bool stop = false;
  while (!stop && en.issue < en.queue.size()) {
    std::uint32_t flying = 0;
    for (const Slot& s : en.window) flying += s.timed && !s.member && s.done_at > now;
    if (flying >= en.limit) break;  // until one completes
    const std::uint32_t i = en.queue[en.issue];
    const OpRec& o = img_.ops[i];
    const Tick d = dispatch_at(i);
    if (d > now) {
      wake(e, d - now);
      break;
    }
    switch (o.op) {
      case Opcode::wait_local:
        if (eng_[o.kind].retired >= o.count) {
          complete_now(e, now);
        } else {
          local_waiters_[o.kind].push_back({e, o.count});
          stop = true;
        }
        break;
      case Opcode::wait_token: {
        TokenSlot& t = tokens_[o.slot];
        if (t.count >= o.count) {
          cause_[i] = t.last_from;
          complete_now(e, now);
        } else {
          t.waiters.push_back({e, o.count});
          blocked = o.kind == static_cast<std::uint8_t>(TokenKind::credit) ? kSpace : kToken;
          stop = true;
        }
        break;
      }
      case Opcode::signal:
        // A release: it announces what the instructions before it on its
        // queue did, so it waits for all of them to complete.
        if (!en.window.empty()) {
          stop = true;
          break;
        }
        l2_live_ += o.l2_add;
        peak_l2_ = std::max(peak_l2_, l2_live_);
        net_.send_token(index_, o.peer, o.slot, OpRef{index_, i}, now);
        complete_now(e, now);
        break;
      case Opcode::view:
      case Opcode::vp_cfg:
        if (ctx_.functional) ctx_.functional->start(index_, i);
        complete_now(e, now);
        break;
      case Opcode::nop:
      case Opcode::end:
        complete_now(e, now);
        break;
      default: {
        en.window.push_back(Slot{});
        Slot& s = en.window.back();
        s.instr = i;
        ++en.issue;
        start(e, o, s, now);
        break;
      }
    }
  }
  // What the engine does now: its oldest operation in flight, else what
  // stops it issuing. An engine woken before its next completion is
  // woken again at that completion.
  Tick next = kNever;
  const Slot* flying = nullptr;
  for (const Slot& s : en.window) {
    if (s.done_at <= now) continue;
    if (!flying && s.timed) flying = &s;
    next = std::min(next, s.done_at);
  }
  if (next != kNever) wake(e, next - now);
  if (flying) {
    set_act(e, flying->act, now);
  } else if (en.head < en.queue.size()) {
    set_act(e, blocked, now);
  } else if (en.act != kDone) {
    set_act(e, kDone, now);
    if (++engines_done_ == assembler::kEngines) {
      finish_ = now;
      account(now);
    }
  }
}

void CoreModule::start(std::uint8_t e, const OpRec& o, Slot& s, Tick now) {
  if (ctx_.functional) ctx_.functional->start(index_, s.instr);
  s.timed = true;
  s.started = now;
  s.done_at = kNever;
  l2_live_ += o.l2_add;
  peak_l2_ = std::max(peak_l2_, l2_live_);
  if (o.wl >= 0) wl_first_[o.wl] = std::min(wl_first_[o.wl], now);
  const ir::HardwareConfig& hw = *ctx_.params.hw;
  const Tick period = ctx_.params.period;
  // This operation streams L2 from now on: the port rate for it (NoC data
  // being written into L2 counts as one stream more when it shares ports).
  auto stream = [&] {
    s.l2_stream = true;
    const bool noc = hw.l2.noc_writes_share_ports && net_.writing_l2(index_);
    return l2_port_rate(hw.l2, ++l2_streams_ + (noc ? 1 : 0));
  };
  switch (o.op) {
    case Opcode::pe_cfg:
      s.act = kCompute;
      run_for(s, e, hw.pe.cfg_cycles, now);
      break;
    case Opcode::pe_run:
      s.act = kCompute;
      if (o.wl >= 0) wl_compute_[o.wl] = std::min(wl_compute_[o.wl], now);
      run_for(s, e, pe_run_cycles(hw, img_.pe_tiles[o.pe], stream()), now);
      {
        EventCounts n{};
        pe_run_events(hw, img_.pe_tiles[o.pe], n);
        span_to_ = s.done_at;  // its events over its time (power over time)
        for (std::size_t k = 0; k < kEvents; ++k)
          if (n[k] != 0) count(s.instr, static_cast<Event>(k), n[k]);
        span_to_ = 0;
      }
      break;
    case Opcode::vp_run:
      s.act = kCompute;
      if (o.wl >= 0) wl_compute_[o.wl] = std::min(wl_compute_[o.wl], now);
      run_for(s, e, vp_run_cycles(hw.vp, o.vp_elements, o.vp_l2_bytes, stream()), now);
      span_to_ = s.done_at;
      count(s.instr, Event::vp_op, o.vp_elements);
      count(s.instr, Event::l2_read, o.vp_l2_bytes);
      span_to_ = 0;
      break;
    case Opcode::wl0_load:
      if (o.flag) {
        count(s.instr, Event::wl0_write, o.bytes);
        s.act = kDram;
        net_.dram_read(index_, e, s.instr, o.dram, o.bytes, now);
      } else {
        s.act = kCompute;
        run_for(s, e, wl0_fill_cycles(hw, o.bytes, stream()), now);
        span_to_ = s.done_at;
        count(s.instr, Event::wl0_write, o.bytes);
        count(s.instr, Event::l2_read, o.bytes);
        span_to_ = 0;
      }
      break;
    case Opcode::dma_in:
      s.act = kDram;
      count(s.instr, Event::l2_write, o.bytes);
      if (o.members >= 2) {
        net_.dram_multicast_read(index_, e, s.instr, o.dram, o.bytes, o.transfer, o.part, o.members,
                                 now);
      } else {
        net_.dram_read(index_, e, s.instr, o.dram, o.bytes, now);
      }
      break;
    case Opcode::dma_out: {
      s.act = kDram;
      count(s.instr, Event::l2_read, o.bytes);
      const double rate = stream();
      net_.dram_write(index_, e, s.instr, o.dram, o.bytes, static_cast<double>(period) / rate, now);
      break;
    }
    case Opcode::noc_send: {
      s.act = kNoc;
      if (o.members >= 2) {  // a NoC multicast member: sent with the last
        multicast_.push_back({o.peer, s.instr, o.slot});
        if (waits_for_last_member(o)) {
          s.member = true;
          break;
        }
        const double rate = stream();
        count(s.instr, Event::l2_read, o.bytes);
        net_.send_multicast(index_, e, multicast_, o.bytes, static_cast<double>(period) / rate,
                            now);
        multicast_.clear();
        break;
      }
      const double rate = stream();
      count(s.instr, Event::l2_read, o.bytes);
      net_.send_data(index_, e, s.instr, o.peer, o.bytes, o.slot,
                     static_cast<double>(period) / rate, now);
      break;
    }
    default:
      s.done_at = now;  // nothing to do: retires at the next step
      wake(e, 0);
      break;
  }
}

void CoreModule::describe_blocked(std::vector<std::string>& out) const {
  for (std::uint8_t e = 0; e < assembler::kEngines; ++e) {
    const Engine& en = eng_[e];
    if (en.head >= en.queue.size()) continue;
    // The oldest operation in flight, else the instruction it cannot issue.
    const bool flying = !en.window.empty() && en.window.front().timed;
    if (!flying && en.issue >= en.queue.size()) continue;
    const std::uint32_t i = flying ? en.window.front().instr : en.queue[en.issue];
    const OpRec& o = img_.ops[i];
    std::string line = "core " + std::to_string(img_.core_id) + " queue " +
                       std::string(assembler::to_string(static_cast<assembler::Engine>(e))) + " #" +
                       std::to_string(i) + " " + assembler::print(program_.instrs[i]);
    if (flying) {
      line += en.window.size() > 1
                  ? "  (in flight, " + std::to_string(en.window.size() - 1) + " issued after it)"
                  : "  (in flight)";
    } else if (o.op == Opcode::wait_local) {
      line += "  (engine " +
              std::string(assembler::to_string(static_cast<assembler::Engine>(o.kind))) +
              " has retired " + std::to_string(eng_[o.kind].retired) + ")";
    } else if (o.op == Opcode::wait_token) {
      line += "  (" + std::to_string(tokens_[o.slot].count) + " such tokens arrived)";
    }
    out.push_back(line);
  }
}

}  // namespace gemini::sim
