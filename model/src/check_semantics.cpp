// validate --model: every workload against its op (semantics.h).
#include <algorithm>
#include <map>

#include "gemini/model/op_registry.h"
#include "gemini/model/semantics.h"

namespace gemini::model {
namespace {

const char* dim_name(int d) {
  static const char* names[] = {"N", "C", "H", "W"};
  return names[d];
}

// The IR's layer types an op agrees with (the public dialect's own string,
// or the full dialect's engine).
bool type_agrees(const Op& op, const ir::Workload& w) {
  const std::string& t = w.layer_type;
  if (t.empty()) return true;  // Q4: taken from the model
  const ir::OpDescriptor& d = ir::describe(op.type);
  for (ir::LayerKind k : {ir::LayerKind::pe, ir::LayerKind::vp, ir::LayerKind::dt})
    if (t == ir::to_string(k)) return d.runs_on(k);
  return t == d.layer_type;
}

ir::Box bounding(const std::vector<ir::Ifmap>& f) {
  ir::Box b = f.front().box;
  for (const ir::Ifmap& x : f)
    for (int d = 0; d < 4; ++d) {
      b.lo[d] = std::min(b.lo[d], x.box.lo[d]);
      b.hi[d] = std::max(b.hi[d], x.box.hi[d]);
    }
  return b;
}

class Checker {
 public:
  Checker(const ir::Model& m, const Network& net, ir::Diagnostics& d) : m_(m), net_(net), d_(d) {}

  void run() {
    for (const ir::Core& c : m_.cores)
      for (const ir::Workload& w : c.workloads) {
        workload(w);
        if (w.workload.rank == 4) computed_[w.layer_name].push_back(&w);
      }
    for (const ir::DramOut& e : m_.dram_out) dram_weight(e);
    for (std::int32_t i : net_.order) coverage(net_.ops[static_cast<std::size_t>(i)]);
  }

 private:
  void workload(const ir::Workload& w) {
    const Op* op = net_.find(w.layer_name);
    if (!op) {
      d_.report(ir::Check::unknown_layer, m_.pointer(w.origin, "/layer_name"),
                "layer \"" + w.layer_name + "\" is not an op of the model " + net_.path);
      return;
    }
    if (!type_agrees(*op, w)) {
      d_.report(ir::Check::layer_type_mismatch, m_.pointer(w.origin, "/layer_type"),
                "layer " + op->name + " is a " + to_string(op->type) + "; the IR says \"" +
                    w.layer_type + "\"");
      return;
    }
    if (w.workload.rank != 4) return;
    ir::Box whole;
    for (int d = 0; d < 4; ++d)
      whole.hi[d] = static_cast<std::int32_t>(op->ofmap_shape[static_cast<std::size_t>(d)] - 1);
    if (!whole.contains(w.workload)) {
      d_.report(ir::Check::ofmap_outside_layer, m_.pointer(w.origin, "/workload"),
                "ofmap box " + ir::to_string(w.workload) + " lies outside " + op->name +
                    "'s output " + to_string(op->ofmap_shape));
      return;
    }
    if (!w.ifmap.empty() && w.ifmap.front().box.rank == 4) ifmap(*op, w);
    for (const ir::BufferEntry& b : w.buffer)
      if (b.type == ir::TensorType::ifmap && b.layer_name == op->name &&
          b.workload_id.value_or(w.workload_id) == w.workload_id)
        sources(*op, b);
    if (op->has_weights() && w.weight) weights(*op, w);
  }

  // Every element of the op's output is computed by some workload (M010):
  // the output's box minus the workloads' boxes, as disjoint boxes.
  void coverage(const Op& op) {
    ir::Box whole;
    for (int d = 0; d < 4; ++d)
      whole.hi[d] = static_cast<std::int32_t>(op.ofmap_shape[static_cast<std::size_t>(d)] - 1);
    std::vector<ir::Box> left{whole};
    const auto it = computed_.find(op.name);
    constexpr std::size_t kMaxPieces = 4096;
    bool exact = true;
    if (it != computed_.end())
      for (const ir::Workload* w : it->second) {
        std::vector<ir::Box> next;
        for (const ir::Box& b : left) subtract(b, w->workload, next);
        if (next.size() > kMaxPieces) {  // a pathological tiling: count only
          exact = false;
          break;
        }
        left = std::move(next);
        if (left.empty()) return;
      }
    std::int64_t missing = 0;
    if (exact) {
      for (const ir::Box& b : left) missing += b.volume();
    } else {
      // The workloads of a layer do not overlap (G002): the covered volume
      // is the sum of theirs inside the output.
      missing = whole.volume();
      for (const ir::Workload* w : it->second) {
        const ir::Box x = ir::intersect(w->workload, whole);
        if (x.valid()) missing -= x.volume();
      }
      if (missing <= 0) return;
    }
    std::string ranges;
    for (std::size_t k = 0; exact && k < left.size() && k < 8; ++k)
      ranges += (k ? ", " : "") + ir::to_string(left[k]);
    if (exact && left.size() > 8) ranges += ", ... (" + std::to_string(left.size()) + " boxes)";
    const std::string at =
        it == computed_.end() ? std::string() : m_.pointer(it->second.front()->origin, "/workload");
    d_.report(ir::Check::layer_not_covered, at,
              op.name + ": " + std::to_string(missing) + " of the " +
                  std::to_string(whole.volume()) + " elements of its output " +
                  ir::to_string(whole) + " are computed by no workload" +
                  (it == computed_.end() ? std::string(" (the layer has none)") : std::string()) +
                  (ranges.empty() ? std::string() : ": " + ranges));
  }

