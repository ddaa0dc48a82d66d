#pragma once
// Writing a lowered program: DIR/core_<id>.bin (encoding.h), DIR/core_<id>.s
// (text.h, with comments linking each instruction to its workload and
// transfer) and DIR/manifest.json (cores, instruction counts per opcode,
// bytes moved per engine).

#include <string>

#include "gemini/assembler/lowering.h"

namespace gemini::assembler {

bool write_program(const Program& p, const std::string& dir, std::string& error);

// Bytes moved by an instruction's engine (dma_in, dma_out, noc, wl0), else 0.
std::int64_t bytes_moved(const Instr& in);

}  // namespace gemini::assembler
