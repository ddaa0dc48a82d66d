#include "gemini/ir/graph.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

namespace gemini::ir {

TransferIndex::TransferIndex(const Model& m) : m_(m) {
  producers_.reserve(m.dram_out.size() * 2);
  for (std::uint32_t i = 0; i < m.dram_out.size(); ++i) {
    ProducerRef p;
    p.from_dram = true;
    p.dram_index = i;
    producers_[m.dram_out[i].transfer_id].push_back(p);
  }
  for (std::uint32_t c = 0; c < m.cores.size(); ++c) {
    const auto& wls = m.cores[c].workloads;
    for (std::uint32_t w = 0; w < wls.size(); ++w) {
      for (std::uint32_t o = 0; o < wls[w].ofmap.size(); ++o) {
        ProducerRef p;
        p.core_index = c;
        p.workload_index = w;
        p.ofmap_index = o;
        producers_[wls[w].ofmap[o].transfer_id].push_back(p);
      }
    }
  }
  for (std::uint32_t i = 0; i < m.dram_in.size(); ++i)
    dram_in_.emplace(m.dram_in[i].transfer_id, i);
}

const std::vector<ProducerRef>* TransferIndex::producers(TransferId t) const {
  auto it = producers_.find(t);
  return it == producers_.end() ? nullptr : &it->second;
}

const DramIn* TransferIndex::dram_in(TransferId t) const {
  auto it = dram_in_.find(t);
  return it == dram_in_.end() ? nullptr : &m_.dram_in[it->second];
}

const Workload& TransferIndex::workload(const ProducerRef& p) const {
  return m_.cores[p.core_index].workloads[p.workload_index];
}

const Ofmap& TransferIndex::ofmap(const ProducerRef& p) const {
  return workload(p).ofmap[p.ofmap_index];
}

DependencyGraph::DependencyGraph(const Model& m, const TransferIndex& index) : m_(m) {
  // Node numbering and a (core_id, workload_id) -> node map.
  boost::unordered_flat_map<std::uint64_t, std::uint32_t> by_id;
  std::size_t workloads = 0;
  for (const Core& c : m.cores) workloads += c.workloads.size();
  by_id.reserve(workloads);
  auto key = [](std::int32_t core, std::int32_t wl) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(core)) << 32) |
           static_cast<std::uint32_t>(wl);
  };
  for (std::uint32_t c = 0; c < m.cores.size(); ++c) {
    core_base_.push_back(static_cast<std::uint32_t>(nodes_.size()));
    for (std::uint32_t w = 0; w < m.cores[c].workloads.size(); ++w) {
      by_id.emplace(key(m.cores[c].core_id, m.cores[c].workloads[w].workload_id),
                    static_cast<std::uint32_t>(nodes_.size()));
      nodes_.push_back({c, w});
    }
  }
  out_.resize(nodes_.size());
  auto find = [&](std::int32_t core, std::int32_t wl) -> std::optional<std::uint32_t> {
    auto it = by_id.find(key(core, wl));
    if (it == by_id.end()) return std::nullopt;
    return it->second;
  };

  // Program order: ascending workload_id on each core.
  for (std::uint32_t c = 0; c < m.cores.size(); ++c) {
    std::vector<std::pair<std::int32_t, std::uint32_t>> order;
    for (const Workload& w : m.cores[c].workloads)
      order.emplace_back(w.workload_id, *find(m.cores[c].core_id, w.workload_id));
    std::sort(order.begin(), order.end());
    for (std::size_t i = 1; i < order.size(); ++i)
      if (order[i].second != order[i - 1].second)
        out_[order[i - 1].second].push_back({order[i].second, kProgramOrder, false});
  }

  // Transfers, from the consumer's side: every consumed id with a producer.
  for (std::uint32_t n = 0; n < nodes_.size(); ++n) {
    const Workload& w = workload(n);
    auto consume = [&](TransferId t) {
      const auto* ps = index.producers(t);
      if (!ps) return;
      for (const ProducerRef& p : *ps) {
        if (p.from_dram) {
          // A DRAM read depends on the writes it re-reads.
          for (TransferId r : m.dram_out[p.dram_index].related_ifmap) {
            const DramIn* in = index.dram_in(r);
            if (!in) continue;
            if (auto src = find(in->core_id, in->workload_id); src && *src != n)
              out_[*src].push_back({n, t, true});
          }
        } else {
          const std::uint32_t src =
              *find(m.cores[p.core_index].core_id, index.workload(p).workload_id);
          if (src != n) out_[src].push_back({n, t, false});
        }
      }
    };
    for (const Ifmap& f : w.ifmap)
      for (TransferId t : f.transfer_id) consume(t);
    if (w.weight)
      for (TransferId t : w.weight->transfer_id) consume(t);
  }
}

