// Hardening (issue 31): inputs that once overflowed, hung or were accepted in silence, each now a
// diagnostic with a location: assembly text and binary programs.

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>

#include "fixture.h"
#include "gemini/assembler/encoding.h"
#include "gemini/assembler/text.h"
#include "gemini/gpu/backend.h"
#include "gemini/gpu/plan.h"
#include "gemini/gpu/plan_exec.h"
#include "gemini/ir/checked_int.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/json_document.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/resources.h"
#include "gemini/ir/validator.h"
#include "gemini/model/layer_semantics.h"
#include "gemini/model/network.h"
#include "gemini/model/reference.h"

using namespace gemini;  // NOLINT(google-build-using-namespace): test file
namespace json = boost::json;

namespace {

// --- assembly text and binary programs ---------------------------------------

std::string parse_error(const std::string& text) {
  assembler::ParseError pe;
  if (assembler::parse_program(text, pe)) return "";
  return std::to_string(pe.line) + ":" + std::to_string(pe.column) + ": " + pe.message;
}

TEST(HardenAsm, DuplicateOperandsTrailingTokensAndSignedHex) {
  EXPECT_EQ(parse_error(".core 0\nwait_local q=pe on=dma_in count=3 wl=1 wl=2\n"),
            "2:40: field \"wl\" given twice");
  EXPECT_EQ(parse_error(".core 0 1\n"), "1:9: unexpected \"1\" after .core <id>");
  EXPECT_EQ(parse_error(".core 0 ; fine\n"), "");
  EXPECT_EQ(parse_error(".core 0x-5\n"), "1:1: expected .core <id> with an id in [0, 65535]");
  EXPECT_EQ(parse_error(".core0\n"), "1:1: expected .core <id> with an id in [0, 65535]");
  const std::string view =
      "view q=dma_in shift=0x-5 box0=[0,0,0,0]:[0,0,0,0] box1=[0,0,0,0]:[0,0,0,0]\n";
  EXPECT_EQ(parse_error(".core 0\n" + view), "2:21: bad value \"0x-5\" for shift");
  EXPECT_EQ(parse_error(".core 0\nview q=dma_in shift=-5 box0=[0,0,0,0]:[0,0,0,0] "
                        "box1=[0,0,0,0]:[0,0,0,0]\n"),
            "");
}

TEST(HardenAsm, DecodeRefusesWhatTheTextCannotSay) {
  assembler::CoreProgram p;
  std::vector<std::uint8_t> bin;
  std::string error;
  ASSERT_TRUE(assembler::encode_program(p, bin, error)) << error;
  bin[8] = bin[9] = bin[10] = bin[11] = 0xff;  // core id 0xFFFFFFFF
  EXPECT_FALSE(assembler::decode_program(bin, error));
  EXPECT_EQ(error, "core id 4294967295 in the header is outside [0, 65535]");
  p.core_id = 70000;
  EXPECT_FALSE(assembler::encode_program(p, bin, error));
}

TEST(HardenAsm, UnknownOpcodeInHex) {
  std::array<std::uint8_t, assembler::kInstrBytes> b{};
  b[0] = 0xab;
  std::string error;
  EXPECT_FALSE(assembler::decode(b.data(), error));
  EXPECT_EQ(error, "unknown opcode 0xab");
}

}  // namespace
