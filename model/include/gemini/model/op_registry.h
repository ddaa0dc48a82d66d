#pragma once
// The op registry: every op type the layer semantics know (the rows of the
// op descriptor table, ir/op_table.h), each declaring once its arguments and
// its dimension annotation in the notation of
// ../shared/spec/dimop-annotation.md:
//
//   Conv2d:  "n (g c+) ih iw, (g k) c+ r^ s^ -> n (g k) oh[ih/r] ow[iw/s]"
//
// Identifiers name dimensions (the same identifier is the same length), `+`
// marks a reduced dimension (summed into every output), `^` one that must
// not be partitioned, `(a b)` a dimension made of hidden ones (a outer),
// and a number a fixed length. The extension windowed ops need is
// `oh[ih/r]`: output dimension oh slides a window of r (a kernel dimension,
// or a KernelRS argument for pooling) over input dimension ih with the op's
// stride and padding, so that  pad_lo + IH + pad_hi = (OH - 1) * stride + R,
// and output rows [h0, h1] read input rows
//   [max(0, h0*stride - pad_lo), min(IH - 1, h1*stride - pad_lo + R - 1)]
// (the halo rule). From the annotation the library infers an op's output
// shape from its input shapes and arguments, checks it against the model
// file's, and classifies every input dimension for partition checks.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gemini/ir/box.h"
#include "gemini/model/network.h"

namespace gemini::model {

// One dimension of an annotated tensor.
struct AnnotatedDim {
  std::vector<std::string> ids;  // one, or the hidden ones of "(a b)", outer first
  std::vector<char> reduction;   // per id: ' ', '+' or '^'
  std::int64_t number = -1;      // a fixed length ("1"), else -1
  std::string window_over;       // "ih" for oh[ih/r]
  std::string window_kernel;     // "r" for oh[ih/r]
};
struct AnnotatedTensor {
  std::vector<AnnotatedDim> dims;
};
struct Annotation {
  std::vector<AnnotatedTensor> inputs, outputs;
};

// Parses an annotation; nullopt with `error` naming the position otherwise.
std::optional<Annotation> parse_annotation(std::string_view text, std::string& error);

enum class ArgType : std::uint8_t { int_, dims, boolean };
struct ArgSpec {
  std::string_view name;
  ArgType type;
  bool required;
};

// An op type's shape rule: its annotation and arguments. Its names, engine
// and layer operation are its row of the op descriptor table
// (ir/op_table.h); there is one registration per row, in the rows' order
// (checked at compile time).
struct OpRegistration {
  OpType type;
  std::string_view annotation;  // weights constant (or none)
  // The annotation of the variant whose weights come from other ops'
  // results (Conv2d with WeightFromFmap); empty where there is none.
  std::string_view annotation_weights_from_fmap;
  std::span<const ArgSpec> args;
  // Its ARK name (ir::describe(type).ark_name).
  std::string_view ark_name() const { return ir::describe(type).ark_name; }
};

std::span<const OpRegistration> all_op_types();
// The arguments every op has (IfmapShape, OfmapShape, Bitwidth, ExternalChannels).
std::span<const ArgSpec> common_args();
const OpRegistration* find_op_type(std::string_view ark_name);
const OpRegistration& registration(OpType t);

// The annotation the op uses (its registration's, chosen by WeightFromFmap;
// Transpose's output dimensions are its input's, permuted; pooling with
// Global reads the whole input).
std::string annotation_of(const Op& op);

// Binds the op's annotation to its input shapes (IfmapShape; WeightShape,
// or the weight producers' results) and arguments, and infers the output
// shape. False with `error` when the shapes contradict the annotation.
bool infer_output_shape(const Op& op, Dims4& out, std::string& error);

// How a workload may partition the op's input, per ifmap dimension [N, C,
// H, W]: ' ' follows the ofmap box, 'w' follows it through a window (halo
// rule), '+' reduced and '^' unpartitionable (both must be read whole).
std::array<char, 4> ifmap_dim_kinds(const Op& op);

// The input box (concatenated-input coordinates) an ofmap box of the op
// needs: SET's Layer::ofm_to_ifm, as the models README states it.
ir::Box required_ifmap_box(const Op& op, const ir::Box& ofmap);

}  // namespace gemini::model
