#include "gemini/sim/mesh_noc.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "text_format.h"

namespace gemini::sim {

MeshNoc::MeshNoc(std::int32_t xlen, std::int32_t ylen, double link_gbps, Tick router_ps,
                 std::int32_t buffer_packets, bool fill_gaps)
    : fill_gaps_(fill_gaps && buffer_packets <= 0),
      xlen_(xlen),
      ylen_(ylen),
      links_(xlen, ylen),
      trees_(xlen, ylen),
      link_gbps_(link_gbps),
      ps_per_byte_(1000.0 / link_gbps),
      router_ps_(router_ps),
      buffer_(std::max(0, buffer_packets)) {
  slowest_ps_per_byte_ = ps_per_byte_;
  const std::size_t links = links_.count();
  free_.assign(links, 0);
  holder_.assign(links, ~std::uint64_t{0});
  busy_.assign(links, 0);
  eject_ps_per_byte_.assign(static_cast<std::size_t>(core_count() + 2 * ylen_), 0.0);
  if (buffer_ > 0) {
    left_.assign(links * static_cast<std::size_t>(buffer_), 0);
    slot_.assign(links, 0);
  }
  if (fill_gaps_) {
    slots_.resize(links);
    slot_first_.assign(links, 0);
  }
}

void MeshNoc::buffer_leave(std::int32_t link, Tick t) {
  if (buffer_ == 0) return;
  std::int32_t& s = slot_[static_cast<std::size_t>(link)];
  left_[static_cast<std::size_t>(link) * buffer_ + s] = t;
  s = s + 1 == buffer_ ? 0 : s + 1;
}

void MeshNoc::place_ports(const std::vector<NodePos>& ports) {
  port_nodes_.clear();
  for (const NodePos& p : ports) {
    if ((p.x != -1 && p.x != xlen_) || p.y < 0 || p.y >= ylen_) {
      std::fprintf(stderr, "gemini: internal error: no mesh row end at (%d, %d)\n", p.x, p.y);
      std::abort();
    }
    port_nodes_.push_back(edge_node(p.y, p.x == xlen_));
  }
}

NodePos MeshNoc::pos(std::int32_t node) const {
  if (node < core_count()) return {node % xlen_, node / xlen_};
  const std::int32_t p = node - core_count();
  if (p >= 2 * ylen_) {
    std::fprintf(stderr, "gemini: internal error: NoC node %d does not exist\n", node);
    std::abort();
  }
  return {(p % 2) ? xlen_ : -1, p / 2};
}

std::int32_t MeshNoc::hops(std::int32_t src, std::int32_t dst) const {
  const NodePos a = pos(src), b = pos(dst);
  return std::abs(a.x - b.x) + std::abs(a.y - b.y);
}

Tick MeshNoc::serialisation(std::int64_t bytes) const {
  return ceil_tick(static_cast<double>(bytes) * ps_per_byte_ - 1e-9);
}

void MeshNoc::set_chiplets(std::int32_t x_cut, std::int32_t y_cut, bool io_die, double d2d_gbps,
                           Tick d2d_latency) {
  d2d_.clear();
  trees_.set_d2d({});
  if (x_cut * y_cut <= 1) return;
  d2d_bytes_.assign(free_.size(), 0);
  d2d_ps_per_byte_ = 1000.0 / d2d_gbps;
  slowest_ps_per_byte_ = std::max(slowest_ps_per_byte_, d2d_ps_per_byte_);
  d2d_latency_ = d2d_latency;
  d2d_ = links_.d2d_flags(x_cut, y_cut, io_die);
  d2d_.resize(free_.size(), 0);
  trees_.set_d2d(d2d_);  // their links' D2D flags
}

void MeshNoc::note_wait(std::int32_t link, Tick waited, std::uint64_t whose) {
  wait_.total += waited;
  if (waited > wait_.longest) {
    wait_.longest = waited;
    wait_.link = link;
    wait_.whose = whose;
  }
}

Tick MeshNoc::cross_gap(std::int32_t link, Tick head, Tick ser, Tick& start, Tick min_end) {
  std::vector<Slot>& v = slots_[static_cast<std::size_t>(link)];
  std::uint32_t& first = slot_first_[static_cast<std::size_t>(link)];
  while (first < v.size() && v[first].end <= now_) ++first;  // before every head from now on
  if (first > 64 && 2 * first > v.size()) {
    v.erase(v.begin(), v.begin() + first);
    first = 0;
  }
  // The earliest idle interval from `head` on that holds the packet whole.
  std::size_t k = first;
  while (k < v.size() && v[k].end <= head) ++k;
  Tick at = head;
  for (; k < v.size(); ++k) {
    if (std::max(at + ser, min_end) <= v[k].start) break;
    at = std::max(at, v[k].end);
  }
  start = at;
  if (start > head && k > first && v[k - 1].owner != owner_)
    note_wait(link, start - head, v[k - 1].owner);
  const Tick end = std::max(start + ser, min_end);
  v.insert(v.begin() + static_cast<std::ptrdiff_t>(k), Slot{start, end, owner_});
  busy_[link] += end - start;
  return end;
}

inline Tick MeshNoc::cross(std::int32_t link, Tick head, Tick ser, Tick& start, Tick min_end) {
  if (fill_gaps_) return cross_gap(link, head, ser, start, min_end);
  start = std::max({head, free_[link], buffer_free(link)});
  std::uint64_t& holder = holder_[static_cast<std::size_t>(link)];
  if (start > head && holder != owner_) note_wait(link, start - head, holder);
  holder = owner_;
  const Tick end = std::max(start + ser, min_end);
  free_[link] = end;
  busy_[link] += end - start;
  return end;
}

MeshNoc::Timing MeshNoc::send(Tick t, std::int32_t src, std::int32_t dst, std::int64_t bytes) {
  now_ = t;
  return unicast(t, src, dst, bytes);
}

void MeshNoc::past_clock(const std::string& what, double t) const {
  throw ModelStall(past_clock_text(
      "noc.model \"mesh\"", what, t,
      "its links carry " + fmt("%g", link_gbps_) + " GB/s, its slowest rate a packet meets " +
          fmt("%g", slowest_ps_per_byte_ > 0 ? 1000.0 / slowest_ps_per_byte_ : 0.0) +
          " GB/s (noc.link_gbps, chiplets.d2d_gbps, the DRAM ports' rates)"));
}

MeshNoc::Timing MeshNoc::unicast(Tick t, std::int32_t src, std::int32_t dst, std::int64_t bytes) {
  check_clock(t, bytes);
  const Tick ser = serialisation(bytes);
  const NodePos s = pos(src);
  Tick start = 0;
  Timing out{};
  wait_ = {};
  const std::int32_t inject = links_.link(s.x, s.y, MeshLinks::kInject);
  cross(inject, t, ser, start);
  const Tick injected = start;
  Tick head = start + router_ps_;
  Tick tail = start + ser;  // when the tail has left the previous link
  route(s, pos(dst), path_);
  std::int32_t prev = inject;
  const Tick last = eject_ser(dst, bytes, ser);
  const Tick ser_d2d = d2d_ser(bytes, ser);
  Tick end = 0;
  for (const std::int32_t link : path_) {
    const bool d2d = is_d2d(link);
    const Tick sl = link == path_.back() ? last : d2d ? ser_d2d : ser;
    end = cross(link, head, sl, start, tail + router_ps_);
    buffer_leave(prev, end);  // its tail has left prev's buffer
    prev = link;
    const Tick lat = d2d ? cross_d2d(link, bytes, out.d2d_links) : 0;
    head = start + router_ps_ + lat;
    tail = end + lat;
  }
  check_arrival(end);
  out.arrived = end;  // the ejection link's
  out.injected = next_injection(inject, injected, ser);
  out.links = static_cast<std::int32_t>(path_.size()) - 1;
  out.waited = wait_.total;
  out.wait_link = wait_.link;
  out.wait_owner = wait_.whose;
  ++counts_.packets;
  counts_.bytes += bytes;
  counts_.byte_hops += bytes * out.links;
  counts_.d2d_byte_hops += bytes * out.d2d_links;
  return out;
}

void MeshNoc::route(NodePos p, NodePos d, std::vector<std::int32_t>& links) const {
  links.clear();
  links_.xy_route(p, d, [&](std::int32_t link) { links.push_back(link); });
  links.push_back(links_.link(d.x, d.y, MeshLinks::kEject));
}

void MeshNoc::multicast_stream(Tick t, std::int32_t src, const std::vector<std::int32_t>& dsts,
                               std::int64_t bytes, MulticastMemo& memo, MulticastTiming& out) {
  std::vector<Tick> arrived = std::move(out.arrived);
  out = MulticastTiming{};
  out.arrived = std::move(arrived);
  out.arrived.resize(dsts.size());
  now_ = t;
  if (copies_ && dsts.size() > 1) {
    // As its unicasts, one after the other from the source (booksim2's).
    Tick at = t;
    Tick longest = -1;
    for (std::size_t i = 0; i < dsts.size(); ++i) {
      const Timing tm = unicast(at, src, dsts[i], bytes);
      out.arrived[i] = tm.arrived;
      out.last = std::max(out.last, tm.arrived);
      out.links += tm.links;
      out.d2d_links += tm.d2d_links;
      out.waited += tm.waited;
      if (tm.waited > longest) {
        longest = tm.waited;
        out.wait_link = tm.wait_link;
        out.wait_owner = tm.wait_owner;
      }
      at = tm.injected;
    }
    out.injected = at;
    const auto extra = static_cast<std::int64_t>(dsts.size()) - 1;  // one packet handed over
    counts_.packets -= extra;
    counts_.bytes -= bytes * extra;
    return;
  }
  if (dsts.size() == 1) {
    // A tree of one route is crossed as send() crosses it (the buffers it
    // leaves belong to distinct links, so when within the packet does not
    // matter): no tree to build or keep.
    const Timing tm = unicast(t, src, dsts[0], bytes);
    out.injected = tm.injected;
    out.arrived[0] = out.last = tm.arrived;
    out.links = tm.links;
    out.d2d_links = tm.d2d_links;
    out.waited = tm.waited;
    out.wait_link = tm.wait_link;
    out.wait_owner = tm.wait_owner;
    return;
  }
  check_clock(t, bytes);
  const XyTree& tr = trees_[trees_.find(src, dsts, memo)];
  const Tick ser = serialisation(bytes);
  wait_ = {};
  Tick start = 0;
  cross(tr.inject, t, ser, start);
  const Tick injected = start;
  const Tick head0 = start + router_ps_;
  const Tick tail0 = start + ser;
  const Tick ser_d2d = d2d_ser(bytes, ser);
  // The tree's links in order, each after its parent: its header follows
  // the parent's start, its tail the parent's end. A fork's buffer is left
  // when the tail has gone out on its last branch.
  const std::size_t n = tr.links.size();
  if (tree_start_.size() < n) {
    tree_start_.resize(n);
    tree_end_.resize(n);
    tree_left_.resize(n);
  }
  Tick inject_left = 0;
  for (std::size_t e = 0; e < n; ++e) {
    const XyTree::Link& l = tr.links[e];
    Tick head = head0, tail = tail0;
    if (l.parent >= 0) {
      const auto p = static_cast<std::size_t>(l.parent);
      const Tick lat = l.parent_d2d ? d2d_latency_ : 0;
      head = tree_start_[p] + router_ps_ + lat;
      tail = tree_end_[p] + lat;
    }
    const Tick sl = l.dst >= 0 ? eject_ser(dsts[static_cast<std::size_t>(l.dst)], bytes, ser)
                    : l.d2d    ? ser_d2d
                               : ser;
    const Tick end = cross(l.link, head, sl, start, tail + router_ps_);
    tree_start_[e] = start;
    tree_end_[e] = end;
    tree_left_[e] = 0;
    if (l.d2d) cross_d2d(l.link, bytes, out.d2d_links);
    Tick& left = l.parent >= 0 ? tree_left_[static_cast<std::size_t>(l.parent)] : inject_left;
    left = std::max(left, end);
  }
  for (std::size_t i = 0; i < dsts.size(); ++i) {
    out.arrived[i] = tree_end_[static_cast<std::size_t>(tr.ejects[i])];
    out.last = std::max(out.last, out.arrived[i]);
  }
  check_arrival(out.last);
  if (buffer_ > 0) {
    buffer_leave(tr.inject, inject_left);
    for (std::size_t e = 0; e < n; ++e)
      if (tr.links[e].dst < 0) buffer_leave(tr.links[e].link, tree_left_[e]);
  }
  out.links = tr.router_links;
  out.waited = wait_.total;
  out.wait_link = wait_.link;
  out.wait_owner = wait_.whose;
  out.injected = next_injection(tr.inject, injected, ser);
  ++counts_.packets;
  counts_.bytes += bytes;
  counts_.byte_hops += bytes * out.links;
  counts_.d2d_byte_hops += bytes * out.d2d_links;
}

std::string MeshNoc::link_name(std::int32_t link) const { return links_.name(link); }

MeshNoc::LinkUse MeshNoc::link_use(bool d2d) const {
  LinkUse u;
  double sum = 0;
  links_.for_each_link([&](std::int32_t link, NodePos from, NodePos to) {
    if (is_d2d(link) != d2d) return;
    const Tick b = busy_[static_cast<std::size_t>(link)];
    if (b > u.max_busy) {
      u.max_busy = b;
      u.max_from = from;
      u.max_to = to;
    }
    sum += static_cast<double>(b);
    ++u.links;
  });
  u.mean_busy = u.links ? sum / u.links : 0;
  return u;
}

std::vector<NocModel::LinkLoad> MeshNoc::router_link_loads() const {
  std::vector<LinkLoad> out;
  links_.for_each_link([&](std::int32_t link, NodePos from, NodePos to) {
    const auto k = static_cast<std::size_t>(link);
    out.push_back({from, to, d2d_bytes_.empty() ? 0 : d2d_bytes_[k], busy_[k]});
  });
  return out;
}

std::vector<NocModel::LinkLoad> MeshNoc::d2d_link_loads() const {
  std::vector<LinkLoad> out;
  links_.for_each_link([&](std::int32_t link, NodePos from, NodePos to) {
    if (!is_d2d(link)) return;
    const auto k = static_cast<std::size_t>(link);
    out.push_back({from, to, d2d_bytes_[k], busy_[k]});
  });
  return out;
}

MeshNocParams read_mesh_noc_params(ParamReader& r) {
  MeshNocParams p;
  p.link_gbps = r.param<double>("link_gbps")
                    .unit(Unit::gbps)
                    .range(1e-3, 1e6)
                    .fallback(24.0)
                    .describe("per link and direction (1 GB/s = 1 byte per ns)")
                    .get();
  p.router_cycles = r.param<std::int32_t>("router_cycles")
                        .unit(Unit::cycles)
                        .range(0, 1 << 16)
                        .fallback(2)
                        .describe("a packet header's time through one router")
                        .get();
  p.buffer_packets =
      r.param<std::int32_t>("buffer_packets")
          .unit(Unit::packets)
          .range(0, 1 << 16)
          .fallback(0)
          .describe("packets each router input buffer holds (0: unbounded, no backpressure)")
          .get();
  return p;
}

namespace {

// Declares and reads the mesh's parameters.
NocBuilder configure(ParamReader& r) {
  const MeshNocParams p = read_mesh_noc_params(r);
  const bool fill_gaps =
      r.param<bool>("fill_gaps")
          .fallback(false)
          .describe("a packet may take a link's idle time before packets reserved earlier, where "
                    "it ends before them (as a router lets the packet there first go first); "
                    "with unbounded buffers")
          .get();
  const bool copies =
      r.param<bool>("multicast_copies")
          .fallback(false)
          .describe("a multicast packet goes as one unicast per destination, one after the "
                    "other from the source, as booksim2 sends it (for comparing the two)")
          .get();
  if (fill_gaps && p.buffer_packets > 0)
    r.fail("fill_gaps", "needs unbounded buffers (buffer_packets 0): a finite buffer is entered "
                        "in the order packets are sent");
  return [=](const NocLayout& l, std::string&) -> std::unique_ptr<NocModel> {
    auto m = std::make_unique<MeshNoc>(l.xlen, l.ylen, p.link_gbps, p.router_cycles * l.period,
                                       p.buffer_packets, fill_gaps);
    m->place_ports(l.ports);
    if (l.x_cut * l.y_cut > 1)
      m->set_chiplets(l.x_cut, l.y_cut, l.io_die, l.d2d_gbps, l.d2d_latency);
    m->set_multicast_copies(copies);
    return m;
  };
}

}  // namespace

NocModelInfo mesh_noc_model() {
  return {"mesh", "2-D mesh, XY routing, cut-through, DRAM ports at the row ends", configure};
}

}  // namespace gemini::sim
