// Assembler: golden encodings, round trips, typed binding, verifier and the
// lowering of the spec example.
#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include "fixture.h"
#include "gemini/assembler/encoding.h"
#include "gemini/assembler/invocation.h"
#include "gemini/assembler/lowering.h"
#include "gemini/assembler/program_io.h"
#include "gemini/assembler/text.h"
#include "gemini/assembler/verifier.h"
#include "gemini/ir/loader.h"

namespace fs = std::filesystem;
using namespace gemini;             // NOLINT(google-build-using-namespace): test file
using namespace gemini::assembler;  // NOLINT(google-build-using-namespace): test file

namespace {

std::string hex(const InstrBytes& b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto x : b) {
    s += d[x >> 4];
    s += d[x & 15];
  }
  return s;
}

TEST(Isa, GoldenEncodingsOfEveryOpcode) {
  const std::string text =
      test::read_file(fs::path(GEMINI_SOURCE_DIR) / "tests" / "asm" / "golden.s");
  std::istringstream in(text);
  std::string line, pending;
  std::set<Opcode> covered;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.starts_with(".core")) continue;
    if (line.starts_with("= ")) {
      ParseError e;
      auto instr = parse_instr(pending, e);
      ASSERT_TRUE(instr) << pending << ": " << e.message;
      std::string err;
      auto bytes = encode(*instr, err);
      ASSERT_TRUE(bytes) << err;
      EXPECT_EQ(hex(*bytes), line.substr(2)) << pending;
      auto back = decode(bytes->data(), err);
      ASSERT_TRUE(back) << err;
      EXPECT_EQ(*back, *instr);
      EXPECT_EQ(print(*back), pending);
      covered.insert(instr->op);
      continue;
    }
    pending = line;
  }
  for (const OpInfo& op : all_ops())
    EXPECT_TRUE(covered.count(op.op)) << op.mnemonic << " has no golden encoding";
}

// A random valid instruction: every field in range.
Instr random_instr(std::mt19937_64& rng) {
  const auto ops = all_ops();
  const OpInfo& op = ops[rng() % ops.size()];
  Instr in;
  in.op = op.op;
  in.queue = op.engine == Engine::kCount ? static_cast<Engine>(rng() % kEngines) : op.engine;
  in.flags = op.flag_name.empty() ? 0 : static_cast<std::uint16_t>(rng() % 2);
  in.workload = rng() % 3 == 0 ? 0xffffffffu : static_cast<std::uint32_t>(rng() % 100000);
  auto pick = [&](const Field& f) {
    const auto span = static_cast<std::uint64_t>(f.max - f.min) + 1;
    return f.min + static_cast<std::int64_t>(rng() % span);
  };
  for (const Field& f : op.fields) {
    if (f.type == FieldType::box) {
      Box b;
      for (int d = 0; d < 4; ++d) {
        b.lo[d] = pick(f);
        b.hi[d] = pick(f);
      }
      in.set_box(f.name, b);
    } else {
      in.set(f.name, pick(f));
    }
  }
  return in;
}

TEST(Isa, RandomInstructionsRoundTripThroughBytesAndText) {
  std::mt19937_64 rng(2026);
  for (int i = 0; i < 5000; ++i) {
    const Instr in = random_instr(rng);
    std::string err;
    auto b = encode(in, err);
    ASSERT_TRUE(b) << print(in) << ": " << err;
    auto back = decode(b->data(), err);
    ASSERT_TRUE(back) << err;
    ASSERT_EQ(*back, in) << print(in);
    ParseError pe;
    auto parsed = parse_instr(print(in), pe);
    ASSERT_TRUE(parsed) << print(in) << ": " << pe.message;
    ASSERT_EQ(*parsed, in);
  }
}

TEST(Isa, DecodeRejectsNonCanonicalBytes) {
  ParseError pe;
  auto in = parse_instr("wait_local q=pe on=dma_in count=3", pe);
  std::string err;
  auto b = *encode(*in, err);
  b[40] = 1;  // an unused byte
  EXPECT_FALSE(decode(b.data(), err));
  EXPECT_NE(err.find("unused byte 40"), std::string::npos) << err;
  b[40] = 0;
  b[8] = 9;  // engine 9 does not exist
  EXPECT_FALSE(decode(b.data(), err));
  b[8] = 0;
  b[0] = 0x7f;
  EXPECT_FALSE(decode(b.data(), err));
}

TEST(Isa, TextErrorsNameLineAndColumn) {
  ParseError e;
  EXPECT_FALSE(
      parse_program(".core 0\nnop\ndma_in l2=0 bytes=x dram=0 transfer=0 "
                    "dst_box=[0,0,0,0]:[0,0,0,0] src_box=[0,0,0,0]:[0,0,0,0]\n",
                    e));
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.column, 19u);
  EXPECT_NE(e.message.find("bad value \"x\" for bytes"), std::string::npos) << e.message;
  EXPECT_FALSE(parse_program(".core 0\nfrob x=1\n", e));
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.column, 1u);
  EXPECT_FALSE(parse_program(".core 0\nwait_local q=pe on=pe\n", e));
  EXPECT_NE(e.message.find("missing field \"count\""), std::string::npos) << e.message;
  EXPECT_FALSE(parse_program("nop\n", e));
  EXPECT_NE(e.message.find(".core"), std::string::npos);
}

TEST(Binding, RejectsMissingWrongAndReadOnlySlots) {
  Invocation inv;
  inv.op = Opcode::dma_in;
  inv.origin = "core 3 workload 12 (conv1)";
  inv.tensor("l2", {0, 64, Box{}, Access::write});
  inv.tensor("dram", {0, 64, Box{}, Access::read});
  std::string err;
  EXPECT_FALSE(assembler::bind(inv, err));  // transfer is missing
  EXPECT_EQ(err, "dma_in (core 3 workload 12 (conv1)): slot \"transfer\" is not bound");
  inv.arg("transfer", 5);
  EXPECT_TRUE(assembler::bind(inv, err)) << err;

  Invocation wrong = inv;
  wrong.arg("colour", 1);
  EXPECT_FALSE(assembler::bind(wrong, err));
  EXPECT_NE(err.find("has no argument slot \"colour\""), std::string::npos) << err;

  // An unknown name is not taken for the opcode's first field ("on" here),
  // even when that would leave every slot bound.
  Invocation unknown;
  unknown.op = Opcode::wait_local;
  unknown.queue = Engine::pe;
  unknown.arg("colour", 1).arg("count", 2);
  EXPECT_FALSE(assembler::bind(unknown, err));
  EXPECT_NE(err.find("has no argument slot \"colour\""), std::string::npos) << err;

  Invocation through_read;
  through_read.op = Opcode::dma_out;
  through_read.origin = "core 0 workload 4 (pool1)";
  through_read.tensor("l2", {0, 64, Box{}, Access::write});  // l2 is dma_out's read slot
  EXPECT_FALSE(assembler::bind(through_read, err));
  EXPECT_EQ(err, "dma_out (core 0 workload 4 (pool1)): writes through read slot \"l2\"");
}

