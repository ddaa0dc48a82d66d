// The layer-semantics library: annotations, model files, the generator,
// requantisation, the tile kernels against the per-element definitions,
// and the reference.
#include <gtest/gtest.h>

#include <random>

#include "fixture.h"
#include "gemini/model/cpu_kernels.h"
#include "gemini/model/layer_params.h"
#include "gemini/model/network.h"
#include "gemini/model/numerics.h"
#include "gemini/model/op_registry.h"
#include "gemini/model/reference.h"
#include "gemini/model/stats.h"
#include "tile_cases.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file
using ir::Box;
using test::box;
using test::random_tile;

namespace {

std::string listing(const ir::Diagnostics& d) {
  std::string s;
  for (const auto& x : d.items()) {
    s += std::string(x.code()) + " " + x.pointer;
    if (x.line) s += " " + std::to_string(*x.line) + ":" + std::to_string(*x.column);
    s += ": " + x.message + "\n";
  }
  return s;
}

TEST(Annotation, ParsesHiddenReducedAndWindowedDimensions) {
  std::string err;
  auto a =
      model::parse_annotation("n (g c+) ih iw, (g k) c+ r^ s^ -> n (g k) oh[ih/r] ow[iw/s]", err);
  ASSERT_TRUE(a) << err;
  ASSERT_EQ(a->inputs.size(), 2u);
  ASSERT_EQ(a->outputs.size(), 1u);
  const auto& c = a->inputs[0].dims[1];
  EXPECT_EQ(c.ids, (std::vector<std::string>{"g", "c"}));
  EXPECT_EQ(c.reduction, (std::vector<char>{' ', '+'}));
  EXPECT_EQ(a->inputs[1].dims[2].reduction, (std::vector<char>{'^'}));
  const auto& oh = a->outputs[0].dims[2];
  EXPECT_EQ(oh.ids, (std::vector<std::string>{"oh"}));
  EXPECT_EQ(oh.window_over, "ih");
  EXPECT_EQ(oh.window_kernel, "r");
  auto one = model::parse_annotation("n c+ ih+ iw+, k (c+ ih+ iw+) -> n k 1 1", err);
  ASSERT_TRUE(one) << err;
  EXPECT_EQ(one->outputs[0].dims[2].number, 1);
}

TEST(Annotation, RejectsMalformedText) {
  std::string err;
  EXPECT_FALSE(model::parse_annotation("n c h w", err));
  EXPECT_NE(err.find("'->'"), std::string::npos) << err;
  EXPECT_FALSE(model::parse_annotation("n (c) -> n c", err));
  EXPECT_FALSE(model::parse_annotation("n c[h -> n c", err));
  EXPECT_FALSE(model::parse_annotation("n c -> ", err));
}

TEST(OpRegistry, EveryTypeHasAnAnnotationThatParses) {
  std::string err;
  for (const auto& r : model::all_op_types()) {
    EXPECT_TRUE(model::parse_annotation(r.annotation, err)) << r.ark_name() << ": " << err;
    if (!r.annotation_weights_from_fmap.empty()) {
      EXPECT_TRUE(model::parse_annotation(r.annotation_weights_from_fmap, err)) << err;
    }
  }
}

model::Op conv(std::int64_t c, std::int64_t k, std::int64_t h, std::int64_t w, std::int64_t r,
               std::int64_t stride, std::array<std::int64_t, 4> pad, std::int64_t g = 1) {
  model::Op op;
  op.type = model::OpType::conv2d;
  op.name = "c";
  op.ifmap_shape = {1, c, h, w};
  op.kernel = {r, r};
  op.stride = {stride, stride};
  op.pad = pad;
  op.groups = g;
  op.weight_shape = {k, c / g, r, r};
  const std::int64_t oh = (pad[0] + h + pad[1] - r) / stride + 1;
  const std::int64_t ow = (pad[2] + w + pad[3] - r) / stride + 1;
  op.ofmap_shape = {1, k, oh, ow};
  return op;
}

TEST(OpRegistry, InfersConvolutionShapesFromTheAnnotation) {
  model::Dims4 out{};
  std::string err;
  // resnet conv1: 7x7 stride 2, padding [2,3,2,3], 224 -> 112.
  model::Op c1 = conv(3, 64, 224, 224, 7, 2, {2, 3, 2, 3});
  ASSERT_TRUE(model::infer_output_shape(c1, out, err)) << err;
  EXPECT_EQ(out, (model::Dims4{1, 64, 112, 112}));
  // A stride-2 1x1 convolution with negative bottom/right padding (56 -> 28).
  model::Op c2 = conv(64, 128, 56, 56, 1, 2, {0, -1, 0, -1});
  ASSERT_TRUE(model::infer_output_shape(c2, out, err)) << err;
  EXPECT_EQ(out, (model::Dims4{1, 128, 28, 28}));
  // Groups: C and K must divide by G.
  model::Op g = conv(64, 128, 8, 8, 3, 1, {1, 1, 1, 1}, 4);
  ASSERT_TRUE(model::infer_output_shape(g, out, err)) << err;
  EXPECT_EQ(out, (model::Dims4{1, 128, 8, 8}));
  g.weight_shape[1] = 15;  // C/G wrong
  EXPECT_FALSE(model::infer_output_shape(g, out, err));
  // A window that does not tile the input.
  model::Op bad = conv(3, 8, 10, 10, 3, 2, {0, 0, 0, 0});
  EXPECT_FALSE(model::infer_output_shape(bad, out, err));
  EXPECT_NE(err.find("does not tile"), std::string::npos) << err;
}

TEST(OpRegistry, InfersTheOtherOpTypes) {
  model::Dims4 out{};
  std::string err;
  model::Op e;
  e.type = model::OpType::eltwise;
  e.operands = 2;
  e.ifmap_shape = {1, 512, 7, 7};
  ASSERT_TRUE(model::infer_output_shape(e, out, err)) << err;
  EXPECT_EQ(out, (model::Dims4{1, 256, 7, 7}));
  e.operands = 3;
  EXPECT_FALSE(model::infer_output_shape(e, out, err));  // 512 does not divide by 3
  model::Op t;
  t.type = model::OpType::transpose;
  t.permutation = {0, 2, 1, 3};
  t.ifmap_shape = {1, 64, 512, 1};
  ASSERT_TRUE(model::infer_output_shape(t, out, err)) << err;
  EXPECT_EQ(out, (model::Dims4{1, 512, 64, 1}));
  model::Op p;
  p.type = model::OpType::pool;
  p.global = true;
  p.ifmap_shape = {2, 2048, 7, 7};
  ASSERT_TRUE(model::infer_output_shape(p, out, err)) << err;
  EXPECT_EQ(out, (model::Dims4{2, 2048, 1, 1}));
  model::Op fc;
  fc.type = model::OpType::fully_connected;
  fc.ifmap_shape = {1, 2048, 1, 1};
  fc.weight_shape = {1000, 2048, 1, 1};
  ASSERT_TRUE(model::infer_output_shape(fc, out, err)) << err;
  EXPECT_EQ(out, (model::Dims4{1, 1000, 1, 1}));
}

TEST(OpRegistry, ClassifiesInputDimensionsAndGivesTheHaloRule) {
  model::Op c = conv(64, 64, 56, 56, 3, 1, {1, 1, 1, 1});
  EXPECT_EQ(model::ifmap_dim_kinds(c), (std::array<char, 4>{' ', '+', 'w', 'w'}));
  ir::Box o;
  o.lo = {0, 0, 10, 0};
  o.hi = {0, 31, 19, 55};
  const ir::Box in = model::required_ifmap_box(c, o);
  EXPECT_EQ(in.lo, (std::array<std::int32_t, 4>{0, 0, 9, 0}));
  EXPECT_EQ(in.hi, (std::array<std::int32_t, 4>{0, 63, 20, 55}));
  model::Op g = conv(64, 128, 8, 8, 1, 1, {0, 0, 0, 0}, 4);  // GK 32, GC 16
  o.lo = {0, 40, 0, 0};
  o.hi = {0, 70, 7, 7};
  const ir::Box gin = model::required_ifmap_box(g, o);
  EXPECT_EQ(gin.lo[1], 16);  // group 1
  EXPECT_EQ(gin.hi[1], 47);  // through group 2
  model::Op pool;
  pool.type = model::OpType::pool;
  pool.global = true;
  pool.kernel = {7, 7};
  EXPECT_EQ(model::ifmap_dim_kinds(pool), (std::array<char, 4>{' ', ' ', '^', '^'}));
}

TEST(ModelFile, LoadsTheMinimalModels) {
  for (const char* f : {"set_minimal.model.json", "spec_minimal.model.json"}) {
    ir::Diagnostics d;
    auto net = model::load_network((test::data_dir() / f).string(), d);
    ASSERT_TRUE(net) << listing(d);
    EXPECT_EQ(d.errors() + d.warnings(), 0u) << listing(d);
    ASSERT_EQ(net->externals.size(), 1u);
    EXPECT_EQ(net->externals[0].shape, (model::Dims4{1, 3, 16, 16}));
    const model::Op& first = net->ops[static_cast<std::size_t>(net->order.front())];
    ASSERT_EQ(first.inputs.size(), 1u);
    EXPECT_TRUE(first.inputs[0].external);
  }
}

// A model file with one thing wrong, and the pointer and text of the error.
void expect_model_error(const std::string& text, const std::string& pointer,
                        const std::string& words) {
  ir::Diagnostics d;
  auto net = model::parse_network(text, "m.json", d);
  EXPECT_FALSE(net);
  bool found = false;
  for (const auto& x : d.items())
    if (x.check == ir::Check::model_file && x.pointer == pointer &&
        x.message.find(words) != std::string::npos)
      found = true;
  EXPECT_TRUE(found) << "want M001 at " << pointer << " with \"" << words << "\"; got\n"
                     << listing(d);
}

std::string minimal_with(const std::string& from, const std::string& to) {
  std::string s = test::read_file(test::data_dir() / "set_minimal.model.json");
  const auto at = s.find(from);
  if (at == std::string::npos) throw std::runtime_error("no " + from);
  return s.replace(at, from.size(), to);
}

TEST(ModelFile, ReportsWhatIsWrongAndWhere) {
  expect_model_error(minimal_with("\"Pool\"", "\"Sigmoid\""), "/Nodes/1/Ops/0/Type",
                     "does not compute");
  expect_model_error(
      minimal_with("\"StrideHW\": {\"DIMS\": [2, 2]}", "\"StrideHW\": {\"DIMS\": [1, 1]}"),
      "/Nodes/0/Ops/0/Args/OfmapShape", "gives an output of [1,16,15,15]");
  expect_model_error(
      minimal_with("\"StrideHW\": {\"DIMS\": [2, 2]}, \"PadTBLR\": {\"DIMS\": [0, 1, 0, 1]}",
                   "\"StrideHW\": {\"DIMS\": [2, 2]}"),
      "/Nodes/0/Ops/0/Args", "needs argument PadTBLR");
  expect_model_error(minimal_with("\"Groups\": {\"INT\": 1}", "\"Groups\": {\"BOOL\": true}"),
                     "/Nodes/0/Ops/0/Args/Groups", "must be INT");
  expect_model_error(minimal_with("\"ProducerNodeIds\": [0]", "\"ProducerNodeIds\": [5]"),
                     "/Nodes/1/Ops/0", "node 5");
  expect_model_error(minimal_with("\"DataType\": \"INT8\"", "\"DataType\": \"FP16\""),
                     "/Nodes/0/Ops/0/ReadTensors/0/DataType", "int8");
  // Syntax errors give line and column.
  ir::Diagnostics d;
  EXPECT_FALSE(model::parse_network("{\n \"Nodes\": [,]\n}", "m.json", d));
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].line, 2u);
  EXPECT_EQ(d.items()[0].check, ir::Check::model_file);
}

