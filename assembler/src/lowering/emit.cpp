// Pass 7, emission (lowerer.h). Contract: each core's program, its
// events in the global order, every dependency turned into a wait: on its
// own core a wait_local on the dependency's queue and count (only where
// the queue has not already waited that far), across cores a wait_token on
// (kind, transfer, source core, ordinal); a store signals each core that
// re-reads it; an `end` closes the program. Emission is per core once
// every token's ordinal is known: a core's instructions depend only on its
// own events (in global order), the queue counts of its own earlier events
// and the ordinals of the tokens it waits for. So the ordinals are
// numbered first, in global order, and the cores are then emitted
// independently (in parallel).
#include "emit.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "gemini/ir/parallel.h"
#include "lowerer.h"

namespace gemini::assembler::lowering {
namespace {

// The shapes of the waits and signals emission adds, prepared once (their
// values here are placeholders).
struct SyncBindings {
  PreparedBinding token_wait, local_wait, dram_signal;
};
const SyncBindings& sync_bindings() {
  static const SyncBindings b = [] {
    Invocation token;
    token.op = Opcode::wait_token;
    token.queue = Engine::ctrl;
    token.arg("kind", 0).arg("transfer", 0).arg("from", 0).arg("count", 1);
    Invocation local;
    local.op = Opcode::wait_local;
    local.queue = Engine::ctrl;
    local.arg("on", 0).arg("count", 1);
    Invocation signal;
    signal.op = Opcode::signal;
    signal.queue = Engine::ctrl;
    signal.arg("kind", 0).arg("transfer", 0).arg("to", 0);
    signal.tensor("grant", {0, 0, std::nullopt, Access::write, true});  // a credit's only
    return SyncBindings{PreparedBinding(token), PreparedBinding(local), PreparedBinding(signal)};
  }();
  return b;
}

}  // namespace

void number_tokens(std::vector<FlatToken>& incoming) {
  // Most (transfer, sender, kind) groups hold one token; only the tokens
  // of larger groups are put in order.
  TransferMap<std::int64_t> group;  // (transfer, sender << 2 | kind) -> size
  group.reserve(incoming.size());
  auto group_key = [](const FlatToken& k) {
    return TransferKey{k.transfer, k.from << 2 | static_cast<std::uint32_t>(k.kind)};
  };
  for (const FlatToken& k : incoming) ++group[group_key(k)];
  std::vector<std::uint32_t> shared;  // tokens of groups of two or more
  for (std::uint32_t k = 0; k < incoming.size(); ++k) {
    if (group[group_key(incoming[k])] > 1)
      shared.push_back(k);
    else
      incoming[k].ordinal = 1;
  }
  if (shared.empty()) return;
  std::sort(shared.begin(), shared.end(),
            [&](std::uint32_t a, std::uint32_t b) { return incoming[a].key < incoming[b].key; });
  for (auto& [key, size] : group) size = 0;  // now: tokens numbered so far
  for (std::uint32_t k : shared) incoming[k].ordinal = ++group[group_key(incoming[k])];
}

namespace {

// The tokens core c receives, gathered sender by sender: each sender's are
// in event order and senders' events are runs of rising ids, so the list
// comes out in (sending event, token) order, the order a dependency's
// tokens are waited for. A wait finds those of its dependency in this
// core's own small list rather than in the arrays of all events and tokens
// (a cache miss or two each).
std::vector<FlatToken> gather_incoming(const std::vector<Buckets<FlatToken>>& sent_by,
                                       std::uint32_t c) {
  std::vector<FlatToken> incoming;
  std::size_t count = 0;
  for (const Buckets<FlatToken>& from : sent_by) count += from.of(c).size();
  incoming.reserve(count);
  for (const Buckets<FlatToken>& from : sent_by)
    incoming.insert(incoming.end(), from.of(c).begin(), from.of(c).end());
  if (!std::is_sorted(incoming.begin(), incoming.end(),
                      [](const FlatToken& a, const FlatToken& b) { return a.event < b.event; })) {
    std::fprintf(stderr, "gemini: internal error: core %u's incoming tokens are out of order\n", c);
    std::abort();
  }
  number_tokens(incoming);
  return incoming;
}

}  // namespace

void Lowerer::emit(const std::vector<std::uint32_t>& order, Program& p) {
  const std::size_t n = m_.cores.size();
  const std::size_t ne = event_count();
  std::vector<DepFacts> facts(ne);
  std::vector<std::uint32_t> pos(ne);
  for (std::uint32_t r = 0; r < order.size(); ++r) pos[order[r]] = r;
  // Per sending core, its tokens bucketed by receiving core.
  std::vector<Buckets<FlatToken>> sent_by(n);
  std::vector<std::size_t> ops_per_core(n, 0);
  // A core's events are a run of ids, so all of this is filled per core.
  ir::parallel_for(n, [&](std::size_t ci) {
    const auto c = static_cast<std::uint32_t>(ci);
    for (std::uint32_t i = event_base_[c]; i < event_base_[c + 1]; ++i) {
      const Event& e = event(c, i);
      facts[i] = {e.core, 0, e.queue};
      ops_per_core[c] += e.op_end - e.op_begin + e.deps.size() / 2 + 1;
    }
    sent_by[c] = bucket<FlatToken>(n, [&](const auto& put) {
      std::uint32_t t = 0;
      for (std::uint32_t i = event_base_[c]; i < event_base_[c + 1]; ++i)
        for (const Event::Token& k : event(c, i).tokens)
          put(k.to, FlatToken{std::uint64_t{pos[i]} << 32 | t++, k.transfer, i, c, k.kind});
    });
  });
  std::vector<std::vector<std::uint32_t>> order_of(n);  // per core, in global order
  for (std::uint32_t c = 0; c < n; ++c) order_of[c].reserve(event_base_[c + 1] - event_base_[c]);
  for (std::uint32_t id : order) order_of[facts[id].core].push_back(id);
  p.cores.resize(n);
  std::vector<std::vector<std::string>> errors(n);
  phase("lower/emit prep");
  ir::parallel_for(n, [&](std::size_t ci) {
    const auto c = static_cast<std::uint32_t>(ci);
    const std::vector<FlatToken> incoming = gather_incoming(sent_by, c);
    emit_core(c, order_of[c], incoming, facts, ops_per_core[c], p.cores[c], errors[c]);
  });
  for (auto& list : errors)
    for (std::string& e : list) error(std::move(e));
}

// Core c's program: its events in order, each after its waits.
void Lowerer::emit_core(std::uint32_t c, const std::vector<std::uint32_t>& order,
                        const std::vector<FlatToken>& incoming, std::vector<DepFacts>& facts,
                        std::size_t ops, LoweredCore& out, std::vector<std::string>& errors) const {
  // Each sending event's run of tokens in `incoming`, found by hash (a
  // binary search per dependency mispredicts at every step).
  struct Run {
    std::uint32_t first, count;
  };
  FlatMap<std::uint32_t, Run> runs;
  runs.reserve(incoming.size());
  for (std::uint32_t k = 0; k < incoming.size(); ++k)
    ++runs.try_emplace(incoming[k].event, Run{k, 0}).first->second.count;
  auto incoming_from = [&](std::uint32_t event) {
    auto it = runs.find(event);
    if (it == runs.end()) return std::span<const FlatToken>();
    return std::span<const FlatToken>(incoming.data() + it->second.first, it->second.count);
  };
  const std::uint32_t own_first = event_base_[c], own_end = event_base_[c + 1];
  out.program.instrs.reserve(ops + 1);
  out.program.core_id = m_.cores[c].core_id;
  for (const ir::Workload& w : m_.cores[c].workloads)
    out.layers.emplace(static_cast<std::uint32_t>(w.workload_id), w.layer_name);
  std::array<std::uint32_t, kEngines> count{};
  std::array<std::array<std::uint32_t, kEngines>, kEngines> waited{};
  auto push = [&](const Instr& in) {
    out.program.instrs.push_back(in);
    ++count[static_cast<std::size_t>(in.queue)];
  };
  // Waits and signals are typed invocations too: a transfer or core id
  // the encoding cannot carry is an error naming the workload, not a bad
  // field. Each kind (token wait, local wait, DRAM signal) is one shape,
  // prepared once (sync_bindings()); a value out of range is reported
  // as bind() reports it for the whole invocation.
  std::string err;
  const SyncBindings& sync = sync_bindings();
  auto bind_sync = [&](const PreparedBinding& b, const Event& e, std::uint32_t wid,
                       std::initializer_list<std::int64_t> args, Instr& into) {
    if (b.bind(e.queue, wid, args, into)) return true;
    RepeatBinder once;
    (void)bind_named(b.with(e.queue, wid, args), c, e.workload, into, err, once);
    errors.push_back(err);
    return false;
  };
  std::vector<Instr> token_waits;  // reused across events
  for (std::uint32_t id : order) {
    const Event& e = event(c, id);
    const auto q = static_cast<std::size_t>(e.queue);
    const auto wid = static_cast<std::uint32_t>(m_.cores[c].workloads[e.workload].workload_id);
    std::array<std::uint32_t, kEngines> need{};
    token_waits.clear();
    for (std::uint32_t d : e.deps) {
      if (d >= own_first && d < own_end) {
        const DepFacts& f = facts[d];
        const auto xq = static_cast<std::size_t>(f.queue);
        if (xq != q) need[xq] = std::max(need[xq], f.last_count);
        continue;
      }
      for (const FlatToken& k : incoming_from(d))
        if (!bind_sync(sync.token_wait, e, wid,
                       {static_cast<std::int64_t>(k.kind), k.transfer, m_.cores[k.from].core_id,
                        k.ordinal},
                       token_waits.emplace_back()))
          token_waits.pop_back();
    }
    for (std::size_t eng = 0; eng < kEngines; ++eng) {
      if (need[eng] <= waited[q][eng]) continue;
      Instr w;
      if (bind_sync(sync.local_wait, e, wid, {static_cast<std::int64_t>(eng), need[eng]}, w))
        push(w);
      waited[q][eng] = need[eng];
    }
    for (const Instr& w : token_waits) push(w);
    for (std::uint32_t k = e.op_begin; k < e.op_end; ++k) push(ops_[c][k]);
    // Tokens this event produces: a send's data token travels with it; a
    // credit is its own signal; a store signals each core re-reading it.
    if (e.kind == Kind::store)
      for (const Event::Token& k : e.tokens) {
        Instr sig;
        if (bind_sync(
                sync.dram_signal, e, wid,
                {static_cast<std::int64_t>(TokenKind::dram), k.transfer, m_.cores[k.to].core_id},
                sig))
          push(sig);
      }
    facts[id].last_count = count[q];
  }
  Instr end;
  end.op = Opcode::end;
  end.queue = Engine::ctrl;
  push(end);
}

}  // namespace gemini::assembler::lowering
