// Pass 5, the merged event graph (lowerer.h). Contract: every core's
// events built (events.cpp, in parallel), numbered into one graph -- core
// c's local event k becomes event_base_[c] + k, the number a build of the
// cores one after another gives it -- and the dependencies that cross
// cores resolved: a send waits for its receiver's credit, a load that
// re-reads DRAM waits for the stores it re-reads (which signal it), and
// every reader of a tensor waits for every writer of it, whichever core
// built the writer.
#include <algorithm>

#include "gemini/ir/parallel.h"
#include "lowerer.h"

namespace gemini::assembler::lowering {

void Lowerer::build_events(const ir::DependencyGraph& g, const std::vector<std::int64_t>& start) {
  for (std::uint32_t c = 0; c < m_.cores.size(); ++c) core_index_[m_.cores[c].core_id] = c;
  build_inbound();
  // Each core's events are built on their own (in parallel): what a core's
  // events wait for while they are built is its own events only. Sends into
  // other cores' tensors are recorded as remote writes and added once all
  // events are merged, where the fix-up below makes every compute wait for
  // every writer of what it reads whichever core built it first.
  plan_multicast(g, start);
  std::vector<CoreEvents> built(m_.cores.size());
  ir::parallel_for(m_.cores.size(), [&](std::size_t c) {
    build_core_events(static_cast<std::uint32_t>(c), start, g, built[c]);
  });
  // Read by the sends only: its memory goes back to the heap for the stages
  // below (fresh pages cost a fault each).
  std::vector<Buckets<Inbound>>().swap(inbound_);
  phase("lower/events");
  merge_events(built);
}

// Numbers the built events into events_ and ops_ and resolves what
// crosses cores.
void Lowerer::merge_events(std::vector<CoreEvents>& built) {
  // Numbering: core c's local event k becomes event base[c] + k, which is
  // the number a build of the cores one after another gives it.
  const std::size_t n = m_.cores.size();
  std::vector<std::uint32_t>& base = event_base_;
  base.assign(n + 1, 0);
  for (std::size_t c = 0; c < n; ++c)
    base[c + 1] = base[c] + static_cast<std::uint32_t>(built[c].events.size());
  events_.resize(n);
  ops_.resize(n);
  // Loads that re-read DRAM written by stores, per core: resolved below.
  std::vector<std::vector<std::uint32_t>> dram_readers(n);
  // Each core's sends into other cores' tensors (with global event ids) by
  // receiving core, added below by the receiving core's own pass.
  std::vector<Buckets<CoreEvents::RemoteWrite>> remote_writes(n);
  ir::parallel_for(n, [&](std::size_t c) {
    const std::uint32_t b = base[c];
    remote_writes[c] = bucket<CoreEvents::RemoteWrite>(n, [&](const auto& put) {
      for (const CoreEvents::RemoteWrite& w : built[c].remote_writes)
        put(w.core, CoreEvents::RemoteWrite{w.core, w.tensor, b + w.event});
    });
    std::vector<Event>& local = built[c].events;
    for (std::size_t k = 0; k < local.size(); ++k) {
      Event& e = local[k];
      for (std::uint32_t& d : e.deps) d += b;
      if (e.receiver_tensor != Event::kNoTensor) {
        // A send waits for the receiver's credit for the tensor it lands in
        // (every core's credits are built by now).
        const Event::Token& data = e.tokens.front();
        const auto& credits = built[data.to].credit_of;
        auto cr = credits.find(TransferKey{data.transfer, e.receiver_tensor});
        if (cr != credits.end()) e.deps.push_back(base[data.to] + cr->second);
      }
      if (e.dram_after != nullptr) dram_readers[c].push_back(b + static_cast<std::uint32_t>(k));
    }
    events_[c] = std::move(local);
    for (Tensor& x : tensors_[c]) {
      for (std::uint32_t& a : x.accesses) a += b;
      for (std::uint32_t& r : x.readers) r += b;
      for (std::uint32_t& w : x.writers) w += b;
    }
    ops_[c] = std::move(built[c].ops);
  });
  FlatMap<TransferId, std::uint32_t> store_of;  // DRAM in transfer -> its (last) store
  mc_events_.assign(static_cast<std::size_t>(mc_stats_.groups), {});
  for (std::size_t c = 0; c < n; ++c) {
    for (const auto& [id, group] : built[c].multicast) mc_events_[group].push_back(base[c] + id);
    for (auto& g : built[c].send_groups) {
      for (std::uint32_t& e : g) e += base[c];
      send_groups_.push_back(std::move(g));
    }
    for (std::string& e : built[c].errors) error(std::move(e));
    for (const auto& [transfer, id] : built[c].stores) store_of[transfer] = base[c] + id;
  }

  resolve_dram_reads(dram_readers, store_of);
  // Tensor writers recorded after their readers were built (sends from
  // other cores, in sending core order): the readers' data dependencies
  // must include them. A tensor's accesses are its own core's events, so
  // cores are independent.
  ir::parallel_for(n, [&](std::size_t c) {
    for (const Buckets<CoreEvents::RemoteWrite>& from : remote_writes)
      for (const CoreEvents::RemoteWrite& w : from.of(c))
        tensors_[c][w.tensor].writers.push_back(w.event);
    for (const Tensor& x : tensors_[c])
      for (std::uint32_t a : x.readers) {
        Event& e = event(static_cast<std::uint32_t>(c), a);
        for (std::uint32_t wr : x.writers)
          if (wr != a && std::find(e.deps.begin(), e.deps.end(), wr) == e.deps.end())
            e.deps.push_back(wr);
      }
  });
}

// DRAM re-reads, in event order: a load waits for the stores of what it
// re-reads, and a store on another core signals it.
void Lowerer::resolve_dram_reads(const std::vector<std::vector<std::uint32_t>>& dram_readers,
                                 const FlatMap<TransferId, std::uint32_t>& store_of) {
  const std::size_t n = dram_readers.size();
  for (std::uint32_t c = 0; c < n; ++c)
    for (std::uint32_t id : dram_readers[c]) {
      Event& e = event(c, id);
      for (TransferId r : *e.dram_after) {
        auto st = store_of.find(r);
        if (st == store_of.end()) continue;  // reported by the validator (X007)
        e.deps.push_back(st->second);
        Event& s = event(st->second);
        if (s.core != e.core) {
          const bool have =
              std::any_of(s.tokens.begin(), s.tokens.end(),
                          [&](const Event::Token& k) { return k.to == e.core && k.transfer == r; });
          if (!have) s.tokens.push_back({r, e.core, TokenKind::dram});
        }
      }
    }
}

}  // namespace gemini::assembler::lowering
