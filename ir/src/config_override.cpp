#include "gemini/ir/config_override.h"

#include "gemini/ir/json_document.h"

namespace gemini::ir {
namespace {

// Whether `pointer` names the value at `at` or one inside it.
bool at_or_under(std::string_view pointer, std::string_view at) {
  return pointer.starts_with(at) && (pointer.size() == at.size() || pointer[at.size()] == '/');
}

}  // namespace

std::string dotted_path(std::string_view pointer) {
  std::string out;
  for (std::size_t i = pointer.starts_with('/') ? 1 : 0; i < pointer.size(); ++i) {
    const char c = pointer[i];
    if (c == '/') {
      out += '.';
    } else if (c == '~' && i + 1 < pointer.size() &&
               (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
      out += pointer[++i] == '0' ? '~' : '/';
    } else {
      out += c;
    }
  }
  return out;
}

std::string path_pointer(std::string_view dotted) {
  std::string out;
  std::size_t pos = 0;
  for (std::size_t dot; (dot = dotted.find('.', pos)) != std::string_view::npos; pos = dot + 1)
    out += "/" + json_pointer_token(dotted.substr(pos, dot - pos));
  return out + "/" + json_pointer_token(dotted.substr(pos));
}

void attribute_overrides(ConfigErrors& errors, const ConfigOverrides& overrides) {
  for (Diagnostic& e : errors) {
    if (e.line) continue;  // a syntax error: of the text as a whole
    for (auto o = overrides.rbegin(); o != overrides.rend(); ++o) {
      if (!at_or_under(e.pointer, o->pointer)) continue;
      e.file = o->prefix + dotted_path(e.pointer) + o->suffix;
      e.given = true;
      break;
    }
  }
}

}  // namespace gemini::ir
