// V1 (verification.h). Contract: for one core, what each wait waits for
// (waits_for_): a wait_local the instruction of its queue that its count
// names, a wait_token the sending instruction of the count-th matching
// token sent to the core. A wait that cannot be satisfied -- no such
// queue, a count of 0, more than the queue holds or than are ever sent --
// is reported and waits for nothing.
#include "verification.h"

namespace gemini::assembler::verifier {
namespace {

// The tokens sent to one core, grouped by token, each group in program
// order (the order a wait counts them in), and where each group lies.
struct Received {
  static constexpr std::uint32_t kUnplaced = std::numeric_limits<std::uint32_t>::max();
  struct Run {
    std::uint32_t first = 0, count = 0;
    std::uint32_t next = kUnplaced;  // while grouping: where its next token goes
  };
  std::vector<Produced> tokens;
  boost::unordered_flat_map<TokenKey, Run, TokenKeyHash> runs;

  // The tokens of core r's bucket of every core's sends, taken sender by
  // sender, each sender's in its program order: so each token's sends come
  // in program order (they all come from one sender, or from cores sharing
  // its id, in core order). Grouped by a counting sort, which keeps that
  // order; groups lie in the order of their first token.
  Received(const std::vector<detail::Buckets<Produced>>& sent, std::size_t r) {
    std::size_t count = 0;
    for (const auto& from : sent) count += from.of(r).size();
    tokens.resize(count);
    runs.reserve(count);
    for (const auto& from : sent)
      for (const Produced& x : from.of(r)) ++runs[x.key].count;
    std::uint32_t at = 0;
    for (const auto& from : sent)
      for (const Produced& x : from.of(r)) {
        Run& g = runs.find(x.key)->second;
        if (g.next == kUnplaced) {
          g.first = g.next = at;
          at += g.count;
        }
        tokens[g.next++] = x;
      }
  }
  // The run of token `key`, in program order (empty if it is never sent here).
  std::span<const Produced> of(const TokenKey& key) const {
    auto it = runs.find(key);
    if (it == runs.end()) return {};
    return {tokens.data() + it->second.first, it->second.count};
  }
};

}  // namespace

void Verification::check_waits(std::size_t c) {
  // The tokens this core can wait for (those sent to the last core with
  // its id, which is where index sends them), grouped on the thread that
  // reads them, while they are in its cache.
  const Received tokens(sent_, index_.at(cores_[c]->core_id));
  for (std::size_t i = 0; i < cores_[c]->instrs.size(); ++i) {
    const Instr& in = cores_[c]->instrs[i];
    const std::size_t g = base_[c] + i;
    if (in.op == Opcode::wait_local) {
      const auto on = static_cast<std::size_t>(in.value(*sl_.wl_on));
      const auto cnt = static_cast<std::size_t>(in.value(*sl_.wl_count));
      if (on >= kEngines || cnt == 0) {
        found_.add(c, name(c, i) + ": waits on queue " + std::to_string(on) + " for " +
                          std::to_string(cnt) +
                          " instructions (no such queue, or nothing to wait for)");
        continue;
      }
      if (cnt > queues_[c][on].size()) {
        found_.add(c, name(c, i) + ": waits for " + std::to_string(cnt) +
                          " instructions of queue " +
                          std::string(to_string(static_cast<Engine>(on))) + ", which has only " +
                          std::to_string(queues_[c][on].size()));
        continue;
      }
      waits_for_[g] = {static_cast<std::uint32_t>(base_[c] + queues_[c][on][cnt - 1]),
                       static_cast<std::uint32_t>(c * kEngines + on)};
    } else if (in.op == Opcode::wait_token) {
      const std::span<const Produced> run =
          tokens.of({in.value(*sl_.wt_from),
                     transfer_kind(in.value(*sl_.wt_transfer), in.value(*sl_.wt_kind))});
      const auto cnt = static_cast<std::size_t>(in.value(*sl_.wt_count));
      const std::size_t have_n = run.size();
      if (cnt == 0 || cnt > have_n) {
        found_.add(c, name(c, i) + ": waits for " + std::to_string(cnt) + " token(s) of transfer " +
                          std::to_string(in.value(*sl_.wt_transfer)) + " from core " +
                          std::to_string(in.value(*sl_.wt_from)) + " but only " +
                          std::to_string(have_n) + " are ever sent to this core");
        continue;
      }
      const Produced& w = run[cnt - 1];
      waits_for_[g] = {w.instr, w.queue};
    }
  }
}

}  // namespace gemini::assembler::verifier
