#include "gemini/model/op_registry.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "gemini/ir/checked_int.h"

namespace gemini::model {
namespace {

using A = ArgType;

constexpr ArgSpec kCommon[] = {
    {"IfmapShape", A::dims, true},
    {"OfmapShape", A::dims, true},
    {"Bitwidth", A::int_, false},
    {"ExternalChannels", A::int_, false},
};
constexpr ArgSpec kConv[] = {
    {"KernelRS", A::dims, true},          {"StrideHW", A::dims, true},
    {"PadTBLR", A::dims, true},           {"Groups", A::int_, false},
    {"WeightShape", A::dims, true},       {"WeightFromFmap", A::boolean, false},
    {"NumWeightTensors", A::int_, false},
};
constexpr ArgSpec kFc[] = {
    {"KernelRS", A::dims, false},          {"StrideHW", A::dims, false},
    {"PadTBLR", A::dims, false},           {"WeightShape", A::dims, true},
    {"WeightFromFmap", A::boolean, false},
};
constexpr ArgSpec kPool[] = {
    {"KernelRS", A::dims, true},
    {"StrideHW", A::dims, true},
    {"PadTBLR", A::dims, true},
    {"Global", A::boolean, false},
};
constexpr ArgSpec kEltwise[] = {{"Operands", A::int_, true}};
constexpr ArgSpec kTranspose[] = {{"Permutation", A::dims, true}, {"Order", A::dims, false}};

// In OpType order, one per row of the op descriptor table (ir/op_table.h).
constexpr OpRegistration kOps[] = {
    {OpType::conv2d, "n (g c+) ih iw, (g k) c+ r^ s^ -> n (g k) oh[ih/r] ow[iw/s]",
     "n (g c+) ih iw, n (g k) c+ (r^ s^) -> n (g k) oh[ih/r] ow[iw/s]", kConv},
    {OpType::fully_connected, "n c+ ih+ iw+, k (c+ ih+ iw+) -> n k 1 1", "", kFc},
    {OpType::pool, "n c ih iw -> n c oh[ih/r] ow[iw/s]", "", kPool},
    {OpType::eltwise, "n (o^ k) h w -> n k h w", "", kEltwise},
    {OpType::ptp, "n c h w -> n c h w", "", {}},
    {OpType::transpose, "n c h w -> n c h w", "", kTranspose},
};
static_assert(std::size(kOps) == ir::kOpTypeCount, "one registration per op type");
constexpr bool in_type_order() {
  for (std::size_t i = 0; i < std::size(kOps); ++i)
    if (static_cast<std::size_t>(kOps[i].type) != i) return false;
  return true;
}
static_assert(in_type_order(), "registrations in OpType order");

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}
  std::optional<Annotation> run(std::string& error) {
    Annotation a;
    if (!tensors(a.inputs, error)) return std::nullopt;
    skip();
    if (s_.substr(i_, 2) != "->") return fail(error, "expected '->'");
    i_ += 2;
    if (!tensors(a.outputs, error)) return std::nullopt;
    skip();
    if (i_ != s_.size()) return fail(error, "unexpected text");
    return a;
  }

