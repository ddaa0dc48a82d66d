#include "install_paths.h"

#include <algorithm>
#include <filesystem>

#include "gemini/sweep/spec.h"

namespace gemini::cli {
namespace fs = std::filesystem;

std::string self_exe() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

std::string data_dir() {
  const std::string exe = self_exe();
  if (exe.empty()) return "";
  return (fs::path(exe).parent_path().parent_path() / "share" / "gemini").string();
}

std::vector<std::string> config_dirs() {
  const std::string d = data_dir();
  if (d.empty()) return {};
  return {(fs::path(d) / "configs").string()};
}

std::string resolve_config(const std::string& name_or_path) {
  return sweep::find_config(name_or_path, config_dirs());
}

std::string known_configs() {
  std::vector<std::string> names;
  for (const std::string& d : config_dirs()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(d, ec))
      if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none installed" : s;
}

}  // namespace gemini::cli
