#include "gemini/ir/resources.h"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

namespace gemini::ir {

std::int64_t available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  long long kib = 0;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:" && kib > 0) return static_cast<std::int64_t>(kib) * 1024;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) return static_cast<std::int64_t>(pages) * page;
  return 1;
}

std::optional<std::int64_t> parse_byte_size(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
  const std::string number(s.substr(0, i));
  std::string unit(s.substr(i));
  if (number.empty() || number.front() == '.' || number.back() == '.' ||
      number.find('.') != number.rfind('.'))
    return std::nullopt;
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.ends_with("IB")) {
    unit.resize(unit.size() - 2);
    if (unit.empty()) return std::nullopt;  // "iB" alone
  } else if (unit.ends_with("B")) {
    unit.pop_back();
  }
  int shift = 0;
  if (unit == "K") {
    shift = 10;
  } else if (unit == "M") {
    shift = 20;
  } else if (unit == "G") {
    shift = 30;
  } else if (unit == "T") {
    shift = 40;
  } else if (!unit.empty()) {
    return std::nullopt;
  }
  if (number.size() > 30) return std::nullopt;
  const double v = std::ldexp(std::strtod(number.c_str(), nullptr), shift);
  if (!(v >= 1) || v > std::ldexp(1.0, 62)) return std::nullopt;
  const double whole = std::floor(v);
  if (shift == 0 && whole != v) return std::nullopt;  // a fraction of a byte
  return static_cast<std::int64_t>(whole);
}

std::string format_bytes(std::int64_t bytes) {
  static const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  double v = static_cast<double>(bytes);
  int u = -1;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string MemoryLimit::describe() const {
  if (bytes > 0) return "the --memory-limit of " + format_bytes(bytes);
  return "the machine's available memory (" + format_bytes(available_memory_bytes()) + ")";
}

std::optional<std::string> exceeds(const MemoryLimit& limit, std::optional<std::int64_t> needed,
                                   const std::string& what, const std::string& detail) {
  const std::int64_t have = limit.resolve();
  if (needed && *needed <= have) return std::nullopt;
  return what + " needs " + (needed ? format_bytes(*needed) : std::string("more than 8 EiB")) +
         (detail.empty() ? "" : " (" + detail + ")") + ", more than " + limit.describe() +
         "; --memory-limit sets another limit";
}

}  // namespace gemini::ir
