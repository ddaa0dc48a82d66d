// Corrections of the scheduler's known IR quirks from the layer semantics
// (semantics.h; the models README, "Known quirks of SET's IR").
#include <algorithm>
#include <map>
#include <set>

#include "gemini/ir/validator.h"
#include "gemini/model/semantics.h"
#include "quirks_room.h"

namespace gemini::model {
namespace {

using detail::First;
using ir::Box;

Box box4(std::array<std::int32_t, 4> lo, std::array<std::int32_t, 4> hi) {
  Box b;
  b.lo = lo;
  b.hi = hi;
  b.rank = 4;
  return b;
}

// Where one op's output can be read: DRAM out entries holding it (read-backs
// of what its workloads stored) and its workloads' ofmaps.
struct Availability {
  std::vector<std::uint32_t> dram;  // Model::dram_out indices
  struct Ofmap {
    std::uint32_t core, workload, ofmap;
  };
  std::vector<Ofmap> ofmaps;
};

// Rebuilds the sources of one op's input tensors, ifmap (quirk Q1) or
// weight (Q2), from the model: each input part of a tensor's box comes from
// its producer (what the IR already brings, else the producer's DRAM
// read-back, else a send from its core) or, for network input, from a DRAM
// entry of exactly that box. The producers' destinations and the DRAM
// entries of network input then follow the new sources.
class Rebuild {
 public:
  enum class Kind { ifmap, weight };

  Rebuild(ir::Model& m, const Network& net, ir::Diagnostics& d, bool& changed)
      : m_(m), net_(net), d_(d), changed_(changed), next_(ir::next_transfer_id(m)) {
    // Producers of DRAM out entries: the layer of the DRAM in entries they re-read.
    std::map<ir::TransferId, std::string> stored;
    for (const ir::DramIn& e : m.dram_in) {
      const ir::Workload* w = m.find_workload(e.core_id, e.workload_id);
      if (w) stored[e.transfer_id] = w->layer_name;
    }
    for (std::uint32_t i = 0; i < m.dram_out.size(); ++i) {
      const ir::DramOut& e = m.dram_out[i];
      if (e.type != ir::DataType::fmap) continue;
      for (ir::TransferId t : e.related_ifmap)
        if (auto it = stored.find(t); it != stored.end()) {
          avail_[it->second].dram.push_back(i);
          break;
        }
    }
    for (std::uint32_t c = 0; c < m.cores.size(); ++c)
      for (std::uint32_t w = 0; w < m.cores[c].workloads.size(); ++w) {
        const ir::Workload& x = m.cores[c].workloads[w];
        for (std::uint32_t o = 0; o < x.ofmap.size(); ++o)
          avail_[x.layer_name].ofmaps.push_back({c, w, o});
      }
  }

