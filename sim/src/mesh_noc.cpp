#include "gemini/sim/mesh_noc.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gemini::sim {

MeshNoc::MeshNoc(std::int32_t xlen, std::int32_t ylen, double link_gbps, Tick router_ps,
                 std::int32_t buffer_packets)
    : xlen_(xlen),
      ylen_(ylen),
      ps_per_byte_(1000.0 / link_gbps),
      router_ps_(router_ps),
      buffer_(std::max(0, buffer_packets)) {
  const std::size_t links = static_cast<std::size_t>(xlen_ + 2) * ylen_ * kDirs;
  links_.assign(links, Link{});
  tree_start_.assign(links, -1);
  tree_left_.assign(links, 0);
  eject_ps_per_byte_.assign(static_cast<std::size_t>(core_count() + 2 * ylen_), 0.0);
  if (buffer_ > 0) {
    left_.assign(links * static_cast<std::size_t>(buffer_), 0);
    slot_.assign(links, 0);
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
  return static_cast<Tick>(std::ceil(static_cast<double>(bytes) * ps_per_byte_ - 1e-9));
}

void MeshNoc::note_wait(std::int32_t link, Tick waited, std::uint64_t whose) {
  wait_.total += waited;
  if (waited > wait_.longest) {
    wait_.longest = waited;
    wait_.link = link;
    wait_.whose = whose;
  }
}

inline Tick MeshNoc::cross(std::int32_t link, Tick head, Tick ser, Tick& start) {
  Link& l = links_[static_cast<std::size_t>(link)];
  start = std::max({head, l.free, buffer_free(link)});
  if (start > head && l.holder != owner_) note_wait(link, start - head, l.holder);
  l.holder = owner_;
  l.free = start + ser;
  l.busy += ser;
  return start;
}

MeshNoc::Timing MeshNoc::send(Tick t, std::int32_t src, std::int32_t dst, std::int64_t bytes) {
  const Tick ser = serialisation(bytes);
  const NodePos s = pos(src);
  Tick start = 0;
  Timing out{};
  wait_ = {};
  const std::int32_t inject = router(s.x, s.y) * kDirs + kInject;
  cross(inject, t, ser, start);
  const Tick injected = start;
  Tick head = start + router_ps_;
  route(s, pos(dst), path_);
  std::int32_t prev = inject;
  const Tick last = eject_ser(dst, bytes, ser);
  for (const std::int32_t link : path_) {
    const Tick sl = link == path_.back() ? last : ser;
    cross(link, head, sl, start);
    buffer_leave(prev, start + sl);  // its tail has left prev's buffer
    prev = link;
    head = start + router_ps_;
  }
  out.arrived = start + last;  // the ejection link's
  out.injected = next_injection(inject, injected, ser);
  out.links = static_cast<std::int32_t>(path_.size()) - 1;
  out.waited = wait_.total;
  out.wait_link = wait_.link;
  out.wait_owner = wait_.whose;
  ++packets_;
  bytes_ += bytes;
  byte_hops_ += bytes * out.links;
  return out;
}

void MeshNoc::route(NodePos p, NodePos d, std::vector<std::int32_t>& links) const {
  links.clear();
  while (p.x != d.x) {
    links.push_back(router(p.x, p.y) * kDirs + (d.x > p.x ? kEast : kWest));
    p.x += d.x > p.x ? 1 : -1;
  }
  while (p.y != d.y) {
    links.push_back(router(p.x, p.y) * kDirs + (d.y > p.y ? kSouth : kNorth));
    p.y += d.y > p.y ? 1 : -1;
  }
  links.push_back(router(d.x, d.y) * kDirs + kEject);
}

MeshNoc::MulticastTiming MeshNoc::multicast(Tick t, std::int32_t src,
                                            const std::vector<std::int32_t>& dsts,
                                            std::int64_t bytes) {
  const Tick ser = serialisation(bytes);
  const NodePos s = pos(src);
  MulticastTiming out;
  out.arrived.resize(dsts.size());
  wait_ = {};
  Tick start = 0;
  const std::int32_t inject = router(s.x, s.y) * kDirs + kInject;
  cross(inject, t, ser, start);
  const Tick injected = start;
  const Tick head0 = start + router_ps_;
  // Each route is a path of the tree from its root; a link already crossed
  // by an earlier route of this packet is not crossed again, and the next
  // link's head follows its start. A fork's buffer is left when the tail
  // has gone out on its last branch.
  tree_links_.clear();
  for (std::size_t i = 0; i < dsts.size(); ++i) {
    route(s, pos(dsts[i]), path_);
    Tick head = head0;
    std::int32_t prev = inject;
    const Tick last = eject_ser(dsts[i], bytes, ser);
    for (const std::int32_t link : path_) {
      Tick& at = tree_start_[static_cast<std::size_t>(link)];
      const Tick sl = link == path_.back() ? last : ser;
      if (at < 0) {
        cross(link, head, sl, start);
        at = start;
        tree_links_.push_back(link);
        Tick& l = tree_left_[static_cast<std::size_t>(prev)];
        l = std::max(l, start + sl);
      }
      prev = link;
      head = at + router_ps_;
    }
    out.arrived[i] = tree_start_[static_cast<std::size_t>(path_.back())] + last;
    out.last = std::max(out.last, out.arrived[i]);
  }
  buffer_leave(inject, tree_left_[static_cast<std::size_t>(inject)]);
  tree_left_[static_cast<std::size_t>(inject)] = 0;
  for (const std::int32_t link : tree_links_) {
    const auto k = static_cast<std::size_t>(link);
    if (link % kDirs != kEject) {
      buffer_leave(link, tree_left_[k]);
      ++out.links;
    }
    tree_start_[k] = -1;
    tree_left_[k] = 0;
  }
  out.injected = next_injection(inject, injected, ser);
  out.waited = wait_.total;
  out.wait_link = wait_.link;
  out.wait_owner = wait_.whose;
  ++packets_;
  bytes_ += bytes;
  byte_hops_ += bytes * out.links;
  return out;
}

std::string MeshNoc::link_name(std::int32_t link) const {
  if (link < 0) return "-";
  const std::int32_t dir = link % kDirs, r = link / kDirs;
  const std::int32_t x = r % (xlen_ + 2) - 1, y = r / (xlen_ + 2);
  char buf[64];
  if (dir == kInject || dir == kEject)
    std::snprintf(buf, sizeof buf, "(%d,%d) %s", x, y, dir == kInject ? "in" : "out");
  else
    std::snprintf(buf, sizeof buf, "(%d,%d)->(%d,%d)", x, y, x + (dir == kEast) - (dir == kWest),
                  y + (dir == kSouth) - (dir == kNorth));
  return buf;
}

MeshNoc::LinkUse MeshNoc::router_link_use() const {
  LinkUse u;
  double sum = 0;
  auto add = [&](std::int32_t x, std::int32_t y, Dir dir) {
    const Tick b = links_[static_cast<std::size_t>(router(x, y) * kDirs + dir)].busy;
    if (b > u.max_busy) {
      u.max_busy = b;
      u.max_from = {x, y};
      u.max_to = {x + (dir == kEast) - (dir == kWest), y + (dir == kSouth) - (dir == kNorth)};
    }
    sum += static_cast<double>(b);
    ++u.links;
  };
  for (std::int32_t y = 0; y < ylen_; ++y)
    for (std::int32_t x = -1; x <= xlen_; ++x) {
      if (x < xlen_) add(x, y, kEast);  // to x + 1
      if (x > -1) add(x, y, kWest);     // to x - 1
      if (x >= 0 && x < xlen_) {
        if (y + 1 < ylen_) add(x, y, kSouth);
        if (y > 0) add(x, y, kNorth);
      }
    }
  u.mean_busy = u.links ? sum / u.links : 0;
  return u;
}

namespace {

// Declares and reads the mesh's parameters.
NocBuilder configure(ParamReader& r) {
  const double link_gbps = r.param<double>("link_gbps")
                               .unit("GB/s")
                               .range(1e-3, 1e6)
                               .fallback(24.0)
                               .describe("per link and direction (1 GB/s = 1 byte per ns)")
                               .get();
  const std::int32_t router_cycles = r.param<std::int32_t>("router_cycles")
                                         .unit("cycles")
                                         .range(0, 1 << 16)
                                         .fallback(2)
                                         .describe("a packet header's time through one router")
                                         .get();
  const std::int32_t buffer_packets =
      r.param<std::int32_t>("buffer_packets")
          .unit("packets")
          .range(0, 1 << 16)
          .fallback(0)
          .describe("packets each router input buffer holds (0: unbounded, no backpressure)")
          .get();
  return [=](const NocLayout& l) -> std::unique_ptr<NocModel> {
    auto m = std::make_unique<MeshNoc>(l.xlen, l.ylen, link_gbps, router_cycles * l.period,
                                       buffer_packets);
    m->place_ports(l.ports);
    return m;
  };
}

}  // namespace

NocModelInfo mesh_noc_model() {
  return {"mesh", "2-D mesh, XY routing, cut-through, DRAM ports at the row ends", configure};
}

}  // namespace gemini::sim
