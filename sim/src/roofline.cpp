#include "gemini/sim/roofline.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "gemini/ir/graph.h"
#include "gemini/sim/mesh_links.h"

namespace gemini::sim {

std::int64_t LayerRoofline::bound_cycles() const {
  return std::max({compute_cycles, link_cycles, dram_cycles});
}

const char* LayerRoofline::limit() const {
  const std::int64_t b = bound_cycles();
  return compute_cycles == b ? "compute" : link_cycles == b ? "links" : "dram";
}

std::int64_t SegmentRoofline::bound_cycles() const {
  return std::max({stages * layer_cycles, link_cycles, dram_cycles});
}

const char* SegmentRoofline::limit() const {
  const std::int64_t b = bound_cycles();
  return stages * layer_cycles == b ? "stages" : link_cycles == b ? "links" : "dram";
}

namespace {

// Link loads of one layer at a time on the mesh with its row-end ports
// (MeshLinks: the numbering and the routes of the mesh NoC model), each
// link at its rate: a die-to-die link's on a cut mesh.
class LinkLoads {
 public:
  explicit LinkLoads(const RooflineInput& in)
      : links_(in.xlen, in.ylen),
        bytes_(links_.count(), 0.0),
        stamp_(bytes_.size(), 0),
        d2d_(links_.d2d_flags(in.x_cut, in.y_cut, in.io_die)),
        rate_(in.link_bytes_per_cycle),
        d2d_rate_(in.d2d_bytes_per_cycle > 0 ? in.d2d_bytes_per_cycle : in.link_bytes_per_cycle) {}

  // A new tree: links already loaded by it are not loaded again.
  void new_tree() { ++tree_; }
  // `bytes` from a to b along the XY route; with `tree`, each link of the
  // current tree once.
  void route(NodePos a, NodePos b, double bytes, bool tree) {
    links_.xy_route(a, b,
                    [&](std::int32_t link) { add(static_cast<std::size_t>(link), bytes, tree); });
  }
  // The slowest link of `bytes` (bytes over its rate): its index.
  std::size_t slowest(const std::vector<double>& bytes) const {
    std::size_t at = 0;
    for (std::size_t k = 1; k < bytes.size(); ++k)
      if (bytes[k] / rate(k) > bytes[at] / rate(at)) at = k;
    return at;
  }
  // The layer's slowest link and its bytes; adds the loads to `segment`
  // (when given) and clears them for the next layer.
  std::pair<std::size_t, double> take_max(std::vector<double>* segment) {
    const std::size_t at = slowest(bytes_);
    const double b = bytes_[at];
    if (segment) {
      segment->resize(bytes_.size(), 0.0);
      for (std::size_t k = 0; k < bytes_.size(); ++k) (*segment)[k] += bytes_[k];
    }
    std::fill(bytes_.begin(), bytes_.end(), 0.0);
    return {at, b};
  }
  double rate(std::size_t link) const { return d2d_[link] ? d2d_rate_ : rate_; }
  bool d2d(std::size_t link) const { return d2d_[link] != 0; }
  std::int64_t cycles(std::size_t link, double bytes) const {
    return static_cast<std::int64_t>(std::ceil(bytes / rate(link) - 1e-9));
  }
  std::string name(std::size_t link) const { return links_.name(static_cast<std::int32_t>(link)); }

