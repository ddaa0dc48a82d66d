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

namespace {

// Link loads of one layer at a time on the mesh with its row-end ports
// (MeshLinks: the numbering and the routes of the mesh NoC model).
class LinkLoads {
 public:
  explicit LinkLoads(const RooflineInput& in)
      : links_(in.xlen, in.ylen), bytes_(links_.count(), 0.0), stamp_(bytes_.size(), 0) {}

  // A new tree: links already loaded by it are not loaded again.
  void new_tree() { ++tree_; }
  // `bytes` from a to b along the XY route; with `tree`, each link of the
  // current tree once.
  void route(NodePos a, NodePos b, double bytes, bool tree) {
    links_.xy_route(a, b,
                    [&](std::int32_t link) { add(static_cast<std::size_t>(link), bytes, tree); });
  }
  // The most loaded link and its bytes; clears the loads for the next layer.
  std::pair<std::size_t, double> take_max() {
    std::size_t at = 0;
    for (std::size_t k = 1; k < bytes_.size(); ++k)
      if (bytes_[k] > bytes_[at]) at = k;
    const double b = bytes_[at];
    std::fill(bytes_.begin(), bytes_.end(), 0.0);
    return {at, b};
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

}  // namespace

std::vector<LayerRoofline> layer_roofline(const ir::Model& m, const RooflineInput& in) {
  std::vector<LayerRoofline> out;
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
  for (LayerTraffic& l : gather(m)) {
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
    const auto [link, link_bytes] = links.take_max();
    if (link_bytes > 0) {
      lr.link = links.name(link);
      lr.link_bytes = std::llround(link_bytes);
      lr.link_cycles =
          static_cast<std::int64_t>(std::ceil(link_bytes / in.link_bytes_per_cycle - 1e-9));
    }
    double dram = 0, busiest = 0;
    for (double& b : port_bytes) {
      dram += b;
      busiest = std::max(busiest, b);
      b = 0;
    }
    lr.dram_bytes = std::llround(dram);
    lr.dram_cycles = static_cast<std::int64_t>(std::ceil(busiest / in.port_bytes_per_cycle - 1e-9));
    out.push_back(std::move(lr));
  }
  return out;
}

}  // namespace gemini::sim
