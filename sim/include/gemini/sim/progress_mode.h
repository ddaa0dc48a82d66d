#pragma once
// How a run shows its progress on stderr (SimOptions::progress; the CLI
// picks it from its options and whether stderr is a terminal).

#include <cstdint>

namespace gemini::sim {

enum class ProgressMode : std::uint8_t {
  off,    // nothing
  bar,    // a bar redrawn in place (a terminal), once the run has taken a second
  lines,  // a plain line every few seconds (a pipe or a log), the first after 2 s
};

}  // namespace gemini::sim