TEST(ModelFile, AcceptsTheTutorialsSingleOpNodes) {
  // ARK's tutorial files write one "Op" per node instead of "Ops".
  std::string s = minimal_with("\"Ops\": [{", "\"Op\": {");
  s = s.replace(s.find("}]\n  },"), 7, "}\n  },");
  ir::Diagnostics d;
  EXPECT_TRUE(model::parse_network(s, "m.json", d)) << listing(d);
}

TEST(Generator, IsPinnedCounterBasedAndUniform) {
  // Pinned values: any backend must produce exactly these.
  const std::uint64_t key = model::tensor_key(model::DataKind::input, 144);
  EXPECT_EQ(key, (std::uint64_t{1} << 32) | 144u);
  EXPECT_EQ(model::mix64(0), 0u);
  EXPECT_EQ(model::mix64(1), 0x5692161d100b05e5ULL);
  const std::int8_t first[4] = {model::generate(1, key, 0), model::generate(1, key, 1),
                                model::generate(1, key, 2), model::generate(1, key, 1000000)};
  const std::uint64_t base = model::stream_base(1, key);
  EXPECT_EQ(first[0], model::generate_at(base, 0));
  // The first bytes docs/numerics.md pins (seed 1): network input tensor 144
  // (goog_b1's and resnet_b1's input) and node 0's weights, computed there
  // from the formula alone.
  const std::int8_t input144[8] = {-23, 99, 108, -81, -111, -56, 84, -115};
  const std::int8_t weights0[8] = {124, 3, -42, -27, -122, 69, -66, 125};
  for (std::uint64_t i = 0; i < 8; ++i) {
    EXPECT_EQ(model::generate(1, key, i), input144[i]) << i;
    EXPECT_EQ(model::generate(1, model::tensor_key(model::DataKind::weight, 0), i), weights0[i])
        << i;
  }
  EXPECT_EQ(first[3], model::generate_at(base, 1000000));
  // Another seed or tensor gives other values.
  int differ = 0;
  for (std::uint64_t i = 0; i < 64; ++i)
    differ += model::generate(1, key, i) != model::generate(2, key, i);
  EXPECT_GT(differ, 50);
  // Uniform over [-128, 127]: every value appears, none much more than 1/256.
  std::array<int, 256> hist{};
  const int n = 256 * 400;
  for (int i = 0; i < n; ++i) ++hist[static_cast<std::uint8_t>(model::generate_at(base, i))];
  for (int h : hist) {
    EXPECT_GT(h, 400 - 100);
    EXPECT_LT(h, 400 + 100);
  }
}