  // b minus x, as at most 8 disjoint boxes appended to `out`.
  static void subtract(ir::Box b, const ir::Box& x, std::vector<ir::Box>& out) {
    for (int d = 0; d < 4; ++d)
      if (x.hi[d] < b.lo[d] || x.lo[d] > b.hi[d]) {
        out.push_back(b);
        return;
      }
    for (int d = 0; d < 4; ++d) {
      if (b.lo[d] < x.lo[d]) {
        ir::Box piece = b;
        piece.hi[d] = x.lo[d] - 1;
        out.push_back(piece);
        b.lo[d] = x.lo[d];
      }
      if (b.hi[d] > x.hi[d]) {
        ir::Box piece = b;
        piece.lo[d] = x.hi[d] + 1;
        out.push_back(piece);
        b.hi[d] = x.hi[d];
      }
    }
  }

  // The ifmap box against the halo rule; narrower along a reduced or
  // unpartitionable dimension is a forbidden split.
  void ifmap(const Op& op, const ir::Workload& w) {
    const ir::Box need = required_ifmap_box(op, w.workload);
    const ir::Box have = bounding(w.ifmap);
    if (have.lo == need.lo && have.hi == need.hi) return;
    const std::array<char, 4> kinds = ifmap_dim_kinds(op);
    for (int d = 0; d < 4; ++d)
      if ((kinds[static_cast<std::size_t>(d)] == '+' ||
           kinds[static_cast<std::size_t>(d)] == '^') &&
          (have.lo[d] > need.lo[d] || have.hi[d] < need.hi[d])) {
        d_.report(ir::Check::forbidden_split, m_.pointer(w.ifmap.front().origin),
                  op.name + " (" + annotation_of(op) + ") reduces its input's " + dim_name(d) +
                      std::string(kinds[static_cast<std::size_t>(d)] == '+' ? " (+)" : " (^)") +
                      " whole; the workload reads " + ir::to_string(have) + " of the " +
                      ir::to_string(need) + " its ofmap " + ir::to_string(w.workload) + " needs");
        return;
      }
    d_.report(ir::Check::ifmap_box_mismatch, m_.pointer(w.ifmap.front().origin),
              op.name + ": ofmap " + ir::to_string(w.workload) + " needs input " +
                  ir::to_string(need) + " (halo, stride, padding, groups); the ifmap box is " +
                  ir::to_string(have));
  }

  // An input tensor's sources: the op's inputs, at their channels, covering
  // what the tensor holds.
  void sources(const Op& op, const ir::BufferEntry& b) {
    if (b.box.rank != 4) return;
    const std::int64_t k = op.ofmap_shape[1];
    std::map<std::int64_t, std::int64_t> covered;  // input part -> elements
    for (const ir::Source& s : b.source) {
      if (s.box.rank != 4) continue;
      const std::string prod = s.layer_name.value_or("input");
      const InputPart* part = nullptr;
      for (const InputPart& p : op.inputs) {
        const bool match = p.external ? (prod == "input" || s.layer_name == std::nullopt)
                                      : net_.ops[static_cast<std::size_t>(p.producer)].name == prod;
        if (match) {
          part = &p;
          break;
        }
      }
      if (!part) {
        d_.report(ir::Check::input_source_mismatch, m_.pointer(s.origin),
                  op.name + " does not read \"" + prod + "\" (its inputs: " + inputs(op) + ")");
        continue;
      }
      if (s.channel) {
        std::int64_t want = s.box.lo[1] + part->offset;
        if (op.type == OpType::eltwise) want %= k;  // operand coordinates
        if ((*s.channel)[0] != want ||
            (*s.channel)[1] - (*s.channel)[0] != s.box.hi[1] - s.box.lo[1]) {
          d_.report(ir::Check::input_source_mismatch, m_.pointer(s.origin, "/channel"),
                    prod + "'s channels [" + std::to_string(s.box.lo[1]) + ", " +
                        std::to_string(s.box.hi[1]) + "] are " + op.name + "'s input channels [" +
                        std::to_string(want) + ", " + std::to_string(want + s.box.extent(1) - 1) +
                        "]; the IR says [" + std::to_string((*s.channel)[0]) + ", " +
                        std::to_string((*s.channel)[1]) + "]");
          continue;
        }
      }
      covered[part - op.inputs.data()] += s.box.volume();
    }
    // Each input part of the tensor's box is covered (eltwise: every operand
    // covers the whole box).
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
      const InputPart& p = op.inputs[i];
      ir::Box want = b.box;
      if (op.type == OpType::eltwise) {
        // The box is in operand coordinates: part i covers operand
        // channels [offset mod K, ...) of it.
        const std::int64_t lo = p.offset % k, hi = lo + p.channels - 1;
        want.lo[1] = static_cast<std::int32_t>(std::max<std::int64_t>(want.lo[1], lo));
        want.hi[1] = static_cast<std::int32_t>(std::min<std::int64_t>(want.hi[1], hi));
      } else {
        want.lo[1] = static_cast<std::int32_t>(std::max<std::int64_t>(want.lo[1], p.offset));
        want.hi[1] = static_cast<std::int32_t>(
            std::min<std::int64_t>(want.hi[1], p.offset + p.channels - 1));
      }
      if (want.lo[1] > want.hi[1]) continue;
      const std::int64_t need = want.volume();
      const std::int64_t got =
          covered.count(static_cast<std::int64_t>(i)) ? covered[static_cast<std::int64_t>(i)] : 0;
      if (got < need) {
        const std::string name = p.external ? std::string("network input")
                                            : net_.ops[static_cast<std::size_t>(p.producer)].name;
        d_.report(ir::Check::input_source_mismatch, m_.pointer(b.origin),
                  op.name + "'s input tensor " + ir::to_string(b.box) + " needs " +
                      std::to_string(need) + " elements of " + name + "; its sources bring " +
                      std::to_string(got));
      }
    }
  }

