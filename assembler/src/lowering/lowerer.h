#pragma once
// The lowering's shared state and its passes (internal to the assembler;
// lowering.h states what the lowering does as a whole). One Lowerer runs
// the passes in this order, each in its own file:
//
//   tensors.cpp    L2 tensors of every core: runs of snapshots, their
//                  layouts, ring-buffer hazards, receivers of transfers
//   dram_map.cpp   the DRAM tensors and the region of each DRAM transfer
//   multicast.cpp  which loads of one DRAM out entry read it together
//   events.cpp     the event graph, one function per phase of a workload
//                  (loads and credits, operands, WL0, compute, outputs)
//   select.cpp     PE and VP instruction selection for a compute event
//   merge.cpp      the cores' events numbered into one graph, cross-core
//                  dependencies resolved
//   schedule.cpp   one topological order of all events; NoC multicast
//   emit.cpp       each core's instructions in that order, dependencies
//                  turned into waits
//   lower.cpp      the driver (run) and the public entry point (lower)
//
// Events are numbered by core; a pass that reads another core's data does
// so through buckets (buckets.h) so that cores can be built in parallel.

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <boost/unordered/unordered_flat_map.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "buckets.h"
#include "emit.h"
#include "gemini/assembler/invocation.h"
#include "gemini/assembler/lowering.h"
#include "gemini/ir/graph.h"
#include "layout.h"
#include "multicast.h"

namespace gemini::assembler::lowering {

using detail::bucket;
using detail::Buckets;
using ir::TransferId;

// A tensor of one core: one run of snapshots (tensor_id in the full dialect).
struct Tensor {
  std::int64_t addr = 0, size = 0;
  // Its layout box (docs/isa.md): its first entry's box, 4-D; weights as
  // [K, C/G, R, S] or, per sample, [N, K, C/G, R*S]. Copied here beside the
  // address: a send reads both from another core's tensors.
  ir::Box box;
  // An elementwise layer's operands: slabs of volume(box) bytes, each
  // holding the data of its producers, in this order (ir::operand_slabs);
  // empty for one input.
  std::vector<std::vector<std::string>> operands;
  std::uint32_t first = 0, last = 0;
  // The snapshot of its first write: `first`, or earlier where a workload
  // without an ofmap entry of its own writes its result straight into this
  // tensor before the tensor's first snapshot (find_operands). Its bytes
  // are taken from then on: hazards() orders that write after the tensor's
  // predecessors, and its own loads and credits wait for what it holds.
  std::uint32_t from = 0;
  ir::TensorType type = ir::TensorType::ifmap;
  const ir::BufferEntry* entry = nullptr;  // first occurrence
  std::vector<std::uint32_t> accesses;     // events that read or write it, on this core
  std::vector<std::uint32_t> writers;      // events that write it (other cores' sends too)
  // Its compute and WL0 events that read it (a compute writing its ofmap
  // into a tensor other writers fill too -- an elementwise layer's operand
  // slabs on one core -- is not one of them: it waits for none of those).
  std::vector<std::uint32_t> readers;
  // Its local writer waited for its own hazards (a load, credit or compute),
  // so anything it overlaps is ordered before it.
  bool ordered_after_hazards = false;
};

enum class Kind : std::uint8_t { load, credit, wl0, compute, send, store };
const char* to_string(Kind k);

// An event's dependencies (event ids). Most events have a handful, kept in
// place: 130K events would otherwise make as many small allocations, and
// as many frees when the lowering ends.
using DepList = boost::container::small_vector<std::uint32_t, 4>;

// A transfer and a 32-bit qualifier -- a source core id, a tensor, or a
// sender and token kind -- as one hash key: the lowering's maps are keyed so.
struct TransferKey {
  TransferId transfer;
  std::uint32_t part;
  bool operator==(const TransferKey&) const = default;
};
struct TransferKeyHash {
  std::size_t operator()(const TransferKey& k) const {
    return static_cast<std::size_t>(static_cast<std::uint64_t>(k.transfer) *
                                    0x9e3779b97f4a7c15ULL) ^
           k.part;
  }
};
template <typename V>
using TransferMap = boost::unordered_flat_map<TransferKey, V, TransferKeyHash>;
template <typename K, typename V>
using FlatMap = boost::unordered_flat_map<K, V>;

// A received transfer on a core, exactly: (transfer id, source core id).
inline TransferKey received(TransferId transfer, std::int32_t from) {
  return {transfer, static_cast<std::uint32_t>(from)};
}

struct Event {
  // Moves never throw: the in-place lists move their few trivially copyable
  // items or take over the heap buffer (and std::vector<Event> then moves
  // events when it grows instead of copying them).
  Event() = default;
  Event(const Event&) = default;
  Event(Event&&) noexcept = default;  // NOLINT(bugprone-exception-escape): see above
  Event& operator=(const Event&) = default;
  Event& operator=(Event&&) noexcept = default;  // NOLINT(bugprone-exception-escape)
  ~Event() = default;

