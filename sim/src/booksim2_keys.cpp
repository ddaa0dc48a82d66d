// BookSim 2's keys as gemini treats them (booksim2_keys.h). Ranges: what
// BookSim's code can run with (its source, 28f4329): a speedup or buffer of
// 0 divides by zero or never sends, a negative delay schedules in the past;
// the upper ends keep its per-port arrays small.
#include "booksim2_keys.h"

#include <algorithm>

namespace gemini::sim {
namespace {

using Role = Booksim2Key::Role;
constexpr std::int64_t kBig = 1 << 20;

Booksim2Key pass_int(const char* key, std::int64_t lo, std::int64_t hi, const char* fallback,
                     const char* about, bool minus_one = false) {
  return {key, Role::pass, 'i', lo, hi, minus_one, "", fallback, about, nullptr};
}
Booksim2Key flag(const char* key, const char* fallback, const char* about) {
  return pass_int(key, 0, 1, fallback, about);
}
Booksim2Key pass_choice(const char* key, const char* choices, const char* fallback,
                        const char* about) {
  return {key, Role::pass, 's', 0, 0, false, choices, fallback, about, nullptr};
}
Booksim2Key ours(const char* key, char kind, const char* about, Booksim2Key::Writer write) {
  return {key, Role::written, kind, 0, 0, false, "", "", about, write};
}
std::string integer(std::int64_t v) { return std::to_string(v); }

using P = const Booksim2Params&;
using S = const Booksim2Setup&;

// The keys gemini writes, in the order it writes them.
std::vector<Booksim2Key> written_keys() {
  return {
      ours("topology", 's', "the mesh gemini lays out", [](P, S) -> std::string { return "mesh"; }),
      ours("k", 'i', "the mesh gemini lays out", [](P, S s) { return integer(s.k); }),
      ours("n", 'i', "the mesh gemini lays out", [](P, S) { return integer(2); }),
      ours("routing_function", 's', "the mesh's XY routes (dor)",
           [](P, S) -> std::string { return "dor"; }),
      ours("router", 's', "BookSim's input-queued router (iq)",
           [](P, S) -> std::string { return "iq"; }),
      ours("use_noc_latency", 'i', "the network gemini drives", [](P, S) { return integer(1); }),
      ours("classes", 'i', "the network gemini drives", [](P, S) { return integer(1); }),
      ours("subnets", 'i', "the network gemini drives", [](P, S) { return integer(1); }),
      ours("num_vcs", 'i', "noc.num_vcs", [](P p, S) { return integer(p.num_vcs); }),
      ours("vc_buf_size", 'i', "noc.buffer_packets (noc.deep_packets when 0)",
           [](P, S s) { return integer(s.vc_buf_size); }),
      ours("routing_delay", 'i', "noc.routing_delay (derived from noc.router_cycles)",
           [](P, S s) { return integer(s.routing_delay); }),
      ours("speculative", 'i', "noc.speculative", [](P p, S) { return integer(p.speculative); }),
      ours("vc_alloc_delay", 'i', "noc.vc_alloc_delay",
           [](P p, S) { return integer(p.vc_alloc_delay); }),
      ours("sw_alloc_delay", 'i', "noc.sw_alloc_delay",
           [](P p, S) { return integer(p.sw_alloc_delay); }),
      ours("st_prepare_delay", 'i', "noc.st_prepare_delay",
           [](P p, S) { return integer(p.st_prepare_delay); }),
      ours("st_final_delay", 'i', "noc.st_final_delay",
           [](P p, S) { return integer(p.st_final_delay); }),
      ours("credit_delay", 'i', "noc.credit_delay", [](P p, S) { return integer(p.credit_delay); }),
      ours("input_speedup", 'i', "noc.input_speedup",
           [](P p, S) { return integer(p.input_speedup); }),
      ours("output_speedup", 'i', "noc.output_speedup",
           [](P p, S) { return integer(p.output_speedup); }),
      ours("internal_speedup", 'f', "noc.internal_speedup",
           [](P p, S) { return booksim2_number(p.internal_speedup); }),
      ours("vc_allocator", 's', "noc.vc_allocator", [](P p, S) { return p.vc_allocator; }),
      ours("sw_allocator", 's', "noc.sw_allocator", [](P p, S) { return p.sw_allocator; }),
      ours("alloc_iters", 'i', "noc.alloc_iters", [](P p, S) { return integer(p.alloc_iters); }),
      ours("arb_type", 's', "noc.arb_type", [](P p, S) { return p.arb_type; }),
      ours("seed", 'i', "noc.seed", [](P p, S) { return integer(p.seed); }),
  };
}

std::vector<Booksim2Key> make_table() {
  std::vector<Booksim2Key> t = written_keys();
  const std::vector<Booksim2Key> passed = {
      // The router (iq_router.cpp).
      pass_int("output_buffer_size", 1, 1 << 16, "-1",
               "flits each router output queue holds (-1: unbounded)", true),
      flag("hold_switch_for_packet", "0",
           "a packet keeps its crossbar connection until its tail has passed"),
      flag("noq", "0",
           "next-hop output queueing (needs lookahead routing and num_vcs of at least 5)"),
      flag("spec_check_elig", "1",
           "speculative switch requests only from inputs eligible for VC allocation"),
      flag("spec_check_cred", "1",
           "speculative switch requests only with a credit available downstream"),
      flag("spec_mask_by_reqs", "0", "speculative requests masked by non-speculative ones"),
      pass_choice("spec_sw_allocator",
                  "prio, separable_input_first, separable_output_first, islip, pim, loa, "
                  "wavefront, rr_wavefront, max_size, select",
                  "prio", "the speculative switch allocator (prio: behind the non-speculative one)"),
      // VC allocation.
      flag("vc_busy_when_full", "0", "a VC without credits counts as busy in VC allocation"),
      flag("vc_prioritize_empty", "0", "empty VCs preferred in VC allocation"),
      flag("vc_shuffle_requests", "0", "VC allocation requests reordered against unfairness"),
      flag("wait_for_tail_credit", "0", "a VC is reallocated only once its tail's credit is back"),
      // Input buffers (buffer_state.cpp).
      pass_choice("buffer_policy",
                  "private, shared, limited, dynamic, shifting, feedback, simplefeedback",
                  "private", "how an input port's VCs share its buffer"),
      pass_int("buf_size", 1, kBig,
               "-1", "flits of an input port's buffer, shared by its VCs (-1: vc_buf_size each)",
               true),
      pass_int("private_bufs", 0, 64, "-1", "shared policies: private buffers (-1: one per VC)",
               true),
      pass_int("private_buf_size", 0, kBig, "1",
               "shared policies: flits of each private buffer (-1: an equal share)", true),
      pass_int("private_buf_start_vc", 0, 63, "-1",
               "shared policies: the first VC of a private buffer (-1: spread evenly)", true),
      pass_int("private_buf_end_vc", 0, 63, "-1",
               "shared policies: the last VC of a private buffer (-1: spread evenly)", true),
      pass_int("max_held_slots", 1, kBig, "-1",
               "limited policies: slots one VC may hold (-1: the whole buffer)", true),
      pass_int("feedback_aging_scale", 1, kBig, "1", "feedback policies: their aging scale"),
      pass_int("feedback_offset", 0, kBig, "0", "feedback policies: their offset"),
  };
  t.insert(t.end(), passed.begin(), passed.end());
  return t;
}

std::vector<std::string> split(const char* list) {
  std::vector<std::string> out;
  std::string s = list;
  for (std::size_t at = 0; at <= s.size();) {
    const std::size_t comma = std::min(s.find(',', at), s.size());
    std::string w = s.substr(at, comma - at);
    while (!w.empty() && w.front() == ' ') w.erase(w.begin());
    if (!w.empty()) out.push_back(w);
    at = comma + 1;
  }
  return out;
}

std::string passed_keys() {
  std::string out;
  for (const Booksim2Key& k : booksim2_keys())
    if (k.role == Role::pass) out += (out.empty() ? "" : ", ") + std::string(k.key);
  return out;
}

}  // namespace

const std::vector<Booksim2Key>& booksim2_keys() {
  static const std::vector<Booksim2Key> table = make_table();
  return table;
}

const Booksim2Key* booksim2_key(std::string_view key) {
  for (const Booksim2Key& k : booksim2_keys())
    if (key == k.key) return &k;
  return nullptr;
}

std::vector<Booksim2Params::Extra> read_booksim2_keys(
    ParamReader& extra, std::int32_t num_vcs,
    const std::function<bool(const std::string&)>& booksim_knows) {
  std::vector<Booksim2Params::Extra> out;
  // Keys the table does not pass, refused by name: gemini's own, naming what
  // sets them instead.
  for (const std::string& key : extra.keys()) {
    const Booksim2Key* k = booksim2_key(key);
    if (k && k->role == Role::pass) continue;
    if (k) {
      extra.fail(key, "set by gemini, not noc.booksim: " + std::string(k->about));
    } else if (booksim_knows && booksim_knows(key)) {
      extra.fail(key, "BookSim 2's key \"" + key +
                          "\" has no effect on the network gemini drives (its traffic manager, "
                          "other topologies and routers, power model or VC classes) or is not "
                          "passed through; noc.booksim takes: " + passed_keys());
    } else {
      extra.fail(key, "BookSim 2 has no key \"" + key + "\" that noc.booksim takes (it takes: " +
                          passed_keys() + ")");
    }
  }
  // Every passed key, declared as what it is; those given, checked.
  for (const Booksim2Key& k : booksim2_keys()) {
    if (k.role != Role::pass) continue;
    const bool given = extra.peek(k.key) != nullptr;
    const std::size_t errors = extra.error_count();
    Booksim2Params::Extra e{k.key, "", k.kind};
    const std::string about = std::string(k.about) + " (BookSim's " + k.fallback + " without it)";
    if (k.kind == 'i') {
      auto p = extra.param<std::int64_t>(k.key)
                   .unit(Unit::booksim_units)
                   .range(k.lo, k.hi)
                   .describe(about);
      if (k.minus_one) p.or_value(-1);
      e.value = std::to_string(p.fallback(std::stoll(k.fallback)).get());
    } else if (k.kind == 'f') {
      e.value = booksim2_number(extra.param<double>(k.key)
                                    .unit(Unit::booksim_units)
                                    .range(static_cast<double>(k.lo), static_cast<double>(k.hi))
                                    .fallback(std::stod(k.fallback))
                                    .describe(about)
                                    .get());
    } else {
      e.value = extra.param<std::string>(k.key)
                    .choices(split(k.choices))
                    .fallback(k.fallback)
                    .describe(about)
                    .get();
    }
    if (given && extra.error_count() == errors) out.push_back(std::move(e));
  }
  // What BookSim assumes of them together (it would stop on an assertion).
  for (const Booksim2Params::Extra& e : out) {
    if (e.key == "buf_size" && std::stoll(e.value) > 0 && std::stoll(e.value) < num_vcs)
      extra.fail("buf_size", "must hold a flit per VC: at least num_vcs (" +
                                 std::to_string(num_vcs) + ") or -1, got " + e.value);
    if (e.key == "noq" && e.value == "1" && num_vcs < 5)
      extra.fail("noq", "needs a VC per router output: num_vcs of at least 5, got " +
                            std::to_string(num_vcs));
  }
  return out;
}

}  // namespace gemini::sim
