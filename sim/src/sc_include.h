#pragma once
// The one place SystemC is included. Debian's libsystemc is built as C++17;
// its headers must see the same language level to link (the API version
// symbol encodes it), whatever standard gemini itself compiles with.
#ifndef SC_CPLUSPLUS
#define SC_CPLUSPLUS 201703L
#endif
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc>

namespace gemini::sim {
// Integer picoseconds to sc_time (the kernel's resolution is 1 ps).
inline sc_core::sc_time ps(std::int64_t t) {
  return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(t));
}
inline std::int64_t now_ps() { return static_cast<std::int64_t>(sc_core::sc_time_stamp().value()); }
}  // namespace gemini::sim
