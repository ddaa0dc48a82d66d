// Synthetic traffic for any registered NoC model (noc_traffic.h).
#include "gemini/sim/noc_traffic.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <istream>
#include <queue>
#include <random>
#include <sstream>

#include "gemini/sim/mesh_links.h"
#include "gemini/sim/model_stall.h"

namespace gemini::sim {

namespace {

// In traffic_patterns()'s order.
enum class Pattern { uniform, transpose, bitcomp, hotspot, neighbor, permutation, trace };

// A source's generator: its own stream of (seed, source).
std::mt19937_64 generator(std::uint64_t seed, std::int32_t source) {
  std::uint64_t z = seed * 0x9e3779b97f4a7c15u + static_cast<std::uint64_t>(source) + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return std::mt19937_64(z ^ (z >> 31));
}

class Destinations {
 public:
  Destinations(const TrafficSpec& s, Pattern p)
      : x_(s.xlen),
        y_(s.ylen),
        p_(p),
        frac_(s.hotspot_fraction),
        hot_(s.hotspot >= 0 ? s.hotspot : (s.ylen / 2) * s.xlen + s.xlen / 2) {
    if (p == Pattern::permutation) perm_ = traffic_permutation(cores(), s.seed);
  }
  std::int32_t cores() const { return x_ * y_; }
  std::int32_t hotspot() const { return hot_; }
  // Where `src`'s next packet goes (-1: the source sends nothing).
  std::int32_t next(std::int32_t src, std::mt19937_64& g) const {
    const std::int32_t x = src % x_, y = src / x_;
    switch (p_) {
      case Pattern::uniform:
        return uniform(src, g);
      case Pattern::transpose: {
        const std::int32_t d = x * x_ + y;
        return d == src ? -1 : d;
      }
      case Pattern::bitcomp: {
        const std::int32_t d = (y_ - 1 - y) * x_ + (x_ - 1 - x);
        return d == src ? -1 : d;
      }
      case Pattern::hotspot:
        if (src != hot_ && std::uniform_real_distribution<double>(0, 1)(g) < frac_) return hot_;
        return uniform(src, g);
      case Pattern::neighbor: {
        std::vector<std::int32_t> n = neighbours(src);
        if (n.empty()) return -1;
        return n[std::uniform_int_distribution<std::size_t>(0, n.size() - 1)(g)];
      }
      case Pattern::permutation:
        return perm_[static_cast<std::size_t>(src)];
      case Pattern::trace:
        break;
    }
    return -1;
  }
  std::vector<std::int32_t> neighbours(std::int32_t src) const {
    const std::int32_t x = src % x_, y = src / x_;
    std::vector<std::int32_t> n;
    if (x + 1 < x_) n.push_back(src + 1);
    if (x > 0) n.push_back(src - 1);
    if (y + 1 < y_) n.push_back(src + x_);
    if (y > 0) n.push_back(src - x_);
    return n;
  }
  // Every (src, dst) the pattern has, for zero load (hotspot: none, drawn).
  std::vector<std::pair<std::int32_t, std::int32_t>> pairs() const {
    std::vector<std::pair<std::int32_t, std::int32_t>> out;
    std::mt19937_64 unused;
    for (std::int32_t s = 0; s < cores(); ++s) {
      if (p_ == Pattern::uniform) {
        for (std::int32_t d = 0; d < cores(); ++d)
          if (d != s) out.emplace_back(s, d);
      } else if (p_ == Pattern::neighbor) {
        for (const std::int32_t d : neighbours(s)) out.emplace_back(s, d);
      } else if (p_ == Pattern::transpose || p_ == Pattern::bitcomp || p_ == Pattern::permutation) {
        const std::int32_t d = next(s, unused);
        if (d >= 0) out.emplace_back(s, d);
      }
    }
    return out;
  }

