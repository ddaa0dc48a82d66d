// What each NoC message waited for (noc_module.h: MsgWait, dram_waited):
// the owner of its packets, its link waits as the mesh reports them per
// packet, and its DRAM port waits as the ports report them per request;
// read by the critical path through CoreModule::note_wait (OpWait).
#include <algorithm>

#include "noc_module.h"

namespace gemini::sim {

std::uint64_t NocModule::owner_of(const Message& m) const {
  switch (m.kind) {
    case Kind::data:
      return op_ref(m.sender, m.op);
    case Kind::multicast_data:
      return op_ref(m.sender, m.receivers.empty() ? 0 : m.receivers[0].op);
    case Kind::read_data:
      return m.receivers.empty() ? kNoRef : op_ref(m.receivers[0].core, m.receivers[0].op);
    case Kind::token:
      return m.from;
    default:
      return op_ref(m.core, m.op);
  }
}

void NocModule::dram_waited(std::uint32_t id, Tick waited, std::uint64_t before) {
  const Message& m = msgs_[id];
  OpWait w;
  w.port = waited;
  w.port_owner = before;
  if (m.kind == Kind::read_data)
    forks_[m.fork].wait.merge(w);
  else if (m.kind == Kind::write_data)
    msg_waits_[id].wait.merge(w);
}

}  // namespace gemini::sim