  void run(const Op& op, Kind kind, First& seen) {
    const ir::TensorType type =
        kind == Kind::ifmap ? ir::TensorType::ifmap : ir::TensorType::weight;
    // Targets: (core, workload) -> the transfers its tensors of `op` use.
    std::map<Target, std::set<ir::TransferId>> used;
    for (ir::Core& core : m_.cores)
      for (std::size_t wi = 0; wi < core.workloads.size(); ++wi) {
        ir::Workload& w = core.workloads[wi];
        bool own = false;
        for (ir::BufferEntry& e : w.buffer) {
          if (e.type != type || e.layer_name != op.name) continue;
          const Target target{core.core_id, reader(core, wi, e)};
          own |= target.workload == w.workload_id;
          correct(op, kind, target, e, seen);
          auto& u = used[target];
          for (const ir::Source& s : e.source) u.insert(s.transfer_id);
        }
        if (w.layer_name != op.name) continue;
        const Target self{core.core_id, w.workload_id};
        used.try_emplace(self);
        if (kind == Kind::weight && !own) add_weight_tensor(op, self, w, used[self], seen);
        // The workload names the transfers of its tensor.
        std::vector<ir::TransferId> ids(used[self].begin(), used[self].end());
        std::vector<ir::TransferId>* names = nullptr;
        if (kind == Kind::weight && w.weight) names = &w.weight->transfer_id;
        if (kind == Kind::ifmap && w.ifmap.size() == 1) names = &w.ifmap.front().transfer_id;
        if (names && *names != ids) {
          *names = ids;
          changed_ = true;
        }
      }
    // Destinations of the producers' transfers follow the sources.
    std::set<Target> targets;
    for (const auto& [t, ids] : used) targets.insert(t);
    auto rebuild = [&](std::vector<ir::Endpoint>& dst, ir::TransferId transfer) {
      std::vector<ir::Endpoint> out;
      for (const ir::Endpoint& e : dst)
        if (!(e.type == ir::EndpointType::core && e.workload_id &&
              targets.count({e.core_id, *e.workload_id})))
          out.push_back(e);
      for (const auto& [t, ids] : used)
        if (ids.count(transfer)) {
          ir::Endpoint e;
          e.type = ir::EndpointType::core;
          e.core_id = t.core;
          e.workload_id = t.workload;
          e.layer_name = op.name;
          out.push_back(e);
        }
      auto key = [](const ir::Endpoint& e) {
        return std::tuple(e.type, e.core_id, e.workload_id.value_or(-1));
      };
      std::vector<ir::Endpoint> before = dst;
      auto by = [&](const ir::Endpoint& a, const ir::Endpoint& b) { return key(a) < key(b); };
      std::sort(before.begin(), before.end(), by);
      std::vector<ir::Endpoint> after = out;
      std::sort(after.begin(), after.end(), by);
      bool same = before.size() == after.size();
      for (std::size_t i = 0; same && i < before.size(); ++i)
        same = key(before[i]) == key(after[i]);
      if (!same) {
        dst = std::move(out);
        changed_ = true;
      }
    };
    for (const InputPart& p : kind == Kind::ifmap ? op.inputs : op.weights) {
      if (p.external) continue;
      const Availability& a = avail_[net_.ops[static_cast<std::size_t>(p.producer)].name];
      for (std::uint32_t i : a.dram)
        rebuild(m_.dram_out[i].destination, m_.dram_out[i].transfer_id);
      for (const Availability::Ofmap& o : a.ofmaps) {
        ir::Ofmap& of = m_.cores[o.core].workloads[o.workload].ofmap[o.ofmap];
        rebuild(of.destination, of.transfer_id);
      }
    }
    // Network input: the DRAM entries of op's input that a target no longer
    // uses stop naming it, and are dropped when nobody is left.
    if (kind != Kind::ifmap) return;
    for (ir::DramOut& e : m_.dram_out) {
      if (e.type != ir::DataType::fmap || e.layer_name != op.name || !e.related_ifmap.empty())
        continue;
      const auto n = e.destination.size();
      std::erase_if(e.destination, [&](const ir::Endpoint& d) {
        if (d.type != ir::EndpointType::core || !d.workload_id) return false;
        auto it = used.find({d.core_id, *d.workload_id});
        return it != used.end() && !it->second.count(e.transfer_id);
      });
      if (e.destination.size() != n) {
        changed_ = true;
        if (e.destination.empty()) e.transfer_id = kDropped;
      }
    }
  }

  // After the last run: the DRAM entries no one reads any more are gone.
  // (Not earlier: Availability holds indices into Model::dram_out.)
  void finish() {
    std::erase_if(m_.dram_out, [](const ir::DramOut& e) { return e.transfer_id == kDropped; });
  }

 private:
  struct Target {
    std::int32_t core, workload;
    auto operator<=>(const Target&) const = default;
  };

