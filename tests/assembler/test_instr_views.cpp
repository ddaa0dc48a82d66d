// The typed instruction views (instr_views.h): for every opcode, fields set
// through the view encode to the bytes docs/isa.md gives (worked out by hand
// below, not by the encoder), decode back to the same values, and agree
// with the table's by-name access; checked encoding reports what bind()
// reports.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <set>
#include <string>

#include "gemini/assembler/encoding.h"
#include "gemini/assembler/instr_views.h"
#include "gemini/assembler/invocation.h"

namespace {

namespace a = gemini::assembler;
using a::Engine;
using a::FieldType;
using a::Instr;
using a::Opcode;
using gemini::ir::Box;
// The table's limits, for its lists expanded here (isa_table.h).
using a::kEngines, a::kMaxU8, a::kMaxU16, a::kMaxU32, a::kMinI32, a::kMaxI32, a::kMaxDramAddress;
using a::kTokenKinds, a::kVpOps, a::kCutModes, a::kWl0Srcs, a::Wl0Src;

// An instruction's 64 bytes as 16 little-endian 32-bit words.
std::array<std::uint32_t, 16> words(const Instr& in) {
  std::string error;
  const auto bytes = a::encode(in, error);
  EXPECT_TRUE(bytes) << error;
  std::array<std::uint32_t, 16> w{};
  if (!bytes) return w;
  for (std::size_t k = 0; k < 16; ++k)
    for (std::size_t b = 0; b < 4; ++b) w[k] |= std::uint32_t{(*bytes)[4 * k + b]} << (8 * b);
  return w;
}

using Words = std::array<std::uint32_t, 16>;

// ---- The exact encoding of one instruction of every opcode (docs/isa.md:
// header word 0 = opcode | queue << 8 | flags << 16, word 1 = workload id;
// queues dma_in 0, dma_out 1, noc 2, wl0 3, pe 4, vp 5, ctrl 6; field @k is
// byte k, word k / 4).

TEST(InstrViews, NopAndEndEncodeAsDocumented) {
  EXPECT_EQ(words(a::encode(a::Nop{})), (Words{0x00000600, 0xffffffff}));
  EXPECT_EQ(words(a::encode(a::End{})), (Words{0x00000601, 0xffffffff}));
}

TEST(InstrViews, WaitsAndSignalEncodeAsDocumented) {
  a::WaitLocal wl;
  wl.queue = Engine::vp;
  wl.workload = 7;
  wl.on = Engine::noc;  // @8
  wl.count = 0x12345;   // @12
  EXPECT_EQ(words(a::encode(wl)), (Words{0x00000502, 7, 2, 0x00012345}));

  a::WaitToken wt;
  wt.queue = Engine::dma_out;
  wt.workload = 0x10;
  wt.kind = a::TokenKind::dram;  // @8: 2
  wt.transfer = 0xabcdef;        // @12
  wt.from = 0x1234;              // @16, u16
  wt.count = 9;                  // @20
  EXPECT_EQ(words(a::encode(wt)), (Words{0x00000103, 0x10, 2, 0x00abcdef, 0x1234, 9}));

  a::Signal sg;
  sg.queue = Engine::wl0;
  sg.kind = a::TokenKind::credit;  // @8: 1
  sg.transfer = 5;                 // @12
  sg.to = 0x0102;                  // @16
  sg.grant = 0x40000;              // @20
  sg.grant_bytes = 0x800;          // @24
  EXPECT_EQ(words(a::encode(sg)), (Words{0x00000304, 0xffffffff, 1, 5, 0x102, 0x40000, 0x800}));
}

TEST(InstrViews, ViewEncodesAsDocumented) {
  a::ViewInstr v;
  v.queue = Engine::pe;
  v.workload = 3;
  v.shift = -2;                                          // @8, i32
  v.box0 = Box{{1, 2, 3, 4}, {5, 6, 7, 8}};              // @12: lo (4 x u16) then hi
  v.box1 = Box{{0, 0, 0, 0}, {0x10, 0x20, 0x30, 0x40}};  // @28
  EXPECT_EQ(words(a::encode(v)), (Words{0x00000405, 3, 0xfffffffe, 0x00020001, 0x00040003,
                                        0x00060005, 0x00080007, 0, 0, 0x00200010, 0x00400030}));
}

TEST(InstrViews, MovesEncodeAsDocumented) {
  a::DmaIn in;
  in.workload = 0;
  in.l2 = 0x1000;                                  // @8
  in.bytes = 0x300;                                // @12
  in.dram = 0x100002000;                           // @16, 8 bytes: 48-bit addresses
  in.transfer = 2;                                 // @24
  in.dst_box = Box{{0, 0, 0, 0}, {0, 2, 15, 15}};  // @28
  in.src_box = Box{{0, 1, 0, 0}, {0, 3, 15, 15}};  // @44
  in.members = 4;                                  // @60
  in.part = 1;                                     // @62
  EXPECT_EQ(words(a::encode(in)),
            (Words{0x00000010, 0, 0x1000, 0x300, 0x00002000, 1, 2, 0, 0, 0x00020000, 0x000f000f,
                   0x00010000, 0, 0x00030000, 0x000f000f, 0x00010004}));

  a::DmaOut out;
  out.workload = 0x2a;
  out.l2 = 0x400;                                 // @8
  out.bytes = 0x200;                              // @12
  out.dram = 0x4000;                              // @16
  out.transfer = 3;                               // @24
  out.src_box = Box{{0, 0, 0, 0}, {0, 7, 7, 7}};  // @28
  EXPECT_EQ(words(a::encode(out)),
            (Words{0x00000111, 0x2a, 0x400, 0x200, 0x4000, 0, 3, 0, 0, 0x00070000, 0x00070007}));

  a::NocSend ns;
  ns.workload = 1;
  ns.src = 0x400;                                 // @8
  ns.dst = 0x800;                                 // @12
  ns.bytes = 0x200;                               // @16
  ns.to = 5;                                      // @20, u16
  ns.transfer = 3;                                // @24
  ns.src_box = Box{{0, 0, 0, 0}, {0, 7, 7, 7}};   // @28
  ns.dst_box = Box{{0, 8, 0, 0}, {0, 15, 7, 7}};  // @44
  ns.members = 2;                                 // @60
  ns.part = 1;                                    // @62
  EXPECT_EQ(words(a::encode(ns)),
            (Words{0x00000212, 1, 0x400, 0x800, 0x200, 5, 3, 0, 0, 0x00070000, 0x00070007,
                   0x00080000, 0, 0x000f0000, 0x00070007, 0x00010002}));

  a::Wl0Load wl;
  wl.workload = 1;
  wl.source = a::Wl0Src::dram;  // @8: 1
  wl.wl0 = 0x100;               // @12
  wl.bytes = 0xd8;              // @16
  wl.l2 = 0x20;                 // @20
  wl.dram = 0x200001000;        // @24, 8 bytes
  wl.transfer = 7;              // @32
  EXPECT_EQ(words(a::encode(wl)), (Words{0x00000313, 1, 1, 0x100, 0xd8, 0x20, 0x00001000, 2, 7}));
}

TEST(InstrViews, PeConfigEncodesAsDocumented) {
  a::PeConfig c;
  c.workload = 0;
  c.per_sample = true;                                 // flag bit 0
  c.loop = 8;                                          // @8: KNHW
  c.cut = a::CutMode::kh;                              // @9: 3
  c.ci_cut = 2;                                        // @10
  c.mtc0 = 3;                                          // @12
  c.mtk0 = 4;                                          // @14
  c.om_n = 1, c.om_k = 8, c.om_h = 5, c.om_w = 6;      // @16-22
  c.am_n = 1, c.am_c = 3, c.am_h = 11, c.am_w = 13;    // @24-30
  c.pad_t = 1, c.pad_b = 2, c.pad_l = 3, c.pad_r = 4;  // @32-35
  c.r = 3, c.s = 5, c.stride_h = 2, c.stride_w = 1;    // @36-39
  c.wl0 = 0x40;                                        // @40
  c.gk = 16, c.gc = 3, c.in_h = 0x70, c.in_w = 0x71;   // @42-48
  c.shift = 10;                                        // @50
  c.chain = 2;                                         // @51
  EXPECT_EQ(words(a::encode(c)),
            (Words{0x00010420, 0, 0x00020308, 0x00040003, 0x00080001, 0x00060005, 0x00030001,
                   0x000d000b, 0x04030201, 0x01020503, 0x00100040, 0x00700003, 0x020a0071}));
  EXPECT_EQ(a::loop_order_name(static_cast<std::uint8_t>(c.loop)), "KNHW");
}

TEST(InstrViews, PeRunEncodesAsDocumented) {
  a::PeRun r;
  r.workload = 9;
  r.acc = true;
  r.ifmap = 0x100, r.ifmap_bytes = 0x300;           // @8, @12
  r.weight = 0x2000, r.weight_bytes = 0xd8;         // @16, @20
  r.ofmap = 0x400, r.ofmap_bytes = 0x200;           // @24, @28
  r.ifmap_box = Box{{0, 0, 1, 2}, {0, 2, 15, 15}};  // @32
  r.ofmap_box = Box{{0, 0, 0, 0}, {0, 7, 7, 7}};    // @48
  EXPECT_EQ(words(a::encode(r)),
            (Words{0x00010421, 9, 0x100, 0x300, 0x2000, 0xd8, 0x400, 0x200, 0, 0x00020001,
                   0x00020000, 0x000f000f, 0, 0, 0x00070000, 0x00070007}));
}

TEST(InstrViews, VectorOperationsEncodeAsDocumented) {
  a::VpRun r;
  r.op = a::VpOp::add;                           // @8: 2
  r.inputs = 2;                                  // @9
  r.window = 1;                                  // @10
  r.stride = 1;                                  // @11
  r.in0 = 0x10, r.in1 = 0x20, r.out = 0x30;      // @12, @16, @20
  r.in_bytes = 0x100, r.out_bytes = 0x80;        // @24, @28
  r.in_box = Box{{0, 0, 0, 0}, {0, 15, 3, 3}};   // @32
  r.out_box = Box{{0, 1, 0, 0}, {0, 16, 3, 3}};  // @48
  EXPECT_EQ(words(a::encode(r)),
            (Words{0x00000530, 0xffffffff, 0x01010202, 0x10, 0x20, 0x30, 0x100, 0x80, 0, 0,
                   0x000f0000, 0x00030003, 0x00010000, 0, 0x00100000, 0x00030003}));

  a::VpConfig c;
  c.workload = 5;
  c.r = 3, c.s = 2, c.stride_h = 2, c.stride_w = 1;  // @8-11
  c.pad_t = 1, c.pad_l = 0;                          // @12-13
  c.in_h = 0x38, c.in_w = 0x1c;                      // @14, @16
  c.shift = 4;                                       // @18
  c.perm = a::pack_permutation({1, 0, 3, 2});        // @19: 1 | 0 << 2 | 3 << 4 | 2 << 6
  EXPECT_EQ(c.perm, 0xb1);
  EXPECT_EQ(words(a::encode(c)), (Words{0x00000531, 5, 0x01020203, 0x00380001, 0xb104001c}));
  EXPECT_EQ(a::unpack_permutation(c.perm), (std::array<std::int32_t, 4>{1, 0, 3, 2}));
}

// ---- Round trips, generated over the table: every field of every opcode.

// A value for a field in [min, max]: its minimum, its maximum, or one
// between that differs from field to field (by offset).
enum class Pick { min, max, between };
std::int64_t pick(Pick p, std::int64_t min, std::int64_t max, std::size_t offset) {
  if (p == Pick::min) return min;
  if (p == Pick::max) return max;
  const auto span = static_cast<std::uint64_t>(max - min);
  return min + static_cast<std::int64_t>((span / 3 + 7 * offset) % (span + 1));
}
template <FieldType T>
a::FieldValueT<T> value(Pick p, std::int64_t min, std::int64_t max, std::size_t offset) {
  if constexpr (T == FieldType::box) {
    Box b;
    for (std::size_t d = 0; d < 4; ++d) {
      // Box fields are u16: every pick fits an int32 coordinate.
      const std::int64_t lo =
          pick(p == Pick::max ? Pick::between : Pick::min, min, max, offset + d);
      b.lo[d] = static_cast<std::int32_t>(lo);
      b.hi[d] = static_cast<std::int32_t>(std::max(lo, pick(p, min, max, offset + 4 + d)));
    }
    return b;
  } else {
    return static_cast<a::FieldValueT<T>>(pick(p, min, max, offset));
  }
}
// The table's by-name read of a field (isa.h), as the view's member type.
template <FieldType T>
a::FieldValueT<T> by_name(const Instr& in, const char* name) {
  if constexpr (T == FieldType::box) {
    return in.box(name);
  } else {
    return static_cast<a::FieldValueT<T>>(in.get(name));
  }
}

#define VIEW_SET(name, type, offset, min, max, ...) \
  v.name = value<FieldType::type>(p, min, max, offset);
#define VIEW_FLAG_SET(name) v.name = p != Pick::min;
#define VIEW_CHECK_BY_NAME(name, type, ...) \
  EXPECT_EQ(by_name<FieldType::type>(in, #name), v.name) << #name;
#define VIEW_IGNORE_FLAG(name)
#define VIEW_ROUND_TRIP_TEST(mnemonic, code, engine, View, FIELDS)                         \
  TEST(InstrViews, RoundTrip_##mnemonic) {                                                 \
    for (Pick p : {Pick::min, Pick::max, Pick::between}) {                                 \
      a::View v;                                                                           \
      if (Engine::engine == Engine::kCount)                                                \
        v.queue = p == Pick::min ? Engine::dma_in : Engine::vp;                            \
      v.workload = p == Pick::min ? 0u : p == Pick::max ? a::kNoWorkload : 77u;            \
      FIELDS(VIEW_SET, VIEW_FLAG_SET, GEMINI_ISA_NO_RULE, GEMINI_ISA_NO_RULE)              \
      const Instr in = a::encode(v);                                                       \
      EXPECT_EQ(in.op, Opcode::mnemonic);                                                  \
      EXPECT_EQ(a::decode<a::View>(in), v);                                                \
      FIELDS(VIEW_CHECK_BY_NAME, VIEW_IGNORE_FLAG, GEMINI_ISA_NO_RULE, GEMINI_ISA_NO_RULE) \
      std::string error;                                                                   \
      const auto bytes = a::encode(in, error);                                             \
      ASSERT_TRUE(bytes) << error;                                                         \
      const auto back = a::decode(bytes->data(), error);                                   \
      ASSERT_TRUE(back) << error;                                                          \
      EXPECT_EQ(a::decode<a::View>(*back), v);                                             \
    }                                                                                      \
  }
GEMINI_ISA_OPS(VIEW_ROUND_TRIP_TEST)

// Any valid instruction, decoded as its view and encoded again, is itself.
Instr reencoded(const Instr& in) {
  switch (in.op) {
#define VIEW_REENCODE(mnemonic, code, engine, View, FIELDS) \
  case Opcode::mnemonic:                                    \
    return a::encode(a::decode<a::View>(in));
    GEMINI_ISA_OPS(VIEW_REENCODE)
#undef VIEW_REENCODE
  }
  return {};
}

TEST(InstrViews, RandomInstructionsOfEveryOpcodeRoundTrip) {
  std::mt19937_64 rng(33);
  std::set<Opcode> seen;
  for (int k = 0; k < 3000; ++k) {
    const auto ops = a::all_ops();
    const a::OpInfo& op = ops[static_cast<std::size_t>(k) % ops.size()];
    Instr in;
    in.op = op.op;
    in.queue = op.engine == Engine::kCount ? static_cast<Engine>(rng() % a::kEngines) : op.engine;
    in.flags = op.flag_name.empty() ? 0 : static_cast<std::uint16_t>(rng() & 1);
    in.workload = static_cast<std::uint32_t>(rng());
    for (const a::Field& f : op.fields) {
      auto draw = [&] {
        return f.min +
               static_cast<std::int64_t>(rng() % (static_cast<std::uint64_t>(f.max - f.min) + 1));
      };
      if (f.type == FieldType::box) {
        Box b;
        for (std::size_t d = 0; d < 4; ++d) {
          const std::int64_t x = draw(), y = draw();
          b.lo[d] = static_cast<std::int32_t>(std::min(x, y));  // u16 fields
          b.hi[d] = static_cast<std::int32_t>(std::max(x, y));
        }
        in.set_box_value(f, b);
      } else {
        in.set_value(f, draw());
      }
    }
    EXPECT_EQ(reencoded(in), in) << op.mnemonic;
    seen.insert(op.op);
  }
  EXPECT_EQ(seen.size(), a::all_ops().size());
}

// ---- Checked encoding: what bind() accepts, with its messages.

// The invocation the lowering builds for these pe_cfg values (all arguments).
a::Invocation pe_cfg_invocation(const a::PeConfig& c) {
  a::Invocation inv;
  inv.op = Opcode::pe_cfg;
  inv.workload = c.workload;
  inv.flag = c.per_sample;
  inv.arg("loop", c.loop).arg("cut", static_cast<std::int64_t>(c.cut)).arg("ci_cut", c.ci_cut);
  inv.arg("mtc0", c.mtc0).arg("mtk0", c.mtk0);
  inv.arg("om_n", c.om_n).arg("om_k", c.om_k).arg("om_h", c.om_h).arg("om_w", c.om_w);
  inv.arg("am_n", c.am_n).arg("am_c", c.am_c).arg("am_h", c.am_h).arg("am_w", c.am_w);
  inv.arg("pad_t", c.pad_t).arg("pad_b", c.pad_b).arg("pad_l", c.pad_l).arg("pad_r", c.pad_r);
  inv.arg("r", c.r).arg("s", c.s).arg("stride_h", c.stride_h).arg("stride_w", c.stride_w);
  inv.arg("wl0", c.wl0).arg("gk", c.gk).arg("gc", c.gc).arg("in_h", c.in_h).arg("in_w", c.in_w);
  inv.arg("shift", c.shift).arg("chain", c.chain);
  return inv;
}

TEST(InstrViews, CheckedEncodingOfPeConfigIsBind) {
  // The lowering may build pe_cfg either way: the same values give the
  // same instruction, and a value out of range the same message.
  a::PeConfig c;
  c.workload = 12;
  c.per_sample = true;
  c.loop = 8, c.cut = a::CutMode::h, c.r = 3, c.s = 3, c.stride_h = 2, c.wl0 = 512, c.gk = 64;
  c.gc = 32, c.in_h = 56, c.in_w = 56, c.shift = 9, c.chain = 4, c.pad_t = 1, c.pad_r = 1;
  std::string error;
  const auto bound = a::bind(pe_cfg_invocation(c), error);
  ASSERT_TRUE(bound) << error;
  EXPECT_EQ(*bound, a::encode(c));

  c.wl0 = 70000;  // u16
  Instr out;
  EXPECT_FALSE(a::encode(c, out, error));
  EXPECT_EQ(error, "wl0=70000 outside [0, 65535]");
  std::string bind_error;
  EXPECT_FALSE(a::bind(pe_cfg_invocation(c), bind_error));
  EXPECT_EQ(bind_error, "pe_cfg (): " + error);
}

TEST(InstrViews, CheckedEncodingRejectsBadBoxesAndQueues) {
  Instr out;
  std::string error;
  a::VpRun r;
  r.in_box = Box{{0, 2, 0, 0}, {0, 1, 0, 0}};  // lower > upper
  EXPECT_FALSE(a::encode(r, out, error));
  EXPECT_EQ(error, "in_box has a coordinate outside [0, 65535] or lower > upper");

  a::PeRun wrong_queue;
  wrong_queue.queue = Engine::vp;
  EXPECT_FALSE(a::encode(wrong_queue, out, error));
  EXPECT_EQ(error, "runs on its own queue");

  a::WaitLocal no_queue;
  no_queue.queue = Engine::kCount;
  EXPECT_FALSE(a::encode(no_queue, out, error));
  EXPECT_EQ(error, "bad queue 7");
}

TEST(InstrViewsDeathTest, DecodingAnotherOpcodeIsABug) {
  EXPECT_DEATH((void)a::decode<a::PeConfig>(a::encode(a::VpConfig{})),
               "a vp_cfg instruction read as pe_cfg");
}

}  // namespace
