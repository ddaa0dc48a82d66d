// The NoC module's accounting (noc_module.h): the energy events of each
// message, counted for the instructions that caused them (count_shared,
// count_owner, count_hops), and what each message waited for (MsgWait,
// dram_waited): the owner of its packets, its link waits as the NoC model
// reports them per packet, and its DRAM port waits as the ports report
// them per request; read by the critical path through
// CoreModule::note_wait (OpWait).
#include <algorithm>

#include "noc_module.h"
#include "power_recorder.h"

namespace gemini::sim {

OpRef NocModule::owner_of(const Message& m) const {
  switch (m.kind) {
    case Kind::data:
      return {m.sender, m.op};
    case Kind::multicast_data:
      return {m.sender, m.receivers.empty() ? 0 : m.receivers[0].op};
    case Kind::read_data:
      return m.receivers.empty() ? kNoRef : OpRef{m.receivers[0].core, m.receivers[0].op};
    case Kind::token:
      return m.from;
    default:
      return {m.core, m.op};
  }
}

void NocModule::dram_waited(RequestTag tag, Tick waited, OpRef before) {
  const std::uint32_t id = tag.msg;
  const Message& m = msgs_[id];
  OpWait w;
  w.port = waited;
  w.port_owner = before;
  if (m.kind == Kind::read_data)
    forks_[m.fork].wait.merge(w);
  else if (m.kind == Kind::write_data)
    msg_waits_[id].wait.merge(w);
}

void NocModule::count_shared(const std::vector<Member>& members, Event e, std::int64_t n) {
  const auto k = static_cast<std::int64_t>(members.size());
  for (std::int64_t i = 0; i < k; ++i) {
    const Member& m = members[static_cast<std::size_t>(i)];
    const std::int64_t share = n / k + (i < n % k ? 1 : 0);
    if (share > 0) cores_[static_cast<std::size_t>(m.core)]->count(m.op, e, share);
  }
}

void NocModule::power_dram(const Message& m, std::int64_t done, Tick t) {
  if (m.kind != Kind::read_data) {  // a write: `done` bytes of one packet
    ctx_.power->add(static_cast<std::size_t>(m.core), Event::dram_byte, done, t, t);
    return;
  }
  // A read: `done` bytes so far; the new ones, shared as count_shared
  // shares the request's.
  const std::int64_t n = done - (m.ready.empty() ? 0 : m.ready.back().first);
  const auto k = static_cast<std::int64_t>(m.receivers.size());
  for (std::int64_t i = 0; i < k && n > 0; ++i) {
    const std::int64_t share = n / k + (i < n % k ? 1 : 0);
    if (share > 0)
      ctx_.power->add(static_cast<std::size_t>(m.receivers[static_cast<std::size_t>(i)].core),
                      Event::dram_byte, share, t, t);
  }
}

void NocModule::count_hops(const Message& m, std::int64_t bytes, std::int32_t links,
                           std::int32_t d2d_links) {
  if (links > d2d_links) count_owner(m, Event::noc_byte_hop, bytes * (links - d2d_links));
  if (d2d_links > 0) count_owner(m, Event::d2d_byte_hop, bytes * d2d_links);
}

void NocModule::count_owner(const Message& m, Event e, std::int64_t n) {
  switch (m.kind) {
    case Kind::data:
      cores_[static_cast<std::size_t>(m.sender)]->count(m.op, e, n);
      break;
    case Kind::token:
      if (!m.from.none()) cores_[static_cast<std::size_t>(m.from.core)]->count(m.from.op, e, n);
      break;
    case Kind::multicast_data: {
      // The members are the sender's noc_sends.
      const auto k = static_cast<std::int64_t>(m.receivers.size());
      for (std::int64_t i = 0; i < k; ++i) {
        const std::int64_t share = n / k + (i < n % k ? 1 : 0);
        if (share > 0)
          cores_[static_cast<std::size_t>(m.sender)]->count(
              m.receivers[static_cast<std::size_t>(i)].op, e, share);
      }
      break;
    }
    case Kind::read_data:
      count_shared(m.receivers, e, n);
      break;
    case Kind::read_request:
    case Kind::write_data:
    case Kind::write_ack:
    case Kind::multicast_request:
      cores_[static_cast<std::size_t>(m.core)]->count(m.op, e, n);
      break;
  }
}
}  // namespace gemini::sim