TEST(Binding, RepeatBinderGivesWhatBindGives) {
  auto wait = [](Engine q, std::uint32_t wl, std::int64_t transfer, std::int64_t count) {
    Invocation inv;
    inv.op = Opcode::wait_token;
    inv.queue = q;
    inv.workload = wl;
    inv.origin = "core 1 workload 2 (fc)";
    inv.arg("kind", 0).arg("transfer", transfer).arg("from", 3).arg("count", count);
    return inv;
  };
  RepeatBinder rb;
  std::string err, err2;
  for (const Invocation& inv :
       {wait(Engine::pe, 2, 7, 1), wait(Engine::vp, 9, 123456, 4), wait(Engine::noc, 0, 0, 1)}) {
    Instr fast;
    ASSERT_TRUE(rb.bind(inv, fast, err)) << err;
    EXPECT_EQ(fast, *assembler::bind(inv, err2)) << print(fast);
  }
  // A value out of range: bind()'s error, whatever came before.
  Instr out;
  EXPECT_FALSE(rb.bind(wait(Engine::pe, 2, 7, -1), out, err));
  EXPECT_FALSE(assembler::bind(wait(Engine::pe, 2, 7, -1), err2));
  EXPECT_EQ(err, err2);
  // Another shape (a wait_local) is bound in full, and correctly.
  Invocation local;
  local.op = Opcode::wait_local;
  local.queue = Engine::pe;
  local.arg("on", static_cast<std::int64_t>(Engine::dma_in)).arg("count", 3);
  ASSERT_TRUE(rb.bind(local, out, err)) << err;
  EXPECT_EQ(out, *assembler::bind(local, err2));
  // A missing argument is still refused after the shape is known.
  Invocation missing = wait(Engine::pe, 2, 7, 1);
  missing.args.size = 3;
  EXPECT_FALSE(rb.bind(missing, out, err));
  EXPECT_NE(err.find("slot \"count\" is not bound"), std::string::npos) << err;
}

TEST(Binding, RepeatBinderWithTensorSlotsGivesWhatBindGives) {
  // vp_run: tensors with and without boxes, an unused one, arguments; the
  // binder keeps the first shape's plan and must give bind()'s result for
  // every later invocation, whichever shape.
  auto vp = [](std::int64_t a, std::int64_t bytes, bool two, std::int64_t hi) {
    Invocation inv;
    inv.op = Opcode::vp_run;
    inv.workload = 4;
    inv.origin = "core 0 workload 4 (pool1)";
    inv.arg("op", 2).arg("inputs", two ? 2 : 1).arg("window", 1).arg("stride", 1);
    Box b;
    b.hi = {0, hi, 3, 3};
    inv.tensor("in0", {a, bytes, b, Access::read});
    if (two) {
      inv.tensor("in1", {a + 64, bytes, std::nullopt, Access::read});
    } else {
      // Unused: its address is not stored (a plan that took it would).
      inv.tensor("in1", {a + 999, 0, std::nullopt, Access::read, true});
    }
    inv.tensor("out", {a + 128, bytes, b, Access::write});
    return inv;
  };
  RepeatBinder rb;
  std::string err, err2;
  for (const Invocation& inv :
       {vp(0, 64, true, 1), vp(512, 96, true, 7), vp(64, 32, false, 2), vp(1024, 8, true, 0)}) {
    Instr fast;
    ASSERT_TRUE(rb.bind(inv, fast, err)) << err;
    EXPECT_EQ(fast, *assembler::bind(inv, err2)) << print(fast);
  }
  // Values out of range after the plan is known: bind()'s error.
  Instr out;
  for (const Invocation& bad : {vp(-1, 64, true, 1), vp(0, 64, true, -2)}) {
    EXPECT_FALSE(rb.bind(bad, out, err));
    EXPECT_FALSE(assembler::bind(bad, err2));
    EXPECT_EQ(err, err2);
  }
  // Reading through the write slot is still refused with the shape known.
  Invocation wrong = vp(0, 64, true, 1);
  Invocation swapped;
  swapped.op = wrong.op;
  for (const auto& [name, v] : wrong.args) swapped.arg(name, v);
  for (const auto& [name, t] : wrong.tensors) {
    TensorArg u = t;
    if (name == "out") u.access = Access::read;
    swapped.tensor(name, u);
  }
  EXPECT_FALSE(rb.bind(swapped, out, err));
  EXPECT_NE(err.find("reads through write slot \"out\""), std::string::npos) << err;
}

TEST(Binding, PreparedBindingGivesWhatBindGives) {
  // A signal: arguments and an unused tensor slot, the queue per call.
  Invocation proto;
  proto.op = Opcode::signal;
  proto.queue = Engine::ctrl;
  proto.arg("kind", 0).arg("transfer", 0).arg("to", 0);
  proto.tensor("grant", {0, 0, std::nullopt, Access::write, true});
  const PreparedBinding prepared(proto);
  auto full = [&](Engine q, std::uint32_t wl, std::int64_t kind, std::int64_t transfer,
                  std::int64_t to) {
    Invocation inv = prepared.with(q, wl, {kind, transfer, to});
    EXPECT_EQ(inv.args.size, 3u);
    return inv;
  };
  std::string err;
  for (auto [q, wl, kind, transfer, to] :
       {std::tuple{Engine::ctrl, 3u, 2, 7, 1}, std::tuple{Engine::dma_out, 0u, 2, 123456, 63},
        std::tuple{Engine::noc, 0xffffffffu, 1, 0, 0}}) {
    Instr fast;
    ASSERT_TRUE(prepared.bind(q, wl, {kind, transfer, to}, fast));
    const auto slow = assembler::bind(full(q, wl, kind, transfer, to), err);
    ASSERT_TRUE(slow) << err;
    EXPECT_EQ(fast, *slow) << print(fast);
  }
  // Out of range (a negative transfer, a core id past u16) and a missing
  // queue fail, as bind() fails for the same invocation.
  Instr out;
  for (auto [transfer, to] : {std::pair{-1, 0}, std::pair{5, 70000}}) {
    EXPECT_FALSE(prepared.bind(Engine::ctrl, 1, {2, transfer, to}, out));
    EXPECT_FALSE(assembler::bind(full(Engine::ctrl, 1, 2, transfer, to), err));
  }
  EXPECT_FALSE(prepared.bind(std::nullopt, 1, {2, 5, 0}, out));
  EXPECT_FALSE(assembler::bind(prepared.with(std::nullopt, 1, {2, 5, 0}), err));
  // Too few values is refused, not read past.
  EXPECT_FALSE(prepared.bind(Engine::ctrl, 1, {2, 5}, out));
}