  // The workload a buffer entry of core c's snapshot `wi` is held for: the
  // public dialect names it (`workload_id`); the full dialect does not, and
  // lists a tensor in every snapshot from its load to its reader. There it
  // is the first workload from this snapshot on that consumes one of the
  // entry's transfers, else (a quirk's source-less entry) the first of the
  // entry's layer whose input or weight box is the entry's, else the first
  // of its layer, else the snapshot's own workload.
  static std::int32_t reader(const ir::Core& c, std::size_t wi, const ir::BufferEntry& e) {
    if (e.workload_id) return *e.workload_id;
    const auto& wls = c.workloads;
    auto names = [&](const ir::Workload& w, ir::TransferId t) {
      for (const ir::Ifmap& f : w.ifmap)
        if (std::find(f.transfer_id.begin(), f.transfer_id.end(), t) != f.transfer_id.end())
          return true;
      return w.weight && std::find(w.weight->transfer_id.begin(), w.weight->transfer_id.end(), t) !=
                             w.weight->transfer_id.end();
    };
    for (std::size_t k = wi; k < wls.size(); ++k)
      for (ir::TransferId t : e.transfer_id)
        if (names(wls[k], t)) return wls[k].workload_id;
    auto same_box = [&](const ir::Workload& w) {
      if (e.type == ir::TensorType::weight) return w.weight && w.weight->box == e.box;
      return std::any_of(w.ifmap.begin(), w.ifmap.end(),
                         [&](const ir::Ifmap& f) { return f.box == e.box; });
    };
    std::optional<std::int32_t> of_layer;
    for (std::size_t k = wi; k < wls.size(); ++k) {
      if (wls[k].layer_name != e.layer_name) continue;
      if (same_box(wls[k])) return wls[k].workload_id;
      if (!of_layer) of_layer = wls[k].workload_id;
    }
    return of_layer.value_or(wls[wi].workload_id);
  }
  static constexpr ir::TransferId kDropped = -1;

  // The sources the model says a tensor of `op` (ifmap box [n,c,h,w], or
  // weight box [n,k,c]) for `target` has.
  std::vector<ir::Source> sources(const Op& op, Kind kind, const Target& target,
                                  const ir::BufferEntry& entry, const std::string& at, bool& ok) {
    std::vector<ir::Source> out;
    const Box& box = entry.box;
    // An elementwise layer's ifmap box is in operand coordinates: it stands
    // for the same channels of each of its operands, operand i being the
    // concatenated input's channels [i*K, (i+1)*K) (the models README).
    const bool operands = kind == Kind::ifmap && op.type == OpType::eltwise && op.operands > 1;
    const auto k_out = static_cast<std::int32_t>(op.ofmap_shape[1]);
    const std::int64_t copies = operands ? op.operands : 1;
    for (const InputPart& p : kind == Kind::ifmap ? op.inputs : op.weights)
      for (std::int64_t i = 0; i < copies; ++i) {
        const auto off = static_cast<std::int32_t>(p.offset);
        // Channel `c` of the input part is channel c + base of the tensor.
        const std::int32_t shift = operands ? static_cast<std::int32_t>(i) * k_out : 0;
        const std::int32_t base = off - shift;
        const std::int32_t a = std::max(box.lo[1] + shift, off),
                           b = std::min(box.hi[1] + shift,
                                        static_cast<std::int32_t>(off + p.channels - 1));
        if (a > b) continue;
        // What the tensor needs of this input, in the input's own coordinates.
        Box need;
        if (kind == Kind::ifmap) {
          need = box4({box.lo[0], a - off, box.lo[2], box.lo[3]},
                      {box.hi[0], b - off, box.hi[2], box.hi[3]});
        } else {
          need = box4({box.lo[0], a - off, 0, 0},
                      {box.hi[0], b - off, static_cast<std::int32_t>(op.weight_shape[1] - 1),
                       static_cast<std::int32_t>(op.weight_shape[2] * op.weight_shape[3] - 1)});
        }
        if (p.external) {
          out.push_back(network_input(op, target, need, base));
          continue;
        }
        const Op& prod = net_.ops[static_cast<std::size_t>(p.producer)];
        std::int64_t covered = 0;
        std::vector<Box> added;
        auto take = [&](ir::Source s, const Box& from) {
          Box part = intersect(from, need);
          part.rank = 4;  // the dimensions `from` lacks are [0, 0]
          part.scalar = from.scalar;
          if (part.empty()) return;
          for (const Box& x : added)
            if (x.contains(part)) return;
          s.box = part;
          s.size = part.volume();
          s.channel = std::array<std::int32_t, 2>{part.lo[1] + base, part.hi[1] + base};
          s.layer_name = prod.name;
          added.push_back(part);
          covered += part.volume();
          out.push_back(std::move(s));
        };
        for (const ir::Source& s : entry.source)
          if (s.layer_name && *s.layer_name == prod.name && s.box.rank == 4) take(s, s.box);
        if (covered >= need.volume()) continue;
        // Data the IR never brings: its DRAM read-back, else a send from the
        // producer's core.
        const Availability& av = avail_[prod.name];
        for (std::uint32_t i : av.dram) {
          const ir::DramOut& e = m_.dram_out[i];
          if (e.box.rank != 4 || covered >= need.volume()) continue;
          ir::Source s;
          s.type = ir::EndpointType::dram;
          s.core_id = ir::kDramCore;
          s.transfer_id = e.transfer_id;
          take(s, e.box);
        }
        for (const Availability::Ofmap& o : av.ofmaps) {
          if (covered >= need.volume()) break;
          const ir::Ofmap& of = m_.cores[o.core].workloads[o.workload].ofmap[o.ofmap];
          ir::Source s;
          s.type = ir::EndpointType::core;
          s.core_id = m_.cores[o.core].core_id;
          s.transfer_id = of.transfer_id;
          take(s, of.box);
        }
        if (covered < need.volume()) {
          d_.report(
              kind == Kind::ifmap ? ir::Check::input_source_mismatch : ir::Check::weight_mismatch,
              at,
              std::string(kind == Kind::ifmap ? "the input of " : "the weights of ") + op.name +
                  " channels [" + std::to_string(a - shift) + ", " + std::to_string(b - shift) +
                  "]" + (operands ? " of operand " + std::to_string(i) : std::string()) +
                  " come from " + prod.name +
                  ", whose output neither reaches DRAM nor leaves its cores for them; the "
                  "quirk (" +
                  (kind == Kind::ifmap ? "Q1" : "Q2") + ") cannot be corrected");
          ok = false;
        }
      }
    return out;
  }