  // 120 bytes; 130K of them for the largest corpus file, read again by
  // every later stage, so the fields are packed.
  Kind kind;
  Engine queue;
  std::uint8_t phase = 0;
  std::uint32_t core;      // index into model cores
  std::uint32_t workload;  // index into the core's workloads
  // Its instructions, bound when the event is built (typed binding,
  // invocation.h): ops_[op_begin, op_end) of the lowerer.
  std::uint32_t op_begin = 0, op_end = 0;
  // A send's receiving tensor (on the core and for the transfer of its data
  // token, tokens.front()), whose credit it awaits; kNoTensor otherwise.
  static constexpr std::uint32_t kNoTensor = 0xffffffffu;
  std::uint32_t receiver_tensor = kNoTensor;
  DepList deps;
  // Cross-core tokens this event produces: (transfer, to core index, kind).
  struct Token {
    TransferId transfer;
    std::uint32_t to;
    TokenKind kind;
  };
  boost::container::small_vector<Token, 1> tokens;
  // Symbolic dependencies resolved after all events exist.
  const std::vector<TransferId>* dram_after = nullptr;  // DRAM writes a load re-reads
  std::int64_t prio = 0;
};

static_assert(sizeof(Event) <= 120, "Event grew: see the note on its fields");

// What building one core's events produces. Event ids in it are local (0 is
// the core's first event) until the events are merged into one list.
struct CoreEvents {
  std::vector<Event> events;
  std::vector<Instr> ops;  // the instructions of its events, in event order
  std::vector<std::string> errors;
  // The credit event of each (transfer, tensor) the core receives.
  TransferMap<std::uint32_t> credit_of;
  std::vector<std::pair<TransferId, std::uint32_t>> stores;  // (DRAM in transfer, store)
  // Sends into another core's tensor: (core, tensor, local send event).
  struct RemoteWrite {
    std::uint32_t core, tensor, event;
  };
  std::vector<RemoteWrite> remote_writes;
  // Its multicast loads: (local event, group).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> multicast;
  // noc.multicast: the sends of one ofmap to two or more other cores.
  std::vector<std::vector<std::uint32_t>> send_groups;
};

// How the tensor receiving (transfer, from core) sees that data: its
// channel shift from the producer's frame and its slab address.
struct Reception {
  std::int64_t shift = 0, addr = 0;
};

// A tensor receiving (transfer, source core), with its snapshot range
// copied in: the list is read for every received ofmap, and the tensors
// are elsewhere in memory.
struct Receiver {
  std::uint32_t tensor, first, last;
};
// Its moves copy trivially copyable items or take over the heap buffer.
struct Receivers {  // NOLINT(bugprone-exception-escape): see above
  // Mostly one tensor, kept in the map's own slot (the list's first entry
  // would be one more cache miss).
  boost::container::small_vector<Receiver, 1> list;
  // How long a prefix of `list` find_receiver(rising) found dead.
  std::size_t dead = 0;
};

// What a send looks up, found where the receiving core's data is local and
// handed to the sending core: each tensor of core `core` that receives
// `transfer` from the sender, in tensor order (the first is what
// find_receiver with at_least 0 finds), its snapshot range, address and
// box. The `count` tensors of one (transfer, core) are consecutive, each
// saying how many there are: a file may list one transfer as several
// tensors at different addresses, one per reading workload, and each must
// hold the data its reader reads.
struct Inbound {
  TransferId transfer;
  std::uint32_t core, tensor, first, last, count;
  std::int64_t addr;   // where the sender writes: the tensor's, or its slab's
  std::int64_t shift;  // the tensor's channel shift from the sender's frame
  ir::Box box;
};

// The priority of an event (earliest predicted start, then workload,
// phase, core, event) as a compact key, so that ranking sorts plain values.
struct RankKey {
  std::int64_t prio;
  std::uint64_t workload_phase, core_event;
  bool operator<(const RankKey& o) const {
    return std::tie(prio, workload_phase, core_event) <
           std::tie(o.prio, o.workload_phase, o.core_event);
  }
};
// The successors of every event (CSR): out[first[p] .. first[p + 1])
// follow p.
struct Successors {
  std::vector<std::uint32_t> first, out;
};

// One binder per place that makes an instruction through an Invocation (one
// shape each; pe_cfg, vp_cfg and vp_run are built through their typed views).
struct Binders {
  RepeatBinder load, credit, wl0, pe_run, store, send, view;
};

// One core's event build, handed from phase to phase (events.cpp).
struct CoreBuild {
  std::uint32_t c;
  const ir::Core& core;
  CoreEvents& ce;
  const std::vector<std::int64_t>& start;
  const ir::DependencyGraph& graph;
  // Where this core's sends go, by (transfer, receiving core).
  TransferMap<const Inbound*> outbox;
  Binders binders;
  std::optional<std::uint32_t> last_pe;                       // WL0 reuse: the previous PE compute
  std::uint32_t next_new = 0;                                 // the first tensor not yet loaded
  std::vector<TransferId> ifmap_ids;                          // of one workload
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sent;  // of one ofmap
};

// One workload's event build: what its phases find and hand on.
struct WorkloadBuild {
  const ir::Workload& w;
  std::uint32_t i;                 // its index in the core's workloads
  std::uint32_t wid;               // its workload id
  std::int64_t prio;               // its earliest predicted start
  std::vector<std::uint32_t> ins;  // its input tensors
  std::optional<std::uint32_t> wt, out, wl0_event;
  std::optional<TransferId> out_via;  // the transfer by which `out` receives the result
  // Where the result lands and how that tensor sees the layer's output.
  Reception out_at;
};

class Lowerer {
 public:
  Lowerer(const ir::Model& m, const ir::HardwareConfig& hw, std::vector<std::string>& errors,
          const PhaseFn& on_phase, const ir::ModelGraph* graph, const LowerOptions& options)
      : m_(m),
        hw_(hw),
        errors_(errors),
        on_phase_(on_phase),
        shared_graph_(graph),
        inferred_(options.geometry ? ir::GeometryTable{} : infer_geometry(m)),
        geo_(options.geometry ? *options.geometry : inferred_) {}