TEST(BindingDeathTest, PreparedBindingRefusesABadPrototype) {
  Invocation used;  // a used tensor slot: its values would differ per call
  used.op = Opcode::signal;
  used.queue = Engine::ctrl;
  used.arg("kind", 1).arg("transfer", 0).arg("to", 0);
  used.tensor("grant", {64, 128, std::nullopt, Access::write});
  EXPECT_DEATH(PreparedBinding{used}, "prototype");
  Invocation missing;  // "count" not bound
  missing.op = Opcode::wait_local;
  missing.queue = Engine::pe;
  missing.arg("on", 0);
  EXPECT_DEATH(PreparedBinding{missing}, "not bound");
}

CoreProgram program(std::int32_t id, const std::string& text) {
  ParseError e;
  auto p = parse_program(".core " + std::to_string(id) + "\n" + text, e);
  EXPECT_TRUE(p) << e.line << ":" << e.column << " " << e.message;
  return p ? *p : CoreProgram{};
}

const std::string kBox = "[0,0,0,0]:[0,0,0,0]";

TEST(Verifier, AcceptsAWellOrderedPair) {
  const auto a =
      program(0, "dma_in l2=0 bytes=64 dram=0 transfer=1 dst_box=" + kBox + " src_box=" + kBox +
                     "\nwait_token q=noc kind=credit transfer=1 from=1 count=1\nwait_local q=noc "
                     "on=dma_in count=1\n"
                     "noc_send src=0 dst=128 bytes=64 to=1 transfer=1 src_box=" +
                     kBox + " dst_box=" + kBox + "\nend\n");
  const auto b = program(1,
                         "signal q=ctrl kind=credit transfer=1 to=0 grant=128 grant_bytes=64\n"
                         "wait_token q=vp kind=data transfer=1 from=0 count=1\n"
                         "vp_run op=copy inputs=1 window=1 stride=1 in0=128 in1=0 out=256 "
                         "in_bytes=64 out_bytes=64 in_box=" +
                             kBox + " out_box=" + kBox + "\nend\n");
  EXPECT_TRUE(verify({a, b}, {1024, 4096}).empty());
}

TEST(Verifier, MissingSignal) {
  const auto a = program(0, "wait_token q=pe kind=data transfer=9 from=1 count=1\nend\n");
  const auto b = program(1, "end\n");
  const auto p = verify({a, b}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "core 0 #0 wait_token: waits for 1 token(s) of transfer 9 from core 1 but only 0 are "
            "ever sent to this core");
}