const Workload& DependencyGraph::workload(std::uint32_t i) const {
  return m_.cores[nodes_[i].core_index].workloads[nodes_[i].workload_index];
}

std::int32_t DependencyGraph::core_id(std::uint32_t i) const {
  return m_.cores[nodes_[i].core_index].core_id;
}

std::vector<std::uint32_t> DependencyGraph::topological_order() const {
  std::vector<std::uint32_t> indeg(nodes_.size(), 0);
  for (const auto& es : out_)
    for (const Edge& e : es) ++indeg[e.to];
  std::vector<std::uint32_t> order;
  order.reserve(nodes_.size());
  for (std::uint32_t i = 0; i < nodes_.size(); ++i)
    if (indeg[i] == 0) order.push_back(i);
  for (std::size_t head = 0; head < order.size(); ++head)
    for (const Edge& e : out_[order[head]])
      if (--indeg[e.to] == 0) order.push_back(e.to);
  return order;
}

std::optional<std::vector<std::pair<std::uint32_t, DependencyGraph::Edge>>>
DependencyGraph::find_cycle() const {
  const auto order = topological_order();
  if (order.size() == nodes_.size()) return std::nullopt;
  // Nodes left over lie on a cycle or behind one. Restrict to them and walk
  // backwards-closed: every leftover node has a leftover predecessor, so a
  // forward walk inside "nodes that can reach a leftover node" would also do;
  // simplest is an iterative DFS over leftover nodes with colours.
  std::vector<char> in_order(nodes_.size(), 0);
  for (auto n : order) in_order[n] = 1;
  std::vector<char> colour(nodes_.size(), 0);  // 0 new, 1 on stack, 2 done
  for (std::uint32_t start = 0; start < nodes_.size(); ++start) {
    if (in_order[start] || colour[start]) continue;
    struct Frame {
      std::uint32_t node;
      std::size_t next;
    };
    std::vector<Frame> stack{{start, 0}};
    colour[start] = 1;
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next == out_[f.node].size()) {
        colour[f.node] = 2;
        stack.pop_back();
        continue;
      }
      const Edge& e = out_[f.node][f.next++];
      if (in_order[e.to] || colour[e.to] == 2) continue;
      if (colour[e.to] == 1) {
        // Found: the stack from e.to up to f.node, closed by e.
        std::vector<std::pair<std::uint32_t, Edge>> cycle;
        std::size_t k = 0;
        while (stack[k].node != e.to) ++k;
        for (; k < stack.size(); ++k) {
          const Frame& g = stack[k];
          cycle.emplace_back(g.node, out_[g.node][g.next - 1]);
        }
        return cycle;
      }
      colour[e.to] = 1;
      stack.push_back({e.to, 0});
    }
  }
  return std::nullopt;
}

DependencyGraph::Path DependencyGraph::longest_path() const {
  const auto order = topological_order();
  std::vector<std::int64_t> dist(nodes_.size(), -1);
  std::vector<std::int64_t> prev(nodes_.size(), -1);
  for (auto n : order)
    if (dist[n] < 0) dist[n] = workload(n).time;
  Path best;
  std::int64_t best_end = -1;
  for (auto n : order) {
    if (dist[n] > best.total_time || best_end < 0) {
      best.total_time = dist[n];
      best_end = n;
    }
    for (const Edge& e : out_[n]) {
      const std::int64_t d = dist[n] + workload(e.to).time;
      if (d > dist[e.to]) {
        dist[e.to] = d;
        prev[e.to] = n;
      }
    }
  }
  for (std::int64_t n = best_end; n >= 0; n = prev[static_cast<std::size_t>(n)])
    best.nodes.push_back(static_cast<std::uint32_t>(n));
  std::reverse(best.nodes.begin(), best.nodes.end());
  return best;
}

std::vector<std::int64_t> DependencyGraph::earliest_starts() const {
  std::vector<std::int64_t> start(nodes_.size(), -1);
  for (auto n : topological_order()) {
    if (start[n] < 0) start[n] = 0;
    const std::int64_t done = start[n] + workload(n).time;
    for (const Edge& e : out_[n]) start[e.to] = std::max(start[e.to], done);
  }
  return start;
}

const ModelGraph& ModelGraph::of(const Model& m, const ModelGraph* given,
                                 std::optional<ModelGraph>& own) {
  if (!given) return own.emplace(m);
  if (&given->model() != &m) {
    std::fprintf(stderr, "gemini: internal error: a stage was given the graph of another model\n");
    std::abort();
  }
  return *given;
}

std::string DependencyGraph::describe(std::uint32_t n) const {
  const Workload& w = workload(n);
  return "core " + std::to_string(core_id(n)) + " workload " + std::to_string(w.workload_id) +
         " (" + w.layer_name + ")";
}

}  // namespace gemini::ir