TEST(Requantize, RoundsHalfUpAndSaturates) {
  EXPECT_EQ(model::requantize(5, 1), 3);    // 2.5 -> 3
  EXPECT_EQ(model::requantize(-5, 1), -2);  // -2.5 -> -2 (half up)
  EXPECT_EQ(model::requantize(-6, 2), -1);  // -1.5 -> -1
  EXPECT_EQ(model::requantize(-7, 2), -2);  // -1.75 -> -2
  EXPECT_EQ(model::requantize(1000, 2), 127);
  EXPECT_EQ(model::requantize(-1000, 2), -128);
  EXPECT_EQ(model::requantize(127, 0), 127);
  EXPECT_EQ(model::requantize(128, 0), 127);
  EXPECT_EQ(model::requantize(INT32_MAX, 31), 1);
  EXPECT_EQ(model::requantize(INT32_MIN, 31), -1);
}

TEST(Requantize, CalibratedShiftBringsTheRmsIntoTheTargetBand) {
  std::mt19937 rng(7);
  for (int scale : {1, 10, 1000, 100000, 5000000}) {
    std::normal_distribution<double> dist(0, scale);
    std::vector<std::int32_t> v(5000);
    for (auto& x : v) x = static_cast<std::int32_t>(dist(rng));
    const std::int32_t s = model::calibrated_shift(v.data(), static_cast<std::int64_t>(v.size()));
    double sq = 0;
    for (auto x : v)
      sq += std::ldexp(static_cast<double>(x), -s) * std::ldexp(static_cast<double>(x), -s);
    const double rms = std::sqrt(sq / static_cast<double>(v.size()));
    if (scale >= model::kTargetStd) {
      EXPECT_GE(rms, static_cast<double>(model::kTargetStd)) << scale;
      EXPECT_LT(rms, 2.0 * static_cast<double>(model::kTargetStd)) << scale;
    } else {
      EXPECT_EQ(s, 0);
    }
  }
  EXPECT_EQ(model::calibrated_shift(nullptr, 0), 0);
}

