// The BookSim 2 driver (booksim2_network.h). The one file that includes
// BookSim's headers: they put `using namespace std` in the global namespace.
#include "booksim2_network.h"

#include "child_probe.h"
#include "gemini/sim/model_stall.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdio>
#include <deque>
#include <iostream>
#include <sstream>
#include <vector>

#include "booksim.hpp"
#include "booksim_config.hpp"
#include "buffer_state.hpp"
#include "credit.hpp"
#include "flit.hpp"
#include "network.hpp"
#include "random_utils.hpp"
#include "routefunc.hpp"

// ---------------------------------------------------------------------------
// What BookSim's main.cpp defines, which its classes read: the clock, the
// statistics lookup (used only by its traffic managers, not built here) and
// its globals. One network per process at a time, so one clock.
namespace {
int g_booksim_cycle = 0;
}  // namespace
int GetSimTime() { return g_booksim_cycle; }
class Stats;
Stats* GetStats(const std::string& /*name*/) { return nullptr; }
bool gPrintActivity = false;
int gK = 0;
int gN = 0;
int gC = 0;
int gNodes = 0;
bool gTrace = false;
std::ostream* gWatchOut = nullptr;

namespace gemini::sim {

namespace {

std::atomic<bool> g_live{false};  // a network exists in this process

// BookSim's flits and credits come from pools of its own (Flit::New,
// Credit::New: every object it ever made stays in a static list, reused
// once freed). They outlive each network -- a network destroyed with flits
// in flight (a run stopped early) leaves them in the pool -- and the pool
// is emptied once, when the process ends: this object, made when the first
// network is, is destroyed before BookSim's static lists are (statics end
// in the reverse order of their making), so nothing BookSim allocated is
// left unreachable at exit. (Freeing them between networks is not possible:
// BookSim's lists of free objects would keep pointers to them.)
struct PoolRelease {
  ~PoolRelease() {
    Flit::FreeAll();
    Credit::FreeAll();
  }
};

// Applies `keys` to `config`, each only where BookSim declares it (BookSim
// stops its process on an unknown key); false with `error` otherwise.
bool apply(BookSimConfig& config, const std::vector<Booksim2Params::Extra>& keys,
           std::string& error) {
  for (const Booksim2Params::Extra& k : keys) {
    const bool is_int = config.GetIntMap().count(k.key) != 0;
    const bool is_float = config.GetFloatMap().count(k.key) != 0;
    const bool is_str = config.GetStrMap().count(k.key) != 0;
    if (k.kind == 'i' && is_int) {
      config.Assign(k.key, static_cast<int>(std::stoll(k.value)));
    } else if ((k.kind == 'f' || k.kind == 'i') && is_float) {
      config.Assign(k.key, std::stod(k.value));
    } else if (k.kind == 's' && is_str) {
      config.Assign(k.key, k.value);
    } else {
      error = "BookSim 2 has no " +
              std::string(k.kind == 's' ? "string" : "numeric") + " key \"" + k.key + "\"";
      return false;
    }
  }
  return true;
}

}  // namespace

struct Booksim2Network::Impl {
  struct Packet {
    std::uint32_t id = 0;
    std::int32_t dst = 0, flits = 0, sent = 0, vc = -1;
    std::int64_t ready = 0;
  };
  struct Node {
    std::deque<Packet> queue;
    BufferState* inject = nullptr;  // the router's input buffer behind the injection channel
    std::int32_t last_vc = -1;
    double eject_cpf = 1;                             // cycles per flit taken off
    std::int64_t sent_in_flight = 0;                  // its flits in the network
    double drained = 0;                               // when its last flit has drained
    std::deque<std::pair<std::int64_t, int>> owed;    // credits: (due cycle, vc)
  };

  BookSimConfig config;
  Network* net = nullptr;
  tRoutingFunction rf = nullptr;
  bool lookahead = true;
  std::int32_t vcs = 1;
  std::vector<Node> nodes;
  std::vector<Flit*> ejected;  // read(): per node, the flit taken off this cycle
  std::int64_t cycle = 0;
  std::int64_t in_flight = 0;     // flits written and not yet taken off
  std::int64_t queued = 0;        // packets queued
  std::int64_t owed = 0;          // credits owed to ejection channels
  int credits_before = 0;         // Credit::OutStanding() when built (earlier networks' leftovers)
  int flit_id = 0;
  // The watchdog (booksim2_network.h): cycles of one hop at most, the
  // slowest node's cycles per flit, and since when no flit has moved.
  std::int64_t hop_bound = 0;
  double max_eject_cpf = 1;
  StallWatch watch;
  bool moved = false;                   // a flit entered or left this cycle
  std::vector<std::string> culprits;    // "key = value" of the keys involved

