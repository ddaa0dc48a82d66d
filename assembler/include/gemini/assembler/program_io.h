#pragma once
// Writing a lowered program: DIR/core_<id>.bin (encoding.h), DIR/core_<id>.s
// (text.h, with comments linking each instruction to its workload and
// transfer) and DIR/manifest.json (cores, instruction counts per opcode,
// bytes moved per engine).

#include <optional>
#include <string>
#include <vector>

#include "gemini/assembler/lowering.h"
#include "gemini/assembler/text.h"

namespace gemini::assembler {

// The files of a program written under temporary names (".<name>.partial")
// in their directory, so that they can be written while the program is
// still being verified: commit() renames them into place; destroying an
// uncommitted one removes them, and the directories it created, leaving the
// file system as it was.
//
// The files can be created before the program exists (create(), with the
// model's core ids), and written once it does (write()). Creating a file
// costs from tens of microseconds to a millisecond on ext4 (it skips, one
// by one, inodes freed in the last minutes, as a rerun into the same
// directory frees them), so `gemini asm` creates them while the input is
// validated, on the core that validation leaves idle.
class StagedProgram {
 public:
  // Creates `dir` (and its missing parents) and empty partial files for the
  // given cores and the manifest.
  static std::optional<StagedProgram> create(const std::string& dir,
                                             const std::vector<std::int32_t>& core_ids,
                                             std::string& error);
  StagedProgram(StagedProgram&& o) noexcept;
  StagedProgram& operator=(StagedProgram&&) = delete;
  StagedProgram(const StagedProgram&) = delete;
  StagedProgram& operator=(const StagedProgram&) = delete;
  ~StagedProgram();
  // Writes the program's files (cores in parallel); partial files created
  // for cores the program does not have are removed.
  bool write(const Program& p, std::string& error);
  bool commit(std::string& error);

 private:
  StagedProgram() = default;
  std::string dir_;
  std::vector<std::string> names_;    // final names; empty once committed or moved from
  std::vector<std::string> created_;  // directories created, innermost first
};

// StagedProgram::create with the program's cores, then write.
std::optional<StagedProgram> stage_program(const Program& p, const std::string& dir,
                                           std::string& error);
// stage_program, then commit.
bool write_program(const Program& p, const std::string& dir, std::string& error);

// The listing comments of a core's instructions (its .s file), as a
// CommentWriter: each names the instruction's workload and layer, and what
// it does with which transfer ("wl 12 (conv1): send transfer 166 to core
// 12"); none for an instruction of no workload. The writer refers to
// `core` and keeps the last comment head it made.
CommentWriter listing_comments(const LoweredCore& core);

// Bytes moved by an instruction's engine (dma_in, dma_out, noc, wl0), else 0.
std::int64_t bytes_moved(const Instr& in);

}  // namespace gemini::assembler
