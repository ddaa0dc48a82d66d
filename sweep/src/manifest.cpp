// The sweep inputs' manifests (manifest.h).
#include "manifest.h"

#include <algorithm>

#include "json_io.h"

namespace gemini::sweep::detail {

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else if (c != '\r') {
      cells.back() += c;
    }
  }
  return cells;
}

bool read_manifest(const std::string& path, Manifest& m, std::string& error) {
  std::string text;
  if (!detail::read_text(path, text, error)) return false;
  std::vector<std::string> header;
  std::size_t line_no = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.empty()) continue;
    std::vector<std::string> cells = split_csv_line(line);
    if (header.empty()) {
      header = cells;
      if (std::find(header.begin(), header.end(), "file") == header.end()) {
        error = path + ":1: the manifest has no \"file\" column";
        return false;
      }
      continue;
    }
    if (cells.size() != header.size()) {
      error = path + ":" + std::to_string(line_no) + ": " + std::to_string(cells.size()) +
              " cells, the header has " + std::to_string(header.size());
      return false;
    }
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < cells.size(); ++i) row[header[i]] = cells[i];
    m[row["file"]] = std::move(row);
  }
  return true;
}

}  // namespace gemini::sweep::detail