struct ConvCase {
  model::ConvParams p;
  ir::Box out;
  std::int32_t n = 1, k = 8;
};

TEST(CpuKernels, ConvolutionEqualsThePerElementDefinition) {
  std::mt19937 rng(11);
  std::vector<ConvCase> cases;
  auto add = [&](int c, int k, int ih, int iw, int r, int s, int stride, int pt, int pl, int g,
                 bool per_sample, int n, ir::Box out) {
    ConvCase x;
    x.p = test::conv_case_params(c, k, ih, iw, r, s, stride, pt, pl, g, per_sample);
    x.out = out;
    x.n = n;
    x.k = k;
    cases.push_back(x);
  };
  add(3, 16, 16, 16, 3, 3, 2, 0, 0, 1, false, 1, box({0, 0, 0, 0}, {0, 15, 7, 7}));  // set_minimal
  add(3, 8, 15, 13, 7, 7, 2, 3, 2, 1, false, 1, box({0, 2, 1, 2}, {0, 6, 6, 5}));    // padded tile
  add(16, 32, 9, 9, 3, 3, 1, 1, 1, 4, false, 2, box({1, 5, 0, 0}, {1, 29, 8, 8}));   // groups
  add(16, 12, 10, 1, 1, 1, 1, 0, 0, 4, true, 2, box({0, 0, 0, 0}, {1, 11, 9, 0}));   // per sample
  add(8, 8, 12, 12, 1, 1, 2, 0, 0, 1, false, 1, box({0, 0, 0, 0}, {0, 7, 5, 5}));    // 1x1 stride 2
  add(40, 5, 3, 2, 3, 2, 1, 0, 0, 1, false, 1, box({0, 0, 0, 0}, {0, 4, 0, 0}));     // FC-like
  for (const ConvCase& x : cases) {
    const ir::Box ib = model::conv_input_box(x.p, x.out);
    ir::Box in_box = ib;  // a tensor holding a little more than needed
    in_box.hi[1] = std::max(in_box.hi[1], x.p.group_c * (x.k / x.p.group_k) - 1);
    const auto in = random_tile(in_box, rng);
    ir::Box wb =
        x.p.per_sample
            ? box({0, 0, 0, 0},
                  {x.n - 1, x.k - 1, x.p.group_c - 1, x.p.kernel_r * x.p.kernel_s - 1})
            : box({0, 0, 0, 0}, {x.k - 1, x.p.group_c - 1, x.p.kernel_r - 1, x.p.kernel_s - 1});
    const auto w = random_tile(wb, rng);
    const model::ConstTile it{in.data(), in_box}, wt{w.data(), wb};
    std::vector<std::int32_t> fast(static_cast<std::size_t>(x.out.volume()));
    for (unsigned threads : {1u, 3u}) {
      std::fill(fast.begin(), fast.end(), -1);
      model::conv_tile_cpu(x.p, it, wt, x.out, fast.data(), threads);
      std::size_t i = 0;
      for (int n = x.out.lo[0]; n <= x.out.hi[0]; ++n)
        for (int k = x.out.lo[1]; k <= x.out.hi[1]; ++k)
          for (int h = x.out.lo[2]; h <= x.out.hi[2]; ++h)
            for (int q = x.out.lo[3]; q <= x.out.hi[3]; ++q, ++i)
              ASSERT_EQ(fast[i], model::conv_element(x.p, it, wt, n, k, h, q))
                  << "case " << (&x - cases.data()) << " at " << n << "," << k << "," << h << ","
                  << q;
    }
  }
}