  // A DRAM source of network input `need` (the external part's own
  // coordinates, at channel `off` of op's ifmap tensor) for `target`: the
  // DRAM entry of op's input with that box naming the target, else a new one.
  ir::Source network_input(const Op& op, const Target& target, const Box& need, std::int32_t off) {
    ir::Source s;
    s.type = ir::EndpointType::dram;
    s.core_id = ir::kDramCore;
    s.layer_name = "input";
    s.box = need;
    s.size = need.volume();
    s.channel = std::array<std::int32_t, 2>{need.lo[1] + off, need.hi[1] + off};
    const auto key = std::tuple(op.name, target, need.lo, need.hi);
    if (auto it = inputs_.find(key); it != inputs_.end()) {
      s.transfer_id = it->second;
      return s;
    }
    for (const ir::DramOut& e : m_.dram_out) {
      if (e.type != ir::DataType::fmap || e.layer_name != op.name || !e.related_ifmap.empty() ||
          e.box.rank != 4 || e.box.lo != need.lo || e.box.hi != need.hi)
        continue;
      for (const ir::Endpoint& d : e.destination)
        if (d.type == ir::EndpointType::core && d.core_id == target.core &&
            d.workload_id == target.workload) {
          s.transfer_id = e.transfer_id;
          inputs_.emplace(key, s.transfer_id);
          return s;
        }
    }
    ir::DramOut e;
    e.type = ir::DataType::fmap;
    e.layer_name = op.name;
    e.box = need;
    e.size = need.volume();
    e.transfer_id = next_++;
    ir::Endpoint d;
    d.type = ir::EndpointType::core;
    d.core_id = target.core;
    d.workload_id = target.workload;
    d.layer_name = op.name;
    e.destination.push_back(d);
    m_.dram_out.push_back(std::move(e));
    changed_ = true;
    s.transfer_id = m_.dram_out.back().transfer_id;
    inputs_.emplace(key, s.transfer_id);
    return s;
  }