  std::optional<Program> run();

 private:
  std::string who(std::uint32_t c, std::uint32_t w) const {
    const ir::Workload& x = m_.cores[c].workloads[w];
    return "core " + std::to_string(m_.cores[c].core_id) + " workload " +
           std::to_string(x.workload_id) + " (" + x.layer_name + ")";
  }
  void error(std::string s) { errors_.push_back(std::move(s)); }
  static void error(CoreEvents& ce, std::string s) { ce.errors.push_back(std::move(s)); }
  // Typed binding of an invocation made for core c, workload w. The
  // workload's name is worked out only when the binding fails, for the
  // message (bind() puts the invocation's origin into it).
  bool bind_named(const Invocation& inv, std::uint32_t c, std::uint32_t w, Instr& out,
                  std::string& err, RepeatBinder& binder) const;
  // The same into the next instruction of the core's ops, through the
  // binder of the place that made it; an error is reported and a nop stands
  // in (the lowering then fails before emitting).
  void bound(CoreEvents& ce, const Invocation& inv, std::uint32_t c, std::uint32_t w,
             RepeatBinder& binder) const;
  // An event of core c, workload i; its instructions are the ones bound
  // from now until add().
  static Event make(const CoreEvents& ce, Kind k, Engine q, std::uint8_t phase, std::uint32_t c,
                    std::uint32_t i, std::int64_t prio);
  static Event make(const CoreBuild& b, const WorkloadBuild& wb, Kind k, Engine q,
                    std::uint8_t phase) {
    return make(b.ce, k, q, phase, b.c, wb.i, wb.prio);
  }
  // Adds e to the core's events; its local id.
  static std::uint32_t add(CoreEvents& ce, Event&& e) {
    e.op_end = static_cast<std::uint32_t>(ce.ops.size());
    ce.events.push_back(std::move(e));  // one move (its lists are copied item by item)
    return static_cast<std::uint32_t>(ce.events.size() - 1);
  }

