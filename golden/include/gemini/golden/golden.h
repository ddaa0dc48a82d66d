#pragma once
// Golden regression: a directory with cases.json -- a list of {"name",
// "input", "hw"} and, for a functional case, "model" (and "seed", default
// 1), with paths relative to the directory or "corpus:<path>" inside the
// corpus ($GEMINI_CORPUS, else ../shared/ir-corpus/set beside the sources)
// -- and reports/<name>.json, the simulator's JSON report of each case
// without the host fields: the timing, and for a functional case the
// numbers (per layer: elements checked, mismatches, the CRC-32 of the
// reference output and of what the programs stored in DRAM). check()
// re-runs every case and reports the first differing line of any report;
// update() rewrites them. A corpus case is skipped, saying so, when the
// corpus is absent.

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace gemini::golden {

struct Case {
  std::string name, input, hw;
  std::string model;       // "" : timing only
  std::uint64_t seed = 1;  // with a model
};

std::optional<std::vector<Case>> read_cases(const std::string& dir, std::string& error);

// Load, validate, import (public dialect), lower and simulate one case;
// `report` is its JSON report without host fields.
bool run_case(const std::string& dir, const Case& c, std::string& report, std::string& error);

struct Difference {
  std::size_t line = 0;  // 1-based
  std::string expected, actual;
};
std::optional<Difference> first_difference(const std::string& expected, const std::string& actual);

// Both return the number of failed cases (0: all good), printing one line
// per case to `out`. A missing or unreadable directory counts as one failure.
int check(const std::string& dir, std::ostream& out);
int update(const std::string& dir, std::ostream& out);

}  // namespace gemini::golden
