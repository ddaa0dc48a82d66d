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
                     const char* about, bool minus_one = false, bool written = false) {
  return {key, Role::pass, 'i', lo, hi, minus_one, "", fallback, written, about};
}
Booksim2Key flag(const char* key, const char* fallback, const char* about) {
  return pass_int(key, 0, 1, fallback, about);
}
Booksim2Key ours(const char* key, const char* about) {
  return {key, Role::gemini, 's', 0, 0, false, "", "", false, about};
}

std::vector<Booksim2Key> make_table() {
  std::vector<Booksim2Key> t = {
      // The router's pipeline and crossbar (iq_router.cpp).
      pass_int("credit_delay", 0, 1024, "0",
               "cycles a router holds a credit before sending it upstream", false, true),
      pass_int("st_prepare_delay", 0, 1024, "0", "the switch traversal's preparation stage",
               false, true),
      pass_int("input_speedup", 1, 16, "1", "crossbar inputs per router input port", false, true),
      pass_int("output_speedup", 1, 16, "1", "crossbar outputs per router output port", false,
               true),
      {"internal_speedup", Role::pass, 'f', 1, 16, false, "", "1.0", true,
       "router cycles per channel cycle"},
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
      {"spec_sw_allocator", Role::pass, 's', 0, 0, false,
       "prio, separable_input_first, separable_output_first, islip, pim, loa, wavefront, "
       "rr_wavefront, max_size, select",
       "prio", false, "the speculative switch allocator (prio: behind the non-speculative one)"},
      // VC allocation.
      flag("vc_busy_when_full", "0", "a VC without credits counts as busy in VC allocation"),
      flag("vc_prioritize_empty", "0", "empty VCs preferred in VC allocation"),
      flag("vc_shuffle_requests", "0", "VC allocation requests reordered against unfairness"),
      flag("wait_for_tail_credit", "0", "a VC is reallocated only once its tail's credit is back"),
      // Input buffers (buffer_state.cpp).
      {"buffer_policy", Role::pass, 's', 0, 0, false,
       "private, shared, limited, dynamic, shifting, feedback, simplefeedback", "private", false,
       "how an input port's VCs share its buffer"},
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
  const std::vector<Booksim2Key> gemini = {
      ours("topology", "the mesh gemini lays out"),
      ours("k", "the mesh gemini lays out"),
      ours("n", "the mesh gemini lays out"),
      ours("routing_function", "the mesh's XY routes (dor)"),
      ours("router", "BookSim's input-queued router (iq)"),
      ours("use_noc_latency", "the network gemini drives"),
      ours("classes", "the network gemini drives"),
      ours("subnets", "the network gemini drives"),
      ours("num_vcs", "noc.num_vcs"),
      ours("vc_buf_size", "noc.buffer_packets (noc.deep_packets when 0)"),
      ours("routing_delay", "noc.routing_delay (derived from noc.router_cycles)"),
      ours("speculative", "noc.speculative"),
      ours("vc_alloc_delay", "noc.vc_alloc_delay"),
      ours("sw_alloc_delay", "noc.sw_alloc_delay"),
      ours("st_final_delay", "noc.st_final_delay"),
      ours("vc_allocator", "noc.vc_allocator"),
      ours("sw_allocator", "noc.sw_allocator"),
      ours("alloc_iters", "noc.alloc_iters"),
      ours("arb_type", "noc.arb_type"),
      ours("seed", "noc.seed"),
  };
  t.insert(t.end(), gemini.begin(), gemini.end());
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
  // Keys the table does not pass, refused by name.
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
    const std::string about = std::string(k.about) + (k.written ? " (gemini writes " : " (BookSim's ") +
                              k.fallback + " without it)";
    if (k.kind == 'i') {
      auto p = extra.param<std::int64_t>(k.key).range(k.lo, k.hi).describe(about);
      if (k.minus_one) p.or_value(-1);
      e.value = std::to_string(p.fallback(std::stoll(k.fallback)).get());
    } else if (k.kind == 'f') {
      e.value = booksim2_number(extra.param<double>(k.key)
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