 private:
  std::optional<Annotation> fail(std::string& error, const std::string& what) {
    error = what + " at column " + std::to_string(i_ + 1);
    return std::nullopt;
  }
  void skip() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }
  bool word(std::string& out) {
    skip();
    const std::size_t b = i_;
    while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
    out = std::string(s_.substr(b, i_ - b));
    return !out.empty();
  }
  char reduction() {
    if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '^')) return s_[i_++];
    return ' ';
  }
  bool dim(AnnotatedDim& d, std::string& error) {
    skip();
    if (i_ < s_.size() && s_[i_] == '(') {
      ++i_;
      for (;;) {
        skip();
        if (i_ < s_.size() && s_[i_] == ')') {
          ++i_;
          break;
        }
        std::string w;
        if (!word(w)) return (void)fail(error, "expected an identifier"), false;
        d.ids.push_back(w);
        d.reduction.push_back(reduction());
      }
      if (d.ids.size() < 2)
        return (void)fail(error, "a hidden dimension needs two identifiers"), false;
      return true;
    }
    std::string w;
    if (!word(w)) return (void)fail(error, "expected a dimension"), false;
    if (std::all_of(w.begin(), w.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      d.number = std::stoll(w);
      d.ids.push_back(w);
      d.reduction.push_back('^');  // numbers are never partitioned
      return true;
    }
    d.ids.push_back(w);
    d.reduction.push_back(reduction());
    if (i_ < s_.size() && s_[i_] == '[') {
      ++i_;
      if (!word(d.window_over))
        return (void)fail(error, "expected the windowed input dimension"), false;
      skip();
      if (i_ >= s_.size() || s_[i_] != '/') return (void)fail(error, "expected '/'"), false;
      ++i_;
      if (!word(d.window_kernel)) return (void)fail(error, "expected the window's kernel"), false;
      skip();
      if (i_ >= s_.size() || s_[i_] != ']') return (void)fail(error, "expected ']'"), false;
      ++i_;
    }
    return true;
  }
  bool tensors(std::vector<AnnotatedTensor>& out, std::string& error) {
    for (;;) {
      AnnotatedTensor t;
      for (;;) {
        skip();
        if (i_ >= s_.size() || s_[i_] == ',' || s_.substr(i_, 2) == "->") break;
        AnnotatedDim d;
        if (!dim(d, error)) return false;
        t.dims.push_back(std::move(d));
      }
      if (t.dims.empty()) return (void)fail(error, "a tensor needs dimensions"), false;
      out.push_back(std::move(t));
      skip();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      return true;
    }
  }
  std::string_view s_;
  std::size_t i_ = 0;
};

// Identifier lengths, bound from shapes and arguments.
class Binding {
 public:
  bool bind(const std::string& id, std::int64_t v, std::string& error) {
    auto [it, fresh] = v_.emplace(id, v);
    if (!fresh && it->second != v) {
      error = "dimension '" + id + "' is " + std::to_string(it->second) + " in one place and " +
              std::to_string(v) + " in another";
      return false;
    }
    return true;
  }
  std::optional<std::int64_t> get(const std::string& id) const {
    auto it = v_.find(id);
    if (it == v_.end()) return std::nullopt;
    return it->second;
  }

  // Binds a tensor dimension of length `len`; `progress` says whether
  // something new was bound. A hidden dimension with one unknown part binds
  // it once the others are known.
  bool dim(const AnnotatedDim& d, std::int64_t len, bool& progress, std::string& error) {
    if (d.number >= 0) {
      if (len != d.number) {
        error = "a dimension fixed at " + std::to_string(d.number) + " has length " +
                std::to_string(len);
        return false;
      }
      return true;
    }
    if (d.ids.size() == 1) {
      if (!get(d.ids[0])) progress = true;
      return bind(d.ids[0], len, error);
    }
    ir::CheckedI64 product(1);
    const std::string* unknown = nullptr;
    for (const std::string& id : d.ids) {
      if (auto v = get(id)) {
        product *= *v;
      } else if (unknown) {
        return true;  // two unknown parts: later
      } else {
        unknown = &id;
      }
    }
    const std::int64_t known = product.value_or(-1);  // -1: it overflowed
    if (!unknown) {
      if (known != len) {
        error = "dimension (" + join(d.ids) + ") is " + std::to_string(known) + " but has length " +
                std::to_string(len);
        return false;
      }
      return true;
    }
    if (known <= 0 || len % known != 0) {
      error = "dimension (" + join(d.ids) + ") of length " + std::to_string(len) +
              " does not divide by " + std::to_string(known);
      return false;
    }
    progress = true;
    return bind(*unknown, len / known, error);
  }

 private:
  static std::string join(const std::vector<std::string>& ids) {
    std::string s;
    for (const auto& x : ids) s += (s.empty() ? "" : " ") + x;
    return s;
  }
  std::map<std::string, std::int64_t> v_;
};

Annotation parsed(const std::string& text) {
  std::string error;
  auto a = parse_annotation(text, error);
  if (!a) {  // the registry's own strings: a bug
    std::fprintf(stderr, "gemini: internal error: annotation '%s': %s\n", text.c_str(),
                 error.c_str());
    std::abort();
  }
  return *a;
}

}  // namespace

std::optional<Annotation> parse_annotation(std::string_view text, std::string& error) {
  return Parser(text).run(error);
}

std::span<const OpRegistration> all_op_types() { return kOps; }
std::span<const ArgSpec> common_args() { return kCommon; }