TEST(Verifier, CrossCoreCycle) {
  // Each core waits for the other's credit before granting its own.
  const auto a = program(0,
                         "wait_token q=ctrl kind=credit transfer=2 from=1 count=1\n"
                         "signal q=ctrl kind=credit transfer=1 to=1 grant=0 grant_bytes=0\nend\n");
  const auto b = program(1,
                         "wait_token q=ctrl kind=credit transfer=1 from=0 count=1\n"
                         "signal q=ctrl kind=credit transfer=2 to=0 grant=0 grant_bytes=0\nend\n");
  const auto p = verify({a, b}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(p[0].starts_with("deadlock: ")) << p[0];
  EXPECT_NE(p[0].find("core 0 #0 wait_token"), std::string::npos) << p[0];
  EXPECT_NE(p[0].find("core 1 #1 signal"), std::string::npos) << p[0];
}

TEST(Verifier, AWaitForTheNthTokenWaitsForItsNthSend) {
  // Core 0 sends credit 5 twice, with credit 6 between, and the second only
  // after core 1's credit 7. Core 1 waits for `count` credits 5 before
  // sending its credit 7: one is there early; the second never comes.
  auto core0 = program(0,
                       "signal q=ctrl kind=credit transfer=5 to=1 grant=0 grant_bytes=0\n"
                       "signal q=ctrl kind=credit transfer=6 to=1 grant=0 grant_bytes=0\n"
                       "wait_token q=ctrl kind=credit transfer=7 from=1 count=1\n"
                       "signal q=ctrl kind=credit transfer=5 to=1 grant=0 grant_bytes=0\nend\n");
  auto core1 = [](int count) {
    return program(
        1, "wait_token q=ctrl kind=credit transfer=5 from=0 count=" + std::to_string(count) +
               "\nsignal q=ctrl kind=credit transfer=7 to=0 grant=0 grant_bytes=0\n"
               "wait_token q=ctrl kind=credit transfer=6 from=0 count=1\nend\n");
  };
  EXPECT_TRUE(verify({core0, core1(1)}, {1024, 4096}).empty());
  auto p = verify({core0, core1(2)}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "deadlock: core 0 #3 signal -> core 1 #0 wait_token -> core 1 #1 signal -> core 0 "
            "#2 wait_token -> core 0 #2 wait_token");
  p = verify({core0, core1(3)}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "core 1 #0 wait_token: waits for 3 token(s) of transfer 5 from core 0 but only 2 are "
            "ever sent to this core");
}

// A pe_run reading [0, 64) and writing [512, 576); a dma_in writing
// [l2, l2 + 64).
std::string pe_run_line() {
  return "pe_run ifmap=0 ifmap_bytes=64 weight=0 weight_bytes=0 ofmap=512 ofmap_bytes=64 "
         "ifmap_box=" +
         kBox + " ofmap_box=" + kBox + "\n";
}
std::string dma_in_line(int l2) {
  return "dma_in l2=" + std::to_string(l2) + " bytes=64 dram=0 transfer=1 dst_box=" + kBox +
         " src_box=" + kBox + "\n";
}

TEST(Verifier, DeadlockReportWalksBackToTheCycle) {
  // Core 0: #0 (PE queue) waits for the DMA queue's first instruction, #2,
  // which waits for the PE queue's second, #1, which is queued behind #0.
  // Core 1 waits behind the cycle for a signal that never comes. The
  // report starts at the first instruction that never retires (#0) and
  // follows unfinished predecessors (queue order first, then the wait)
  // until one repeats.
  const auto a = program(0, "wait_local q=pe on=dma_in count=1\n" + pe_run_line() +
                                "wait_local q=dma_in on=pe count=2\n" + dma_in_line(128) +
                                "signal q=pe kind=credit transfer=3 to=1 grant=0 grant_bytes=0\n"
                                "end\n");
  const auto b = program(1, "wait_token q=ctrl kind=credit transfer=3 from=0 count=1\nend\n");
  const auto p = verify({a, b}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "deadlock: core 0 #1 pe_run -> core 0 #2 wait_local -> core 0 #0 wait_local -> core "
            "0 #0 wait_local");
}

std::string mc_line(int transfer, int members, int part = 0) {
  return "dma_in l2=0 bytes=64 dram=0 transfer=" + std::to_string(transfer) + " dst_box=" + kBox +
         " src_box=" + kBox + " members=" + std::to_string(members) +
         " part=" + std::to_string(part) + "\n";
}

TEST(Verifier, MulticastMembersJoin) {
  // Two groups taken in the same order on both cores: fine.
  const auto a = program(0, mc_line(1, 2) + mc_line(2, 2) + "end\n");
  const auto b = program(1, mc_line(1, 2) + mc_line(2, 2) + "end\n");
  EXPECT_TRUE(verify({a, b}, {1024, 4096}).empty());
  // In opposite orders, each core's first read waits for a member queued
  // behind the other core's first: no read of either group can start.
  const auto c = program(1, mc_line(2, 2) + mc_line(1, 2) + "end\n");
  const auto p = verify({a, c}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  // (Read "a -> b" as "b waits for a": core 1's #0 for core 0's #1 to be
  // reached, which is queued behind core 0's #0, which waits for core 1's
  // #1, queued behind core 1's #0.)
  EXPECT_EQ(p[0],
            "deadlock: core 0 #1 dma_in -> core 1 #0 dma_in -> core 1 #1 dma_in -> core 0 #0 "
            "dma_in -> core 0 #0 dma_in");
}

TEST(Verifier, MulticastGroupsMustBeComplete) {
  const auto a = program(0, mc_line(1, 3) + mc_line(4, 1) + mc_line(5, 0, 2) + "end\n");
  const auto b = program(1, mc_line(1, 3) + mc_line(6, 2) + mc_line(6, 2) + "end\n");
  const auto p = verify({a, b}, {1024, 4096});
  const std::vector<std::string> want = {
      "core 0 #1 dma_in: members=1 part=0 (a multicast has two or more members; part needs one)",
      "core 0 #2 dma_in: members=0 part=2 (a multicast has two or more members; part needs one)",
      "multicast of transfer 1 part 0: members=3 but its dma_ins are on cores 0, 1",
      "multicast of transfer 6 part 0: members=2 but its dma_ins are on cores 1, 1 (a core twice)",
  };
  EXPECT_EQ(p, want);
}

std::string send_line(int to, int members, int part = 0, int src = 0) {
  return "noc_send src=" + std::to_string(src) + " dst=0 bytes=64 to=" + std::to_string(to) +
         " transfer=3 src_box=" + kBox + " dst_box=" + kBox +
         " members=" + std::to_string(members) + " part=" + std::to_string(part) + "\n";
}
const std::string kWaitData = "wait_token q=pe kind=data transfer=3 from=0 count=1\n";

TEST(Verifier, NocMulticastMembersGoWithTheLast) {
  // A group of two sends: each receiver's data comes with the last send.
  const auto a = program(0, send_line(1, 2) + send_line(2, 2, 1) + "end\n");
  const auto r1 = program(1, kWaitData + "end\n");
  const auto r2 = program(2, kWaitData + "end\n");
  EXPECT_TRUE(verify({a, r1, r2}, {1024, 4096}).empty());
  // Core 0's second send waits for a credit that core 1 signals only once
  // its data is in: as two sends that is fine, as a multicast the data of
  // the first comes only with the second -- a deadlock.
  const std::string credit = "wait_token q=noc kind=credit transfer=5 from=1 count=1\n";
  const auto r1c = program(
      1, kWaitData + "signal q=pe kind=credit transfer=5 to=0 grant=0 grant_bytes=0\nend\n");
  const auto unicast = program(0, send_line(1, 0) + credit + send_line(2, 0) + "end\n");
  EXPECT_TRUE(verify({unicast, r1c, r2}, {1024, 4096}).empty());
  const auto grouped = program(0, send_line(1, 2) + credit + send_line(2, 2, 1) + "end\n");
  const auto p = verify({grouped, r1c, r2}, {1024, 4096});
  ASSERT_FALSE(p.empty());
  EXPECT_EQ(p[0].rfind("deadlock: ", 0), 0u) << p[0];
}

TEST(Verifier, NocMulticastGroupsMustBeWhole) {
  const auto a = program(0, send_line(1, 2) + "end\n");  // part 1 never comes
  const auto b = program(1, send_line(0, 2) + send_line(2, 2, 1, 64) + "end\n");
  const auto c = program(2, send_line(0, 1) + "end\n");
  const auto p = verify({a, b, c}, {1024, 4096});
  const std::vector<std::string> want = {
      "core 0 #0 noc_send: its multicast group ends after 1 members",
      "core 1 #1 noc_send: a multicast member differs from its group's first (members, src, bytes, "
      "transfer) or sends to a core twice",
      "core 2 #0 noc_send: members=1 part=0 (a multicast has two or more members, parts 0 to "
      "members - 1)",
  };
  EXPECT_EQ(p, want);
}

TEST(Verifier, WriteAfterReadWithoutWait) {
  // The PE reads [0,64); the DMA then overwrites it with no wait between.
  const std::string read = pe_run_line();
  const std::string write = dma_in_line(32);
  auto p = verify({program(0, read + write + "end\n")}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "core 0 #1 dma_in: writes [32, 96) which core 0 #0 pe_run reads, and no wait orders "
            "the read first");
  // With the wait, it is fine.
  p = verify({program(0, read + "wait_local q=dma_in on=pe count=1\n" + write + "end\n")},
             {1024, 4096});
  EXPECT_TRUE(p.empty()) << p[0];
}

TEST(Verifier, AReadCoveredByAnOrderedWriteStillGuardsItsBytes) {
  // #2 overwrites what #0 reads and waits for it; #3, on the VP queue, also
  // overwrites it and waits for nothing, so it may run before the read.
  const std::string vp_write =
      "vp_run op=copy inputs=1 window=1 stride=1 in0=256 in1=0 out=0 in_bytes=64 out_bytes=64 "
      "in_box=" +
      kBox + " out_box=" + kBox + "\n";
  auto p = verify({program(0, pe_run_line() + "wait_local q=dma_in on=pe count=1\n" +
                                  dma_in_line(0) + vp_write + "end\n")},
                  {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "core 0 #3 vp_run: writes [0, 64) which core 0 #0 pe_run reads, and no wait orders "
            "the read first");
}

// V4 against its definition on random single-core programs: a write
// conflicts with every earlier read of another queue whose bytes it
// overlaps (L2 as a ring) unless the read happens before it, where
// happens-before is reachability over queue order and local waits (here
// always on earlier instructions), worked out by brute force.
TEST(Verifier, WriteAfterReadMatchesBruteForceHappensBefore) {
  constexpr std::int64_t kL2 = 1024;
  using Bytes = std::bitset<kL2>;
  struct Access {
    Bytes bytes;
    std::int64_t addr, size;
  };
  struct Made {
    Instr in;
    std::vector<Access> reads;            // in operand order
    std::optional<Access> write;          // local L2 write, if any
    std::optional<std::size_t> waits_on;  // the instruction a wait_local names
  };
  auto access = [](std::int64_t addr, std::int64_t size) {
    Access a{{}, addr, size};
    for (std::int64_t b = addr; b < addr + size; ++b)
      a.bytes.set(static_cast<std::size_t>(b % kL2));
    return a;
  };
  std::mt19937 rng(20261121);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  std::size_t conflicts = 0, ordered_pairs = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<Made> made;
    std::array<std::vector<std::size_t>, kEngines> queue;  // instructions of each queue
    const int n = static_cast<int>(pick(10, 70));
    for (int k = 0; k < n; ++k) {
      Made m;
      Instr& in = m.in;
      auto span = [&] { return std::pair{pick(0, kL2 - 1), pick(1, 200)}; };
      const auto kind = pick(0, 9);
      if (kind <= 2) {  // a local wait on an earlier instruction
        std::vector<std::size_t> nonempty;
        for (std::size_t e = 0; e < kEngines; ++e)
          if (!queue[e].empty()) nonempty.push_back(e);
        if (nonempty.empty()) continue;
        const std::size_t on = nonempty[static_cast<std::size_t>(
            pick(0, static_cast<std::int64_t>(nonempty.size()) - 1))];
        const auto count = pick(1, static_cast<std::int64_t>(queue[on].size()));
        in.op = Opcode::wait_local;
        in.queue = static_cast<Engine>(pick(0, kEngines - 1));
        in.set("on", static_cast<std::int64_t>(on));
        in.set("count", count);
        m.waits_on = queue[on][static_cast<std::size_t>(count - 1)];
      } else if (kind == 3) {
        const auto [a, b] = span();
        in.op = Opcode::dma_in;
        in.queue = Engine::dma_in;
        in.set("l2", a);
        in.set("bytes", b);
        m.write = access(a, b);
      } else if (kind == 4) {
        const auto [a, b] = span();
        const auto [w, wb] = span();
        const auto [o, ob] = span();
        const bool weights = pick(0, 1) == 1;
        in.op = Opcode::pe_run;
        in.queue = Engine::pe;
        in.set("ifmap", a);
        in.set("ifmap_bytes", b);
        in.set("weight", w);
        in.set("weight_bytes", weights ? wb : 0);
        in.set("ofmap", o);
        in.set("ofmap_bytes", ob);
        m.reads.push_back(access(a, b));
        if (weights) m.reads.push_back(access(w, wb));
        m.write = access(o, ob);
      } else if (kind == 5) {
        const auto [a0, b] = span();
        const auto a1 = pick(0, kL2 - 1);
        const auto [o, ob] = span();
        const bool two = pick(0, 1) == 1;
        in.op = Opcode::vp_run;
        in.queue = Engine::vp;
        in.set("inputs", two ? 2 : 1);
        in.set("in0", a0);
        in.set("in1", a1);
        in.set("in_bytes", b);
        in.set("out", o);
        in.set("out_bytes", ob);
        m.reads.push_back(access(a0, b));
        if (two) m.reads.push_back(access(a1, b));
        m.write = access(o, ob);
      } else if (kind == 6) {
        const auto [a, b] = span();
        in.op = Opcode::noc_send;
        in.queue = Engine::noc;
        in.set("src", a);
        in.set("dst", pick(0, kL2 - 1));  // another core's L2: not this core's hazard
        in.set("bytes", b);
        in.set("to", 1);
        in.set("transfer", k);
        m.reads.push_back(access(a, b));
      } else if (kind == 7) {
        const auto [a, b] = span();
        in.op = Opcode::dma_out;
        in.queue = Engine::dma_out;
        in.set("l2", a);
        in.set("bytes", b);
        m.reads.push_back(access(a, b));
      } else {
        const auto [a, b] = span();
        in.op = Opcode::signal;
        in.queue = Engine::ctrl;
        in.set("kind", static_cast<std::int64_t>(TokenKind::credit));
        in.set("transfer", k);
        in.set("to", 1);
        in.set("grant", a);
        in.set("grant_bytes", b);
        m.write = access(a, b);
      }
      queue[static_cast<std::size_t>(in.queue)].push_back(made.size());
      made.push_back(std::move(m));
    }
    // Happens-before, by brute force: the union over an instruction's
    // predecessors (the previous one of its queue, the one it waits for).
    const std::size_t count = made.size();
    std::vector<std::vector<bool>> before(count, std::vector<bool>(count, false));
    std::array<std::optional<std::size_t>, kEngines> last{};
    for (std::size_t i = 0; i < count; ++i) {
      std::vector<std::size_t> preds;
      auto& prev = last[static_cast<std::size_t>(made[i].in.queue)];
      if (prev) preds.push_back(*prev);
      if (made[i].waits_on) preds.push_back(*made[i].waits_on);
      for (std::size_t p : preds) {
        before[i][p] = true;
        for (std::size_t x = 0; x < count; ++x)
          if (before[p][x]) before[i][x] = true;
      }
      prev = i;
    }
    std::vector<std::string> expected;
    auto name = [&](std::size_t i) {
      return "core 0 #" + std::to_string(i) + " " + std::string(made[i].in.info().mnemonic);
    };
    for (std::size_t i = 0; i < count; ++i) {
      if (!made[i].write) continue;
      const Access& w = *made[i].write;
      for (std::size_t r = 0; r < i; ++r) {
        if (made[r].in.queue == made[i].in.queue) continue;
        for (const Access& rd : made[r].reads) {
          if ((rd.bytes & w.bytes).none()) continue;
          if (before[i][r]) {
            ++ordered_pairs;
            continue;
          }
          expected.push_back(name(i) + ": writes [" + std::to_string(w.addr) + ", " +
                             std::to_string(w.addr + w.size) + ") which " + name(r) +
                             " reads, and no wait orders the read first");
        }
      }
    }
    conflicts += expected.size();
    CoreProgram c;
    c.core_id = 0;
    for (const Made& m : made) c.instrs.push_back(m.in);
    CoreProgram other;  // the receiver of the sends and credits
    other.core_id = 1;
    ASSERT_EQ(verify({c, other}, {kL2, 4096}, 1u << 20), expected) << "round " << round;
  }
  // Both outcomes were exercised many times.
  EXPECT_GT(conflicts, 1000u);
  EXPECT_GT(ordered_pairs, 1000u);
}

TEST(Verifier, AccessOutsideMemoryAndUnreachableWait) {
  auto p = verify(
      {program(0, "dma_in l2=2048 bytes=64 dram=0 transfer=1 dst_box=" + kBox + " src_box=" + kBox +
                      "\nwl0_load source=l2 wl0=4090 bytes=16 l2=0 dram=0 transfer=1\n"
                      "wait_local q=pe on=noc count=1\nend\n")},
      {1024, 4096});
  ASSERT_EQ(p.size(), 3u);
  EXPECT_NE(p[0].find("waits for 1 instructions of queue noc, which has only 0"), std::string::npos)
      << p[0];
  EXPECT_NE(p[1].find("accesses [2048, 2112) outside L2 of 1024 bytes"), std::string::npos) << p[1];
  EXPECT_NE(p[2].find("accesses [4090, 4106) outside WL0 of 4096 bytes"), std::string::npos)
      << p[2];
}

TEST(Verifier, WaitForNothingIsAProblemNotACrash) {
  // A field never set reads 0: a wait_local for 0 instructions cannot come
  // from the text form (count >= 1) but can be built in memory.
  Instr w;
  w.op = Opcode::wait_local;
  w.queue = Engine::pe;
  w.set("on", static_cast<std::int64_t>(Engine::dma_in));
  CoreProgram c;
  c.instrs = {w, program(0, "end\n").instrs.front()};
  const auto p = verify({c}, {1024, 4096});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("nothing to wait for"), std::string::npos) << p[0];
  std::string err;
  EXPECT_FALSE(encode(w, err));
  EXPECT_EQ(err, "wait_local count=0 outside [1, 4294967295]");
}

TEST(Isa, AnInstructionIsItsEncodingAndRejectsWhatItCannotHold) {
  static_assert(sizeof(Instr) == kInstrBytes);
  Instr in;
  in.op = Opcode::noc_send;
  in.queue = Engine::noc;
  in.set("transfer", 0xfffffffeLL);
  in.set("to", 7);
  EXPECT_EQ(in.get("transfer"), 0xfffffffeLL);
  EXPECT_EQ(in.get("to"), 7);
  Box b;
  b.lo = {0, 1, 2, 3};
  b.hi = {65535, 10, 20, 30};
  in.set_box("dst_box", b);
  EXPECT_EQ(in.box("dst_box"), b);
  // Out of a field's range: a bug in the caller, caught at the store.
  EXPECT_DEATH(in.set("to", 65536), "value out of range");
  EXPECT_DEATH(in.set("transfer", -1), "value out of range");
  b.hi[0] = 65536;
  EXPECT_DEATH(in.set_box("dst_box", b), "coordinate out of range");
}

TEST(Isa, DecodeRejectsANonZeroUnusedByte) {
  Instr in;
  in.op = Opcode::wait_local;
  in.queue = Engine::pe;
  in.set("on", 0);
  in.set("count", 3);
  std::string err;
  auto b = encode(in, err);
  ASSERT_TRUE(b) << err;
  (*b)[40] = 1;  // wait_local uses bytes 8 and 12..15 only
  EXPECT_FALSE(decode(b->data(), err));
  EXPECT_EQ(err, "wait_local: unused byte 40 is not zero");
}

TEST(Text, WriteIntGivesTheDecimalText) {
  std::vector<std::int64_t> values = {0, std::numeric_limits<std::int64_t>::max(),
                                      std::numeric_limits<std::int64_t>::min(), -1};
  // Every power of ten an int64 holds (1e18 is the last: the loop stops
  // before multiplying past it).
  for (std::int64_t p = 1;; p *= 10) {
    for (std::int64_t v : {p - 1, p, p + 1, 2 * p, 9 * p + 7, -p}) values.push_back(v);
    if (p == 1000000000000000000LL) break;
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) values.push_back(static_cast<std::int64_t>(rng() >> (rng() % 64)));
  for (std::int64_t v : values) {
    char buf[kIntTextBytes + 1];
    const char* end = write_int(buf, v);
    ASSERT_EQ(std::string(static_cast<const char*>(buf), end), std::to_string(v));
    std::string s = "x";
    append_int(s, v);
    ASSERT_EQ(s.substr(1), std::to_string(v));
    ASSERT_EQ(s[0], 'x');
  }
}

TEST(Text, CommentsLongerThanTheRoomGivenAreWrittenWhole) {
  const CoreProgram p = program(2,
                                "wait_local q=pe on=dma_in count=2 wl=7\n"
                                "wait_local q=vp on=pe count=1 wl=8\nend\n");
  // The second instruction's comment is longer than the room a line is
  // first given; the third has none.
  auto text = [&](const Instr& in) {
    return in.op == Opcode::end ? std::string()
                                : std::string(in.workload == 8 ? 9000 : 5, 'a' + in.workload % 26);
  };
  const std::string expected = ".core 2\n" + print(p.instrs[0]) + "  ; " + text(p.instrs[0]) +
                               "\n" + print(p.instrs[1]) + "  ; " + text(p.instrs[1]) + "\nend\n";
  EXPECT_EQ(print_program(p, text), expected);
  int asked_again = 0;
  const CommentWriter writer = [&](char* at, std::size_t room, const Instr& in) {
    const std::string t = text(in);
    if (t.size() > room) {
      ++asked_again;
      return t.size();
    }
    std::copy(t.begin(), t.end(), at);
    return t.size();
  };
  EXPECT_EQ(print_program_to(p, writer), expected);
  // In small pieces: whole lines each, together the same text.
  for (std::size_t chunk : {std::size_t{1}, std::size_t{100}, std::size_t{1} << 18}) {
    std::string joined;
    std::size_t pieces = 0;
    ASSERT_TRUE(print_program_chunked(
        p, writer,
        [&](std::string_view piece) {
          EXPECT_EQ(piece.back(), '\n');
          joined += piece;
          ++pieces;
          return true;
        },
        chunk));
    EXPECT_EQ(joined, expected) << "chunk " << chunk;
    // The .core line goes with the first instruction's.
    EXPECT_EQ(pieces, chunk < 1000 ? 3u : 1u) << "chunk " << chunk;
  }
  EXPECT_GT(asked_again, 0);  // the long comment did take the second path
}

TEST(Isa, TheInPlaceViewOfAProgramIsItsEncoding) {
  CoreProgram p = program(4, "wait_local q=pe on=dma_in count=2 wl=7\nend\n");
  std::vector<std::uint8_t> bin;
  std::string err, err2;
  ASSERT_TRUE(encode_program(p, bin, err)) << err;
  std::array<std::uint8_t, kFileHeaderBytes> header{};
  std::span<const std::uint8_t> body;
  ASSERT_TRUE(encode_program_view(p, header, body, err)) << err;
  std::vector<std::uint8_t> viewed(header.begin(), header.end());
  viewed.insert(viewed.end(), body.begin(), body.end());
  EXPECT_EQ(viewed, bin);
  // An instruction that cannot be encoded: the same refusal.
  p.instrs.front().payload[40] = 1;
  EXPECT_FALSE(encode_program(p, bin, err));
  EXPECT_FALSE(encode_program_view(p, header, body, err2));
  EXPECT_EQ(err, err2);
  EXPECT_NE(err.find("instruction 0"), std::string::npos) << err;
}

TEST(ProgramIo, StagedFilesReplaceTheOldOnesOnlyOnCommit) {
  const fs::path dir = fs::path(::testing::TempDir()) / "gemini_staged";
  fs::remove_all(dir);
  fs::create_directories(dir);
  { std::ofstream(dir / "core_0.bin") << "old"; }
  Program p;
  p.l2_bytes = 1024;
  p.wl0_bytes = 4096;
  p.cores.resize(1);
  p.cores[0].program = program(0, "end\n");
  auto listing = [&] {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  auto slurp = [](const fs::path& f) {
    std::ifstream in(f, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  std::string err;
  {
    auto staged = stage_program(p, dir.string(), err);
    ASSERT_TRUE(staged) << err;
    EXPECT_EQ(slurp(dir / "core_0.bin"), "old");  // not yet
  }                                               // dropped uncommitted: the directory is as it was
  EXPECT_EQ(listing(), std::vector<std::string>{"core_0.bin"});
  EXPECT_EQ(slurp(dir / "core_0.bin"), "old");
  {
    auto staged = stage_program(p, dir.string(), err);
    ASSERT_TRUE(staged) << err;
    ASSERT_TRUE(staged->commit(err)) << err;
  }
  EXPECT_EQ(listing(), (std::vector<std::string>{"core_0.bin", "core_0.s", "manifest.json"}));
  EXPECT_EQ(slurp(dir / "core_0.bin").size(), kFileHeaderBytes + kInstrBytes);
  fs::remove_all(dir);
}

TEST(ProgramIo, FilesCreatedAheadFollowTheProgramAndLeaveNoTraceUncommitted) {
  const fs::path root = fs::path(::testing::TempDir()) / "gemini_ahead";
  fs::remove_all(root);
  Program p;
  p.l2_bytes = 1024;
  p.wl0_bytes = 4096;
  p.cores.resize(1);
  p.cores[0].program = program(2, "end\n");
  std::string err;
  const fs::path dir = root / "a" / "b";
  {
    // Created for the model's cores before any program exists, then dropped
    // (as when the input fails validation): the directories go too.
    auto staged = StagedProgram::create(dir.string(), {0, 2, 2}, err);
    ASSERT_TRUE(staged) << err;
    EXPECT_TRUE(fs::exists(dir / ".core_0.s.partial"));
    EXPECT_TRUE(fs::exists(dir / ".core_2.bin.partial"));
  }
  EXPECT_FALSE(fs::exists(root));
  {
    auto staged = StagedProgram::create(dir.string(), {0, 2}, err);
    ASSERT_TRUE(staged) << err;
    ASSERT_TRUE(staged->write(p, err)) << err;  // core 0 is not in the program
    ASSERT_TRUE(staged->commit(err)) << err;
  }
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"core_2.bin", "core_2.s", "manifest.json"}));
  EXPECT_EQ(fs::file_size(dir / "core_2.bin"), kFileHeaderBytes + kInstrBytes);
  fs::remove_all(root);
}

TEST(Lowering, SpecExampleCore1IsExactlyThis) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "spec_minimal.json").string(), d);
  std::vector<std::string> errors;
  auto p = lower(r.model, ir::HardwareConfig{}, errors);
  ASSERT_TRUE(p) << errors.front();
  // Core 1 pools the two halves core 0 sends (transfers 3 and 4) and adds
  // nothing: its first tensor is granted to both sends at once, the pool
  // waits for both data tokens, its result goes to DRAM (transfer 5), and
  // workload 1 re-reads that from DRAM (transfer 6, related_ifmap [5]),
  // ordered by a local wait on the store.
  // Every data instruction follows the view of its operands' layouts; the
  // store and the read-back use the same DRAM address (Pool_0's output).
  const std::string b = "[0,0,0,0]:[0,15,3,3]";
  const std::string z = "[0,0,0,0]:[0,0,0,0]";
  const std::string expected =
      ".core 1\n"
      "signal q=ctrl kind=credit transfer=3 to=0 grant=0 grant_bytes=1024 wl=0\n"
      "signal q=ctrl kind=credit transfer=4 to=0 grant=0 grant_bytes=1024 wl=0\n"
      "wait_token q=vp kind=data transfer=3 from=0 count=1 wl=0\n"
      "wait_token q=vp kind=data transfer=4 from=0 count=1 wl=0\n"
      "vp_cfg r=2 s=2 stride_h=2 stride_w=2 pad_t=0 pad_l=0 in_h=8 in_w=8 shift=0 perm=228 wl=0\n"
      "view q=vp shift=0 box0=" +
      z + " box1=" + b +
      " wl=0\n"
      "vp_run op=pool_max inputs=1 window=2 stride=2 in0=0 in1=0 out=1024 in_bytes=1024 "
      "out_bytes=256 in_box=[0,0,0,0]:[0,15,7,7] out_box=" +
      b +
      " wl=0\n"
      "wait_local q=dma_out on=vp count=5 wl=0\n"
      "view q=dma_out shift=0 box0=" +
      b + " box1=" + b +
      " wl=0\n"
      "dma_out l2=1024 bytes=256 dram=8192 transfer=5 src_box=" +
      b +
      " wl=0\n"
      "wait_local q=dma_in on=dma_out count=3 wl=1\n"
      "view q=dma_in shift=0 box0=" +
      b + " box1=" + z +
      " wl=1\n"
      "dma_in l2=1280 bytes=256 dram=8192 transfer=6 dst_box=" +
      b + " src_box=" + b +
      " wl=1\n"
      "wait_local q=vp on=dma_in count=3 wl=1\n"
      "vp_cfg r=1 s=1 stride_h=1 stride_w=1 pad_t=0 pad_l=0 in_h=4 in_w=4 shift=0 perm=228 wl=1\n"
      "view q=vp shift=0 box0=" +
      z + " box1=" + b +
      " wl=1\n"
      "vp_run op=copy inputs=1 window=1 stride=1 in0=1280 in1=0 out=1536 in_bytes=256 "
      "out_bytes=256 in_box=" +
      b + " out_box=" + b +
      " wl=1\n"
      "wait_local q=dma_out on=vp count=9 wl=1\n"
      "view q=dma_out shift=0 box0=" +
      b + " box1=" + b +
      " wl=1\n"
      "dma_out l2=1536 bytes=256 dram=16384 transfer=7 src_box=" +
      b +
      " wl=1\n"
      "end\n";
  ASSERT_EQ(p->cores.size(), 2u);
  EXPECT_EQ(print_program(p->cores[1].program), expected);
  std::vector<CoreProgram> cores;
  for (const auto& c : p->cores) cores.push_back(c.program);
  const auto problems = verify(cores, {p->l2_bytes, p->wl0_bytes});
  EXPECT_TRUE(problems.empty()) << problems.front();
  // Core 0 overwrites its first ofmap's bytes with the second only after the
  // first was stored and sent.
  const std::string c0 = print_program(p->cores[0].program);
  EXPECT_NE(
      c0.find("wait_local q=pe on=dma_out count=3 wl=1\nwait_local q=pe on=noc count=4 wl=1\n"),
      std::string::npos)
      << c0;
}

