#pragma once
// printf-style formatting into a std::string for the text reports
// (report.cpp, report_functional.cpp, critical_path_report.cpp,
// report_energy.cpp, report_power.cpp).

#include <cstdarg>
#include <cstdio>
#include <string>

namespace gemini::sim {

inline std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
inline std::string fmt(const char* f, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

}  // namespace gemini::sim