  ~Impl() {
    for (Node& n : nodes) delete n.inject;
    delete net;
  }
};

namespace {

// No flit entering or leaving the network for longer than this is
// impossible in a sound configuration: every hop of the longest route
// (2k + 2 hops, the ejection included) many times over, and the slowest
// node's time to take one flit off. BookSim's routes are deadlock-free
// (dimension order), so a sound network moves a flit at least that often
// while any is in it.
void set_stall_bound(Booksim2Network::Impl& m) {
  const std::int64_t k = gK > 0 ? gK : 1;
  m.watch.set_bound(1000 + 64 * ((2 * k + 2) * m.hop_bound +
                                 static_cast<std::int64_t>(std::ceil(m.max_eject_cpf))));
}

// Builds `impl`'s network from `s`: false with `error` when a key does not
// apply. BookSim's own checks of values stop the process (the probe,
// below, runs them in a child).
bool build(Booksim2Network::Impl& m, const Booksim2Setup& s, std::string& error) {
  if (!apply(m.config, s.keys, error)) return false;
  g_booksim_cycle = 0;
  RandomSeed(m.config.GetInt("seed"));
  InitializeRoutingMap(m.config);
  m.net = Network::New(m.config, "booksim2");
  if (!m.net) {
    error = "BookSim 2 built no network";
    return false;
  }
  m.rf = gRoutingFunctionMap[m.config.GetStr("routing_function") + "_" +
                             m.config.GetStr("topology")];
  m.lookahead = m.config.GetInt("routing_delay") == 0;
  m.vcs = m.config.GetInt("num_vcs");
  const int nodes = m.net->NumNodes();
  m.nodes.resize(static_cast<std::size_t>(nodes));
  m.ejected.assign(static_cast<std::size_t>(nodes), nullptr);
  for (int n = 0; n < nodes; ++n)
    m.nodes[static_cast<std::size_t>(n)].inject =
        new BufferState(m.config, m.net, "inject_buffer_" + std::to_string(n));
  // The D2D links' channels (both ways: the credits return over them).
  if (s.d2d_cycles > 0) {
    const std::vector<FlitChannel*>& chans = m.net->GetChannels();
    const std::vector<CreditChannel*>& creds = m.net->GetChannelsCred();
    for (const auto& [node, dir] : s.d2d_channels) {
      const auto c = static_cast<std::size_t>(4 * node + dir);
      chans[c]->SetLatency(1 + s.d2d_cycles);
      creds[c]->SetLatency(1 + s.d2d_cycles);
    }
  }
  m.credits_before = Credit::OutStanding();
  // The longest a flit of a sound network takes over one hop: its router's
  // stages, the channel (a D2D one is longer) and the credit's way back.
  const BookSimConfig& c = m.config;
  m.hop_bound = 4 + c.GetInt("routing_delay") + c.GetInt("vc_alloc_delay") +
                c.GetInt("sw_alloc_delay") + c.GetInt("st_prepare_delay") +
                c.GetInt("st_final_delay") + c.GetInt("credit_delay") + 2 * s.d2d_cycles;
  for (const char* k : {"num_vcs", "vc_buf_size"})
    m.culprits.push_back(std::string(k) + " = " + std::to_string(c.GetInt(k)));
  for (std::size_t i = s.own_keys; i < s.keys.size(); ++i)
    m.culprits.push_back(s.keys[i].key + " = " + s.keys[i].value);
  set_stall_bound(m);
  return true;
}

// BookSim stops its process on a value it rejects (Module::Error: exit(-1),
// or an assertion). A configuration with keys beyond gemini's own is
// therefore first built, and run for a few cycles, in a child process; its
// output is the error when it does not come back.
bool probe(const Booksim2Setup& s, std::string& error) {
  const ChildResult r = run_in_child([&s] {
    Booksim2Network::Impl m;
    std::string e;
    if (!build(m, s, e)) {
      std::printf("%s\n", e.c_str());
      return 2;
    }
    for (int c = 0; c < 64; ++c) {
      g_booksim_cycle = c;
      m.net->ReadInputs();
      m.net->Evaluate();
      m.net->WriteOutputs();
    }
    return 0;
  });
  if (r.ok) return true;
  error = child_refusal("BookSim 2", r);
  return false;
}

}  // namespace

char Booksim2Network::key_kind(const std::string& key, bool number) {
  BookSimConfig c;  // its defaults: every key BookSim declares
  if (number) {
    if (c.GetIntMap().count(key)) return 'i';
    if (c.GetFloatMap().count(key)) return 'f';
  } else if (c.GetStrMap().count(key)) {
    return 's';
  }
  return 0;
}

std::unique_ptr<Booksim2Network> Booksim2Network::create(const Booksim2Setup& s,
                                                         std::string& error) {
  static PoolRelease release_at_exit;
  bool expected = false;
  if (!g_live.compare_exchange_strong(expected, true)) {
    error = "noc.model \"booksim2\": BookSim 2 keeps its configuration, routing tables and clock "
            "in globals, so one network can exist in a process at a time, and one already does";
    return nullptr;
  }
  // The probe: only for keys beyond those booksim2_config() writes itself.
  auto impl = std::make_unique<Impl>();
  if (s.keys.size() > s.own_keys && !probe(s, error)) {
    g_live = false;
    return nullptr;
  }
  if (!build(*impl, s, error)) {
    impl.reset();
    g_live = false;
    return nullptr;
  }
  return std::unique_ptr<Booksim2Network>(new Booksim2Network(std::move(impl)));
}

Booksim2Network::Booksim2Network(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Booksim2Network::~Booksim2Network() {
  impl_.reset();
  g_live = false;
}

std::int64_t Booksim2Network::clock_limit() { return INT_MAX - 1; }

void Booksim2Network::enqueue(std::uint32_t id, std::int32_t src, std::int32_t dst,
                              std::int32_t flits, std::int64_t ready) {
  Impl::Packet p;
  p.id = id;
  p.dst = dst;
  p.flits = std::max(1, flits);
  p.ready = ready;
  impl_->nodes[static_cast<std::size_t>(src)].queue.push_back(p);
  ++impl_->queued;
}

void Booksim2Network::set_eject_cycles_per_flit(std::int32_t n, double c) {
  impl_->nodes[static_cast<std::size_t>(n)].eject_cpf = std::max(1.0, c);
  if (c > impl_->max_eject_cpf) {
    impl_->max_eject_cpf = c;
    set_stall_bound(*impl_);
  }
}

std::int64_t Booksim2Network::cycle() const { return impl_->cycle; }

namespace {

[[noreturn]] void stalled(const Booksim2Network::Impl& m, int waiting_at) {
  std::int64_t queued = 0;
  for (const Booksim2Network::Impl::Node& n : m.nodes)
    queued += static_cast<std::int64_t>(n.queue.size());
  auto node_name = [](int n) {
    return "BookSim node " + std::to_string(n) + " (column " + std::to_string(n % std::max(gK, 1)) +
           ", row " + std::to_string(n / std::max(gK, 1)) + ")";
  };
  std::string where;
  for (std::size_t n = 0; n < m.nodes.size() && where.empty(); ++n)
    if (m.nodes[n].sent_in_flight > 0)
      where = "; the first stuck were sent by " + node_name(static_cast<int>(n)) + " (" +
              std::to_string(m.nodes[n].sent_in_flight) + " of them)";
  if (waiting_at >= 0) where += "; the first packet waiting is at " + node_name(waiting_at);
  std::string values;
  for (const std::string& c : m.culprits) values += (values.empty() ? "" : ", ") + c;
  throw ModelStall("noc.model \"booksim2\": BookSim 2's network makes no progress: no flit has "
                   "entered or left it for " + std::to_string(m.watch.since(m.cycle)) +
                   " cycles (at cycle " + std::to_string(m.cycle) + "; a sound configuration "
                   "moves one within " + std::to_string(m.watch.bound()) + ") while " +
                   std::to_string(m.in_flight) + " flits are in it and " + std::to_string(queued) +
                   " packets wait at their sources" + where + ". Its routers cannot forward "
                   "with: " + values);
}

}  // namespace

void Booksim2Network::read(Sink& sink) {
  Impl& m = *impl_;
  g_booksim_cycle = static_cast<int>(m.cycle);
  const int nodes = static_cast<int>(m.nodes.size());
  for (int n = 0; n < nodes; ++n) {
    Flit* f = m.net->ReadFlit(n);
    if (!f) continue;
    --m.in_flight;
    --m.nodes[static_cast<std::size_t>(f->src)].sent_in_flight;
    m.moved = true;
    Impl::Node& node = m.nodes[static_cast<std::size_t>(n)];
    // It crossed the ejection channel during the cycle before; it drains
    // from then, or once the flits before it have.
    const double start = std::max(static_cast<double>(m.cycle) - 1.0, node.drained);
    node.drained = start + node.eject_cpf;
    node.owed.emplace_back(static_cast<std::int64_t>(std::ceil(node.drained - 1e-9)), f->vc);
    ++m.owed;
    if (f->tail) sink.arrived(static_cast<std::uint32_t>(f->pid), node.drained);
    f->Free();
  }
}

void Booksim2Network::step(Sink& sink) {
  Impl& m = *impl_;
  g_booksim_cycle = static_cast<int>(m.cycle);
  const int nodes = static_cast<int>(m.nodes.size());
  int waiting_at = -1;  // a node whose packet could go
  for (int n = 0; n < nodes; ++n) {
    Impl::Node& node = m.nodes[static_cast<std::size_t>(n)];
    if (Credit* c = m.net->ReadCredit(n)) {
      node.inject->ProcessCredit(c);
      c->Free();
    }
    if (node.queue.empty()) continue;
    Impl::Packet& p = node.queue.front();
    if (p.ready > m.cycle) continue;
    if (waiting_at < 0) waiting_at = n;
    BufferState* buf = node.inject;
    if (p.sent == 0 && p.vc < 0) {  // the head: the next free VC after the last used
      for (int i = 1; i <= m.vcs && p.vc < 0; ++i) {
        const int vc = (std::max(node.last_vc, -1) + i) % m.vcs;
        if (buf->IsAvailableFor(vc) && !buf->IsFullFor(vc)) p.vc = vc;
      }
      if (p.vc < 0) continue;
    }
    if (buf->IsFullFor(p.vc)) continue;
    Flit* f = Flit::New();
    f->id = m.flit_id;
    m.flit_id = m.flit_id == INT_MAX ? 0 : m.flit_id + 1;
    f->pid = static_cast<int>(p.id);
    f->src = n;
    f->dest = p.dst;
    f->vc = p.vc;
    f->cl = 0;
    f->subnetwork = 0;
    f->type = Flit::ANY_TYPE;
    f->head = p.sent == 0;
    f->tail = p.sent + 1 == p.flits;
    f->ctime = static_cast<int>(p.ready);
    f->itime = static_cast<int>(m.cycle);
    f->record = false;
    if (f->head) {
      if (m.lookahead) {
        const FlitChannel* inject = m.net->GetInject(n);
        m.rf(inject->GetSink(), f, inject->GetSinkPort(), &f->la_route_set, false);
      } else {
        f->la_route_set.Clear();
      }
      buf->TakeBuffer(p.vc);
      node.last_vc = p.vc;
    }
    buf->SendingFlit(f);
    m.net->WriteFlit(f, n);
    ++m.in_flight;
    ++node.sent_in_flight;
    m.moved = true;
    if (++p.sent == p.flits) {
      const std::uint32_t id = p.id;
      node.queue.pop_front();
      --m.queued;
      sink.injected(id, m.cycle + 1);
    }
  }
  m.net->ReadInputs();
  // Credits for the flits the nodes have taken off: one credit per node and
  // cycle, for distinct VCs.
  for (int n = 0; n < nodes; ++n) {
    Impl::Node& node = m.nodes[static_cast<std::size_t>(n)];
    if (node.owed.empty() || node.owed.front().first > m.cycle) continue;
    Credit* c = Credit::New();
    for (auto it = node.owed.begin(); it != node.owed.end() && it->first <= m.cycle;) {
      if (c->vc.insert(it->second).second) {
        it = node.owed.erase(it);
        --m.owed;
      } else {
        ++it;
      }
    }
    m.net->WriteCredit(c, n);
  }
  m.net->Evaluate();
  m.net->WriteOutputs();
  if (m.moved) m.watch.progressed(m.cycle);
  m.moved = false;
  if (m.watch.stalled(m.cycle, m.in_flight > 0 || waiting_at >= 0)) stalled(m, waiting_at);
  ++m.cycle;
}

bool Booksim2Network::idle() const {
  const Impl& m = *impl_;
  return m.in_flight == 0 && m.queued == 0 && m.owed == 0 &&
         Credit::OutStanding() == m.credits_before;
}

void Booksim2Network::skip_to(std::int64_t cycle) {
  if (cycle > impl_->cycle) impl_->cycle = cycle;
}

std::int64_t Booksim2Network::channel_flits(std::int32_t node, std::int32_t dir) const {
  const auto c = static_cast<std::size_t>(4 * node + dir);
  const std::vector<FlitChannel*>& chans = impl_->net->GetChannels();
  if (c >= chans.size()) return 0;
  const std::vector<int>& a = chans[c]->GetActivity();
  std::int64_t s = 0;
  for (const int x : a) s += x;
  return s;
}

}  // namespace gemini::sim