  void correct(const Op& op, Kind kind, const Target& target, ir::BufferEntry& e, First& seen) {
    if (e.box.rank < (kind == Kind::ifmap ? 4 : 3)) return;
    bool ok = true;
    const std::string at = m_.pointer(e.origin);
    std::vector<ir::Source> now = sources(op, kind, target, e, at, ok);
    if (!ok || now == e.source) return;
    seen.add(at);
    set_sources(e, std::move(now));
  }

  void set_sources(ir::BufferEntry& e, std::vector<ir::Source> now) {
    e.source = std::move(now);
    e.has_source = true;
    e.source_null = false;
    e.transfer_id.clear();
    for (const ir::Source& s : e.source)
      if (std::find(e.transfer_id.begin(), e.transfer_id.end(), s.transfer_id) ==
          e.transfer_id.end())
        e.transfer_id.push_back(s.transfer_id);
    e.has_transfer_id = true;
    changed_ = true;
  }

  void add_weight_tensor(const Op& op, const Target& self, ir::Workload& w,
                         std::set<ir::TransferId>& used, First& seen) {
    const std::string at = m_.pointer(w.origin, "/buffer");
    if (w.workload.rank != 4) return;
    if (m_.dialect == ir::Dialect::full) {
      d_.report(ir::Check::weight_mismatch, at,
                "the weights of " + op.name + " workload " + std::to_string(w.workload_id) +
                    " need a tensor its L2 snapshot does not have (quirk Q2) and a full-dialect "
                    "file has no room to add one: import the public-dialect file with --model");
      return;
    }
    ir::BufferEntry e;
    e.layer_name = op.name;
    e.type = ir::TensorType::weight;
    e.box.rank = 3;
    e.box.lo = {w.workload.lo[0], w.workload.lo[1], 0, 0};
    e.box.hi = {w.workload.hi[0], w.workload.hi[1],
                static_cast<std::int32_t>(op.weight_shape[1] - 1), 0};
    e.workload_id = w.workload_id;
    e.origin = w.origin;
    bool ok = true;
    std::vector<ir::Source> now = sources(op, Kind::weight, self, e, at, ok);
    if (!ok || now.empty()) return;
    set_sources(e, std::move(now));
    used.insert(e.transfer_id.begin(), e.transfer_id.end());
    w.buffer.push_back(std::move(e));
    seen.add(at);
  }

  ir::Model& m_;
  const Network& net_;
  ir::Diagnostics& d_;
  bool& changed_;
  ir::TransferId next_;
  std::map<std::string, Availability> avail_;
  std::map<
      std::tuple<std::string, Target, std::array<std::int32_t, 4>, std::array<std::int32_t, 4>>,
      ir::TransferId>
      inputs_;
};

}  // namespace

std::vector<std::pair<std::string, std::int64_t>> QuirkCounts::named() const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  if (q1) out.emplace_back("Q1 network input mixed with producers", q1);
  if (q2) out.emplace_back("Q2 weight producers", q2);
  if (q3) out.emplace_back("Q3 grouped weight sizes", q3);
  if (q4) out.emplace_back("Q4 missing layer_type", q4);
  return out;
}