  // tensors.cpp
  void build_tensors();
  void build_inbound();
  void hazards(std::uint32_t c, std::uint32_t t, DepList& deps) const;
  std::optional<std::uint32_t> find_receiver(std::uint32_t c, TransferId t, std::int32_t from,
                                             std::uint32_t at_most, std::uint32_t at_least,
                                             bool rising = false);
  // The layout box of a buffer entry (docs/isa.md, "Data layout").
  ir::Box layout_of(const ir::BufferEntry& e) const;
  // A tensor's address for the slab of `producer` (its own address when it
  // holds one input), wrapped into its ring region.
  std::int64_t slab_address(std::uint32_t c, const Tensor& x, const std::string& producer) const;
  // Slab k of tensor x (an elementwise layer's operand), wrapped into its ring region.
  std::int64_t slab_at(std::uint32_t c, const Tensor& x, std::int64_t k) const;
  Reception reception(std::uint32_t c, std::uint32_t t, TransferId transfer,
                      std::int32_t from) const;

  // dram_map.cpp
  void build_dram_map();
  // The DRAM address of `moved`'s first element in region r.
  std::int64_t dram_address(std::uint32_t r, const ir::Box& moved) const {
    const DramRegion& g = regions_[r];
    return g.base + g.layout.offset(moved.lo[0], moved.lo[1], moved.lo[2], moved.lo[3]);
  }

  // multicast.cpp: DRAM multicast (docs/isa.md): which loads of a DRAM out
  // entry read it together.
  void plan_multicast(const ir::DependencyGraph& g, const std::vector<std::int64_t>& start);

  // events.cpp: one core's events, phase by phase.
  void build_core_events(std::uint32_t c, const std::vector<std::int64_t>& start,
                         const ir::DependencyGraph& g, CoreEvents& ce);
  void add_sources(CoreBuild& b, const WorkloadBuild& wb);
  void add_load(CoreBuild& b, const WorkloadBuild& wb, std::uint32_t t, const ir::Source& s,
                const DepList& deps, std::optional<std::uint32_t>& anchor);
  void add_credit(CoreBuild& b, const WorkloadBuild& wb, std::uint32_t t, const ir::Source& s,
                  const DepList& deps, std::optional<std::uint32_t>& anchor);
  bool find_operands(CoreBuild& b, WorkloadBuild& wb);
  void add_wl0(CoreBuild& b, WorkloadBuild& wb);
  std::uint32_t add_compute(CoreBuild& b, const WorkloadBuild& wb);
  void add_outputs(CoreBuild& b, const WorkloadBuild& wb, std::uint32_t comp);
  void add_store(CoreBuild& b, const WorkloadBuild& wb, const ir::Ofmap& of, std::uint32_t comp);
  void add_send(CoreBuild& b, const WorkloadBuild& wb, const ir::Ofmap& of, const ir::Endpoint& d,
                std::uint32_t comp, std::vector<std::uint32_t>& to_cores);
  const Inbound* reader_tensor(const Inbound* first, std::uint32_t dc, std::uint32_t di) const;
  // The view before a data instruction (docs/isa.md): the layouts of its
  // operands that it does not carry and its channel shift.
  void view(CoreBuild& b, const WorkloadBuild& wb, Engine q, std::int64_t shift,
            const ir::Box& box0, const ir::Box& box1) const;
  // Data a tensor waits for: local loads, or sends from other cores.
  void data_deps(std::uint32_t c, std::uint32_t t, Event& e) const {
    const Tensor& x = tensors_[c][t];
    e.deps.insert(e.deps.end(), x.writers.begin(), x.writers.end());
  }

  // select.cpp: a compute event's instructions.
  void select_pe(CoreBuild& b, const WorkloadBuild& wb, std::int64_t out_bytes);
  void select_vp(CoreBuild& b, const WorkloadBuild& wb, std::int64_t out_bytes);

  // merge.cpp
  void build_events(const ir::DependencyGraph& g, const std::vector<std::int64_t>& start);
  void merge_events(std::vector<CoreEvents>& built);
  void resolve_dram_reads(const std::vector<std::vector<std::uint32_t>>& dram_readers,
                          const FlatMap<TransferId, std::uint32_t>& store_of);

  // schedule.cpp
  std::vector<std::uint32_t> schedule();
  Successors successors(std::vector<std::uint32_t>& indeg, std::vector<RankKey>& keys);
  std::vector<std::uint32_t> topological_order(std::vector<std::uint32_t>& indeg,
                                               const std::vector<std::uint32_t>& rank,
                                               const std::vector<std::uint32_t>& by_rank,
                                               const Successors& succ);
  void report_cycle(const std::vector<std::uint32_t>& indeg);
  void group_sends(std::vector<std::uint32_t>& order, const std::vector<std::uint32_t>& first,
                   const std::vector<std::uint32_t>& out);

