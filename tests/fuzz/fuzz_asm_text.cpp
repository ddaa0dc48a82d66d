// Assembly text (`gemini as`): the parser, then the round trip every
// program it accepts must make: encode -> decode gives the same program,
// and print -> parse gives it again.
#include "fuzz_support.h"
#include "gemini/assembler/encoding.h"
#include "gemini/assembler/text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gemini;  // NOLINT(google-build-using-namespace): harness
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  assembler::ParseError pe;
  const std::optional<assembler::CoreProgram> p = assembler::parse_program(text, pe);
  if (!p) {
    fuzz::require(pe.line >= 1 && pe.column >= 1 && !pe.message.empty(),
                  "a parse error has a line, a column and a message");
    return 0;
  }
  std::vector<std::uint8_t> bin;
  std::string error;
  if (!assembler::encode_program(*p, bin, error)) return 0;
  const std::optional<assembler::CoreProgram> back = assembler::decode_program(bin, error);
  fuzz::require(back && *back == *p, "decode(encode(p)) == p");
  const std::optional<assembler::CoreProgram> again =
      assembler::parse_program(assembler::print_program(*back), pe);
  fuzz::require(again && *again == *p, "parse(print(p)) == p");
  return 0;
}
