// The verifier's driver and its first pass (verification.h). Contract of
// the pass: the global numbering of every instruction and its position in
// its queue, each core's queues, the tokens each core sends (bucketed by
// receiving core; a NoC multicast member's data token counted as produced
// by its group's last member), each core's multicast dma_ins, and V5 on
// one core's multicast members: a dma_in's members and part agree, and a
// NoC multicast group is whole, consecutive and consistent.
#include <algorithm>

#include "gemini/ir/parallel.h"
#include "verification.h"

namespace gemini::assembler::verifier {

SyncFields::SyncFields() {
  auto field = [](Opcode op, std::string_view f) { return field_slot(op, f).field; };
  send_to = field(Opcode::noc_send, "to");
  send_transfer = field(Opcode::noc_send, "transfer");
  sig_to = field(Opcode::signal, "to");
  sig_kind = field(Opcode::signal, "kind");
  sig_transfer = field(Opcode::signal, "transfer");
  wt_kind = field(Opcode::wait_token, "kind");
  wt_transfer = field(Opcode::wait_token, "transfer");
  wt_from = field(Opcode::wait_token, "from");
  wt_count = field(Opcode::wait_token, "count");
  wl_on = field(Opcode::wait_local, "on");
  wl_count = field(Opcode::wait_local, "count");
  di_transfer = field(Opcode::dma_in, "transfer");
  di_members = field(Opcode::dma_in, "members");
  di_part = field(Opcode::dma_in, "part");
  ns_members = field(Opcode::noc_send, "members");
  ns_part = field(Opcode::noc_send, "part");
  ns_src = field(Opcode::noc_send, "src");
  ns_bytes = field(Opcode::noc_send, "bytes");
}

std::vector<std::string> Verification::run() {
  std::vector<std::string> problems;
  if (!number()) {
    problems.push_back("the program has " + std::to_string(base_[n_]) +
                       " instructions; the verifier numbers them in 32 bits");
    return problems;
  }
  ir::parallel_for(n_, [&](std::size_t c) { scan(c); });
  check_multicast_groups();
  waits_for_.resize(base_[n_]);
  // Per core, V1 and then V3 and V4, which read only that core's part of
  // waits_for: one pass over the core while its instructions are in the
  // cache of the thread that checks it.
  ir::parallel_for(n_, [&](std::size_t c) {
    check_waits(c);
    check_accesses(c);
  });
  found_.drain_into(problems);
  check_deadlock(problems);
  hazards_found_.drain_into(problems);
  mc_found_.drain_into(problems);
  return problems;
}

// Core indices by id, and the global numbering; false when it does not fit
// in 32 bits.
bool Verification::number() {
  for (std::size_t c = 0; c < n_; ++c) index_[cores_[c]->core_id] = static_cast<std::uint32_t>(c);
  base_.assign(n_ + 1, 0);
  for (std::size_t c = 0; c < n_; ++c) base_[c + 1] = base_[c] + cores_[c]->instrs.size();
  if (base_[n_] >= std::numeric_limits<std::uint32_t>::max()) return false;
  qpos_.resize(base_[n_]);
  queues_.resize(n_);
  sent_.resize(n_);
  joins_.resize(n_);
  return true;
}

void Verification::scan(std::size_t c) {
  std::vector<std::pair<std::uint32_t, Produced>> sends;  // (receiving core, token)
  // V5 for NoC multicast: the noc_sends of the open group (local
  // numbers) and their entries in `sends`. A member's data token comes
  // when the last member is sent: its producer is the last member.
  std::vector<std::pair<std::size_t, std::size_t>> group;
  auto bad_group = [&](std::size_t i, const std::string& why) {
    mc_found_.add(c, "core " + std::to_string(cores_[c]->core_id) + " #" + std::to_string(i) +
                         " noc_send: " + why);
    group.clear();
  };
  const auto& ins = cores_[c]->instrs;
  std::array<std::size_t, kEngines> per_queue{};
  for (const Instr& in : ins) ++per_queue[static_cast<std::size_t>(in.queue)];
  for (std::size_t e = 0; e < kEngines; ++e) queues_[c][e].reserve(per_queue[e]);
  for (std::size_t i = 0; i < ins.size(); ++i) {
    const Instr& in = ins[i];
    auto& q = queues_[c][static_cast<std::size_t>(in.queue)];
    q.push_back(static_cast<std::uint32_t>(i));
    qpos_[base_[c] + i] = static_cast<std::uint32_t>(q.size());
    std::optional<std::uint32_t> r;
    std::uint64_t tk = 0;
    if (in.op == Opcode::dma_in) {
      const std::int64_t members = in.value(*sl_.di_members), part = in.value(*sl_.di_part);
      if (members == 1 || (members == 0 && part != 0))
        mc_found_.add(c, "core " + std::to_string(cores_[c]->core_id) + " #" + std::to_string(i) +
                             " dma_in: members=" + std::to_string(members) +
                             " part=" + std::to_string(part) +
                             " (a multicast has two or more members; part needs one)");
      else if (members >= 2)
        joins_[c].push_back(static_cast<std::uint32_t>(base_[c] + i));
    }
    if (in.op == Opcode::noc_send) {
      r = receiver(in.value(*sl_.send_to));
      tk = transfer_kind(in.value(*sl_.send_transfer), static_cast<std::int64_t>(TokenKind::data));
      const std::int64_t members = in.value(*sl_.ns_members), part = in.value(*sl_.ns_part);
      if (!group.empty() && part != static_cast<std::int64_t>(group.size()))
        bad_group(group.back().first, "its multicast group ends after " +
                                          std::to_string(group.size()) + " of " +
                                          std::to_string(members) + " members");
      if (members == 1 || (members == 0 && part != 0) || (members >= 2 && part >= members)) {
        bad_group(i, "members=" + std::to_string(members) + " part=" + std::to_string(part) +
                         " (a multicast has two or more members, parts 0 to members - 1)");
      } else if (members >= 2) {
        if (!group.empty()) {
          const Instr& f = ins[group.front().first];
          bool dup = false;
          for (const auto& [j, s] : group)
            dup |= ins[j].value(*sl_.send_to) == in.value(*sl_.send_to);
          if (f.value(*sl_.ns_members) != members ||
              f.value(*sl_.ns_src) != in.value(*sl_.ns_src) ||
              f.value(*sl_.ns_bytes) != in.value(*sl_.ns_bytes) ||
              f.value(*sl_.send_transfer) != in.value(*sl_.send_transfer) || dup)
            bad_group(i,
                      "a multicast member differs from its group's first (members, src, "
                      "bytes, transfer) or sends to a core twice");
        }
        if (part == static_cast<std::int64_t>(group.size()))
          group.push_back({i, r ? sends.size() : SIZE_MAX});
      }
    } else if (in.op == Opcode::signal) {
      r = receiver(in.value(*sl_.sig_to));
      tk = transfer_kind(in.value(*sl_.sig_transfer), in.value(*sl_.sig_kind));
    }
    if (r)
      sends.push_back({*r, Produced{{cores_[c]->core_id, tk},
                                    static_cast<std::uint32_t>(base_[c] + i),
                                    static_cast<std::uint32_t>(
                                        c * kEngines + static_cast<std::size_t>(in.queue))}});
    if (!group.empty() && group.back().first == i &&
        static_cast<std::int64_t>(group.size()) == in.value(*sl_.ns_members)) {
      for (const auto& [j, s] : group)
        if (s < sends.size()) sends[s].second.instr = static_cast<std::uint32_t>(base_[c] + i);
      group.clear();
    }
  }
  if (!group.empty())
    bad_group(group.back().first,
              "its multicast group ends after " + std::to_string(group.size()) + " members");
  sent_[c] = detail::bucket<Produced>(n_, [&](const auto& put) {
    for (const auto& [r, x] : sends) put(r, x);
  });
}

}  // namespace gemini::assembler::verifier
