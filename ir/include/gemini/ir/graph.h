#pragma once
// Derived views of a model that several stages need:
//   * TransferIndex: who produces each transfer_id (a DRAM out entry or a
//     workload's ofmap), built once in O(n);
//   * DependencyGraph: workloads as nodes; edges for each core's program order
//     (ascending workload_id), every core-to-core transfer, and every DRAM
//     round trip (an ofmap written to DRAM and read back through a DRAM out
//     entry whose related_ifmap names it). A cycle is a deadlock on the chip.

#include <boost/unordered/unordered_flat_map.hpp>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gemini/ir/model.h"

namespace gemini::ir {

struct ProducerRef {
  bool from_dram = false;
  std::uint32_t dram_index = 0;                                       // into Model::dram_out
  std::uint32_t core_index = 0, workload_index = 0, ofmap_index = 0;  // into Model::cores
};

class TransferIndex {
 public:
  explicit TransferIndex(const Model& m);
  // All producers of `t` (more than one is an error the validator reports).
  const std::vector<ProducerRef>* producers(TransferId t) const;
  // The DRAM in entry (write-back) with this transfer id, or nullptr.
  const DramIn* dram_in(TransferId t) const;
  const Workload& workload(const ProducerRef& p) const;
  const Ofmap& ofmap(const ProducerRef& p) const;
  const Model& model() const { return m_; }

 private:
  const Model& m_;
  // Open-addressing maps: every check, the import and the lowering look
  // transfers up here, hundreds of thousands of times per file.
  boost::unordered_flat_map<TransferId, std::vector<ProducerRef>> producers_;
  boost::unordered_flat_map<TransferId, std::uint32_t> dram_in_;
};

class DependencyGraph {
 public:
  struct Node {
    std::uint32_t core_index, workload_index;
  };
  struct Edge {
    std::uint32_t to;
    // kProgramOrder for the core's own order, else the transfer carried.
    TransferId transfer;
    bool via_dram;
  };
  static constexpr TransferId kProgramOrder = -1;

  DependencyGraph(const Model& m, const TransferIndex& index);

  std::size_t size() const { return nodes_.size(); }
  const Node& node(std::uint32_t i) const { return nodes_[i]; }
  const std::vector<Edge>& out(std::uint32_t i) const { return out_[i]; }
  const Workload& workload(std::uint32_t i) const;
  std::int32_t core_id(std::uint32_t i) const;

  // Kahn's order; nodes on or behind a cycle are missing from it.
  std::vector<std::uint32_t> topological_order() const;
  // One cycle as a closed walk of (node, edge taken to the next node), or
  // nullopt when the graph is acyclic.
  std::optional<std::vector<std::pair<std::uint32_t, Edge>>> find_cycle() const;

  struct Path {
    std::int64_t total_time = 0;
    std::vector<std::uint32_t> nodes;  // first to last
  };
  // Longest path where each node weighs its workload's predicted `time`.
  // Only meaningful on an acyclic graph (nodes on cycles are ignored).
  Path longest_path() const;

  // Earliest start of every node when each workload takes its predicted
  // `time` and waits for all its predecessors (ASAP; -1 on cycles).
  std::vector<std::int64_t> earliest_starts() const;
  // The node of (core index, workload index) in the model's vectors.
  std::uint32_t node_of(std::uint32_t core_index, std::uint32_t workload_index) const {
    return core_base_[core_index] + workload_index;
  }

  std::string describe(std::uint32_t node) const;  // "core 3 workload 12 (conv1)"

 private:
  const Model& m_;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> core_base_;  // first node of each core
  std::vector<std::vector<Edge>> out_;
};

// A model's transfer index and dependency graph, with the graph's earliest
// starts, built once for the stages that all need them: validation, import
// and lowering. They read only what import leaves as it is (cores and
// workloads with their ids and times, transfer ids, destinations, DRAM
// entries), so one ModelGraph serves a model before and after import. It
// refers to the model, which must stay where it is while it is in use.
class ModelGraph {
 public:
  explicit ModelGraph(const Model& m) : transfers_(m), graph_(m, transfers_) {}
  ModelGraph(const ModelGraph&) = delete;
  ModelGraph& operator=(const ModelGraph&) = delete;

  // The graph a stage working on m uses: `given` when the caller has one
  // (it must be m's: another model's is a bug and aborts), else one built
  // into `own`.
  static const ModelGraph& of(const Model& m, const ModelGraph* given,
                              std::optional<ModelGraph>& own);

  const Model& model() const { return transfers_.model(); }
  const TransferIndex& transfers() const { return transfers_; }
  const DependencyGraph& graph() const { return graph_; }
  // DependencyGraph::earliest_starts(), worked out on first use (from any
  // thread) and kept.
  const std::vector<std::int64_t>& earliest_starts() const {
    std::call_once(starts_once_, [this] { starts_ = graph_.earliest_starts(); });
    return starts_;
  }

 private:
  TransferIndex transfers_;
  DependencyGraph graph_;
  mutable std::once_flag starts_once_;
  mutable std::vector<std::int64_t> starts_;
};

}  // namespace gemini::ir
