#pragma once
// Emission's view of tokens and dependencies (emit.cpp), internal to the
// assembler.

#include <cstdint>
#include <vector>

#include "gemini/assembler/isa.h"
#include "gemini/ir/model.h"

namespace gemini::assembler::lowering {

// A token, with the receiving core: its sender's core and event, and `key`
// = (the sender's schedule position << 32 | the token's number among its
// sender core's, in event order), which orders a core's incoming tokens
// globally.
struct FlatToken {
  std::uint64_t key;
  ir::TransferId transfer;
  std::uint32_t event, from;
  TokenKind kind;
  std::int64_t ordinal = 0;  // number_tokens sets it
};

// What emission reads of a dependency on its own core: its core, its queue
// and its queue's count once it is emitted.
struct DepFacts {
  std::uint32_t core;
  std::uint32_t last_count;
  Engine queue;
};

// The ordinal of each token a core receives (the `count` a wait_token for
// it names): its number, from 1, among the tokens of its (transfer,
// sender, kind) in global order (by key).
void number_tokens(std::vector<FlatToken>& incoming);

}  // namespace gemini::assembler::lowering
