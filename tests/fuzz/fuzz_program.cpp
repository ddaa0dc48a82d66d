// Binary programs (core_<id>.bin, `gemini disasm`): the decoder, then the
// round trip every program it accepts must make: encode gives the same
// bytes, and the text `disasm` prints assembles (`gemini as`) into them.
#include "fuzz_support.h"
#include "gemini/assembler/encoding.h"
#include "gemini/assembler/text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gemini;  // NOLINT(google-build-using-namespace): harness
  const std::vector<std::uint8_t> bytes(data, data + size);
  std::string error;
  const std::optional<assembler::CoreProgram> p = assembler::decode_program(bytes, error);
  if (!p) {
    fuzz::require(!error.empty(), "a refused program says why");
    return 0;
  }
  std::vector<std::uint8_t> again;
  fuzz::require(assembler::encode_program(*p, again, error) && again == bytes,
                "encode(decode(b)) == b");
  assembler::ParseError pe;
  const std::optional<assembler::CoreProgram> text =
      assembler::parse_program(assembler::print_program(*p), pe);
  fuzz::require(text && *text == *p, "as(disasm(b)) == b");
  return 0;
}