  std::string inputs(const Op& op) const {
    std::string s;
    for (const InputPart& p : op.inputs) {
      if (!s.empty()) s += ", ";
      s += p.external ? "network input" : net_.ops[static_cast<std::size_t>(p.producer)].name;
    }
    return s;
  }

  void weights(const Op& op, const ir::Workload& w) {
    const ir::Box& b = w.weight->box;
    if (op.weight_from_fmap) {
      if (b.rank >= 3 && (b.lo[0] != w.workload.lo[0] || b.hi[0] != w.workload.hi[0] ||
                          b.lo[1] != w.workload.lo[1] || b.hi[1] != w.workload.hi[1] ||
                          b.lo[2] != 0 || b.hi[2] != op.weight_shape[1] - 1))
        d_.report(ir::Check::weight_mismatch, m_.pointer(w.weight->origin),
                  op.name + ": ofmap " + ir::to_string(w.workload) +
                      " needs per-sample weights [n, k, c] = [" + std::to_string(w.workload.lo[0]) +
                      "," + std::to_string(w.workload.lo[1]) + ",0]-[" +
                      std::to_string(w.workload.hi[0]) + "," + std::to_string(w.workload.hi[1]) +
                      "," + std::to_string(op.weight_shape[1] - 1) + "]");
      return;
    }
    // Constant weights: a scalar K range or [0, K, C, R*S].
    const int kd = ir::weight_k_dim(b);
    if (b.lo[kd] != w.workload.lo[1] || b.hi[kd] != w.workload.hi[1])
      d_.report(ir::Check::weight_mismatch, m_.pointer(w.weight->origin),
                op.name + ": ofmap channels [" + std::to_string(w.workload.lo[1]) + ", " +
                    std::to_string(w.workload.hi[1]) + "] need weights of output channels [" +
                    std::to_string(w.workload.lo[1]) + ", " + std::to_string(w.workload.hi[1]) +
                    "]; the weight range is [" + std::to_string(b.lo[kd]) + ", " +
                    std::to_string(b.hi[kd]) + "]");
  }

  // A DRAM weight entry holds R*S*(C/G) bytes per output channel (a
  // grouped layer's full-C size is quirk Q3, corrected before this).
  void dram_weight(const ir::DramOut& e) {
    if (e.type != ir::DataType::weight || !e.layer_name) return;
    const Op* op = net_.find(*e.layer_name);
    if (!op || !op->has_weights() || op->weight_from_fmap) return;
    const std::int64_t per_k = op->weight_shape[1] * op->weight_shape[2] * op->weight_shape[3];
    const std::int64_t want = per_k * e.box.extent(ir::weight_k_dim(e.box));
    // The full dialect's sizes may carry BatchNorm parameters: at most what
    // alignment and 8 bytes per channel explain.
    if (e.size < want)
      d_.report(ir::Check::weight_mismatch, m_.pointer(e.origin, "/size"),
                op->name + ": weights of " +
                    std::to_string(want / std::max<std::int64_t>(per_k, 1)) +
                    " output channels take " + std::to_string(want) + " bytes; the entry has " +
                    std::to_string(e.size));
  }

  const ir::Model& m_;
  const Network& net_;
  ir::Diagnostics& d_;
  std::map<std::string, std::vector<const ir::Workload*>> computed_;  // by layer
};

}  // namespace

void check_semantics(const ir::Model& m, const Network& net, ir::Diagnostics& d) {
  Checker(m, net, d).run();
}

}  // namespace gemini::model