QuirkCounts correct_quirks(ir::Model& m, const Network& net, ir::Diagnostics& d,
                           const ir::HardwareConfig* hw) {
  const ir::HardwareConfig defaults;
  const ir::HardwareConfig& l2 = hw ? *hw : defaults;
  QuirkCounts q;
  First q1, q2, q3, q4;
  // Q4: workloads without layer_type take their op's.
  for (ir::Core& c : m.cores)
    for (ir::Workload& w : c.workloads) {
      const Op* op = net.find(w.layer_name);
      if (!op || !w.layer_type.empty()) continue;
      q4.add(m.pointer(w.origin));
      w.kind = ir::describe(op->type).engine;
    }
  // Q3: DRAM weight sizes of grouped convolutions with constant weights.
  std::map<ir::TransferId, std::int64_t> sizes;
  for (ir::DramOut& e : m.dram_out) {
    if (e.type != ir::DataType::weight) continue;
    const std::string layer = e.layer_name.value_or("");
    const Op* op = net.find(layer);
    if (!op || op->type != OpType::conv2d || op->groups <= 1 || op->weight_from_fmap) continue;
    const std::int64_t ks = e.box.extent(ir::weight_k_dim(e.box));
    const std::int64_t per_k = op->weight_shape[1] * op->weight_shape[2] * op->weight_shape[3];
    if (e.size == per_k * op->groups * ks) {
      q3.add(m.pointer(e.origin, "/size"));
      e.size = per_k * ks;
      sizes[e.transfer_id] = e.size;
    }
  }
  if (!sizes.empty())
    for (ir::Core& c : m.cores)
      for (ir::Workload& w : c.workloads)
        for (ir::BufferEntry& b : w.buffer)
          for (ir::Source& s : b.source)
            if (auto it = sizes.find(s.transfer_id); it != sizes.end()) s.size = it->second;
  // Q1 (the input of layers reading network input and producer outputs)
  // and Q2 (the weights of WeightFromFmap ops with several producers).
  {
    Rebuild fix(m, net, d, q.structure_changed);
    for (const Op& op : net.ops) {
      bool producers = false;
      for (const InputPart& p : op.inputs) producers |= !p.external;
      if (op.external_channels > 0 && producers) fix.run(op, Rebuild::Kind::ifmap, q1);
    }
    fix.finish();
    Rebuild weights(m, net, d, q.structure_changed);
    for (const Op& op : net.ops)
      if (op.weight_from_fmap && op.weights.size() > 1) weights.run(op, Rebuild::Kind::weight, q2);
  }
  // What the corrections changed needs L2 room: an input tensor now
  // holding an elementwise layer's operands one slab each, a result that
  // no longer reaches a tensor of its core (quirks_room.h).
  First grown, held;
  if (q1.count + q2.count > 0) {
    detail::make_operand_room(m, l2, d, grown);
    detail::hold_sent_ofmaps(m, l2, d, held);
    if (grown.count + held.count > 0) q.structure_changed = true;
  }
  q.q1 = q1.count;
  q.q2 = q2.count;
  q.q3 = q3.count;
  q.q4 = q4.count;
  auto warn = [&](const First& f, const char* what) {
    if (f.count == 0) return;
    d.report(ir::Check::quirk_corrected, f.where,
             std::string(what) + ": corrected " + std::to_string(f.count) +
                 " time(s) from the model (first here)");
  };
  warn(q1,
       "Q1 input of a layer reading network input and other layers' outputs rebuilt (producer "
       "channels start at 0 and network input is missing in the IR)");
  warn(q2, "Q2 weights of a multi-producer WeightFromFmap op taken from producers at offset 0");
  warn(q3, "Q3 DRAM weight size of a grouped convolution counts all input channels");
  warn(q4, "Q4 workload without layer_type");
  warn(grown,
       "after the Q1 correction, a full-dialect input tensor whose entry holds one operand of its "
       "elementwise layer gets the bytes of every operand's slab (in place where they are free, "
       "else where its ring region has room)");
  warn(held,
       "after the Q1/Q2 corrections, a workload whose output no longer reaches a tensor of its "
       "own core holds it in an L2 ofmap tensor of its own, from which it is sent");
  return q;
}

QuirkCounts correct_and_check(ir::Model& m, const Network& net, ir::Diagnostics& d,
                              const ir::HardwareConfig* hw) {
  QuirkCounts q = correct_quirks(m, net, d, hw);
  check_semantics(m, net, d);
  if (hw && q.structure_changed && d.errors() == 0) ir::validate(m, *hw, d);
  return q;
}

}  // namespace gemini::model