  // emit.cpp
  void emit(const std::vector<std::uint32_t>& order, Program& p);
  void emit_core(std::uint32_t c, const std::vector<std::uint32_t>& order,
                 const std::vector<FlatToken>& incoming, std::vector<DepFacts>& facts,
                 std::size_t ops, LoweredCore& out, std::vector<std::string>& errors) const;

  // The index of core c's workload with this id, as Model::find_workload
  // finds it, from a compact copy of the ids (read for every send).
  std::optional<std::uint32_t> workload_index(std::uint32_t c, std::int32_t id) const {
    const std::vector<std::int32_t>& ids = workload_ids_[c];
    auto it = std::lower_bound(ids.begin(), ids.end(), id);
    if (it == ids.end() || *it != id) it = std::find(ids.begin(), ids.end(), id);  // out of order
    if (it == ids.end()) return std::nullopt;
    return static_cast<std::uint32_t>(it - ids.begin());
  }
  void phase(const char* name) const {
    if (on_phase_) on_phase_(name);
  }

  const ir::Model& m_;
  const ir::HardwareConfig& hw_;
  std::vector<std::string>& errors_;
  const PhaseFn& on_phase_;
  const ir::ModelGraph* shared_graph_;
  const ir::GeometryTable inferred_;  // when no geometry was given
  const ir::GeometryTable& geo_;      // the one geometry source: given, or inferred_
  const ir::LayerGeometry& geometry(const std::string& layer) const {
    static const ir::LayerGeometry none;
    const ir::LayerGeometry* g = geo_.find(layer);
    return g ? *g : none;
  }

  // The DRAM tensors (docs/isa.md): regions_, and the region of each DRAM
  // out (read) and DRAM in (written) transfer.
  std::vector<DramRegion> regions_;
  FlatMap<TransferId, std::uint32_t> out_region_, in_region_;
  FlatMap<TransferId, std::int64_t> dram_out_addr_;              // a DRAM out entry's first byte
  FlatMap<TransferId, const std::vector<TransferId>*> related_;  // DRAM out -> related_ifmap
  std::int64_t dram_end_ = 0;

  std::vector<std::vector<Tensor>> tensors_;            // per core
  std::vector<std::vector<std::uint32_t>> dead_order_;  // per core: tensors by last snapshot
  // per core: the tensors that receive a (transfer, source core), in tensor
  // order.
  std::vector<TransferMap<Receivers>> receivers_;
  // inbound_[r] holds core r's Inbound, bucketed by sending core.
  std::vector<Buckets<Inbound>> inbound_;
  // The tensor of each buffer entry: core c's workload i's entry k holds
  // tensor at_[c][at_first_[c][i] + k].
  std::vector<std::vector<std::uint32_t>> at_, at_first_;
  FlatMap<std::int32_t, std::uint32_t> core_index_;
  std::vector<std::vector<std::int32_t>> workload_ids_;  // per core, in workload order

  // Per core, (tensor << 16 | source index) -> its multicast group.
  std::vector<FlatMap<std::uint64_t, McLoad>> mc_loads_;
  // Per group, its events (global ids), once the events are numbered.
  std::vector<std::vector<std::uint32_t>> mc_events_;
  // noc.multicast: candidate send groups (global event ids), and the
  // grouping of the final order (group_sends).
  std::vector<std::vector<std::uint32_t>> send_groups_;
  MulticastStats mc_stats_;

  // Events are numbered by core, then in the order built: core c's are
  // [event_base_[c], event_base_[c + 1]), kept in events_[c] where they were
  // built (one merged copy would be tens of MB more to write).
  std::vector<std::vector<Event>> events_;
  std::vector<std::uint32_t> event_base_;
  std::size_t event_count() const { return event_base_.back(); }
  Event& event(std::uint32_t c, std::uint32_t id) { return events_[c][id - event_base_[c]]; }
  const Event& event(std::uint32_t c, std::uint32_t id) const {
    return events_[c][id - event_base_[c]];
  }
  // The core of an event (a search of event_base_: for the few callers that
  // do not know it).
  std::uint32_t core_of_event(std::uint32_t id) const {
    return static_cast<std::uint32_t>(std::upper_bound(event_base_.begin(), event_base_.end(), id) -
                                      event_base_.begin() - 1);
  }
  Event& event(std::uint32_t id) { return event(core_of_event(id), id); }
  std::vector<std::vector<Instr>> ops_;  // per core: the instructions of its events
};

}  // namespace gemini::assembler::lowering
