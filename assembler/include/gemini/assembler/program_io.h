#pragma once
// Writing a lowered program: DIR/core_<id>.bin (encoding.h), DIR/core_<id>.s
// (text.h, with comments linking each instruction to its workload and
// transfer) and DIR/manifest.json (cores, instruction counts per opcode,
// bytes moved per engine).

#include <optional>
#include <string>
#include <vector>

#include "gemini/assembler/lowering.h"

namespace gemini::assembler {

// The files of a program written under temporary names (".<name>.partial")
// in their directory, so that they can be written while the program is
// still being verified: commit() renames them into place; destroying an
// uncommitted one removes them, leaving the directory as it was.
class StagedProgram {
 public:
  StagedProgram(std::string dir, std::vector<std::string> names);
  StagedProgram(StagedProgram&& o) noexcept;
  StagedProgram& operator=(StagedProgram&&) = delete;
  StagedProgram(const StagedProgram&) = delete;
  StagedProgram& operator=(const StagedProgram&) = delete;
  ~StagedProgram();
  bool commit(std::string& error);

 private:
  std::string dir_;
  std::vector<std::string> names_;  // final names; empty once committed or moved from
};

std::optional<StagedProgram> stage_program(const Program& p, const std::string& dir,
                                           std::string& error);
// stage_program, then commit.
bool write_program(const Program& p, const std::string& dir, std::string& error);

// Bytes moved by an instruction's engine (dma_in, dma_out, noc, wl0), else 0.
std::int64_t bytes_moved(const Instr& in);

}  // namespace gemini::assembler