const OpRegistration* find_op_type(std::string_view ark_name) {
  const ir::OpDescriptor* d = ir::find_ark_type(ark_name);
  return d ? &registration(d->type) : nullptr;
}

const OpRegistration& registration(OpType t) { return kOps[static_cast<std::size_t>(t)]; }

std::string annotation_of(const Op& op) {
  const OpRegistration& r = registration(op.type);
  if (op.type == OpType::conv2d && op.weight_from_fmap)
    return std::string(r.annotation_weights_from_fmap);
  if (op.type == OpType::pool && op.global) return "n c ih^ iw^ -> n c 1 1";
  if (op.type == OpType::transpose) {
    // Input dimension i becomes output dimension permutation[i].
    const char* names[] = {"n", "c", "h", "w"};
    std::string out[4];
    for (int i = 0; i < 4; ++i) {
      const std::int64_t p = op.permutation[static_cast<std::size_t>(i)];
      if (p >= 0 && p < 4) out[p] = names[i];
    }
    return std::string("n c h w -> ") + out[0] + " " + out[1] + " " + out[2] + " " + out[3];
  }
  return std::string(r.annotation);
}

bool infer_output_shape(const Op& op, Dims4& out, std::string& error) {
  const Annotation a = parsed(annotation_of(op));
  Binding b;
  // Arguments that name identifiers.
  if (op.type == OpType::conv2d && !b.bind("g", op.groups, error)) return false;
  if (op.type == OpType::eltwise && !b.bind("o", op.operands, error)) return false;
  // A window (oh[ih/r]) slides KernelRS: r and s are its rows and columns.
  const bool windowed = std::any_of(a.outputs.front().dims.begin(), a.outputs.front().dims.end(),
                                    [](const AnnotatedDim& d) { return !d.window_over.empty(); });
  if (windowed && (!b.bind("r", op.kernel[0], error) || !b.bind("s", op.kernel[1], error)))
    return false;
  // The input shapes: the concatenated ifmap and the weights.
  std::vector<std::vector<std::int64_t>> shapes;
  shapes.emplace_back(op.ifmap_shape.begin(), op.ifmap_shape.end());
  if (op.has_weights()) {
    const Dims4& ws = op.weight_shape;
    if (op.type == OpType::fully_connected) {
      shapes.push_back({ws[0], ws[1]});
    } else if (op.weight_from_fmap) {
      shapes.push_back({op.ifmap_shape[0], ws[0], ws[1], ws[2] * ws[3]});
    } else {
      shapes.push_back({ws[0], ws[1], ws[2], ws[3]});
    }
  }
  if (shapes.size() != a.inputs.size()) {
    error = "the annotation has " + std::to_string(a.inputs.size()) + " inputs, the op " +
            std::to_string(shapes.size());
    return false;
  }
  for (std::size_t t = 0; t < shapes.size(); ++t)
    if (shapes[t].size() != a.inputs[t].dims.size()) {
      error = "input " + std::to_string(t) + " has " + std::to_string(shapes[t].size()) +
              " dimensions, the annotation " + std::to_string(a.inputs[t].dims.size());
      return false;
    }
  // Bind to a fixpoint: a hidden dimension may need a part bound later.
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t t = 0; t < shapes.size(); ++t)
      for (std::size_t d = 0; d < shapes[t].size(); ++d)
        if (!b.dim(a.inputs[t].dims[d], shapes[t][d], progress, error)) return false;
  }
  if (a.outputs.size() != 1 || a.outputs[0].dims.size() != 4) {
    error = "the annotation's output is not one 4-D tensor";
    return false;
  }
  for (std::size_t d = 0; d < 4; ++d) {
    const AnnotatedDim& x = a.outputs[0].dims[d];
    std::int64_t len = 1;
    if (x.number >= 0) {
      len = x.number;
    } else if (!x.window_over.empty()) {
      const auto in = b.get(x.window_over);
      const auto k = b.get(x.window_kernel);
      if (!in || !k) {
        error = "window " + x.ids[0] + "[" + x.window_over + "/" + x.window_kernel + "] is unbound";
        return false;
      }
      const std::size_t axis = d - 2;  // 2: H, 3: W
      const std::int64_t stride = op.stride[axis];
      const std::int64_t lo = op.pad[axis * 2], hi = op.pad[axis * 2 + 1];
      // Each term is bounded by the loader (|pad| <= 255, dimensions <= 65535);
      // checked all the same, since the op may come from elsewhere.
      ir::CheckedI64 sum(lo);
      sum += *in;
      sum += hi;
      sum -= *k;
      const std::optional<std::int64_t> span = sum.get();
      if (stride <= 0 || !span || *span < 0 || *span % stride != 0) {
        error = "a window of " + std::to_string(*k) + " with stride " + std::to_string(stride) +
                " and padding " + std::to_string(lo) + "+" + std::to_string(hi) +
                " does not tile an input of " + std::to_string(*in) +
                " (pad_lo + input + pad_hi = (output - 1) * stride + kernel)";
        return false;
      }
      len = *span / stride + 1;
    } else {
      ir::CheckedI64 product(1);
      for (const std::string& id : x.ids) {
        const auto v = b.get(id);
        if (!v) {
          error = "output dimension '" + id + "' is not bound by any input";
          return false;
        }
        product *= *v;
      }
      if (!product.ok()) {
        error = "output dimension (" + x.ids[0] + " ...) overflows";
        return false;
      }
      len = *product.get();
    }
    out[d] = len;
  }
  return true;
}