 private:
  void add(std::size_t link, double bytes, bool tree) {
    if (tree) {
      if (stamp_[link] == tree_) return;
      stamp_[link] = tree_;
    }
    bytes_[link] += bytes;
  }
  MeshLinks links_;
  std::vector<double> bytes_;
  std::vector<std::uint64_t> stamp_;
  std::uint64_t tree_ = 0;
  std::vector<std::uint8_t> d2d_;
  double rate_, d2d_rate_;
};

// What one layer receives: per transfer, its receiving cores (each once).
struct Reception {
  ir::TransferId transfer;
  std::vector<std::int32_t> cores;
};

struct LayerTraffic {
  std::string name;
  std::int64_t compute = 0;
  std::vector<Reception> received;
  std::unordered_map<ir::TransferId, std::size_t> index;      // into received
  std::vector<std::pair<std::int32_t, std::int64_t>> stores;  // (core, bytes)
};

// The file's segments (roofline.h): per layer name its place in the order
// of layers of every core that runs it; empty when some layer has two
// places (or a core runs a layer twice apart).
std::unordered_map<std::string, std::int32_t> segments_of(const ir::Model& m) {
  std::unordered_map<std::string, std::int32_t> place;
  for (const ir::Core& c : m.cores) {
    std::vector<const std::string*> order;
    for (const ir::Workload& w : c.workloads)
      if (order.empty() || *order.back() != w.layer_name) order.push_back(&w.layer_name);
    for (std::size_t i = 0; i < order.size(); ++i) {
      auto [it, fresh] = place.emplace(*order[i], static_cast<std::int32_t>(i));
      if (!fresh && it->second != static_cast<std::int32_t>(i)) return {};
      for (std::size_t j = 0; j < i; ++j)
        if (*order[j] == *order[i]) return {};
    }
  }
  return place;
}

// The longest chain of `edges` (layer indices, producer -> consumer) among
// `members`, in layers.
std::int32_t longest_chain(const std::vector<std::size_t>& members,
                           const std::vector<std::pair<std::size_t, std::size_t>>& edges) {
  std::unordered_map<std::size_t, std::int32_t> depth;
  for (std::size_t l : members) depth[l] = 1;
  // Relax as often as there are members: any chain is that long at most.
  for (std::size_t round = 0; round < members.size(); ++round) {
    bool changed = false;
    for (const auto& [a, b] : edges) {
      auto ia = depth.find(a), ib = depth.find(b);
      if (ia == depth.end() || ib == depth.end() || a == b) continue;
      if (ib->second < ia->second + 1 && ia->second < static_cast<std::int32_t>(members.size())) {
        ib->second = ia->second + 1;
        changed = true;
      }
    }
    if (!changed) break;
  }
  std::int32_t d = 1;
  for (const auto& [l, x] : depth) d = std::max(d, x);
  return d;
}

// The layers' workloads, receptions and stores, layers in order of first
// appearance.
std::vector<LayerTraffic> gather(const ir::Model& m) {
  std::vector<LayerTraffic> layers;
  std::unordered_map<std::string, std::size_t> by_name;
  for (const ir::Core& c : m.cores)
    for (const ir::Workload& w : c.workloads) {
      auto [it, fresh] = by_name.emplace(w.layer_name, layers.size());
      if (fresh) layers.push_back(LayerTraffic{w.layer_name, 0, {}, {}, {}});
      LayerTraffic& l = layers[it->second];
      l.compute = std::max(l.compute, w.time);
      auto receive = [&](ir::TransferId t) {
        auto [r, added] = l.index.emplace(t, l.received.size());
        if (added) l.received.push_back(Reception{t, {}});
        std::vector<std::int32_t>& cores = l.received[r->second].cores;
        if (std::find(cores.begin(), cores.end(), c.core_id) == cores.end())
          cores.push_back(c.core_id);
      };
      for (const ir::Ifmap& f : w.ifmap)
        for (ir::TransferId t : f.transfer_id) receive(t);
      if (w.weight)
        for (ir::TransferId t : w.weight->transfer_id) receive(t);
      for (const ir::Ofmap& o : w.ofmap)
        if (std::any_of(o.destination.begin(), o.destination.end(),
                        [](const ir::Endpoint& e) { return e.type == ir::EndpointType::dram; }))
          l.stores.emplace_back(c.core_id, o.size);
    }
  return layers;
}

// Each segment's figures from its layers' (`out`), the loads summed over
// them and the longest chain of its core-to-core edges.
void summarize_segments(const std::vector<LayerRoofline>& out,
                        const std::unordered_map<std::string, std::int32_t>& seg_of,
                        const std::vector<std::pair<std::size_t, std::size_t>>& edges,
                        const std::vector<std::vector<double>>& seg_links,
                        const std::vector<std::vector<double>>& seg_ports, const LinkLoads& links,
                        const RooflineInput& in, std::vector<SegmentRoofline>& segments) {
  const std::size_t nseg = seg_links.size();
  segments.resize(nseg);
  std::vector<std::vector<std::size_t>> members(nseg);
  for (std::size_t li = 0; li < out.size(); ++li)
    if (const auto s = seg_of.find(out[li].name); s != seg_of.end())
      members[static_cast<std::size_t>(s->second)].push_back(li);
  for (std::size_t s = 0; s < segments.size(); ++s) {
    SegmentRoofline& sr = segments[s];
    for (std::size_t li : members[s]) {
      sr.layers.push_back(out[li].name);
      sr.layer_cycles = std::max(sr.layer_cycles, out[li].bound_cycles());
    }
    sr.stages = longest_chain(members[s], edges);
    if (!seg_links[s].empty()) {
      const std::size_t at = links.slowest(seg_links[s]);
      if (seg_links[s][at] > 0) {
        sr.link = links.name(at);
        sr.link_cycles = links.cycles(at, seg_links[s][at]);
      }
    }
    double busiest = 0;
    for (double b : seg_ports[s]) busiest = std::max(busiest, b);
    sr.dram_cycles = static_cast<std::int64_t>(std::ceil(busiest / in.port_bytes_per_cycle - 1e-9));
  }
}

}  // namespace

std::vector<LayerRoofline> layer_roofline(const ir::Model& m, const RooflineInput& in,
                                          std::vector<SegmentRoofline>* segments) {
  std::vector<LayerRoofline> out;
  if (segments) segments->clear();
  if (in.xlen <= 0 || in.ylen <= 0 || in.ports.empty() || in.link_bytes_per_cycle <= 0 ||
      in.port_bytes_per_cycle <= 0)
    return out;
  const ir::TransferIndex transfers(m);
  LinkLoads links(in);
  const auto nports = static_cast<std::int32_t>(in.ports.size());
  const auto cores = static_cast<std::int32_t>(in.core_port.size());
  auto pos = [&](std::int32_t core) { return NodePos{core % in.xlen, core / in.xlen}; };
  auto on_mesh = [&](std::int32_t core) { return core >= 0 && core < cores; };
  std::vector<double> port_bytes(in.ports.size(), 0.0);
  // The ports a DRAM access of these cores uses.
  auto ports_of = [&](const std::vector<std::int32_t>& who) {
    std::vector<std::int32_t> ps;
    if (in.interleave) {
      for (std::int32_t p = 0; p < nports; ++p) ps.push_back(p);
    } else {
      for (std::int32_t c : who)
        if (std::find(ps.begin(), ps.end(), in.core_port[c]) == ps.end())
          ps.push_back(in.core_port[c]);
    }
    return ps;
  };
  std::vector<LayerTraffic> layers = gather(m);
  // The segments, when asked for and the file gives them: each one's
  // summed link and port loads, its members and its core-to-core edges.
  std::unordered_map<std::string, std::int32_t> seg_of;
  if (segments) seg_of = segments_of(m);
  std::unordered_map<std::string, std::size_t> layer_index;
  for (std::size_t i = 0; i < layers.size(); ++i) layer_index.emplace(layers[i].name, i);
  std::int32_t nseg = 0;
  for (const auto& [name, s] : seg_of) nseg = std::max(nseg, s + 1);
  std::vector<std::vector<double>> seg_links(static_cast<std::size_t>(nseg));
  std::vector<std::vector<double>> seg_ports(static_cast<std::size_t>(nseg),
                                             std::vector<double>(in.ports.size(), 0.0));
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  for (std::size_t li = 0; li < layers.size(); ++li) {
    LayerTraffic& l = layers[li];
    const auto seg_it = seg_of.find(l.name);
    const std::int32_t seg = seg_it == seg_of.end() ? -1 : seg_it->second;
    for (const Reception& r : l.received) {
      const auto* producers = transfers.producers(r.transfer);
      if (!producers || producers->empty()) continue;
      const ir::ProducerRef& p = producers->front();
      std::vector<std::int32_t> who;
      for (std::int32_t c : r.cores)
        if (on_mesh(c)) who.push_back(c);
      if (who.empty()) continue;
      if (p.from_dram) {
        const auto bytes = static_cast<double>(m.dram_out[p.dram_index].size);
        if (in.dram_multicast) {
          // Read once, in equal stripes over the ports, each down its tree.
          const std::vector<std::int32_t> ps = ports_of(who);
          for (std::int32_t port : ps) {
            const double share = bytes / static_cast<double>(ps.size());
            port_bytes[static_cast<std::size_t>(port)] += share;
            links.new_tree();
            for (std::int32_t c : who) links.route(in.ports[port], pos(c), share, true);
          }
        } else {
          for (std::int32_t c : who) {
            const std::vector<std::int32_t> ps = ports_of({c});
            for (std::int32_t port : ps) {
              const double share = bytes / static_cast<double>(ps.size());
              port_bytes[static_cast<std::size_t>(port)] += share;
              links.route(in.ports[port], pos(c), share, false);
            }
          }
        }
        continue;
      }
      const std::int32_t from = m.cores[p.core_index].core_id;
      if (const auto e = layer_index.find(transfers.workload(p).layer_name);
          seg >= 0 && e != layer_index.end())
        edges.emplace_back(e->second, li);
      if (!on_mesh(from)) continue;
      const auto bytes = static_cast<double>(transfers.ofmap(p).size);
      links.new_tree();
      for (std::int32_t c : who)
        if (c != from) links.route(pos(from), pos(c), bytes, in.noc_multicast);
    }
    for (const auto& [core, size] : l.stores) {
      if (!on_mesh(core)) continue;
      const std::vector<std::int32_t> ps = ports_of({core});
      for (std::int32_t port : ps) {
        const double share = static_cast<double>(size) / static_cast<double>(ps.size());
        port_bytes[static_cast<std::size_t>(port)] += share;
        links.route(pos(core), in.ports[port], share, false);
      }
    }
    LayerRoofline lr;
    lr.name = l.name;
    lr.compute_cycles = l.compute;
    const auto [link, link_bytes] =
        links.take_max(seg >= 0 ? &seg_links[static_cast<std::size_t>(seg)] : nullptr);
    if (link_bytes > 0) {
      lr.link = links.name(link);
      lr.link_bytes = std::llround(link_bytes);
      lr.link_cycles = links.cycles(link, link_bytes);
      lr.link_d2d = links.d2d(link);
    }
    double dram = 0, busiest = 0;
    for (std::size_t k = 0; k < port_bytes.size(); ++k) {
      double& b = port_bytes[k];
      if (seg >= 0) seg_ports[static_cast<std::size_t>(seg)][k] += b;
      dram += b;
      busiest = std::max(busiest, b);
      b = 0;
    }
    lr.dram_bytes = std::llround(dram);
    lr.dram_cycles = static_cast<std::int64_t>(std::ceil(busiest / in.port_bytes_per_cycle - 1e-9));
    out.push_back(std::move(lr));
  }
  if (!segments || nseg == 0) return out;
  summarize_segments(out, seg_of, edges, seg_links, seg_ports, links, in, *segments);
  return out;
}

}  // namespace gemini::sim
