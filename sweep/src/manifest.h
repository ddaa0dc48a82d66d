#pragma once
// A sweep input's manifest (the corpus manifest.csv: file, ...,
// set_latency_cycles, ...): a CSV file whose header names its columns, one
// of them "file"; its rows by file name.

#include <map>
#include <string>
#include <vector>

namespace gemini::sweep::detail {

using Manifest = std::map<std::string, std::map<std::string, std::string>>;

// One line's cells (double-quoted cells may hold commas and "" quotes).
std::vector<std::string> split_csv_line(const std::string& line);
// false with `error` ("path:line: ...") when the file does not read, has no
// "file" column or a row of another width.
bool read_manifest(const std::string& path, Manifest& m, std::string& error);

}  // namespace gemini::sweep::detail
