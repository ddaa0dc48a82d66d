#include "gemini/assembler/lowering.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <boost/container/small_vector.hpp>
#include <boost/unordered/unordered_flat_map.hpp>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <thread>

#include "buckets.h"
#include "gemini/assembler/invocation.h"
#include "gemini/ir/graph.h"
#include "gemini/ir/parallel.h"

namespace gemini::assembler {
namespace {

using detail::bucket;
using detail::Buckets;
using ir::TransferId;

Box to_box(const ir::Box& b) {
  Box x;
  for (int d = 0; d < 4; ++d) {
    const bool known = d < b.rank;
    x.lo[d] = known ? b.lo[d] : 0;
    x.hi[d] = known ? b.hi[d] : 0;
  }
  return x;
}

// Box helpers for layouts (docs/isa.md, "Data layout"): a tensor is dense
// over its layout box, N then C then H then W.
std::int64_t volume(const Box& b) {
  std::int64_t v = 1;
  for (int d = 0; d < 4; ++d) v *= std::max<std::int64_t>(0, b.hi[d] - b.lo[d] + 1);
  return v;
}
// The dense offset of `at` (a point) in `layout`.
std::int64_t offset_in(const Box& layout, const std::array<std::int64_t, 4>& at) {
  std::int64_t o = 0;
  for (int d = 0; d < 4; ++d) o = o * (layout.hi[d] - layout.lo[d] + 1) + (at[d] - layout.lo[d]);
  return o;
}
// `b` moved by `shift` channels (dimension 1): the same data seen from
// another frame.
Box shifted(Box b, std::int64_t shift) {
  b.lo[1] += shift;
  b.hi[1] += shift;
  return b;
}
// A source's channel shift from its producer's frame to the receiving
// tensor's (the public dialect's `channel`, corrected from the model where
// it is wrong); 0 where the IR gives none.
std::int64_t source_shift(const ir::Source& s) {
  return s.channel && s.box.rank == 4 ? std::int64_t{(*s.channel)[0]} - s.box.lo[1] : 0;
}

// A tensor of one core: one run of snapshots (tensor_id in the full dialect).
struct Tensor {
  std::int64_t addr = 0, size = 0;
  // Its layout box (docs/isa.md): its first entry's box, 4-D; weights as
  // [K, C/G, R, S] or, per sample, [N, K, C/G, R*S]. Copied here beside the
  // address: a send reads both from another core's tensors.
  Box box;
  // An elementwise layer's operands: slabs of volume(box) bytes, each
  // holding the data of its producers, in this order (ir::operand_slabs);
  // empty for one input.
  std::vector<std::vector<std::string>> operands;
  std::uint32_t first = 0, last = 0;
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

const char* to_string(Kind k) {
  switch (k) {
    case Kind::load:
      return "load";
    case Kind::credit:
      return "L2 credit";
    case Kind::wl0:
      return "WL0 load";
    case Kind::compute:
      return "compute";
    case Kind::send:
      return "send";
    case Kind::store:
      return "store";
  }
  return "?";
}

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

// A received transfer on a core, exactly: (transfer id, source core id).
TransferKey received(TransferId transfer, std::int32_t from) {
  return {transfer, static_cast<std::uint32_t>(from)};
}
template <typename K, typename V>
using FlatMap = boost::unordered_flat_map<K, V>;

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
                  std::string& err, RepeatBinder& binder) const {
    if (binder.bind(inv, out, err)) return true;
    const std::string origin = who(c, w);
    Invocation named = inv;
    named.origin = origin;
    (void)bind(named, out, err);
    return false;
  }
  // The same into the next instruction of the core's ops, through the
  // binder of the place that made it; an error is reported and a nop stands
  // in (the lowering then fails before emitting).
  void bound(CoreEvents& ce, const Invocation& inv, std::uint32_t c, std::uint32_t w,
             RepeatBinder& binder) const {
    Instr& in = ce.ops.emplace_back();
    std::string err;
    if (!bind_named(inv, c, w, in, err, binder)) {
      error(ce, err);
      in = Instr{};
    }
  }
  // An event of core c, workload i; its instructions are the ones bound
  // from now until add().
  static Event make(const CoreEvents& ce, Kind k, Engine q, std::uint8_t phase, std::uint32_t c,
                    std::uint32_t i, std::int64_t prio) {
    Event e{};
    e.kind = k;
    e.queue = q;
    e.phase = phase;
    e.core = c;
    e.workload = i;
    e.op_begin = e.op_end = static_cast<std::uint32_t>(ce.ops.size());
    e.prio = prio;
    return e;
  }
  // Adds e to the core's events; its local id.
  static std::uint32_t add(CoreEvents& ce, Event&& e) {
    e.op_end = static_cast<std::uint32_t>(ce.ops.size());
    ce.events.push_back(std::move(e));  // one move (its lists are copied item by item)
    return static_cast<std::uint32_t>(ce.events.size() - 1);
  }
  void build_tensors();
  void build_dram_map(const ir::TransferIndex& ix);
  // DRAM multicast (docs/isa.md): which loads of a DRAM out entry read it
  // together. Per core, (tensor << 16 | source index) -> its group.
  void plan_multicast(const ir::DependencyGraph& g, const std::vector<std::int64_t>& start);
  struct McLoad {
    std::uint32_t group;
    std::uint16_t members, part;
  };
  std::vector<FlatMap<std::uint64_t, McLoad>> mc_loads_;
  // Per group, its events (global ids), once the events are numbered.
  std::vector<std::vector<std::uint32_t>> mc_events_;
  // noc.multicast: candidate send groups (global event ids), and the
  // grouping of the final order (group_sends).
  std::vector<std::vector<std::uint32_t>> send_groups_;

  void group_sends(std::vector<std::uint32_t>& order, const std::vector<std::uint32_t>& first,
                   const std::vector<std::uint32_t>& out);
  MulticastStats mc_stats_;
  void build_events(const ir::DependencyGraph& g, const std::vector<std::int64_t>& start);
  void build_core_events(std::uint32_t c, const std::vector<std::int64_t>& start,
                         const ir::DependencyGraph& g, CoreEvents& ce);
  void hazards(std::uint32_t c, std::uint32_t t, DepList& deps) const;
  std::optional<std::uint32_t> find_receiver(std::uint32_t c, TransferId t, std::int32_t from,
                                             std::uint32_t at_most, std::uint32_t at_least,
                                             bool rising = false);
  std::vector<std::uint32_t> schedule();
  void report_cycle(const std::vector<std::uint32_t>& indeg);
  // The index of core c's workload with this id, as Model::find_workload
  // finds it, from a compact copy of the ids (read for every send).
  std::optional<std::uint32_t> workload_index(std::uint32_t c, std::int32_t id) const {
    const std::vector<std::int32_t>& ids = workload_ids_[c];
    auto it = std::lower_bound(ids.begin(), ids.end(), id);
    if (it == ids.end() || *it != id) it = std::find(ids.begin(), ids.end(), id);  // out of order
    if (it == ids.end()) return std::nullopt;
    return static_cast<std::uint32_t>(it - ids.begin());
  }
  void emit(const std::vector<std::uint32_t>& order, Program& p);

