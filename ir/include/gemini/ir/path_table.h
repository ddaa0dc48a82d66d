#pragma once
// PathTable: a compact trie of JSON pointers. Every model object stores one
// 32-bit Loc naming the place in the input file it was read from; the table
// turns a Loc back into an RFC 6901 pointer such as "/7/12/buffer/3" on demand.
// Storing 8 bytes per object instead of a string keeps 100 MB inputs cheap.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gemini::ir {

using Loc = std::uint32_t;
inline constexpr Loc kRootLoc = 0;

class PathTable {
 public:
  PathTable();

  // Child of `parent` reached through object key `key`.
  Loc key(Loc parent, std::string_view key);
  // Child of `parent` reached through array index `index`.
  Loc index(Loc parent, std::uint32_t index);

  // The RFC 6901 pointer of `loc` ("" for the root), with `suffix` appended
  // verbatim (callers pass e.g. "/address" to name a member).
  std::string pointer(Loc loc, std::string_view suffix = {}) const;

  std::size_t size() const { return nodes_.size(); }

 private:
  struct Node {
    Loc parent;
    std::uint32_t token;  // array index, or key id with kKeyBit set
  };
  static constexpr std::uint32_t kKeyBit = 0x80000000u;
  std::vector<Node> nodes_;
  std::vector<std::string> keys_;
  struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::uint32_t, KeyHash, std::equal_to<>> key_ids_;
};

}  // namespace gemini::ir
