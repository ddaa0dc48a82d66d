#pragma once
// Golden timing regression: a directory with cases.json -- a list of
// {"name", "input", "hw"} with paths relative to the directory -- and
// reports/<name>.json, the simulator's JSON report of each case without the
// host fields. check() re-runs every case and reports the first differing
// line of any report; update() rewrites them.

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace gemini::golden {

struct Case {
  std::string name, input, hw;
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