TEST(CpuKernels, ConvolutionIsExactAtTheFloatBoundary) {
  // All inputs and weights -128: every product is 2^14, and a reduction of
  // 1100 terms passes 2^24 (float32's exact integer range): the kernel's
  // chunks of at most 1024 terms must keep the sum exact.
  model::ConvParams p;
  p.in_h = p.in_w = 2;
  p.group_c = 1100;
  p.group_k = 3;
  const ir::Box out = box({0, 0, 0, 0}, {0, 2, 1, 1});
  const ir::Box ib = box({0, 0, 0, 0}, {0, 1099, 1, 1});
  const ir::Box wb = box({0, 0, 0, 0}, {2, 1099, 0, 0});
  std::vector<std::int8_t> in(static_cast<std::size_t>(ib.volume()), -128);
  std::vector<std::int8_t> w(static_cast<std::size_t>(wb.volume()), -128);
  w[5] = 127;  // one odd term, in the first chunk
  std::vector<std::int32_t> acc(static_cast<std::size_t>(out.volume()));
  model::conv_tile_cpu(p, {in.data(), ib}, {w.data(), wb}, out, acc.data());
  EXPECT_EQ(acc[0], 1099 * 16384 + 127 * -128);
  EXPECT_EQ(acc.back(), 1100 * 16384);
  for (std::size_t i = 0; i < acc.size(); ++i)
    EXPECT_EQ(acc[i],
              model::conv_element(p, {in.data(), ib}, {w.data(), wb}, 0, static_cast<int>(i / 4),
                                  static_cast<int>(i / 2 % 2), static_cast<int>(i % 2)));
}

