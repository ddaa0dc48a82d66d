#pragma once
// Text form of instructions and programs (printer and parser), derived from
// the ISA table. One instruction per line:
//
//   dma_in l2=4096 bytes=768 dram=0 transfer=2 dst_box=[0,0,0,0]:[0,2,15,15] src_box=... wl=0
//   wait_local q=pe on=dma_in count=3
//   pe_run ifmap=... acc wl=12            ; comments run to the end of the line
//
// Every field of the opcode must be given once, by name, in any order;
// `q=` names the queue of wait_local / wait_token / signal; `wl=` is the IR
// workload the instruction came from (optional). A program starts with
// `.core N`. Errors name file:line:column.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gemini/assembler/encoding.h"

namespace gemini::assembler {

std::string print(const Instr& in);
// The most bytes the decimal text of an int64 takes (its sign included).
inline constexpr std::size_t kIntTextBytes = 20;
// Writes the decimal text of `v` at `p` (at most kIntTextBytes, no
// terminator); returns the end.
char* write_int(char* p, std::int64_t v);
// Appends the decimal text of `v` to `out` (the printer's numbers).
void append_int(std::string& out, std::int64_t v);
// Appends the text of `in` to `out` (no newline).
void print_to(std::string& out, const Instr& in);
// `comment(instr)`, when given and not empty, follows each instruction after "; ".
using CommentFn = std::function<std::string(const Instr&)>;
std::string print_program(const CoreProgram& p, const CommentFn& comment = {});
// The same for listings of large programs, with a comment writer that puts
// the comment's text straight into the line: `writer(at, room, instr)`
// writes the comment at `at` if it fits in `room` bytes and returns its
// length (0: no comment); one that does not fit is not written, and its
// length (more than `room`) is returned: the writer is then called again,
// for the same instruction, with room for it.
using CommentWriter = std::function<std::size_t(char* at, std::size_t room, const Instr&)>;
std::string print_program_to(const CoreProgram& p, const CommentWriter& comment);
// The same text handed to `sink` in pieces of about `chunk` bytes (whole
// lines), one reused buffer: a listing of tens of MB is written without
// ever being in memory at once. False as soon as `sink` returns false.
using TextSink = std::function<bool(std::string_view)>;
bool print_program_chunked(const CoreProgram& p, const CommentWriter& comment, const TextSink& sink,
                           std::size_t chunk = std::size_t{1} << 18);

struct ParseError {
  std::size_t line = 0, column = 0;
  std::string message;
};
std::optional<Instr> parse_instr(std::string_view line, ParseError& err);
std::optional<CoreProgram> parse_program(std::string_view text, ParseError& err);

}  // namespace gemini::assembler