  const ir::Model& m_;
  const ir::HardwareConfig& hw_;
  std::vector<std::string>& errors_;
  const PhaseFn& on_phase_;
  const ir::ModelGraph* shared_graph_;
  const ir::GeometryTable inferred_;  // when no geometry was given
  const ir::GeometryTable& geo_;
  const ir::LayerGeometry& geometry(const std::string& layer) const {
    static const ir::LayerGeometry none;
    const ir::LayerGeometry* g = geo_.find(layer);
    return g ? *g : none;
  }
  // The layout box of a buffer entry (docs/isa.md, "Data layout").
  Box layout_of(const ir::BufferEntry& e) const;
  static Box weight_layout(const ir::Box& w, const ir::LayerGeometry& g, std::int64_t bytes);
  // A tensor's address for the slab of `producer` (its own address when it
  // holds one input), wrapped into its ring region.
  std::int64_t slab_address(std::uint32_t c, const Tensor& x, const std::string& producer) const;
  // Slab k of tensor x (an elementwise layer's operand), wrapped into its ring region.
  std::int64_t slab_at(std::uint32_t c, const Tensor& x, std::int64_t k) const;
  // How the tensor receiving (transfer, from core) sees that data: its
  // channel shift from the producer's frame and its slab address.
  struct Reception {
    std::int64_t shift = 0, addr = 0;
  };
  Reception reception(std::uint32_t c, std::uint32_t t, TransferId transfer,
                      std::int32_t from) const;
  // The DRAM tensors (docs/isa.md): regions_, and the region of each DRAM
  // out (read) and DRAM in (written) transfer.
  std::vector<DramRegion> regions_;
  FlatMap<TransferId, std::uint32_t> out_region_, in_region_;
  // The DRAM address of `moved`'s first element in region r.
  std::int64_t dram_address(std::uint32_t r, const Box& moved) const {
    const DramRegion& g = regions_[r];
    return g.base + offset_in(g.layout, moved.lo);
  }
  void phase(const char* name) const {
    if (on_phase_) on_phase_(name);
  }
  std::vector<std::vector<Tensor>> tensors_;            // per core
  std::vector<std::vector<std::uint32_t>> dead_order_;  // per core: tensors by last snapshot
  // per core: the tensors that receive a (transfer, source core), in tensor
  // order, and how long a prefix of them find_receiver(rising) found dead
  // (The tensors' snapshot ranges are copied in: the list is read for
  // every received ofmap, and the tensors are elsewhere in memory.)
  struct Receiver {
    std::uint32_t tensor, first, last;
  };
  // Its moves copy trivially copyable items or take over the heap buffer.
  struct Receivers {  // NOLINT(bugprone-exception-escape): see above
    // Mostly one tensor, kept in the map's own slot (the list's first
    // entry would be one more cache miss).
    boost::container::small_vector<Receiver, 1> list;
    std::size_t dead = 0;
  };
  std::vector<TransferMap<Receivers>> receivers_;
  // What a send looks up, found where the receiving core's data is local
  // and handed to the sending core: the first tensor of core `core` that
  // receives `transfer` from the sender (find_receiver with at_least 0),
  // its address and box. inbound_[r] holds core r's, bucketed by sending
  // core.
  struct Inbound {
    TransferId transfer;
    std::uint32_t core, tensor, first;
    std::int64_t addr;   // where the sender writes: the tensor's, or its slab's
    std::int64_t shift;  // the tensor's channel shift from the sender's frame
    Box box;
  };
  std::vector<Buckets<Inbound>> inbound_;
  void build_inbound();
  // The tensor of each buffer entry: core c's workload i's entry k holds
  // tensor at_[c][at_first_[c][i] + k].
  std::vector<std::vector<std::uint32_t>> at_, at_first_;
  FlatMap<TransferId, std::int64_t> dram_out_addr_;              // a DRAM out entry's first byte
  FlatMap<TransferId, const std::vector<TransferId>*> related_;  // DRAM out -> related_ifmap
  std::int64_t dram_end_ = 0;
  FlatMap<std::int32_t, std::uint32_t> core_index_;
  std::vector<std::vector<std::int32_t>> workload_ids_;  // per core, in workload order
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

// Each core's tensors on their own (in parallel).
void Lowerer::build_tensors() {
  const std::size_t n = m_.cores.size();
  tensors_.resize(n);
  at_.resize(n);
  at_first_.resize(n);
  workload_ids_.resize(n);
  dead_order_.resize(n);
  receivers_.resize(n);
  ir::parallel_for(n, [&](std::size_t c) {
    const auto& wls = m_.cores[c].workloads;
    for (const ir::Workload& w : wls) workload_ids_[c].push_back(w.workload_id);
    // Keyed by the entry itself (ir::tensor_identity without the string).
    boost::unordered_flat_map<const ir::BufferEntry*, std::uint32_t, ir::TensorIdentityHash,
                              ir::TensorIdentityEq>
        prev, cur;
    std::vector<std::uint32_t>& ids = at_[c];
    for (std::uint32_t i = 0; i < wls.size(); ++i) {
      cur.clear();
      at_first_[c].push_back(static_cast<std::uint32_t>(ids.size()));
      for (const ir::BufferEntry& e : wls[i].buffer) {
        const ir::BufferEntry* key = &e;
        if (auto same = cur.find(key); same != cur.end()) {  // listed again for another reader
          ids.push_back(same->second);
          continue;
        }
        std::uint32_t id = 0;
        auto it = prev.find(key);
        if (it != prev.end()) {
          id = it->second;
          tensors_[c][id].last = i;
        } else {
          id = static_cast<std::uint32_t>(tensors_[c].size());
          Tensor t;
          t.addr = e.address.value_or(0);
          t.size = std::max<std::int64_t>(e.size.value_or(0), 1);
          t.first = t.last = i;
          t.type = e.type;
          t.entry = &e;
          t.box = layout_of(e);
          t.operands = ir::operand_slabs(e);
          tensors_[c].push_back(std::move(t));
        }
        cur[key] = id;
        ids.push_back(id);
      }
      std::swap(prev, cur);
    }
    auto& o = dead_order_[c];
    o.resize(tensors_[c].size());
    for (std::uint32_t i = 0; i < o.size(); ++i) o[i] = i;
    std::stable_sort(o.begin(), o.end(),
                     [&](auto a, auto b) { return tensors_[c][a].last < tensors_[c][b].last; });
    for (std::uint32_t i = 0; i < tensors_[c].size(); ++i)
      for (const ir::Source& s : tensors_[c][i].entry->source)
        if (s.type == ir::EndpointType::core) {
          auto& v = receivers_[c][received(s.transfer_id, s.core_id)].list;
          if (v.empty() || v.back().tensor != i)
            v.push_back({i, tensors_[c][i].first, tensors_[c][i].last});
        }
  });
}

Box Lowerer::layout_of(const ir::BufferEntry& e) const {
  if (e.type != ir::TensorType::weight) return to_box(e.box);
  return weight_layout(e.box, geometry(e.layer_name), e.size.value_or(0));
}

// A weight box as data (docs/isa.md, "Data layout"; its forms in
// ir::weight_k_dim): per-sample weights [n, k, c, R*S]; constant weights
// [k0, k1] x the layer's weight shape (C/G x R x S; FC: C*IH*IW x 1 x 1),
// else [k0, k1] x C x R x S of a 4-D box, else the bytes per output channel
// (`bytes` over the K range) as one dimension.
Box Lowerer::weight_layout(const ir::Box& w, const ir::LayerGeometry& g, std::int64_t bytes) {
  Box b;
  const std::int64_t rs = std::max<std::int64_t>(1, std::int64_t{g.kernel[0]} * g.kernel[1]);
  if (g.per_sample_weights && w.rank >= 3) {
    for (int d = 0; d < 3; ++d) {
      b.lo[d] = w.lo[d];
      b.hi[d] = w.hi[d];
    }
    b.hi[3] = w.rank == 4 ? w.hi[3] : rs - 1;
    return b;
  }
  const int kd = ir::weight_k_dim(w);
  b.lo[0] = w.lo[kd];
  b.hi[0] = w.hi[kd];
  const std::int64_t per_k =
      std::int64_t{g.weight_shape[1]} * g.weight_shape[2] * g.weight_shape[3];
  if (w.rank == 4 && !(per_k > 0 && w.extent(2) * w.extent(3) == per_k)) {
    // [0, K, C, R*S] where the geometry gives no weight shape it fills:
    // C x R x S, R and S from the kernel.
    b.lo[1] = w.lo[2];
    b.hi[1] = w.hi[2];
    const bool split = w.extent(3) == rs;
    b.hi[2] = (split ? g.kernel[0] : static_cast<std::int32_t>(w.extent(3))) - 1;
    b.hi[3] = (split ? g.kernel[1] : 1) - 1;
    return b;
  }
  const std::int64_t ks = std::max<std::int64_t>(1, b.hi[0] - b.lo[0] + 1);
  if (g.weight_shape[1] > 0) {
    for (int d = 1; d < 4; ++d) b.hi[d] = g.weight_shape[static_cast<std::size_t>(d)] - 1;
  } else {
    b.hi[1] = std::max<std::int64_t>(1, (bytes > 0 ? bytes : ks) / ks) - 1;
  }
  return b;
}

std::int64_t Lowerer::slab_address(std::uint32_t c, const Tensor& x,
                                   const std::string& producer) const {
  const std::int32_t k = ir::slab_of(x.operands, producer);
  if (k < 0) return x.addr;
  return slab_at(c, x, k);
}

std::int64_t Lowerer::slab_at(std::uint32_t c, const Tensor& x, std::int64_t k) const {
  const std::int64_t a = x.addr + k * volume(x.box);
  ir::RingRegion r{0, m_.buffersize.value_or(hw_.l2.size_bytes)};
  const auto& regs = m_.cores[c].workloads[x.first].ring_buffer_info;
  if (regs)
    for (const ir::RingRegion& g : *regs)
      if (x.addr >= g.begin && x.addr < g.end) r = g;
  return r.size() > 0 && a >= r.end ? r.begin + (a - r.begin) % r.size() : a;
}

Lowerer::Reception Lowerer::reception(std::uint32_t c, std::uint32_t t, TransferId transfer,
                                      std::int32_t from) const {
  const Tensor& x = tensors_[c][t];
  for (const ir::Source& s : x.entry->source)
    if (s.transfer_id == transfer && s.core_id == from)
      return {source_shift(s), slab_address(c, x, s.layer_name.value_or(""))};
  return {0, x.addr};
}

const char* region_kind_prefix(DramRegion::Kind k) {
  return k == DramRegion::Kind::input    ? "input:"
         : k == DramRegion::Kind::weight ? "weight:"
                                         : "ofmap:";
}

// The DRAM tensors (docs/isa.md, "Data layout"): every layer's output that
// goes to DRAM, every layer's constant weights and every network input,
// each dense over its whole shape, 4 KiB aligned, in order of first
// appearance (DRAM out entries, then DRAM in entries, in file order). A
// DRAM transfer moves a box of one of them: a read-back of spilled data
// (related_ifmap) reads the bytes the producer's dma_out wrote.
void Lowerer::build_dram_map(const ir::TransferIndex& ix) {
  // The producer of each DRAM out fmap: the layer its readers' buffer
  // sources name, else that of the DRAM in entries it re-reads.
  FlatMap<TransferId, const std::string*> producer;
  for (const ir::Core& c : m_.cores)
    for (const ir::Workload& w : c.workloads)
      for (const ir::BufferEntry& b : w.buffer)
        for (const ir::Source& s : b.source)
          if (s.type == ir::EndpointType::dram && s.layer_name)
            producer.try_emplace(s.transfer_id, &*s.layer_name);
  FlatMap<TransferId, const ir::DramIn*> dram_in;
  for (const ir::DramIn& e : m_.dram_in) dram_in.emplace(e.transfer_id, &e);
  auto in_layer = [&](const ir::DramIn& e) -> std::string {
    if (e.layer_name) return *e.layer_name;
    const ir::Workload* w = m_.find_workload(e.core_id, e.workload_id);
    return w ? w->layer_name : std::string();
  };
  // The consumer of a DRAM out entry: its layer name (the public dialect
  // names the consumer), else its first destination's layer.
  auto consumer_of = [&](const ir::DramOut& e) -> std::string {
    for (const ir::Endpoint& d : e.destination)
      if (d.workload_id)
        if (const ir::Workload* w = m_.find_workload(d.core_id, *d.workload_id))
          return w->layer_name;
    return e.layer_name.value_or("");
  };
  struct Pending {
    DramRegion::Kind kind;
    std::string layer;
    std::int64_t tensor_id;
    std::array<std::int64_t, 4> shape;
  };
  std::vector<Pending> pending;
  FlatMap<std::string, std::uint32_t> by_name;
  auto region = [&](DramRegion::Kind kind, const std::string& layer, std::int64_t tensor_id) {
    const std::string name =
        region_kind_prefix(kind) + (tensor_id >= 0 ? std::to_string(tensor_id) : layer);
    auto [it, fresh] = by_name.try_emplace(name, static_cast<std::uint32_t>(pending.size()));
    if (fresh) pending.push_back({kind, layer, tensor_id, {0, 0, 0, 0}});
    return it->second;
  };
  auto grow = [&](std::uint32_t r, const Box& b) {
    for (int d = 0; d < 4; ++d)
      pending[r].shape[static_cast<std::size_t>(d)] =
          std::max(pending[r].shape[static_cast<std::size_t>(d)], b.hi[d] + 1);
  };
  auto set_shape = [&](std::uint32_t r, const std::array<std::int32_t, 4>& shape) {
    if (shape[0] <= 0) return;
    for (std::size_t d = 0; d < 4; ++d)
      pending[r].shape[d] = std::max<std::int64_t>(pending[r].shape[d], shape[d]);
  };
  for (const ir::DramOut& e : m_.dram_out) {
    related_[e.transfer_id] = &e.related_ifmap;
    const std::string consumer = consumer_of(e);
    if (e.type == ir::DataType::weight) {
      const std::uint32_t r = region(DramRegion::Kind::weight, consumer, -1);
      const ir::LayerGeometry& g = geometry(consumer);
      grow(r, weight_layout(e.box, g, e.size));
      if (g.weight_shape[0] > 0) set_shape(r, g.weight_shape);
      out_region_[e.transfer_id] = r;
      continue;
    }
    std::string from;
    if (auto p = producer.find(e.transfer_id); p != producer.end()) {
      from = *p->second;
    } else {
      for (TransferId t : e.related_ifmap)
        if (auto d = dram_in.find(t); d != dram_in.end()) {
          from = in_layer(*d->second);
          break;
        }
    }
    std::uint32_t r = 0;
    if (from.empty() || from == "input" || !geo_.find(from)) {
      // Network input: the consumer's external tensor whose channels the
      // transfer's box covers, where the geometry lists them.
      std::int64_t tensor_id = -1;
      std::array<std::int32_t, 4> shape{};
      for (const ir::LayerGeometry::External& x : geometry(consumer).externals) {
        tensor_id = x.tensor_id;
        shape = x.shape;
        if (e.box.rank == 4 && e.box.hi[1] < x.shape[1]) break;
      }
      r = region(DramRegion::Kind::input, consumer, tensor_id);
      set_shape(r, shape);
    } else {
      r = region(DramRegion::Kind::ofmap, from, -1);
      set_shape(r, geometry(from).ofmap_shape);
    }
    if (e.box.rank == 4) grow(r, to_box(e.box));
    out_region_[e.transfer_id] = r;
  }
  for (const ir::DramIn& e : m_.dram_in) {
    const std::string layer = in_layer(e);
    const std::uint32_t r = region(DramRegion::Kind::ofmap, layer, -1);
    set_shape(r, geometry(layer).ofmap_shape);
    if (e.box.rank == 4) grow(r, to_box(e.box));
    in_region_[e.transfer_id] = r;
  }
  (void)ix;
  // Addresses, in order of first appearance.
  std::int64_t a = 0;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    const Pending& p = pending[i];
    DramRegion g;
    g.kind = p.kind;
    g.layer = p.layer;
    g.tensor_id = p.tensor_id;
    g.name =
        region_kind_prefix(p.kind) + (p.tensor_id >= 0 ? std::to_string(p.tensor_id) : p.layer);
    for (int d = 0; d < 4; ++d)
      g.layout.hi[d] = std::max<std::int64_t>(p.shape[static_cast<std::size_t>(d)], 1) - 1;
    g.bytes = volume(g.layout);
    g.base = a;
    a += (std::max<std::int64_t>(g.bytes, 1) + 4095) / 4096 * 4096;
    regions_.push_back(std::move(g));
  }
  // A weight slice's address (WL0 loads straight from DRAM read it raw).
  for (const ir::DramOut& e : m_.dram_out) {
    const std::uint32_t r = out_region_[e.transfer_id];
    Box at;
    at.lo[0] = e.box.lo[ir::weight_k_dim(e.box)];
    if (e.type != ir::DataType::weight && e.box.rank == 4) at = to_box(e.box);
    dram_out_addr_[e.transfer_id] = dram_address(r, at);
  }
  dram_end_ = a;
}

// The accesses the writer of tensor t must wait for: those of earlier tensors
// of the core whose bytes t overlaps (ring wrap counted). Newest first; an
// older tensor is skipped where a newer one already covered its bytes,
// because that newer tensor's writer waited for it (transitive order).
void Lowerer::hazards(std::uint32_t c, std::uint32_t t, DepList& deps) const {
  const Tensor& x = tensors_[c][t];
  const auto& regs = m_.cores[c].workloads[x.first].ring_buffer_info;
  const std::int64_t b = m_.buffersize.value_or(hw_.l2.size_bytes);
  auto footprint = [&](const Tensor& y) {
    ir::RingRegion r{0, b};
    if (regs)
      for (const ir::RingRegion& g : *regs)
        if (y.addr >= g.begin && y.addr < g.end) r = g;
    return r.footprint(y.addr, y.size);
  };
  const ir::Footprint mine = footprint(x);
  std::vector<ir::ByteRange> open(mine.begin(), mine.end()), next;  // bytes no newer tensor covered
  // Predecessors (dead before t appears), newest death first: the tensors
  // before the first one still alive at x.first in death order.
  const auto& by_death = dead_order_[c];
  const auto alive = std::partition_point(by_death.begin(), by_death.end(), [&](std::uint32_t p) {
    return tensors_[c][p].last < x.first;
  });
  for (auto it = std::make_reverse_iterator(alive); it != by_death.rend() && !open.empty(); ++it) {
    const std::uint32_t p = *it;
    const Tensor& y = tensors_[c][p];
    const ir::Footprint theirs = footprint(y);
    const bool overlap = std::any_of(open.begin(), open.end(), [&](const ir::ByteRange& a) {
      return std::any_of(theirs.begin(), theirs.end(),
                         [&](const ir::ByteRange& q) { return a.overlaps(q); });
    });
    if (!overlap) continue;
    deps.insert(deps.end(), y.accesses.begin(), y.accesses.end());
    if (!y.ordered_after_hazards) continue;  // cannot vouch for what it covers
    for (const ir::ByteRange& q : theirs) {  // open -= q
      next.clear();
      for (const ir::ByteRange& a : open) {
        if (!a.overlaps(q)) {
          next.push_back(a);
          continue;
        }
        if (a.begin < q.begin) next.push_back({a.begin, q.begin});
        if (q.end < a.end) next.push_back({q.end, a.end});
      }
      open.swap(next);
    }
  }
}

// The tensor of core c carrying transfer t from core `from` that is live
// somewhere in snapshots [at_least, at_most]; the earliest such. (Sends,
// which ask with at_least 0 for another core's, read build_inbound()'s
// copy of the answer instead.)
std::optional<std::uint32_t> Lowerer::find_receiver(std::uint32_t c, TransferId t,
                                                    std::int32_t from, std::uint32_t at_most,
                                                    std::uint32_t at_least, bool rising) {
  auto it = receivers_[c].find(received(t, from));
  if (it == receivers_[c].end()) return std::nullopt;
  const auto& list = it->second.list;
  // With `rising` (callers whose at_least never decreases for a core), the
  // prefix of tensors dead before at_least is skipped once, not on every call.
  std::size_t from_index = 0;
  if (rising) {
    std::size_t& dead = it->second.dead;
    while (dead < list.size() && list[dead].last < at_least) ++dead;
    from_index = dead;
  }
  // The list holds exactly the tensors with a core source (t, from) (the key
  // is exact), in tensor order, which is the order of first snapshots: the
  // first one alive in the window is the earliest.
  for (std::size_t k = from_index; k < list.size(); ++k) {
    const Receiver& x = list[k];
    if (x.first > at_most) break;
    if (x.last >= at_least) return x.tensor;
  }
  return std::nullopt;
}

void Lowerer::build_core_events(std::uint32_t c, const std::vector<std::int64_t>& start,
                                const ir::DependencyGraph& g, CoreEvents& ce) {
  std::size_t estimate = 0;
  for (const ir::Workload& w : m_.cores[c].workloads)
    estimate += 4 + w.buffer.size() * 2 + w.ofmap.size() * 2;
  ce.events.reserve(estimate);
  ce.ops.reserve(estimate);
  std::vector<TransferId> ifmap_ids;                          // of one workload
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sent;  // of one ofmap
  const ir::Core& core = m_.cores[c];
  std::optional<std::uint32_t> last_pe;  // WL0 reuse: the previous PE compute
  // Where this core's sends go, by (transfer, receiving core): gathered
  // from every receiving core's inbound_ here, on the thread that reads it.
  TransferMap<const Inbound*> outbox;
  {
    std::size_t count = 0;
    for (const Buckets<Inbound>& from : inbound_) count += from.of(c).size();
    outbox.reserve(count);
    for (const Buckets<Inbound>& from : inbound_)
      for (const Inbound& x : from.of(c)) outbox.emplace(TransferKey{x.transfer, x.core}, &x);
  }
  // One binder per place below that makes an instruction (one shape each).
  struct {
    RepeatBinder load, credit, wl0, pe_cfg, pe_run, vp_cfg, vp_run, store, send, view;
  } binders;
  // The view before a data instruction (docs/isa.md): the layouts of its
  // operands that it does not carry and its channel shift.
  auto view = [&](Engine q, std::uint32_t wid, std::uint32_t w, std::int64_t shift, const Box& box0,
                  const Box& box1) {
    Invocation v;
    v.op = Opcode::view;
    v.queue = q;
    v.workload = wid;
    v.arg("shift", shift).box("box0", box0).box("box1", box1);
    bound(ce, v, c, w, binders.view);
  };
  std::uint32_t next_new = 0;  // the first tensor not yet loaded
  for (std::uint32_t i = 0; i < core.workloads.size(); ++i) {
    const ir::Workload& w = core.workloads[i];
    const std::int64_t prio = start[g.node_of(c, i)];
    const auto wid = static_cast<std::uint32_t>(w.workload_id);
    auto make = [&](Kind k, Engine q, std::uint8_t phase) {
      return Lowerer::make(ce, k, q, phase, c, i, prio);
    };

    // 1. Tensors newly added before this workload: loads and credits.
    // Tensors are numbered as they first appear, so the new ones of this
    // workload are the next run of numbers (in snapshot order).
    for (; next_new < tensors_[c].size() && tensors_[c][next_new].first == i; ++next_new) {
      const std::uint32_t t = next_new;
      Tensor& x = tensors_[c][t];
      if (x.type == ir::TensorType::ofmap) continue;
      DepList hz;
      hazards(c, t, hz);
      x.ordered_after_hazards = true;
      // A tensor with many sources (one credit per sending core, one load
      // per DRAM transfer) would repeat its hazards in every source event.
      // Only the first event of each queue whose dependencies are exactly
      // the hazards (the anchor) carries them; the later ones wait for the
      // anchor instead. That changes neither the schedule nor a wait: the
      // anchor is ready whenever they could be and ranks before them (same
      // workload and phase, built earlier), and it is on their own queue,
      // whose waits already cover the hazards when they come.
      std::optional<std::uint32_t> load_anchor, credit_anchor;
      auto hazard_deps = [&](const std::optional<std::uint32_t>& anchor) {
        return anchor && !hz.empty() ? DepList{*anchor} : hz;
      };
      for (const ir::Source& s : x.entry->source) {
        if (s.type == ir::EndpointType::dram) {
          Event e = make(Kind::load, Engine::dma_in, 0);
          e.deps = hazard_deps(load_anchor);
          auto rg = out_region_.find(s.transfer_id);
          if (rg == out_region_.end()) {
            error(ce, who(c, i) + ": DRAM source transfer " + std::to_string(s.transfer_id) +
                          " is not a DRAM out entry");
            continue;
          }
          // What moves, in the DRAM tensor's frame: the source's box (a K
          // range of whole output channels for constant weights).
          Box moved = to_box(s.box);
          if (s.box.rank == 1) {
            for (int d = 1; d < 4; ++d) {
              moved.lo[d] = x.box.lo[d];
              moved.hi[d] = x.box.hi[d];
            }
          } else if (regions_[rg->second].kind == DramRegion::Kind::weight) {
            moved = weight_layout(s.box, geometry(x.entry->layer_name), s.size);
          }
          view(Engine::dma_in, wid, i, source_shift(s), regions_[rg->second].layout, Box{});
          Invocation inv;
          inv.op = Opcode::dma_in;
          inv.workload = wid;
          inv.tensor("l2",
                     {slab_address(c, x, s.layer_name.value_or("")), s.size, x.box, Access::write});
          inv.tensor("dram", {dram_address(rg->second, moved), s.size, moved, Access::read});
          inv.arg("transfer", s.transfer_id);
          const McLoad* mc = nullptr;
          if (!mc_loads_[c].empty()) {
            const auto k = static_cast<std::uint64_t>(&s - x.entry->source.data());
            auto it = mc_loads_[c].find(std::uint64_t{t} << 16 | k);
            if (it != mc_loads_[c].end()) mc = &it->second;
          }
          inv.arg("members", mc ? mc->members : 0).arg("part", mc ? mc->part : 0);
          bound(ce, inv, c, i, binders.load);
          if (auto ro = related_.find(s.transfer_id); ro != related_.end())
            e.dram_after = ro->second;
          const bool anchors = !load_anchor && e.dram_after == nullptr;  // waits for hz alone
          const std::uint32_t id = add(ce, std::move(e));
          if (mc) ce.multicast.emplace_back(id, mc->group);
          if (anchors) load_anchor = id;
          x.accesses.push_back(id);
          x.writers.push_back(id);
        } else {
          Event e = make(Kind::credit, Engine::ctrl, 0);
          e.deps = hazard_deps(credit_anchor);
          auto from = core_index_.find(s.core_id);
          if (from == core_index_.end()) {
            error(ce, who(c, i) + ": source core " + std::to_string(s.core_id) + " has no program");
            continue;
          }
          Invocation inv;
          inv.op = Opcode::signal;
          inv.queue = Engine::ctrl;
          inv.workload = wid;
          inv.arg("kind", static_cast<std::int64_t>(TokenKind::credit))
              .arg("transfer", s.transfer_id)
              .arg("to", s.core_id);
          inv.tensor("grant", {x.addr, x.size, std::nullopt, Access::write});
          bound(ce, inv, c, i, binders.credit);
          e.tokens.push_back({s.transfer_id, from->second, TokenKind::credit});
          const std::uint32_t id = add(ce, std::move(e));
          if (!credit_anchor) credit_anchor = id;
          ce.credit_of[TransferKey{s.transfer_id, t}] = id;
          x.accesses.push_back(id);
        }
      }
    }

    // Operands of the workload.
    std::vector<std::uint32_t> ins;
    std::optional<std::uint32_t> wt, out;
    ifmap_ids.clear();
    for (const ir::Ifmap& f : w.ifmap)
      ifmap_ids.insert(ifmap_ids.end(), f.transfer_id.begin(), f.transfer_id.end());
    const bool flagged =
        std::any_of(w.buffer.begin(), w.buffer.end(),
                    [](const ir::BufferEntry& b) { return b.cur_wl_ifmap.has_value(); });
    for (std::size_t ei = 0; ei < w.buffer.size(); ++ei) {
      const ir::BufferEntry& b = w.buffer[ei];
      const std::uint32_t t = at_[c][at_first_[c][i] + ei];
      auto shares = [&](const std::vector<TransferId>& ids) {
        return std::any_of(b.transfer_id.begin(), b.transfer_id.end(), [&](TransferId x) {
          return std::find(ids.begin(), ids.end(), x) != ids.end();
        });
      };
      if (b.type == ir::TensorType::ifmap &&
          (flagged ? b.cur_wl_ifmap.value_or(false) : shares(ifmap_ids)) &&
          std::find(ins.begin(), ins.end(), t) == ins.end())
        ins.push_back(t);
      if (b.type == ir::TensorType::weight && w.weight && shares(w.weight->transfer_id) && !wt)
        wt = t;
      if (b.type == ir::TensorType::ofmap && !out && b.layer_name == w.layer_name) out = t;
    }
    std::optional<TransferId> out_via;
    if (!out) {
      // No ofmap entry: the result goes straight into a tensor of this
      // core that receives it (a same-core consumer's ifmap).
      for (const ir::Ofmap& o : w.ofmap)
        if (!out) {
          out = find_receiver(c, o.transfer_id, core.core_id, i + 1, i, true);
          if (out) out_via = o.transfer_id;
        }
    }
    if (!out) {
      error(ce, who(c, i) +
                    ": no L2 tensor holds its ofmap (no ofmap entry in the snapshot and no "
                    "tensor of this core receives it)");
      continue;
    }
    // Where the result lands and how that tensor sees the layer's output:
    // its own ofmap tensor, or a consumer's tensor (its slab, its frame).
    const Reception out_at =
        out_via ? reception(c, *out, *out_via, core.core_id) : Reception{0, tensors_[c][*out].addr};
    const ir::LayerGeometry& geo = geometry(w.layer_name);
    const bool exact = geo_.from_model;
    // Data a tensor waits for: local loads, or sends from other cores.
    auto data_deps = [&](std::uint32_t t, Event& e) {
      const Tensor& x = tensors_[c][t];
      e.deps.insert(e.deps.end(), x.writers.begin(), x.writers.end());
    };

    // 2. WL0.
    std::optional<std::uint32_t> wl0_event;
    if (w.kind == ir::LayerKind::pe && w.wl0_buffer && !w.wl0_buffer->empty()) {
      Event e = make(Kind::wl0, Engine::wl0, 1);
      if (last_pe) e.deps.push_back(*last_pe);
      for (const ir::Wl0Entry& x : *w.wl0_buffer) {
        Invocation inv;
        inv.op = Opcode::wl0_load;
        inv.workload = wid;
        const bool from_l2 = x.source == ir::Wl0Source::core && wt;
        inv.arg("source", from_l2 ? 0 : 1);
        inv.tensor("wl0", {x.address.value_or(0), std::max<std::int64_t>(x.size, 1), std::nullopt,
                           Access::write});
        inv.tensor("l2", {from_l2 ? tensors_[c][*wt].addr : 0, 0, std::nullopt, Access::read});
        const TransferId tr = x.transfer_id.empty() ? 0 : x.transfer_id.front();
        auto d = dram_out_addr_.find(tr);
        inv.arg("dram", from_l2 || d == dram_out_addr_.end() ? 0 : d->second);
        inv.arg("transfer", tr);
        bound(ce, inv, c, i, binders.wl0);
        if (from_l2) data_deps(*wt, e);
      }
      wl0_event = add(ce, std::move(e));
      if (wt) {
        tensors_[c][*wt].accesses.push_back(*wl0_event);
        tensors_[c][*wt].readers.push_back(*wl0_event);
      }
    }

    // 3. Compute.
    Event e = make(Kind::compute, w.kind == ir::LayerKind::pe ? Engine::pe : Engine::vp, 2);
    for (std::uint32_t t : ins) data_deps(t, e);
    if (wt) data_deps(*wt, e);
    if (wl0_event) e.deps.push_back(*wl0_event);
    if (tensors_[c][*out].first >= i) {
      hazards(c, *out, e.deps);
      tensors_[c][*out].ordered_after_hazards = true;
    }
    const Tensor& o = tensors_[c][*out];
    const std::int64_t out_bytes = std::max<std::int64_t>(std::min(w.ofmap_size, o.size), 1);
    if (w.kind == ir::LayerKind::pe) {
      Invocation cfg;
      cfg.op = Opcode::pe_cfg;
      cfg.workload = wid;
      const ir::Tile* tile = w.tile_info && !w.tile_info->empty() ? &w.tile_info->front() : nullptr;
      auto clamp1 = [](std::int64_t v) { return std::max<std::int64_t>(v, 1); };
      cfg.arg(
          "loop",
          loop_order_index(tile ? tile->loop_order : "KNHW").value_or(*loop_order_index("KNHW")));
      const std::string cut = tile ? tile->cut_mode : "KH";
      cfg.arg("cut", cut == "K" ? 1 : cut == "H" ? 2 : cut == "KH" ? 3 : 0);
      cfg.arg("ci_cut", clamp1(tile ? tile->ci_cut_num : 1));
      cfg.arg("mtc0", clamp1(tile ? tile->mtc0_mtk0[0] : 1))
          .arg("mtk0", clamp1(tile ? tile->mtc0_mtk0[1] : 1));
      const char* om[] = {"om_n", "om_k", "om_h", "om_w"};
      const char* am[] = {"am_n", "am_c", "am_h", "am_w"};
      for (int d = 0; d < 4; ++d) {
        cfg.arg(om[d], clamp1(tile ? tile->out_mini_tile[d] : 1));
        cfg.arg(am[d], clamp1(tile ? tile->act_mini_tile[d] : 1));
      }
      // Padding, kernel and stride: the layer's where the geometry is exact
      // (a model); else the tile's padding and what the boxes imply.
      auto pad = w.tile_padding_tblr.value_or(std::array<std::int32_t, 4>{0, 0, 0, 0});
      if (exact) pad = geo.pad;
      cfg.arg("pad_t", std::clamp(pad[0], 0, 255)).arg("pad_b", std::clamp(pad[1], 0, 255));
      cfg.arg("pad_l", std::clamp(pad[2], 0, 255)).arg("pad_r", std::clamp(pad[3], 0, 255));
      // Kernel: the weight box's R and S where it has them (full dialect);
      // else what the activation mini tile implies for its output mini tile.
      const ir::Box* ib = w.ifmap.empty() ? nullptr : &w.ifmap.front().box;
      auto stride = [&](int d) -> std::int64_t {
        if (!ib || ib->rank != 4 || w.workload.rank != 4) return 1;
        return std::clamp<std::int64_t>(
            ib->extent(d) / std::max<std::int64_t>(w.workload.extent(d), 1), 1, 255);
      };
      std::int64_t sh = stride(2), sw = stride(3);
      std::int64_t r = 1, sk = 1;
      if ((w.weight && w.weight->box.rank == 4) || geo.per_sample_weights) {
        // [0, K, C, R*S] (infer_geometry splits R*S), or a batched matrix
        // product (infer_geometry)
        r = geo.kernel[0];
        sk = geo.kernel[1];
      } else if (tile) {
        r = tile->act_mini_tile[2] - (tile->out_mini_tile[2] - 1) * sh;
        sk = tile->act_mini_tile[3] - (tile->out_mini_tile[3] - 1) * sw;
      }
      if (exact) {
        r = geo.kernel[0];
        sk = geo.kernel[1];
        sh = geo.stride[0];
        sw = geo.stride[1];
      }
      cfg.arg("r", std::clamp<std::int64_t>(r, 1, 255))
          .arg("s", std::clamp<std::int64_t>(sk, 1, 255));
      cfg.arg("stride_h", sh).arg("stride_w", sw);
      cfg.arg("wl0",
              w.wl0_buffer && !w.wl0_buffer->empty() ? (*w.wl0_buffer)[0].address.value_or(0) : 0);
      std::vector<std::uint32_t> srcs = ins;
      if (srcs.empty()) srcs.push_back(*out);  // nothing to read: degenerate, reads its own output
      cfg.arg("gk", std::clamp<std::int64_t>(geo.group_k, 1, 0xffff))
          .arg("gc", std::clamp<std::int64_t>(geo.group_c, 1, 0xffff))
          .arg("in_h", std::clamp<std::int64_t>(geo.ifmap_shape[2], 1, 0xffff))
          .arg("in_w", std::clamp<std::int64_t>(geo.ifmap_shape[3], 1, 0xffff))
          .arg("shift", geo.shift)
          .arg("chain", std::min<std::int64_t>(static_cast<std::int64_t>(srcs.size()), 255));
      cfg.flag = geo.per_sample_weights;
      bound(ce, cfg, c, i, binders.pe_cfg);
      bool acc = false;
      const Box wt_box = wt ? tensors_[c][*wt].box : Box{};
      for (std::uint32_t t : srcs) {
        const Tensor& x = tensors_[c][t];
        view(Engine::pe, wid, i, out_at.shift, wt_box, o.box);
        Invocation run;
        run.op = Opcode::pe_run;
        run.workload = wid;
        run.flag = acc;
        run.tensor("ifmap", {x.addr, x.size, x.box, Access::read});
        run.tensor("weight", {wt ? tensors_[c][*wt].addr : 0, wt ? tensors_[c][*wt].size : 0,
                              std::nullopt, Access::read});
        run.tensor("ofmap", {out_at.addr, out_bytes, to_box(w.workload), Access::write});
        bound(ce, run, c, i, binders.pe_run);
        acc = true;
      }
    } else {
      // The operation: the geometry's where it knows it; else the public
      // dialect's layer type names it, and for the full dialect's "vp" the
      // shapes decide (two inputs add; a spatially smaller output pools;
      // else a copy).
      const std::string& lt = w.layer_type;
      const ir::Box* ib = ins.empty() ? nullptr : &tensors_[c][ins.front()].entry->box;
      const bool shrinks =
          ib && ib->rank == 4 && w.workload.rank == 4 &&
          (w.workload.extent(2) < ib->extent(2) || w.workload.extent(3) < ib->extent(3));
      VpOp op = w.kind == ir::LayerKind::dt  ? VpOp::transpose
                : lt == "pool"               ? VpOp::pool_max
                : lt == "element_wise"       ? VpOp::add
                : ins.size() > 1 && !shrinks ? VpOp::add
                : shrinks                    ? VpOp::pool_max
                                             : VpOp::copy;
      switch (geo.op) {
        case ir::LayerOp::pool_max:
          op = VpOp::pool_max;
          break;
        case ir::LayerOp::pool_avg:
          op = VpOp::pool_avg;
          break;
        case ir::LayerOp::eltwise:
          op = VpOp::add;
          break;
        case ir::LayerOp::copy:
          op = VpOp::copy;
          break;
        case ir::LayerOp::transpose:
          op = VpOp::transpose;
          break;
        default:
          break;
      }
      std::vector<std::uint32_t> srcs = ins;
      if (srcs.empty()) srcs.push_back(*out);
      std::int64_t stride = 1, window = 1;
      const Tensor& i0 = tensors_[c][srcs.front()];
      if ((op == VpOp::pool_max || op == VpOp::pool_avg) && i0.entry->box.rank == 4 &&
          w.workload.rank == 4)
        window = stride = std::max<std::int64_t>(
            1, i0.entry->box.extent(2) / std::max<std::int64_t>(w.workload.extent(2), 1));
      const bool pool = geo.op == ir::LayerOp::pool_max || geo.op == ir::LayerOp::pool_avg;
      const bool global =
          geo.op == ir::LayerOp::pool_avg && geo.ofmap_shape[2] == 1 && geo.ofmap_shape[3] == 1;
      // The window: the layer's where the geometry is exact, else the
      // estimate from the boxes.
      std::array<std::int32_t, 2> kernel = geo.kernel, vstride = geo.stride;
      if (global) {
        kernel = {geo.ifmap_shape[2], geo.ifmap_shape[3]};
        vstride = {1, 1};
      }
      if (exact && pool) {
        window = kernel[0];
        stride = vstride[0];
      } else if (!global) {
        kernel = {static_cast<std::int32_t>(window), static_cast<std::int32_t>(window)};
        vstride = {static_cast<std::int32_t>(stride), static_cast<std::int32_t>(stride)};
      }
      Invocation cfg;
      cfg.op = Opcode::vp_cfg;
      cfg.workload = wid;
      cfg.arg("r", std::clamp<std::int64_t>(pool ? kernel[0] : window, 1, 255))
          .arg("s", std::clamp<std::int64_t>(pool ? kernel[1] : window, 1, 255))
          .arg("stride_h", std::clamp<std::int64_t>(pool ? vstride[0] : stride, 1, 255))
          .arg("stride_w", std::clamp<std::int64_t>(pool ? vstride[1] : stride, 1, 255))
          .arg("pad_t", std::clamp(global ? 0 : geo.pad[0], 0, 255))
          .arg("pad_l", std::clamp(global ? 0 : geo.pad[2], 0, 255))
          .arg("in_h", std::clamp<std::int64_t>(geo.ifmap_shape[2], 1, 0xffff))
          .arg("in_w", std::clamp<std::int64_t>(geo.ifmap_shape[3], 1, 0xffff))
          .arg("shift", geo.shift);
      std::int64_t perm = 0;
      for (int d = 0; d < 4; ++d)
        perm |= std::int64_t{geo.permutation[static_cast<std::size_t>(d)] & 3} << (2 * d);
      cfg.arg("perm", perm);
      bound(ce, cfg, c, i, binders.vp_cfg);
      // The operands: one tensor holding those of an elementwise add as
      // slabs, or one tensor each. A chain of vp_runs over them: out = in0 +
      // in1, then out = out + in_k.
      const Tensor& first_in = tensors_[c][srcs.front()];
      const bool slabs = srcs.size() == 1 && first_in.operands.size() >= 2 && op == VpOp::add;
      struct Operand {
        std::int64_t addr, bytes;
        Box box;
      };
      std::vector<Operand> in;
      if (slabs) {
        const auto n_slabs = static_cast<std::int64_t>(first_in.operands.size());
        const std::int64_t bytes = std::max<std::int64_t>(1, first_in.size / n_slabs);
        for (std::int64_t k = 0; k < n_slabs; ++k)
          in.push_back({slab_at(c, first_in, k), bytes, first_in.box});
      } else {
        for (std::uint32_t t : srcs)
          in.push_back({tensors_[c][t].addr, tensors_[c][t].size, tensors_[c][t].box});
      }
      for (std::size_t k = 0; k == 0 || k < in.size(); k += (k == 0 ? 2 : 1)) {
        const bool first = k == 0;
        const Operand a = first ? in[0] : Operand{out_at.addr, o.size, o.box};
        const Operand* b = first ? (in.size() > 1 ? &in[1] : nullptr) : &in[k];
        view(Engine::vp, wid, i, out_at.shift, b ? b->box : Box{}, o.box);
        Invocation run;
        run.op = Opcode::vp_run;
        run.workload = wid;
        run.arg("op", static_cast<std::int64_t>(op)).arg("inputs", b ? 2 : 1);
        run.arg("window", std::clamp<std::int64_t>(window, 1, 255))
            .arg("stride", std::clamp<std::int64_t>(stride, 1, 255));
        run.tensor("in0", {a.addr, a.bytes, a.box, Access::read});
        if (b) {
          run.tensor("in1", {b->addr, b->bytes, b->box, Access::read});
        } else {
          run.tensor("in1", {0, 0, std::nullopt, Access::read, true});
        }
        run.tensor("out", {out_at.addr, out_bytes, to_box(w.workload), Access::write});
        bound(ce, run, c, i, binders.vp_run);
      }
    }
    const std::uint32_t comp = add(ce, std::move(e));
    if (w.kind == ir::LayerKind::pe) last_pe = comp;
    for (std::uint32_t t : ins) {
      tensors_[c][t].accesses.push_back(comp);
      tensors_[c][t].readers.push_back(comp);
    }
    if (wt) {
      tensors_[c][*wt].accesses.push_back(comp);
      tensors_[c][*wt].readers.push_back(comp);
    }
    tensors_[c][*out].accesses.push_back(comp);
    tensors_[c][*out].writers.push_back(comp);

    // 4. Sends and stores of every ofmap destination, the core
    // destinations from a place that depends on the sending core: the
    // producers of a layer fan out to the same consumers, and in one
    // order they would all send to one receiver's ejection link at once.
    std::vector<std::uint32_t> to_cores;  // sends of one ofmap to other cores
    for (const ir::Ofmap& of : w.ofmap) {
      sent.clear();  // (core, tensor) already sent this ofmap
      if (to_cores.size() >= 2) ce.send_groups.push_back(to_cores);
      to_cores.clear();
      const std::size_t nd = of.destination.size();
      const std::size_t first_d = nd > 1 ? (c * 7 + 3) % nd : 0;
      for (std::size_t dk = 0; dk < nd; ++dk) {
        const ir::Endpoint& d = of.destination[(first_d + dk) % nd];
        if (d.type == ir::EndpointType::dram) {
          Event s = make(Kind::store, Engine::dma_out, 3);
          s.deps.push_back(comp);
          // The ofmap's box, seen in the L2 tensor's frame, to the
          // producer's DRAM tensor.
          auto rg = in_region_.find(of.transfer_id);
          std::int64_t dram = 0;
          Box dram_layout;
          if (rg != in_region_.end()) {
            dram = dram_address(rg->second, to_box(of.box));
            dram_layout = regions_[rg->second].layout;
          }
          view(Engine::dma_out, wid, i, -out_at.shift, o.box, dram_layout);
          Invocation inv;
          inv.op = Opcode::dma_out;
          inv.workload = wid;
          inv.tensor("l2", {out_at.addr, std::max<std::int64_t>(of.size, 1),
                            shifted(to_box(of.box), out_at.shift), Access::read});
          inv.tensor("dram", {dram, 0, std::nullopt, Access::write});
          inv.arg("transfer", of.transfer_id);
          bound(ce, inv, c, i, binders.store);
          const std::uint32_t id = add(ce, std::move(s));
          ce.stores.emplace_back(of.transfer_id, id);
          tensors_[c][*out].accesses.push_back(id);
          continue;
        }
        auto dc_it = core_index_.find(d.core_id);
        if (dc_it == core_index_.end() || !d.workload_id) {
          error(ce,
                who(c, i) + ": destination core " + std::to_string(d.core_id) + " has no program");
          continue;
        }
        const std::uint32_t dc = dc_it->second;
        const auto di = workload_index(dc, *d.workload_id);
        if (!di) {
          error(ce, who(c, i) + ": destination workload " + std::to_string(*d.workload_id) +
                        " does not exist");
          continue;
        }
        // find_receiver(dc, of.transfer_id, core.core_id, *di, 0), from the outbox.
        auto to = outbox.find(TransferKey{of.transfer_id, dc});
        const Inbound* rt = to == outbox.end() || to->second->first > *di ? nullptr : to->second;
        if (!rt) {
          error(ce, who(c, i) + ": core " + std::to_string(d.core_id) +
                        " has no buffer tensor receiving transfer " +
                        std::to_string(of.transfer_id) + " by its workload " +
                        std::to_string(*d.workload_id));
          continue;
        }
        const std::uint32_t r = rt->tensor;
        if (dc == c && r == *out) continue;  // written there directly
        if (std::find(sent.begin(), sent.end(), std::pair{dc, r}) != sent.end()) continue;
        sent.emplace_back(dc, r);
        Event s = make(Kind::send, Engine::noc, 3);
        s.deps.push_back(comp);
        // The ofmap's box, seen in the L2 tensor's frame, into the
        // receiver's tensor (its slab, its frame).
        view(Engine::noc, wid, i, rt->shift - out_at.shift, o.box, Box{});
        Invocation inv;
        inv.op = Opcode::noc_send;
        inv.workload = wid;
        inv.tensor("src", {out_at.addr, std::max<std::int64_t>(of.size, 1),
                           shifted(to_box(of.box), out_at.shift), Access::read});
        inv.tensor("dst", {rt->addr, 0, rt->box, Access::write});
        inv.arg("to", d.core_id).arg("transfer", of.transfer_id);
        bound(ce, inv, c, i, binders.send);
        s.tokens.push_back({of.transfer_id, dc, TokenKind::data});
        s.receiver_tensor = r;
        const std::uint32_t id = add(ce, std::move(s));
        tensors_[c][*out].accesses.push_back(id);
        if (dc == c) {
          tensors_[c][r].writers.push_back(id);
        } else {
          ce.remote_writes.push_back({dc, r, id});
          if (hw_.noc.multicast &&
              std::none_of(to_cores.begin(), to_cores.end(),
                           [&](std::uint32_t x) { return ce.events[x].tokens.front().to == dc; }))
            to_cores.push_back(id);
        }
      }
    }
    if (to_cores.size() >= 2) ce.send_groups.push_back(to_cores);
  }
}

void Lowerer::build_inbound() {
  const std::size_t n = m_.cores.size();
  inbound_.resize(n);
  ir::parallel_for(n, [&](std::size_t r) {
    inbound_[r] = bucket<Inbound>(n, [&](const auto& put) {
      for (const auto& [key, rs] : receivers_[r]) {
        auto sender = core_index_.find(static_cast<std::int32_t>(key.part));
        if (sender == core_index_.end() || rs.list.empty()) continue;  // no core sends it
        const Receiver& x = rs.list.front();
        const Tensor& t = tensors_[r][x.tensor];
        const Reception at = reception(static_cast<std::uint32_t>(r), x.tensor, key.transfer,
                                       static_cast<std::int32_t>(key.part));
        put(sender->second, Inbound{key.transfer, static_cast<std::uint32_t>(r), x.tensor, x.first,
                                    at.addr, at.shift, t.box});
      }
    });
  });
}

// The loads of a DRAM out entry that several (core, tensor) take are put
// into groups read once: in order of their workload's predicted start, the
// first load of every core is group 0, a core's second load of the entry
// (it left the core's L2 and is needed again) group 1, and so on; a group
// of one reads on its own, as does every load when dram.multicast is off.
// Measured on the corpus (set-polar, four transfers in flight): grouping
// only the loads that start within the first one's predicted time read
// up to 1.23x the unique bytes and was up to 12% slower than grouping all;
// entries that re-read data the run writes (related_ifmap) join too, as
// every member waits for the store anyway.
void Lowerer::plan_multicast(const ir::DependencyGraph& g, const std::vector<std::int64_t>& start) {
  mc_loads_.assign(m_.cores.size(), {});
  struct Load {
    TransferId transfer;
    std::int64_t prio;
    std::uint32_t core, tensor, source;
    std::uint32_t round = 0;  // the core's how-many-th load of the entry
  };
  std::vector<Load> loads;
  for (std::uint32_t c = 0; c < m_.cores.size(); ++c)
    for (std::uint32_t t = 0; t < tensors_[c].size(); ++t) {
      const Tensor& x = tensors_[c][t];
      if (x.type == ir::TensorType::ofmap) continue;
      for (std::uint32_t k = 0; k < x.entry->source.size() && k < 0x10000; ++k) {
        const ir::Source& s = x.entry->source[k];
        if (s.type != ir::EndpointType::dram || !out_region_.contains(s.transfer_id)) continue;
        loads.push_back({s.transfer_id, start[g.node_of(c, x.first)], c, t, k});
      }
    }
  std::sort(loads.begin(), loads.end(), [](const Load& a, const Load& b) {
    return std::tie(a.transfer, a.prio, a.core, a.tensor, a.source) <
           std::tie(b.transfer, b.prio, b.core, b.tensor, b.source);
  });
  std::unordered_map<std::uint32_t, std::uint32_t> rounds;  // core -> loads so far
  for (std::size_t a = 0; a < loads.size();) {
    std::size_t b = a;
    while (b < loads.size() && loads[b].transfer == loads[a].transfer) ++b;
    const auto n = static_cast<std::int64_t>(b - a);
    if (n < 2) {
      a = b;
      continue;
    }
    if (!hw_.dram.multicast) {
      mc_stats_.off += n;
      a = b;
      continue;
    }
    rounds.clear();
    for (std::size_t j = a; j < b; ++j) loads[j].round = rounds[loads[j].core]++;
    // Round r's loads, in order of predicted start: a stable sort keeps it.
    std::stable_sort(loads.begin() + static_cast<std::ptrdiff_t>(a),
                     loads.begin() + static_cast<std::ptrdiff_t>(b),
                     [](const Load& x, const Load& y) { return x.round < y.round; });
    std::uint32_t part = 0;
    for (std::size_t f = a; f < b;) {
      std::size_t e = f;
      while (e < b && loads[e].round == loads[f].round) ++e;
      const std::size_t size = e - f;
      if (size < 2 || part > 0xffff || size > 0xffff) {
        mc_stats_.reloads += static_cast<std::int64_t>(size);
      } else {
        for (std::size_t j = f; j < e; ++j)
          mc_loads_[loads[j].core][std::uint64_t{loads[j].tensor} << 16 | loads[j].source] = {
              static_cast<std::uint32_t>(mc_stats_.groups), static_cast<std::uint16_t>(size),
              static_cast<std::uint16_t>(part)};
        ++part;
        ++mc_stats_.groups;
        mc_stats_.members += static_cast<std::int64_t>(size);
      }
      f = e;
    }
    a = b;
  }
}

void Lowerer::build_events(const ir::DependencyGraph& g, const std::vector<std::int64_t>& start) {
  for (std::uint32_t c = 0; c < m_.cores.size(); ++c) core_index_[m_.cores[c].core_id] = c;
  build_inbound();
  // Each core's events are built on their own (in parallel): what a core's
  // events wait for while they are built is its own events only. Sends into
  // other cores' tensors are recorded as remote writes and added once all
  // events are merged, where the fix-up below makes every compute wait for
  // every writer of what it reads whichever core built it first.
  plan_multicast(g, start);
  std::vector<CoreEvents> built(m_.cores.size());
  ir::parallel_for(m_.cores.size(), [&](std::size_t c) {
    build_core_events(static_cast<std::uint32_t>(c), start, g, built[c]);
  });
  // Read by the sends only: its memory goes back to the heap for the stages
  // below (fresh pages cost a fault each).
  std::vector<Buckets<Inbound>>().swap(inbound_);
  phase("lower/events");

  // Numbering: core c's local event k becomes event base[c] + k, which is
  // the number a build of the cores one after another gives it.
  const std::size_t n = m_.cores.size();
  std::vector<std::uint32_t>& base = event_base_;
  base.assign(n + 1, 0);
  for (std::size_t c = 0; c < n; ++c)
    base[c + 1] = base[c] + static_cast<std::uint32_t>(built[c].events.size());
  events_.resize(n);
  ops_.resize(n);
  // Loads that re-read DRAM written by stores, per core: resolved below.
  std::vector<std::vector<std::uint32_t>> dram_readers(n);
  // Each core's sends into other cores' tensors (with global event ids) by
  // receiving core, added below by the receiving core's own pass.
  std::vector<Buckets<CoreEvents::RemoteWrite>> remote_writes(n);
  ir::parallel_for(n, [&](std::size_t c) {
    const std::uint32_t b = base[c];
    remote_writes[c] = bucket<CoreEvents::RemoteWrite>(n, [&](const auto& put) {
      for (const CoreEvents::RemoteWrite& w : built[c].remote_writes)
        put(w.core, CoreEvents::RemoteWrite{w.core, w.tensor, b + w.event});
    });
    std::vector<Event>& local = built[c].events;
    for (std::size_t k = 0; k < local.size(); ++k) {
      Event& e = local[k];
      for (std::uint32_t& d : e.deps) d += b;
      if (e.receiver_tensor != Event::kNoTensor) {
        // A send waits for the receiver's credit for the tensor it lands in
        // (every core's credits are built by now).
        const Event::Token& data = e.tokens.front();
        const auto& credits = built[data.to].credit_of;
        auto cr = credits.find(TransferKey{data.transfer, e.receiver_tensor});
        if (cr != credits.end()) e.deps.push_back(base[data.to] + cr->second);
      }
      if (e.dram_after != nullptr) dram_readers[c].push_back(b + static_cast<std::uint32_t>(k));
    }
    events_[c] = std::move(local);
    for (Tensor& x : tensors_[c]) {
      for (std::uint32_t& a : x.accesses) a += b;
      for (std::uint32_t& r : x.readers) r += b;
      for (std::uint32_t& w : x.writers) w += b;
    }
    ops_[c] = std::move(built[c].ops);
  });
  FlatMap<TransferId, std::uint32_t> store_of;  // DRAM in transfer -> its (last) store
  mc_events_.assign(static_cast<std::size_t>(mc_stats_.groups), {});
  for (std::size_t c = 0; c < n; ++c) {
    for (const auto& [id, group] : built[c].multicast) mc_events_[group].push_back(base[c] + id);
    for (auto& g : built[c].send_groups) {
      for (std::uint32_t& e : g) e += base[c];
      send_groups_.push_back(std::move(g));
    }
    for (std::string& e : built[c].errors) error(std::move(e));
    for (const auto& [transfer, id] : built[c].stores) store_of[transfer] = base[c] + id;
  }

  // DRAM re-reads, in event order: a load waits for the stores of what it
  // re-reads, and a store on another core signals it.
  for (std::uint32_t c = 0; c < n; ++c)
    for (std::uint32_t id : dram_readers[c]) {
      Event& e = event(c, id);
      for (TransferId r : *e.dram_after) {
        auto st = store_of.find(r);
        if (st == store_of.end()) continue;  // reported by the validator (X007)
        e.deps.push_back(st->second);
        Event& s = event(st->second);
        if (s.core != e.core) {
          const bool have =
              std::any_of(s.tokens.begin(), s.tokens.end(),
                          [&](const Event::Token& k) { return k.to == e.core && k.transfer == r; });
          if (!have) s.tokens.push_back({r, e.core, TokenKind::dram});
        }
      }
    }
  // Tensor writers recorded after their readers were built (sends from
  // other cores, in sending core order): the readers' data dependencies
  // must include them. A tensor's accesses are its own core's events, so
  // cores are independent.
  ir::parallel_for(n, [&](std::size_t c) {
    for (const Buckets<CoreEvents::RemoteWrite>& from : remote_writes)
      for (const CoreEvents::RemoteWrite& w : from.of(c))
        tensors_[c][w.tensor].writers.push_back(w.event);
    for (const Tensor& x : tensors_[c])
      for (std::uint32_t a : x.readers) {
        Event& e = event(static_cast<std::uint32_t>(c), a);
        for (std::uint32_t wr : x.writers)
          if (wr != a && std::find(e.deps.begin(), e.deps.end(), wr) == e.deps.end())
            e.deps.push_back(wr);
      }
  });
}

// A set of ranks in [0, n) that hands out its smallest: one bit per rank,
// and above that level after level one bit per non-zero word below, so
// that an insert or a pop is a few word operations (the schedule's ready
// set; a binary heap costs a dozen or more compare-swaps a pop there).
class RankSet {
 public:
  explicit RankSet(std::size_t n) {
    std::size_t words = n / 64 + 1;
    levels_.emplace_back(words, 0);
    while (words > 1) {
      words = (words + 63) / 64;
      levels_.emplace_back(words, 0);
    }
  }
  bool empty() const { return levels_.back()[0] == 0; }
  void insert(std::uint32_t r) {
    std::size_t i = r;
    for (std::vector<std::uint64_t>& level : levels_) {
      level[i / 64] |= std::uint64_t{1} << (i % 64);
      i /= 64;
    }
  }
  // The smallest rank, removed (the set must not be empty).
  std::uint32_t pop_min() {
    std::size_t w = 0;  // a non-zero word of the level below
    for (std::size_t l = levels_.size() - 1; l > 0; --l)
      w = w * 64 + static_cast<std::size_t>(std::countr_zero(levels_[l][w]));
    const std::size_t r = w * 64 + static_cast<std::size_t>(std::countr_zero(levels_[0][w]));
    std::size_t i = r;
    for (std::vector<std::uint64_t>& level : levels_) {
      level[i / 64] &= ~(std::uint64_t{1} << (i % 64));
      if (level[i / 64] != 0) break;
      i /= 64;
    }
    return static_cast<std::uint32_t>(r);
  }