std::array<char, 4> ifmap_dim_kinds(const Op& op) {
  const Annotation a = parsed(annotation_of(op));
  std::array<char, 4> k{' ', ' ', ' ', ' '};
  const AnnotatedTensor& in = a.inputs.front();
  for (std::size_t d = 0; d < 4 && d < in.dims.size(); ++d) {
    const AnnotatedDim& x = in.dims[d];
    for (char r : x.reduction)
      if (r == '^' || (r == '+' && k[d] != '^')) k[d] = r;
    for (const AnnotatedDim& o : a.outputs.front().dims)
      if (!o.window_over.empty() && x.ids.size() == 1 && o.window_over == x.ids[0]) k[d] = 'w';
  }
  return k;
}

ir::Box required_ifmap_box(const Op& op, const ir::Box& o) {
  ir::Box b;
  b.rank = 4;
  const Dims4& in = op.ifmap_shape;
  auto whole = [&](int d) {
    b.lo[d] = 0;
    b.hi[d] = static_cast<std::int32_t>(in[d] - 1);
  };
  auto window = [&](int d) {
    const auto axis = static_cast<std::size_t>(d - 2);
    const std::int64_t s = op.stride[axis], pad = op.pad[axis * 2], k = op.kernel[axis];
    b.lo[d] = static_cast<std::int32_t>(std::max<std::int64_t>(0, o.lo[d] * s - pad));
    b.hi[d] =
        static_cast<std::int32_t>(std::min<std::int64_t>(in[d] - 1, o.hi[d] * s - pad + k - 1));
  };
  b.lo[0] = o.lo[0];
  b.hi[0] = o.hi[0];
  // By the layer operation the op's type computes (ir/op_table.h).
  switch (ir::describe(op.type).layer_op(op.global)) {
    case ir::LayerOp::conv:
      b.lo[1] = static_cast<std::int32_t>(op.input_channel_lo(o.lo[1]));
      b.hi[1] = static_cast<std::int32_t>(op.input_channel_hi(o.hi[1]));
      window(2);
      window(3);
      break;
    case ir::LayerOp::fc:
      whole(1);
      whole(2);
      whole(3);
      break;
    case ir::LayerOp::pool_max:
    case ir::LayerOp::pool_avg:
      b.lo[1] = o.lo[1];
      b.hi[1] = o.hi[1];
      if (op.global) {
        whole(2);
        whole(3);
      } else {
        window(2);
        window(3);
      }
      break;
    case ir::LayerOp::eltwise:
    case ir::LayerOp::copy:
    case ir::LayerOp::unknown:
      b = o;
      b.rank = 4;
      break;
    case ir::LayerOp::transpose:
      for (int i = 0; i < 4; ++i) {
        const auto p = static_cast<int>(op.permutation[static_cast<std::size_t>(i)]);
        b.lo[i] = o.lo[p];
        b.hi[i] = o.hi[p];
      }
      break;
  }
  return b;
}

}  // namespace gemini::model
