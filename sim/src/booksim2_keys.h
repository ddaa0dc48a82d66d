#pragma once
// BookSim 2's configuration keys as gemini treats them (noc.model
// "booksim2", docs/timing-model.md, "BookSim 2's keys"): one table, the
// source of the keys booksim2_config() writes, of `noc.booksim`'s checks, of
// `gemini sim --list-params` and of the list in the docs (a test compares
// them).
//
// Contract: a key of the table is either
//   - written: gemini writes it itself, its value from the `noc` section or
//     the network gemini lays out (`write`; `about` says from what), in the
//     table's order -- and refuses it in noc.booksim, naming it and what
//     sets it instead;
//   - passed: noc.booksim may set it, checked first by gemini against its
//     declared type and range (BookSim checks almost nothing and stops,
//     divides by zero or hangs on a bad value); without it BookSim's own
//     default (`fallback`) holds;
// and every key not in the table -- BookSim's traffic manager, its other
// topologies, routers, power model and VC classes, or no key at all -- is
// refused in noc.booksim by name. Plain C++, no BookSim types: available in
// a build without BookSim 2.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gemini/sim/booksim2_params.h"
#include "gemini/sim/params.h"

namespace gemini::sim {

struct Booksim2Key {
  enum class Role : std::uint8_t { written, pass };
  // A written key's value for a configuration (booksim2_config() has filled
  // `s` but its keys).
  using Writer = std::string (*)(const Booksim2Params& p, const Booksim2Setup& s);
  const char* key;
  Role role;
  char kind;             // 'i' integer, 'f' number, 's' string
  std::int64_t lo, hi;   // passed numbers: the range, both ends included
  bool minus_one;        // passed integers: -1 accepted too (BookSim's "unbounded" / "derived")
  const char* choices;   // passed strings: the accepted values, comma-separated
  const char* fallback;  // passed: BookSim's value without noc.booksim
  const char* about;     // passed: what it does; written: what sets it
  Writer write;          // written: its value; null for passed keys
};

// Every key of the table: those gemini writes first, in the order it writes
// them, then the passed ones in the docs' order.
const std::vector<Booksim2Key>& booksim2_keys();
// The table's entry for `key`; nullptr when it has none.
const Booksim2Key* booksim2_key(std::string_view key);

// Reads `noc.booksim` (the section reader `extra`): each passed key declared
// with its type and range (for listings, all of them), each given one
// checked and returned as BookSim's parser would take it; a written key,
// and one not in the table, refused by name. `booksim_knows(key)` says
// whether BookSim 2 declares a key (null: not built), for the message.
// `num_vcs`: gemini's, for the checks that involve it.
std::vector<Booksim2Params::Extra> read_booksim2_keys(
    ParamReader& extra, std::int32_t num_vcs,
    const std::function<bool(const std::string&)>& booksim_knows);

}  // namespace gemini::sim