 private:
  std::int32_t uniform(std::int32_t src, std::mt19937_64& g) const {
    if (cores() < 2) return -1;
    const auto d = std::uniform_int_distribution<std::int32_t>(0, cores() - 2)(g);
    return d >= src ? d + 1 : d;
  }
  std::int32_t x_, y_;
  Pattern p_;
  double frac_;
  std::int32_t hot_;
  std::vector<std::int32_t> perm_;  // permutation: each source's destination
};

struct Packet {
  Tick gen = 0, arrived = -1;
  std::int32_t src = 0, dst = 0;
  std::int64_t bytes = 0;
  bool measured = false;
};

// The run: sources, their queues, the event queue and the model.
class Run final : public NocModel::Events {
 public:
  Run(NocModel& noc, const TrafficSpec& s, Pattern p) : noc_(noc), s_(s), p_(p), dest_(s, p) {}

  bool go(TrafficResult& out, std::string& error);

  void injected(std::uint64_t tag, Tick t) override { push(t, Ev::free, pkts_[tag].src); }
  void arrived(const NocModel::Arrival& a) override { arrive(static_cast<std::uint32_t>(a.tag), a.t); }

 private:
  enum class Ev : std::uint8_t { gen, free, next_alone };
  struct Item {
    Tick t;
    std::uint64_t seq;
    Ev ev;
    std::int32_t who;
    bool operator>(const Item& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  struct Source {
    std::mt19937_64 rng;
    std::deque<std::uint32_t> queue;
    bool busy = false;
    std::int64_t generated = 0;
    double p = 0;  // packets per cycle
    Tick last_measured_gen = -1, first_measured_gen = -1;
  };

  void push(Tick t, Ev ev, std::int32_t who) { events_.push(Item{t, seq_++, ev, who}); }
  std::uint32_t add(Tick gen, std::int32_t src, std::int32_t dst, std::int64_t bytes,
                    bool measured) {
    pkts_.push_back(Packet{gen, -1, src, dst, bytes, measured});
    return static_cast<std::uint32_t>(pkts_.size() - 1);
  }
  // Cycles to a source's next packet: geometric, >= 1.
  std::int64_t gap(Source& src) {
    if (src.p >= 1) return 1;
    const double u = std::uniform_real_distribution<double>(0, 1)(src.rng);
    return 1 + static_cast<std::int64_t>(std::floor(std::log1p(-u) / std::log1p(-src.p)));
  }
  void generate(std::int32_t s, Tick now);
  void try_send(std::int32_t s, Tick now);
  void arrive(std::uint32_t i, Tick t);
  void summarise(TrafficResult& out) const;

  NocModel& noc_;
  const TrafficSpec& s_;
  Pattern p_;
  Destinations dest_;
  std::vector<Source> src_;
  std::vector<Packet> pkts_;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> events_;
  std::uint64_t seq_ = 0;
  std::int64_t to_measure_ = 0, measured_sent_ = 0, measured_arrived_ = 0;
  bool generating_ = true;
  // Zero load: the packets in turn, each when the one before has arrived.
  std::vector<std::uint32_t> alone_;
  std::size_t alone_next_ = 0;
  Tick last_arrival_ = 0;
};

void Run::generate(std::int32_t s, Tick now) {
  Source& src = src_[static_cast<std::size_t>(s)];
  const std::int32_t d = dest_.next(s, src.rng);
  const std::int64_t k = src.generated++;
  const bool measured = k >= s_.warmup && k < s_.warmup + s_.packets;
  if (d >= 0) {
    const std::uint32_t i = add(now, s, d, s_.packet_bytes, measured);
    src.queue.push_back(i);
    if (measured) {
      if (src.first_measured_gen < 0) src.first_measured_gen = now;
      src.last_measured_gen = now;
    }
    try_send(s, now);
  }
  if (generating_) push(now + gap(src) * s_.period, Ev::gen, s);
}

void Run::try_send(std::int32_t s, Tick now) {
  Source& src = src_[static_cast<std::size_t>(s)];
  if (src.busy || src.queue.empty()) return;
  const std::uint32_t i = src.queue.front();
  src.queue.pop_front();
  Packet& pk = pkts_[i];
  src.busy = true;
  if (pk.measured) ++measured_sent_;
  if (noc_.closed_loop()) {
    noc_.enqueue(now, i, pk.src, {pk.dst}, pk.bytes);
    return;
  }
  const NocModel::Timing tm = noc_.send(now, pk.src, pk.dst, pk.bytes);
  arrive(i, tm.arrived);
  push(tm.injected, Ev::free, s);
}

void Run::arrive(std::uint32_t i, Tick t) {
  Packet& pk = pkts_[i];
  pk.arrived = t;
  last_arrival_ = std::max(last_arrival_, t);
  if (pk.measured) ++measured_arrived_;
  if (!alone_.empty() && alone_next_ < alone_.size()) {
    // The next goes once the network is empty again: a few cycles after.
    const Tick at = (t / s_.period + 16) * s_.period;
    push(at, Ev::next_alone, 0);
  }
}

bool Run::go(TrafficResult& out, std::string& error) {
  const std::int32_t cores = s_.xlen * s_.ylen;
  src_.resize(static_cast<std::size_t>(cores));
  for (std::int32_t c = 0; c < cores; ++c) src_[static_cast<std::size_t>(c)].rng = generator(s_.seed, c);
  if (s_.zero_load) {
    std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
    if (p_ == Pattern::trace) {
      for (const TracePacket& t : s_.trace) alone_.push_back(add(0, t.src, t.dst, t.bytes, true));
    } else if (p_ == Pattern::hotspot) {
      std::mt19937_64 g = generator(s_.seed, cores);
      for (std::int64_t n = 0; n < s_.packets; ++n) {
        const auto src = std::uniform_int_distribution<std::int32_t>(0, cores - 1)(g);
        const std::int32_t d = dest_.next(src, g);
        if (d >= 0) pairs.emplace_back(src, d);
      }
    } else {
      pairs = dest_.pairs();
    }
    for (const auto& [a, b] : pairs) alone_.push_back(add(0, a, b, s_.packet_bytes, true));
    if (alone_.empty()) {
      error = "pattern \"" + s_.pattern + "\" has no packets on a " + std::to_string(s_.xlen) +
              "x" + std::to_string(s_.ylen) + " mesh";
      return false;
    }
    to_measure_ = static_cast<std::int64_t>(alone_.size());
    push(0, Ev::next_alone, 0);
  } else if (p_ == Pattern::trace) {
    std::vector<TracePacket> t = s_.trace;
    std::stable_sort(t.begin(), t.end(),
                     [](const TracePacket& a, const TracePacket& b) { return a.cycle < b.cycle; });
    for (const TracePacket& x : t) {
      const std::uint32_t i = add(x.cycle * s_.period, x.src, x.dst, x.bytes, true);
      push(x.cycle * s_.period, Ev::gen, static_cast<std::int32_t>(i));
    }
    to_measure_ = static_cast<std::int64_t>(t.size());
    generating_ = false;
  } else {
    const double p = s_.load * s_.link_bytes_per_cycle / static_cast<double>(s_.packet_bytes);
    for (std::int32_t c = 0; c < cores; ++c) {
      Source& src = src_[static_cast<std::size_t>(c)];
      src.p = std::min(1.0, p);
      // A source that never sends is not one.
      std::mt19937_64 probe = src.rng;
      if (p <= 0 || dest_.next(c, probe) < 0) continue;
      to_measure_ += s_.packets;
      push((gap(src) - 1) * s_.period, Ev::gen, c);
    }
    if (to_measure_ == 0) {
      error = "no source sends at load " + std::to_string(s_.load) + " with pattern \"" +
              s_.pattern + "\"";
      return false;
    }
  }
  // The loop: the earliest of the queue's items and the model's next step;
  // items first at equal times.
  if (noc_.closed_loop()) noc_.set_events(*this);
  const Tick limit = kNever / 4;
  while (measured_arrived_ < to_measure_ || (s_.zero_load && alone_next_ < alone_.size())) {
    if (!noc_.closed_loop() && measured_sent_ >= to_measure_ && !s_.zero_load) break;
    const Tick te = events_.empty() ? kNever : events_.top().t;
    const Tick tn = noc_.closed_loop() ? noc_.next_advance() : kNever;
    if (te == kNever && tn == kNever) {
      error = "the run stopped with " + std::to_string(to_measure_ - measured_arrived_) +
              " measured packets undelivered (the model lost them)";
      return false;
    }
    if (std::min(te, tn) > limit) {
      error = "the run passed its time limit";
      return false;
    }
    if (te <= tn) {
      const Item it = events_.top();
      events_.pop();
      switch (it.ev) {
        case Ev::gen:
          if (p_ == Pattern::trace) {
            const Packet& pk = pkts_[static_cast<std::size_t>(it.who)];
            src_[static_cast<std::size_t>(pk.src)].queue.push_back(static_cast<std::uint32_t>(it.who));
            try_send(pk.src, it.t);
          } else {
            generate(it.who, it.t);
          }
          break;
        case Ev::free:
          src_[static_cast<std::size_t>(it.who)].busy = false;
          try_send(it.who, it.t);
          break;
        case Ev::next_alone: {
          const std::uint32_t i = alone_[alone_next_++];
          pkts_[i].gen = it.t;
          src_[static_cast<std::size_t>(pkts_[i].src)].queue.push_back(i);
          try_send(pkts_[i].src, it.t);
          break;
        }
      }
    } else {
      noc_.advance(tn, *this);
    }
  }
  generating_ = false;
  summarise(out);
  return true;
}

void Run::summarise(TrafficResult& out) const {
  out = TrafficResult{};
  const double period = static_cast<double>(s_.period);
  std::vector<double> lat;
  Tick end = 0;
  for (const Packet& p : pkts_)
    if (p.measured && p.arrived >= 0) {
      lat.push_back(static_cast<double>(p.arrived - p.gen) / period);
      end = std::max(end, p.arrived);
    }
  std::sort(lat.begin(), lat.end());
  out.measured = static_cast<std::int64_t>(lat.size());
  if (!lat.empty()) {
    double sum = 0;
    for (const double l : lat) sum += l;
    out.mean = sum / static_cast<double>(lat.size());
    auto pct = [&](double q) {
      const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(lat.size()))) - 1;
      return lat[std::min(lat.size() - 1, k)];
    };
    out.p50 = pct(0.5);
    out.p99 = pct(0.99);
    out.max = lat.back();
  }
  out.run_cycles = static_cast<double>(end) / period;
  // The window: from when every source measures to when the first stops.
  Tick t0 = 0, t1 = kNever;
  std::int32_t sources = 0;
  for (const Source& s : src_)
    if (s.first_measured_gen >= 0) {
      ++sources;
      t0 = std::max(t0, s.first_measured_gen);
      t1 = std::min(t1, s.last_measured_gen);
    }
  out.sources = sources;
  if (sources > 0 && t1 > t0) {
    double offered = 0, accepted = 0;
    for (const Packet& p : pkts_) {
      if (p.gen >= t0 && p.gen < t1) offered += static_cast<double>(p.bytes);
      if (p.arrived >= t0 && p.arrived < t1) accepted += static_cast<double>(p.bytes);
    }
    const double cycles = static_cast<double>(t1 - t0) / period;
    const double cap = cycles * sources * s_.link_bytes_per_cycle;
    out.window_cycles = cycles;
    out.offered = offered / cap;
    out.accepted = accepted / cap;
  }
  // Links: those of the mesh between its cores (no ports here).
  const Tick run = std::max<Tick>(1, end);
  double sum = 0;
  std::int32_t n = 0;
  const MeshLinks names(s_.xlen, s_.ylen);
  for (const NocModel::LinkLoad& l : noc_.router_link_loads()) {
    if (l.from.x < 0 || l.from.x >= s_.xlen || l.to.x < 0 || l.to.x >= s_.xlen) continue;
    const double u = static_cast<double>(l.busy) / static_cast<double>(run);
    out.links.push_back(l);
    sum += u;
    ++n;
    if (u > out.link_max) {
      out.link_max = u;
      out.busiest = "(" + std::to_string(l.from.x) + "," + std::to_string(l.from.y) + ")->(" +
                    std::to_string(l.to.x) + "," + std::to_string(l.to.y) + ")";
    }
  }
  out.link_mean = n ? sum / n : 0;
}

}  // namespace

const std::vector<std::string>& traffic_patterns() {
  static const std::vector<std::string> p = {"uniform",  "transpose",   "bitcomp", "hotspot",
                                             "neighbor", "permutation", "trace"};
  return p;
}

std::vector<std::int32_t> traffic_permutation(std::int32_t cores, std::uint64_t seed) {
  std::vector<std::int32_t> to(static_cast<std::size_t>(std::max(cores, 0)), -1);
  if (cores < 2) return to;
  for (std::int32_t i = 0; i < cores; ++i) to[static_cast<std::size_t>(i)] = i;
  // Sattolo: swap each position with one strictly below it, from the top;
  // the result is one cycle through every core. Its own stream: one past
  // the sources' (generator(seed, source)) and the hotspot's zero load.
  std::mt19937_64 g = generator(seed, cores + 1);
  for (std::int32_t i = cores - 1; i > 0; --i) {
    const auto j = std::uniform_int_distribution<std::int32_t>(0, i - 1)(g);
    std::swap(to[static_cast<std::size_t>(i)], to[static_cast<std::size_t>(j)]);
  }
  return to;
}

NocLayout traffic_layout(const TrafficSpec& spec) {
  NocLayout l;
  l.xlen = spec.xlen;
  l.ylen = spec.ylen;
  l.period = spec.period;
  l.packet_bytes = static_cast<std::int32_t>(spec.packet_bytes);
  return l;
}

bool run_traffic(NocModel& noc, const TrafficSpec& spec, TrafficResult& out, std::string& error) {
  const auto& names = traffic_patterns();
  const auto it = std::find(names.begin(), names.end(), spec.pattern);
  if (it == names.end()) {
    error = "unknown traffic pattern \"" + spec.pattern + "\"";
    return false;
  }
  const auto p = static_cast<Pattern>(it - names.begin());
  if (p == Pattern::transpose && spec.xlen != spec.ylen) {
    error = "the transpose pattern needs a square mesh, not " + std::to_string(spec.xlen) + "x" +
            std::to_string(spec.ylen);
    return false;
  }
  const std::int32_t cores = spec.xlen * spec.ylen;
  if (p == Pattern::hotspot && spec.hotspot >= cores) {
    error = "the hotspot core " + std::to_string(spec.hotspot) + " is outside the mesh";
    return false;
  }
  if (p == Pattern::trace) {
    if (spec.trace.empty()) {
      error = "the trace has no packets";
      return false;
    }
    for (const TracePacket& t : spec.trace)
      if (t.src < 0 || t.src >= cores || t.dst < 0 || t.dst >= cores || t.src == t.dst) {
        error = "a trace packet from core " + std::to_string(t.src) + " to " +
                std::to_string(t.dst) + " does not fit the mesh (distinct cores below " +
                std::to_string(cores) + ")";
        return false;
      }
  }
  Run run(noc, spec, p);
  try {
    return run.go(out, error);
  } catch (const ModelStall& e) {
    error = e.what();
    return false;
  }
}

bool read_traffic_trace(std::istream& in, const std::string& name, std::vector<TracePacket>& out,
                        std::string& error) {
  out.clear();
  std::string line;
  std::int64_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::istringstream is(line);
    TracePacket t;
    char c1 = 0, c2 = 0, c3 = 0;
    if (!(is >> t.cycle >> c1 >> t.src >> c2 >> t.dst >> c3 >> t.bytes) || c1 != ',' ||
        c2 != ',' || c3 != ',' || !(is >> std::ws).eof() || t.cycle < 0 || t.bytes <= 0) {
      if (out.empty() && n == 1 && line.find_first_of("0123456789") != 0) continue;  // a header
      error = name + ":" + std::to_string(n) +
              ": expected \"cycle,source core,destination core,bytes\" (cycle >= 0, bytes > 0), "
              "got \"" + line + "\"";
      return false;
    }
    out.push_back(t);
  }
  return true;
}

}  // namespace gemini::sim