 private:
  std::vector<std::vector<std::uint64_t>> levels_;  // [0]: a bit per rank; the last is one word
};

// One topological order of all events; earliest predicted start first.
std::vector<std::uint32_t> Lowerer::schedule() {
  const std::size_t n = event_count();
  const std::size_t cores = events_.size();
  std::vector<std::uint32_t> indeg(n, 0);
  // Successors (CSR): out[first[p] .. first[p + 1]) follow p.
  std::vector<std::uint32_t> first(n + 1, 0);
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
  std::vector<RankKey> keys(n);
  // Per event, in parallel (by core): its dependencies sorted and unique,
  // its in-degree and key; and each core's edges (dependency, event)
  // bucketed by the dependency's core, in event order.
  std::vector<Buckets<std::pair<std::uint32_t, std::uint32_t>>> edges(cores);
  ir::parallel_for(cores, [&](std::size_t c) {
    const std::uint32_t own_first = event_base_[c], own_end = event_base_[c + 1];
    for (std::uint32_t i = own_first; i < own_end; ++i) {
      Event& e = event(static_cast<std::uint32_t>(c), i);
      auto& d = e.deps;
      std::sort(d.begin(), d.end());
      d.erase(std::unique(d.begin(), d.end()), d.end());
      d.erase(std::remove(d.begin(), d.end(), i), d.end());
      indeg[i] = static_cast<std::uint32_t>(d.size());
      // A re-read of data the run stores waits for other cores' stores: it
      // ranks after every event of its predicted start (a multicast
      // group's members included), so that the loads that need nothing
      // but L2 space issue before it on the in-order DMA queue and are
      // prefetched while it waits.
      keys[i] = {e.prio * 2 + (e.dram_after != nullptr ? 1 : 0),
                 std::uint64_t{e.workload} << 8 | e.phase,
                 std::uint64_t{e.core} << 32 | static_cast<std::uint32_t>(i)};
    }
    auto core_of = [&](std::uint32_t p) {
      return p >= own_first && p < own_end ? static_cast<std::uint32_t>(c) : core_of_event(p);
    };
    edges[c] = bucket<std::pair<std::uint32_t, std::uint32_t>>(cores, [&](const auto& put) {
      for (std::uint32_t i = own_first; i < own_end; ++i)
        for (std::uint32_t p : event(static_cast<std::uint32_t>(c), i).deps)
          put(core_of(p), std::pair{p, i});
    });
  });
  // Successors in one array (CSR), each core's part of it built by that
  // core from the edges into its events (no two threads write one place).
  std::vector<std::size_t> out_base(cores + 1, 0);
  for (std::size_t s = 0; s < cores; ++s) {
    std::size_t count = 0;
    for (const auto& from : edges) count += from.of(s).size();
    out_base[s + 1] = out_base[s] + count;
  }
  std::vector<std::uint32_t> out(out_base[cores]);
  first[n] = static_cast<std::uint32_t>(out.size());
  ir::parallel_for(cores, [&](std::size_t s) {
    const std::uint32_t b = event_base_[s], events = event_base_[s + 1] - b;
    const auto succ = bucket<std::uint32_t>(events, [&](const auto& put) {
      for (const auto& from : edges)
        for (const auto& [p, i] : from.of(s)) put(p - b, i);
    });
    std::copy(succ.items.begin(), succ.items.end(),
              out.begin() + static_cast<std::ptrdiff_t>(out_base[s]));
    for (std::uint32_t j = 0; j < events; ++j)
      first[b + j] = static_cast<std::uint32_t>(out_base[s] + succ.first[j]);
  });
  phase("lower/deps");
  // Ranked once, so that the ready queue holds plain ranks: the two halves
  // sorted side by side, then merged (keys are unique, so the order is one).
  {
    const auto mid = keys.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::thread lower_half([&] { std::sort(keys.begin(), mid); });
    std::sort(mid, keys.end());
    lower_half.join();
    std::inplace_merge(keys.begin(), mid, keys.end());
  }
  std::vector<std::uint32_t> by_rank(n), rank(n);
  for (std::uint32_t r = 0; r < n; ++r) {
    by_rank[r] = static_cast<std::uint32_t>(keys[r].core_event);
    rank[by_rank[r]] = r;
  }
  phase("lower/rank");
  // A multicast group is one node of the order: it becomes ready when all
  // its members' dependencies are done (its in-degree is theirs summed), at
  // its last member's rank (the read starts when the last member joins, so
  // every member's queue takes what ranks before that first), and all its
  // members follow one another there.
  // Every queue then meets the groups in one global order, so no member
  // waits for a member queued behind another group's (docs/isa.md).
  constexpr std::uint32_t kNoGroup = 0xffffffffu;
  std::vector<std::uint32_t> group_of(mc_events_.empty() ? 0 : n, kNoGroup);
  std::vector<std::uint32_t> group_indeg(mc_events_.size(), 0);
  for (std::uint32_t gi = 0; gi < mc_events_.size(); ++gi) {
    std::vector<std::uint32_t>& ms = mc_events_[gi];
    std::sort(ms.begin(), ms.end(),
              [&](std::uint32_t a, std::uint32_t b) { return rank[a] < rank[b]; });
    for (const std::uint32_t e : ms) {
      group_of[e] = gi;
      group_indeg[gi] += indeg[e];
    }
  }
  auto grouped = [&](std::uint32_t i) { return !group_of.empty() && group_of[i] != kNoGroup; };
  // The event that stands for i's node in the ready set: its group's last.
  auto leader = [&](std::uint32_t i) { return grouped(i) ? mc_events_[group_of[i]].back() : i; };
  RankSet ready(n);
  for (std::uint32_t i = 0; i < n; ++i)
    if (leader(i) == i && (grouped(i) ? group_indeg[group_of[i]] : indeg[i]) == 0)
      ready.insert(rank[i]);
  std::vector<std::uint32_t> order;
  order.reserve(n);
  auto retire = [&](std::uint32_t i) {
    order.push_back(i);
    for (std::uint32_t k = first[i]; k < first[i + 1]; ++k) {
      const std::uint32_t o = out[k];
      --indeg[o];
      if (grouped(o) ? --group_indeg[group_of[o]] == 0 : indeg[o] == 0)
        ready.insert(rank[leader(o)]);
    }
  };
  while (!ready.empty()) {
    const std::uint32_t i = by_rank[ready.pop_min()];
    if (!grouped(i)) {
      retire(i);
      continue;
    }
    for (const std::uint32_t m : mc_events_[group_of[i]]) retire(m);
  }
  if (order.size() != n) {
    report_cycle(indeg);
  } else if (!send_groups_.empty()) {
    group_sends(order, first, out);
  }
  return order;
}

// Where the order stops: every event left has a dependency left, so walking
// from one of them to a remaining dependency again and again must come back
// to an event already seen. That loop is reported as the chain of events
// (each waiting for the next), with what each is: the user sees which
// workloads, transfers and L2 reuses close it.
void Lowerer::report_cycle(const std::vector<std::uint32_t>& indeg) {
  const std::size_t n = indeg.size();
  std::uint32_t at = 0;
  while (at < n && indeg[at] == 0) ++at;
  if (at == n) return;
  std::vector<std::int32_t> seen_at(n, -1);
  std::vector<std::uint32_t> path;
  while (seen_at[at] < 0) {
    seen_at[at] = static_cast<std::int32_t>(path.size());
    path.push_back(at);
    std::uint32_t next = at;
    for (std::uint32_t p : event(at).deps)
      if (indeg[p] > 0) {
        next = p;
        break;
      }
    if (next == at) break;  // a multicast member held back by its group
    at = next;
  }
  std::string chain;
  const std::size_t from = seen_at[at] >= 0 ? static_cast<std::size_t>(seen_at[at]) : 0;
  for (std::size_t k = from; k < path.size(); ++k) {
    const Event& e = event(path[k]);
    chain += (k == from ? "" : " waits for ") + std::string(to_string(e.kind)) + " of " +
             who(e.core, e.workload);
  }
  const Event& e = event(path[from]);
  error(who(e.core, e.workload) +
        ": the schedule's dependencies form a cycle through this workload; no program can run "
        "it: " +
        chain + " waits for the first again");
}

// NoC multicast (docs/isa.md): the sends of one ofmap to other cores go as
// one transfer where the order allows it. A group's sends move to its last
// send's place in the order, one after another, each marked with the
// group's size and its part. A send joins only if nothing that depends on
// it comes before that place (its receiver's work waits for the data, and
// the data now leaves with the last send), so the order stays a
// topological order and the programs deadlock-free.
void Lowerer::group_sends(std::vector<std::uint32_t>& order,
                          const std::vector<std::uint32_t>& first,
                          const std::vector<std::uint32_t>& out) {
  const std::size_t n = order.size();
  std::vector<std::uint32_t> pos(n);
  for (std::uint32_t p = 0; p < n; ++p) pos[order[p]] = p;
  constexpr std::uint32_t kNone = 0xffffffffu;
  std::vector<std::uint32_t> joins(n, kNone);  // send -> the group's last send
  std::vector<std::vector<std::uint32_t>> groups;
  for (std::vector<std::uint32_t>& g : send_groups_) {
    std::sort(g.begin(), g.end(), [&](auto a, auto b) { return pos[a] < pos[b]; });
    const std::uint32_t at = pos[g.back()];
    std::vector<std::uint32_t> kept;
    for (std::size_t k = 0; k + 1 < g.size(); ++k) {
      bool ok = true;
      for (std::uint32_t s = first[g[k]]; s < first[g[k] + 1] && ok; ++s) ok = pos[out[s]] > at;
      if (ok) kept.push_back(g[k]);
    }
    if (kept.empty()) continue;
    kept.push_back(g.back());
    for (std::uint32_t e : kept) joins[e] = static_cast<std::uint32_t>(groups.size());
    groups.push_back(std::move(kept));
  }
  if (groups.empty()) return;
  std::vector<std::uint32_t> moved;
  moved.reserve(n);
  for (std::uint32_t e : order) {
    const std::uint32_t g = joins[e];
    if (g == kNone) {
      moved.push_back(e);
    } else if (groups[g].back() == e) {
      moved.insert(moved.end(), groups[g].begin(), groups[g].end());
    }
  }
  order.swap(moved);
  const std::size_t members = field_slot(Opcode::noc_send, "members").index;
  const std::size_t part = field_slot(Opcode::noc_send, "part").index;
  for (const std::vector<std::uint32_t>& g : groups)
    for (std::size_t k = 0; k < g.size(); ++k) {
      const Event& e = event(g[k]);
      Instr& in = ops_[e.core][e.op_end - 1];
      in.set_scalar(members, static_cast<std::int64_t>(g.size()));
      in.set_scalar(part, static_cast<std::int64_t>(k));
      ++mc_stats_.noc_sends;
    }
  mc_stats_.noc_groups += static_cast<std::int64_t>(groups.size());
}

// The shapes of the waits and signals emission adds, prepared once (their
// values here are placeholders).
struct SyncBindings {
  PreparedBinding token_wait, local_wait, dram_signal;
};
const SyncBindings& sync_bindings() {
  static const SyncBindings b = [] {
    Invocation token;
    token.op = Opcode::wait_token;
    token.queue = Engine::ctrl;
    token.arg("kind", 0).arg("transfer", 0).arg("from", 0).arg("count", 1);
    Invocation local;
    local.op = Opcode::wait_local;
    local.queue = Engine::ctrl;
    local.arg("on", 0).arg("count", 1);
    Invocation signal;
    signal.op = Opcode::signal;
    signal.queue = Engine::ctrl;
    signal.arg("kind", 0).arg("transfer", 0).arg("to", 0);
    signal.tensor("grant", {0, 0, std::nullopt, Access::write, true});  // a credit's only
    return SyncBindings{PreparedBinding(token), PreparedBinding(local), PreparedBinding(signal)};
  }();
  return b;
}

// Emission is per core once every token's ordinal is known: a core's
// instructions depend only on its own events (in global order), the queue
// counts of its own earlier events and the ordinals of the tokens it waits
// for. So the ordinals are numbered first, in global order, and the cores
// are then emitted independently (in parallel).
void Lowerer::emit(const std::vector<std::uint32_t>& order, Program& p) {
  const std::size_t n = m_.cores.size();
  const std::size_t ne = event_count();
  // What emission reads of a dependency on its own core: its core, its
  // queue and its queue's count once it is emitted.
  struct DepFacts {
    std::uint32_t core;
    std::uint32_t last_count;
    Engine queue;
  };
  std::vector<DepFacts> facts(ne);
  std::vector<std::uint32_t> pos(ne);
  for (std::uint32_t r = 0; r < order.size(); ++r) pos[order[r]] = r;
  // Every token, with the receiving core: its sender's core and event, and
  // `key` = (the sender's schedule position << 32 | the token's number among
  // its sender core's, in event order), which orders a core's incoming
  // tokens globally.
  struct FlatToken {
    std::uint64_t key;
    TransferId transfer;
    std::uint32_t event, from;
    TokenKind kind;
    std::int64_t ordinal = 0;
  };
  // Per sending core, its tokens bucketed by receiving core.
  std::vector<Buckets<FlatToken>> sent_by(n);
  std::vector<std::size_t> ops_per_core(n, 0);
  // A core's events are a run of ids, so all of this is filled per core.
  ir::parallel_for(n, [&](std::size_t ci) {
    const auto c = static_cast<std::uint32_t>(ci);
    for (std::uint32_t i = event_base_[c]; i < event_base_[c + 1]; ++i) {
      const Event& e = event(c, i);
      facts[i] = {e.core, 0, e.queue};
      ops_per_core[c] += e.op_end - e.op_begin + e.deps.size() / 2 + 1;
    }
    sent_by[c] = bucket<FlatToken>(n, [&](const auto& put) {
      std::uint32_t t = 0;
      for (std::uint32_t i = event_base_[c]; i < event_base_[c + 1]; ++i)
        for (const Event::Token& k : event(c, i).tokens)
          put(k.to, FlatToken{std::uint64_t{pos[i]} << 32 | t++, k.transfer, i, c, k.kind});
    });
  });
  std::vector<std::vector<std::uint32_t>> order_of(n);  // per core, in global order
  for (std::uint32_t c = 0; c < n; ++c) order_of[c].reserve(event_base_[c + 1] - event_base_[c]);
  for (std::uint32_t id : order) order_of[facts[id].core].push_back(id);
  p.cores.resize(n);
  std::vector<std::vector<std::string>> errors(n);
  phase("lower/emit prep");
  ir::parallel_for(n, [&](std::size_t ci) {
    const auto c = static_cast<std::uint32_t>(ci);
    // The tokens this core receives, gathered sender by sender: each
    // sender's are in event order and senders' events are runs of rising
    // ids, so the list comes out in (sending event, token) order, the order
    // a dependency's tokens are waited for. A wait finds those of its
    // dependency in this core's own small list rather than in the arrays
    // of all events and tokens (a cache miss or two each).
    std::vector<FlatToken> incoming;
    {
      std::size_t count = 0;
      for (const Buckets<FlatToken>& from : sent_by) count += from.of(c).size();
      incoming.reserve(count);
      for (const Buckets<FlatToken>& from : sent_by)
        incoming.insert(incoming.end(), from.of(c).begin(), from.of(c).end());
      if (!std::is_sorted(
              incoming.begin(), incoming.end(),
              [](const FlatToken& a, const FlatToken& b) { return a.event < b.event; })) {
        std::fprintf(stderr, "gemini: internal error: core %u's incoming tokens are out of order\n",
                     c);
        std::abort();
      }
      // The ordinal of each: its number among the tokens of its (transfer,
      // sender, kind) in global order (by key). Most such groups hold one
      // token; only the tokens of larger groups are put in that order.
      TransferMap<std::int64_t> group;  // (transfer, sender << 2 | kind) -> size
      group.reserve(incoming.size());
      auto group_key = [](const FlatToken& k) {
        return TransferKey{k.transfer, k.from << 2 | static_cast<std::uint32_t>(k.kind)};
      };
      for (const FlatToken& k : incoming) ++group[group_key(k)];
      std::vector<std::uint32_t> shared;  // tokens of groups of two or more
      for (std::uint32_t k = 0; k < incoming.size(); ++k) {
        if (group[group_key(incoming[k])] > 1)
          shared.push_back(k);
        else
          incoming[k].ordinal = 1;
      }
      if (!shared.empty()) {
        std::sort(shared.begin(), shared.end(), [&](std::uint32_t a, std::uint32_t b) {
          return incoming[a].key < incoming[b].key;
        });
        for (auto& [key, size] : group) size = 0;  // now: tokens numbered so far
        for (std::uint32_t k : shared) incoming[k].ordinal = ++group[group_key(incoming[k])];
      }
    }
    // Each sending event's run of tokens in `incoming`, found by hash (a
    // binary search per dependency mispredicts at every step).
    struct Run {
      std::uint32_t first, count;
    };
    FlatMap<std::uint32_t, Run> runs;
    runs.reserve(incoming.size());
    for (std::uint32_t k = 0; k < incoming.size(); ++k)
      ++runs.try_emplace(incoming[k].event, Run{k, 0}).first->second.count;
    auto incoming_from = [&](std::uint32_t event) {
      auto it = runs.find(event);
      if (it == runs.end()) return std::span<const FlatToken>();
      return std::span<const FlatToken>(incoming.data() + it->second.first, it->second.count);
    };
    const std::uint32_t own_first = event_base_[c], own_end = event_base_[c + 1];
    LoweredCore& out = p.cores[c];
    out.program.instrs.reserve(ops_per_core[c] + 1);
    out.program.core_id = m_.cores[c].core_id;
    for (const ir::Workload& w : m_.cores[c].workloads)
      out.layers.emplace(static_cast<std::uint32_t>(w.workload_id), w.layer_name);
    std::array<std::uint32_t, kEngines> count{};
    std::array<std::array<std::uint32_t, kEngines>, kEngines> waited{};
    auto push = [&](const Instr& in) {
      out.program.instrs.push_back(in);
      ++count[static_cast<std::size_t>(in.queue)];
    };
    // Waits and signals are typed invocations too: a transfer or core id
    // the encoding cannot carry is an error naming the workload, not a bad
    // field. Each kind (token wait, local wait, DRAM signal) is one shape,
    // prepared once (sync_bindings()); a value out of range is reported
    // as bind() reports it for the whole invocation.
    std::string err;
    const SyncBindings& sync = sync_bindings();
    auto bind_sync = [&](const PreparedBinding& b, const Event& e, std::uint32_t wid,
                         std::initializer_list<std::int64_t> args, Instr& into) {
      if (b.bind(e.queue, wid, args, into)) return true;
      RepeatBinder once;
      (void)bind_named(b.with(e.queue, wid, args), c, e.workload, into, err, once);
      errors[c].push_back(err);
      return false;
    };
    std::vector<Instr> token_waits;  // reused across events
    for (std::uint32_t id : order_of[c]) {
      const Event& e = event(c, id);
      const auto q = static_cast<std::size_t>(e.queue);
      const auto wid = static_cast<std::uint32_t>(m_.cores[c].workloads[e.workload].workload_id);
      std::array<std::uint32_t, kEngines> need{};
      token_waits.clear();
      for (std::uint32_t d : e.deps) {
        if (d >= own_first && d < own_end) {
          const DepFacts& f = facts[d];
          const auto xq = static_cast<std::size_t>(f.queue);
          if (xq != q) need[xq] = std::max(need[xq], f.last_count);
          continue;
        }
        for (const FlatToken& k : incoming_from(d))
          if (!bind_sync(sync.token_wait, e, wid,
                         {static_cast<std::int64_t>(k.kind), k.transfer, m_.cores[k.from].core_id,
                          k.ordinal},
                         token_waits.emplace_back()))
            token_waits.pop_back();
      }
      for (std::size_t eng = 0; eng < kEngines; ++eng) {
        if (need[eng] <= waited[q][eng]) continue;
        Instr w;
        if (bind_sync(sync.local_wait, e, wid, {static_cast<std::int64_t>(eng), need[eng]}, w))
          push(w);
        waited[q][eng] = need[eng];
      }
      for (const Instr& w : token_waits) push(w);
      for (std::uint32_t k = e.op_begin; k < e.op_end; ++k) push(ops_[c][k]);
      // Tokens this event produces: a send's data token travels with it; a
      // credit is its own signal; a store signals each core re-reading it.
      if (e.kind == Kind::store)
        for (const Event::Token& k : e.tokens) {
          Instr sig;
          if (bind_sync(
                  sync.dram_signal, e, wid,
                  {static_cast<std::int64_t>(TokenKind::dram), k.transfer, m_.cores[k.to].core_id},
                  sig))
            push(sig);
        }
      facts[id].last_count = count[q];
    }
    Instr end;
    end.op = Opcode::end;
    end.queue = Engine::ctrl;
    push(end);
  });
  for (auto& list : errors)
    for (std::string& e : list) error(std::move(e));
}

std::optional<Program> Lowerer::run() {
  if (m_.dialect != ir::Dialect::full) {
    error("the model is not in the full dialect: run it through import first");
    return std::nullopt;
  }
  // The workload graph, for the priorities (earliest predicted starts).
  std::optional<ir::ModelGraph> own;
  const ir::ModelGraph& mg = ir::ModelGraph::of(m_, shared_graph_, own);
  build_tensors();
  build_dram_map(mg.transfers());
  phase("lower/tensors");
  build_events(mg.graph(), mg.earliest_starts());
  phase("lower/resolve");
  if (!errors_.empty()) return std::nullopt;
  const auto order = schedule();
  phase("lower/schedule");
  if (!errors_.empty()) return std::nullopt;
  Program p;
  p.l2_bytes = m_.buffersize.value_or(hw_.l2.size_bytes);
  p.wl0_bytes = hw_.wl0.size_bytes;
  p.dram_bytes = dram_end_;
  p.dram_regions = regions_;
  p.exact_geometry = geo_.from_model;
  p.multicast = mc_stats_;
  emit(order, p);
  for (std::size_t c = 0; c < p.cores.size(); ++c) {
    const auto& wls = m_.cores[c].workloads;
    if (!wls.empty() && wls.front().ring_buffer_info)
      p.cores[c].ring = *wls.front().ring_buffer_info;
    else
      p.cores[c].ring = {ir::RingRegion{0, p.l2_bytes}};
  }
  phase("lower/emit");
  if (!errors_.empty()) return std::nullopt;
  return p;
}

}  // namespace

const char* to_string(DramRegion::Kind k) {
  return k == DramRegion::Kind::input    ? "input"
         : k == DramRegion::Kind::weight ? "weight"
                                         : "ofmap";
}

std::optional<Program> lower(const ir::Model& m, const ir::HardwareConfig& hw,
                             std::vector<std::string>& errors, const PhaseFn& on_phase,
                             const ir::ModelGraph* graph, std::shared_ptr<void>* keep_scratch,
                             const LowerOptions& options) {
  if (!keep_scratch) return Lowerer(m, hw, errors, on_phase, graph, options).run();
  // Its references (model, errors, callback) are not touched by its
  // destructor, so it may outlive them.
  auto l = std::make_shared<Lowerer>(m, hw, errors, on_phase, graph, options);
  auto p = l->run();
  *keep_scratch = std::move(l);
  return p;
}

}  // namespace gemini::assembler