TEST(CpuKernels, PoolingAddAndTransposeEqualTheirDefinitions) {
  std::mt19937 rng(5);
  model::PoolParams p;
  p.kernel_r = p.kernel_s = 3;
  p.stride_h = p.stride_w = 2;
  p.pad_t = p.pad_l = 1;
  p.in_h = p.in_w = 9;
  const ir::Box out = box({0, 0, 0, 0}, {0, 3, 4, 4});
  const ir::Box ib = model::pool_input_box(p, out);
  EXPECT_EQ(ib.lo[2], 0);
  EXPECT_EQ(ib.hi[2], 8);
  const auto in = random_tile(ib, rng);
  const model::ConstTile it{in.data(), ib};
  std::vector<std::int8_t> got(static_cast<std::size_t>(out.volume()));
  model::pool_tile_cpu(p, it, out, got.data());
  // Max by hand for output (0, 1, 0, 0): rows 0..1 and columns 0..1 (the
  // rest of the window is padding).
  std::int32_t best = -128;
  for (int h = 0; h <= 1; ++h)
    for (int w = 0; w <= 1; ++w) best = std::max<std::int32_t>(best, it.at(0, 1, h, w));
  EXPECT_EQ(got[static_cast<std::size_t>(out.offset(0, 1, 0, 0))], best);
  // Average: the sum of the in-range cells, requantised.
  p.average = true;
  p.shift = 2;
  model::pool_tile_cpu(p, it, out, got.data());
  std::int64_t sum = 0;
  for (int h = 0; h <= 1; ++h)
    for (int w = 0; w <= 1; ++w) sum += it.at(0, 1, h, w);
  EXPECT_EQ(got[static_cast<std::size_t>(out.offset(0, 1, 0, 0))], model::requantize(sum, 2));
  std::vector<std::int32_t> sums(got.size());
  model::window_sums_cpu(p, it, out, sums.data());
  EXPECT_EQ(sums[static_cast<std::size_t>(out.offset(0, 1, 0, 0))], sum);

  const auto a = random_tile(out, rng), b = random_tile(out, rng);
  const model::ConstTile ops[2] = {{a.data(), out}, {b.data(), out}};
  model::add_tile_cpu(ops, 2, 1, out, got.data());
  for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], model::requantize(a[i] + b[i], 1));

  const ir::Box tin = box({0, 0, 0, 0}, {0, 3, 5, 1});
  const ir::Box tout = box({0, 0, 0, 0}, {0, 5, 3, 1});
  const auto t = random_tile(tin, rng);
  const std::int32_t perm[4] = {0, 2, 1, 3};
  std::vector<std::int8_t> tr(static_cast<std::size_t>(tout.volume()));
  model::transpose_tile_cpu(perm, {t.data(), tin}, tout, tr.data());
  for (int c = 0; c <= 5; ++c)
    for (int h = 0; h <= 3; ++h)
      for (int w = 0; w <= 1; ++w)
        ASSERT_EQ(tr[static_cast<std::size_t>(tout.offset(0, c, h, w))],
                  t[static_cast<std::size_t>(tin.offset(0, h, c, w))]);
}

TEST(Reference, ComputesTheMinimalModelsDeterministically) {
  ir::Diagnostics d;
  auto net = model::load_network((test::data_dir() / "set_minimal.model.json").string(), d);
  ASSERT_TRUE(net) << listing(d);
  const model::Reference a = model::compute_reference(*net, 1, 1);
  const model::Reference b = model::compute_reference(*net, 1, 4);
  const model::Reference c = model::compute_reference(*net, 2, 1);
  ASSERT_EQ(a.outputs.size(), 2u);
  for (std::size_t i = 0; i < a.outputs.size(); ++i) {
    EXPECT_EQ(a.outputs[i].data, b.outputs[i].data);
    EXPECT_NE(a.outputs[i].data, c.outputs[i].data);
  }
  // conv1 by the per-element definition from generated data.
  const model::Op& conv1 = *net->find("conv1");
  const model::Tensor8 in = model::generate_external(*net, 0, 1);
  const model::Tensor8 w = model::generate_weights(conv1, 1);
  const model::ConvParams p = model::conv_params(conv1);
  const model::ConstTile it{in.data.data(), box({0, 0, 0, 0}, {0, 2, 15, 15})};
  const model::ConstTile wt{w.data.data(), model::weight_box(conv1)};
  const auto& ln = a.numerics[static_cast<std::size_t>(net->index_of("conv1"))];
  EXPECT_TRUE(ln.requantised);
  const auto& out = a.outputs[static_cast<std::size_t>(net->index_of("conv1"))];
  for (int k = 0; k < 16; ++k)
    for (int h = 0; h < 8; ++h)
      for (int x = 0; x < 8; ++x)
        ASSERT_EQ(out.data[static_cast<std::size_t>((k * 8 + h) * 8 + x)],
                  model::requantize(model::conv_element(p, it, wt, 0, k, h, x), ln.shift));
  // The digest is zlib's CRC-32.
  EXPECT_EQ(model::digest({}), "00000000");
  EXPECT_EQ(model::digest({'a', 'b', 'c'}), "352441c2");
}

}  // namespace
