// Cross-reference checks (X001-X012): every consumed transfer has exactly one
// producer that lists the consumer; every destination exists and consumes;
// DRAM in/out entries and their related_* lists agree with the workloads.
#include <algorithm>
#include <unordered_set>

#include "gemini/ir/graph.h"
#include "gemini/ir/validator.h"

namespace gemini::ir::checks {
namespace {

std::string who(std::int32_t core, std::int32_t wl) {
  return "core " + std::to_string(core) + " workload " + std::to_string(wl);
}

bool consumes(const Workload& w, TransferId t) {
  for (const Ifmap& f : w.ifmap)
    if (std::find(f.transfer_id.begin(), f.transfer_id.end(), t) != f.transfer_id.end())
      return true;
  return w.weight && std::find(w.weight->transfer_id.begin(), w.weight->transfer_id.end(), t) !=
                         w.weight->transfer_id.end();
}

bool lists(const std::vector<Endpoint>& dests, std::int32_t core, std::int32_t wl) {
  return std::any_of(dests.begin(), dests.end(), [&](const Endpoint& e) {
    return e.type == EndpointType::core && e.core_id == core && e.workload_id == wl;
  });
}

std::string producer_name(const TransferIndex& ix, const ProducerRef& p) {
  const Model& m = ix.model();
  if (p.from_dram) return "DRAM out entry " + m.pointer(m.dram_out[p.dram_index].origin);
  return who(m.cores[p.core_index].core_id, ix.workload(p).workload_id) + " (" +
         m.pointer(ix.ofmap(p).origin) + ")";
}

// Whether the tensor that carries `t` into core c's workload `wi` is
// resident since an earlier workload of the core that the producer lists
// loaded it: every snapshot from that one to this one holds the same
// tensor (the scheduler lists only the first consumer of a weight that
// stays in L2 across workloads).
bool resident(const Core& c, std::size_t wi, TransferId t, const std::vector<Endpoint>& dests) {
  auto holding = [&](const Workload& w, const BufferEntry* like) -> const BufferEntry* {
    for (const BufferEntry& b : w.buffer)
      if (like ? same_tensor_identity(b, *like)
               : std::find(b.transfer_id.begin(), b.transfer_id.end(), t) != b.transfer_id.end())
        return &b;
    return nullptr;
  };
  const BufferEntry* tensor = holding(c.workloads[wi], nullptr);
  if (!tensor) return false;
  for (std::size_t k = wi; k-- > 0;) {
    if (!holding(c.workloads[k], tensor)) return false;  // dropped in between
    if (lists(dests, c.core_id, c.workloads[k].workload_id)) return true;
  }
  return false;
}

// A workload consumes `t` (through its ifmap or weight): the transfer must have
// exactly one producer, and that producer must list this workload (or an
// earlier workload of the core whose tensor it still holds).
void check_consumed(const Model& m, const TransferIndex& ix, const Core& c, std::size_t wi,
                    TransferId t, const Origin& list, std::size_t pos, Diagnostics& d) {
  const Workload& w = c.workloads[wi];
  // The pointer is formatted only when something is reported.
  auto where = [&] { return m.pointer(list, "/transfer_id/" + std::to_string(pos)); };
  const auto* ps = ix.producers(t);
  if (!ps) {
    d.report(Check::no_producer, where(),
             "transfer " + std::to_string(t) + " consumed by " + who(c.core_id, w.workload_id) +
                 " has no producer (expected a DRAM out entry or an ofmap with this transfer_id)");
    return;
  }
  if (ps->size() != 1) return;  // reported once, at the producers
  const ProducerRef& p = ps->front();
  const std::vector<Endpoint>& dests =
      p.from_dram ? m.dram_out[p.dram_index].destination : ix.ofmap(p).destination;
  if (!lists(dests, c.core_id, w.workload_id) && !resident(c, wi, t, dests))
    d.report(Check::producer_omits_consumer, where(),
             "transfer " + std::to_string(t) + " is consumed by " + who(c.core_id, w.workload_id) +
                 " but its producer, " + producer_name(ix, p) +
                 ", does not list it among its destinations");
}

void check_destinations(const Model& m, const std::vector<Endpoint>& dests, TransferId t,
                        Diagnostics& d) {
  for (const Endpoint& e : dests) {
    if (e.type != EndpointType::core || e.core_id == kInvalidCore || !e.workload_id) continue;
    const Workload* w = m.find_workload(e.core_id, *e.workload_id);
    if (!w) {
      d.report(Check::destination_missing, m.pointer(e.origin),
               "destination " + who(e.core_id, *e.workload_id) + " does not exist");
    } else if (!consumes(*w, t)) {
      d.report(Check::destination_not_consumer, m.pointer(e.origin),
               "destination " + who(e.core_id, *e.workload_id) + " (" + w->layer_name +
                   ") does not consume transfer " + std::to_string(t) +
                   " (it is in neither its ifmap nor its weight transfer_id lists)");
    }
  }
}

// X002: one producer per transfer id.
void check_producers(const Model& m, const TransferIndex& ix, Diagnostics& d) {
  std::unordered_set<TransferId> reported;
  auto multi = [&](TransferId t, const Origin& o) {
    const auto* ps = ix.producers(t);
    if (!ps || ps->size() < 2 || !reported.insert(t).second) return;
    std::string all;
    for (const ProducerRef& p : *ps) all += (all.empty() ? "" : "; ") + producer_name(ix, p);
    d.report(Check::multiple_producers, m.pointer(o, "/transfer_id"),
             "transfer " + std::to_string(t) + " has " + std::to_string(ps->size()) +
                 " producers: " + all);
  };
  for (const DramOut& e : m.dram_out) multi(e.transfer_id, e.origin);
  for (const Core& c : m.cores)
    for (const Workload& w : c.workloads)
      for (const Ofmap& o : w.ofmap) multi(o.transfer_id, o.origin);
}

// A buffer entry's sources have the producer they claim; its transfer_id
// is the union of the sources' ids.
void check_buffer_entry(const Model& m, const TransferIndex& ix, const BufferEntry& b,
                        Diagnostics& d) {
  for (const Source& s : b.source) {
    const auto* ps = ix.producers(s.transfer_id);
    if (!ps) {
      d.report(Check::no_producer, m.pointer(s.origin, "/transfer_id"),
               "buffer source transfer " + std::to_string(s.transfer_id) + " has no producer");
      continue;
    }
    if (ps->size() != 1) continue;
    const ProducerRef& p = ps->front();
    if (s.type == EndpointType::dram && !p.from_dram) {
      d.report(Check::source_mismatch, m.pointer(s.origin, "/type"),
               "source says DRAM but transfer " + std::to_string(s.transfer_id) +
                   " is produced by " + producer_name(ix, p));
    } else if (s.type == EndpointType::core) {
      if (p.from_dram) {
        d.report(Check::source_mismatch, m.pointer(s.origin, "/type"),
                 "source says core " + std::to_string(s.core_id) + " but transfer " +
                     std::to_string(s.transfer_id) + " is produced by " + producer_name(ix, p));
      } else if (s.core_id != kInvalidCore && s.core_id != m.cores[p.core_index].core_id) {
        d.report(Check::source_mismatch, m.pointer(s.origin),
                 "source names core " + std::to_string(s.core_id) + " but transfer " +
                     std::to_string(s.transfer_id) + " is produced by " + producer_name(ix, p));
      }
    }
  }
  if (b.has_transfer_id && !b.source.empty()) {
    std::vector<TransferId> a = b.transfer_id, u;
    for (const Source& s : b.source) u.push_back(s.transfer_id);
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    std::sort(u.begin(), u.end());
    u.erase(std::unique(u.begin(), u.end()), u.end());
    if (a != u)
      d.report(Check::buffer_transfer_mismatch, m.pointer(b.origin, "/transfer_id"),
               "transfer_id lists " + std::to_string(a.size()) + " ids but the sources carry " +
                   std::to_string(u.size()) + " different ones; it must be their union");
  }
}

// DRAM in entries: each is an ofmap written back; related_ofmap names DRAM
// out entries; every DRAM destination has its entry, every related_ifmap
// names one.
void check_dram_entries(const Model& m, Diagnostics& d) {
  std::unordered_set<TransferId> out_ids, in_ids;
  for (const DramOut& e : m.dram_out) out_ids.insert(e.transfer_id);
  for (const DramIn& e : m.dram_in) in_ids.insert(e.transfer_id);
  for (const DramIn& e : m.dram_in) {
    for (std::size_t i = 0; i < e.related_ofmap.size(); ++i)
      if (!out_ids.count(e.related_ofmap[i]))
        d.report(
            Check::related_ofmap_dangling,
            m.pointer(e.origin, "/related_ofmap/" + std::to_string(i)),
            "related_ofmap " + std::to_string(e.related_ofmap[i]) + " names no DRAM out entry");
    if (e.core_id == kInvalidCore) continue;
    const Workload* w = m.find_workload(e.core_id, e.workload_id);
    if (!w) {
      d.report(Check::dram_in_unmatched, m.pointer(e.origin),
               "DRAM in entry names " + who(e.core_id, e.workload_id) + ", which does not exist");
      continue;
    }
    auto o = std::find_if(w->ofmap.begin(), w->ofmap.end(),
                          [&](const Ofmap& f) { return f.transfer_id == e.transfer_id; });
    if (o == w->ofmap.end()) {
      d.report(Check::dram_in_unmatched, m.pointer(e.origin, "/transfer_id"),
               who(e.core_id, e.workload_id) + " has no ofmap with transfer " +
                   std::to_string(e.transfer_id));
    } else if (std::none_of(o->destination.begin(), o->destination.end(),
                            [](const Endpoint& x) { return x.type == EndpointType::dram; })) {
      d.report(Check::dram_in_unmatched, m.pointer(e.origin, "/transfer_id"),
               "ofmap transfer " + std::to_string(e.transfer_id) + " of " +
                   who(e.core_id, e.workload_id) + " has no DRAM destination");
    }
  }
  for (const Core& c : m.cores)
    for (const Workload& w : c.workloads)
      for (const Ofmap& o : w.ofmap)
        for (const Endpoint& e : o.destination)
          if (e.type == EndpointType::dram && !in_ids.count(o.transfer_id))
            d.report(Check::dram_destination_unmatched, m.pointer(e.origin),
                     "ofmap transfer " + std::to_string(o.transfer_id) + " of " +
                         who(c.core_id, w.workload_id) +
                         " goes to DRAM but no DRAM in entry records it");
  for (const DramOut& e : m.dram_out)
    for (std::size_t i = 0; i < e.related_ifmap.size(); ++i)
      if (!in_ids.count(e.related_ifmap[i]))
        d.report(Check::related_ifmap_dangling,
                 m.pointer(e.origin, "/related_ifmap/" + std::to_string(i)),
                 "related_ifmap " + std::to_string(e.related_ifmap[i]) + " names no DRAM in entry");
}

}  // namespace

void cross_references(const Model& m, const TransferIndex& ix, Diagnostics& d) {
  check_producers(m, ix, d);
  // Consumers: workload ifmaps and weights.
  for (const Core& c : m.cores) {
    for (std::size_t wi = 0; wi < c.workloads.size(); ++wi) {
      const Workload& w = c.workloads[wi];
      for (const Ifmap& f : w.ifmap)
        for (std::size_t i = 0; i < f.transfer_id.size(); ++i)
          check_consumed(m, ix, c, wi, f.transfer_id[i], f.origin, i, d);
      if (w.weight)
        for (std::size_t i = 0; i < w.weight->transfer_id.size(); ++i)
          check_consumed(m, ix, c, wi, w.weight->transfer_id[i], w.weight->origin, i, d);
    }
  }

  // Destinations exist and consume.
  for (const DramOut& e : m.dram_out) check_destinations(m, e.destination, e.transfer_id, d);
  for (const Core& c : m.cores)
    for (const Workload& w : c.workloads)
      for (const Ofmap& o : w.ofmap) check_destinations(m, o.destination, o.transfer_id, d);

  // Buffer entries.
  for (const Core& c : m.cores)
    for (const Workload& w : c.workloads)
      for (const BufferEntry& b : w.buffer) check_buffer_entry(m, ix, b, d);
  check_dram_entries(m, d);
}

}  // namespace gemini::ir::checks