TEST(Lowering, ASendWithNoReceivingTensorIsAnErrorNamingIt) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "spec_minimal.json").string(), d);
  ASSERT_EQ(d.errors(), 0u);
  auto core1 = std::find_if(r.model.cores.begin(), r.model.cores.end(),
                            [](const ir::Core& c) { return c.core_id == 1; });
  ASSERT_NE(core1, r.model.cores.end());
  ir::Model late = r.model;  // transfer 3 received only from workload 1 on
  // Nothing on core 1 receives transfer 3 any more.
  for (ir::Source& s : core1->workloads[0].buffer[0].source)
    if (s.transfer_id == 3) s.transfer_id = 99;
  std::vector<std::string> errors;
  EXPECT_FALSE(lower(r.model, ir::HardwareConfig{}, errors));
  auto names = [&](const std::string& what) {
    return std::any_of(errors.begin(), errors.end(),
                       [&](const std::string& e) { return e.find(what) != std::string::npos; });
  };
  EXPECT_TRUE(names("core 1 has no buffer tensor receiving transfer 3 by its workload 0"))
      << ::testing::PrintToString(errors);
  // A tensor that receives it, but not by the workload the send names.
  auto late1 = std::find_if(late.cores.begin(), late.cores.end(),
                            [](const ir::Core& c) { return c.core_id == 1; });
  ir::BufferEntry moved = late1->workloads[0].buffer[0];
  for (ir::Source& s : late1->workloads[0].buffer[0].source)
    if (s.transfer_id == 3) s.transfer_id = 99;
  moved.address = 4096;
  moved.source.erase(std::remove_if(moved.source.begin(), moved.source.end(),
                                    [](const ir::Source& s) { return s.transfer_id != 3; }),
                     moved.source.end());
  late1->workloads[1].buffer.push_back(moved);
  errors.clear();
  EXPECT_FALSE(lower(late, ir::HardwareConfig{}, errors));
  EXPECT_TRUE(names("core 1 has no buffer tensor receiving transfer 3 by its workload 0"))
      << ::testing::PrintToString(errors);
}

TEST(Lowering, PublicDialectNeedsImportFirst) {
  ir::Diagnostics d;
  auto r = ir::load_file((test::data_dir() / "set_minimal.json").string(), d);
  std::vector<std::string> errors;
  EXPECT_FALSE(lower(r.model, ir::HardwareConfig{}, errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("import"), std::string::npos);
}

}  // namespace
