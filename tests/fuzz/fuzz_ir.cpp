// IR files of either dialect, as `gemini asm` reads them: the streaming
// loader (gzip or not), the validator, the in-memory import of public-
// dialect files and the lowering, then the verifier on what was lowered.
// The input's length picks the dialect (detected, full or set), so every
// reader sees every shape of input.
#include "fuzz_support.h"
#include "gemini/assembler/assemble_file.h"
#include "gemini/assembler/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gemini;  // NOLINT(google-build-using-namespace): harness
  const fuzz::MemFile file(data, size);
  ir::LoadOptions lo;
  if (size % 3 == 1) lo.dialect = ir::Dialect::full;
  if (size % 3 == 2) lo.dialect = ir::Dialect::set;
  static const ir::HardwareConfig hw;
  ir::Diagnostics d(100);
  const assembler::AssembledFile f = assembler::assemble_file(file.path(), hw, lo, d);
  fuzz::note(f.failed == assembler::AssembledFile::Failed::none ? "assembled" : "refused");
  if (f.failed == assembler::AssembledFile::Failed::none) {
    fuzz::require(f.program.has_value(), "assembled without a program");
    // A file that validated is lowered into programs that verify.
    fuzz::require(assembler::verify(*f.program).empty(),
                  "a validated IR was lowered into a program that fails verification");
  }
  return 0;
}
