// Variable expansion in the sweep file's paths (spec_reader.h): ${VAR}
// and ${VAR:-default} from the environment, {stem}, {name} and a manifest
// row's columns in a model path, and an input's label.
#include <cstdlib>
#include <filesystem>

#include "spec_reader.h"

namespace gemini::sweep::detail {
namespace fs = std::filesystem;

std::optional<std::string> Reader::path(const std::string& pointer, const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "${") != 0) {
      out += s[i++];
      continue;
    }
    const std::size_t end = s.find('}', i);
    if (end == std::string::npos) {
      fail(pointer, "unterminated ${ in \"" + s + "\"");
      return std::nullopt;
    }
    std::string var = s.substr(i + 2, end - i - 2), fallback;
    bool has_fallback = false;
    if (const std::size_t d = var.find(":-"); d != std::string::npos) {
      fallback = var.substr(d + 2);
      var = var.substr(0, d);
      has_fallback = true;
    }
    const char* v = std::getenv(var.c_str());
    if (v && *v) {
      out += v;
    } else if (has_fallback) {
      out += fallback;
    } else {
      fail(pointer, std::string("environment variable ")
                        .append(var)
                        .append(" is not set (in \"")
                        .append(s)
                        .append("\")"));
      return std::nullopt;
    }
    i = end + 1;
  }
  fs::path p(out);
  if (p.is_relative()) p = dir / p;
  return p.lexically_normal().string();
}

std::string label_of(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  for (const char* ext : {".gz", ".json"})
    if (name.size() > std::string_view(ext).size() &&
        name.compare(name.size() - std::string_view(ext).size(), std::string::npos, ext) == 0)
      name.resize(name.size() - std::string_view(ext).size());
  return name;
}

// "{stem}", "{name}" and the manifest row's columns, in a model path.
std::optional<std::string> substitute(const std::string& s,
                                      const std::map<std::string, std::string>& vars,
                                      std::string& missing) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t end = s.find('}', i);
    if (s[i] != '{' || end == std::string::npos) {
      out += s[i++];
      continue;
    }
    if (i > 0 && s[i - 1] == '$') {  // ${VAR}: the environment's, expanded later
      out += s.substr(i, end + 1 - i);
      i = end + 1;
      continue;
    }
    const std::string key = s.substr(i + 1, end - i - 1);
    const auto it = vars.find(key);
    if (it == vars.end()) {
      missing = key;
      return std::nullopt;
    }
    out += it->second;
    i = end + 1;
  }
  return out;
}

}  // namespace gemini::sweep::detail
