// Assembler: typed binding of invocations to instruction slots (bind,
// RepeatBinder, PreparedBinding) and what each refuses.

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

TEST(Binding, RejectsMissingWrongAndReadOnlySlots) {
  Invocation inv;
  inv.op = Opcode::dma_in;
  inv.origin = "core 3 workload 12 (conv1)";
  inv.tensor("l2", {0, 64, ir::Box{}, Access::write});
  inv.tensor("dram", {0, 64, ir::Box{}, Access::read});
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
  through_read.tensor("l2", {0, 64, ir::Box{}, Access::write});  // l2 is dma_out's read slot
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
    ir::Box b;
    b.hi = {0, static_cast<std::int32_t>(hi), 3, 3};
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

}  // namespace
