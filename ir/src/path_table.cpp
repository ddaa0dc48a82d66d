#include "gemini/ir/path_table.h"

#include <algorithm>

#include "gemini/ir/json_document.h"

namespace gemini::ir {

PathTable::PathTable() { nodes_.push_back({kRootLoc, 0}); }

Loc PathTable::key(Loc parent, std::string_view key) {
  auto it = key_ids_.find(key);
  std::uint32_t id = 0;
  if (it == key_ids_.end()) {
    id = static_cast<std::uint32_t>(keys_.size());
    keys_.emplace_back(key);
    key_ids_.emplace(std::string(key), id);
  } else {
    id = it->second;
  }
  nodes_.push_back({parent, id | kKeyBit});
  return static_cast<Loc>(nodes_.size() - 1);
}

Loc PathTable::index(Loc parent, std::uint32_t index) {
  nodes_.push_back({parent, index & ~kKeyBit});
  return static_cast<Loc>(nodes_.size() - 1);
}

namespace {
void append_escaped(std::string& out, std::string_view token) { out += json_pointer_token(token); }
}  // namespace

std::string PathTable::pointer(Loc loc, std::string_view suffix) const {
  std::vector<Loc> chain;
  for (Loc l = loc; l != kRootLoc && l < nodes_.size(); l = nodes_[l].parent) chain.push_back(l);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Node& n = nodes_[*it];
    out += '/';
    if (n.token & kKeyBit) {
      append_escaped(out, keys_[n.token & ~kKeyBit]);
    } else {
      out += std::to_string(n.token);
    }
  }
  out += suffix;
  return out;
}

}  // namespace gemini::ir
