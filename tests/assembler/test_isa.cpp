// Assembler ISA: golden encodings of every opcode, random round trips through
// bytes and text, canonical decoding, text errors, the in-place program view.

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

using test::program;

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
      ir::Box b;
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

TEST(Isa, AnInstructionIsItsEncodingAndRejectsWhatItCannotHold) {
  static_assert(sizeof(Instr) == kInstrBytes);
  Instr in;
  in.op = Opcode::noc_send;
  in.queue = Engine::noc;
  in.set("transfer", 0xfffffffeLL);
  in.set("to", 7);
  EXPECT_EQ(in.get("transfer"), 0xfffffffeLL);
  EXPECT_EQ(in.get("to"), 7);
  ir::Box b;
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

}  // namespace
