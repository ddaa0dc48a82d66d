// Layer-semantics model files: the loader (JSON, arguments, tensors,
// producers, the annotation's shape inference) and, for networks small
// enough to compute in a moment, the CPU reference and the lowering's
// geometry table.
#include "fuzz_support.h"
#include "gemini/model/geometry.h"
#include "gemini/model/network.h"
#include "gemini/model/op_registry.h"
#include "gemini/model/reference.h"
#include "gemini/model/stats.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gemini;  // NOLINT(google-build-using-namespace): harness
  const std::string text(reinterpret_cast<const char*>(data), size);
  ir::Diagnostics d(100);
  const std::optional<model::Network> net = model::parse_network(text, "fuzz.model.json", d);
  fuzz::require(net.has_value() == (d.errors() == 0), "a model loads exactly when it has no error");
  if (!net) return 0;
  fuzz::require(net->order.size() == net->ops.size(), "every op is ordered");
  for (const model::Op& op : net->ops) {
    model::Dims4 out{};
    std::string why;
    fuzz::require(model::infer_output_shape(op, out, why) && out == op.ofmap_shape,
                  "a loaded op's annotation gives its OfmapShape");
    const ir::Box whole =
        model::required_ifmap_box(op, ir::Box{{0, 0, 0, 0},
                                              {static_cast<std::int32_t>(op.ofmap_shape[0] - 1),
                                               static_cast<std::int32_t>(op.ofmap_shape[1] - 1),
                                               static_cast<std::int32_t>(op.ofmap_shape[2] - 1),
                                               static_cast<std::int32_t>(op.ofmap_shape[3] - 1)}});
    for (int k = 0; k < 4; ++k)
      fuzz::require(whole.lo[k] >= 0 && whole.hi[k] < op.ifmap_shape[static_cast<std::size_t>(k)],
                    "the input an op's whole output needs lies inside its input");
  }
  // Only what computes in a moment (the CLI computes any size).
  const std::optional<std::int64_t> bytes = model::reference_bytes(*net);
  if (!bytes || *bytes > (std::int64_t{16} << 20) || model::network_macs(*net) > 20'000'000)
    return 0;
  const model::Reference ref = model::compute_reference(*net, 1, 1);
  fuzz::note("reference computed");
  fuzz::require(ref.outputs.size() == net->ops.size(), "one output per op");
  (void)model::geometry_table(*net, ref.numerics);
  return 0;
}
