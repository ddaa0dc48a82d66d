#pragma once
// File and JSON helpers of the sweep library: whole-file reads, atomic
// writes (a temporary file renamed into place, so readers on a shared file
// system never see half a file), pretty and canonical JSON, stable ids.
#include <boost/json/value.hpp>
#include <string>
#include <vector>

namespace gemini::sweep::detail {

bool read_text(const std::string& path, std::string& text, std::string& error);
// Parses a JSON file; errors name the file (and line:column for syntax).
bool read_json(const std::string& path, boost::json::value& v, std::string& error);
bool write_atomic(const std::string& path, const std::string& text, std::string& error);
// Indented, in the value's own member order.
std::string pretty(const boost::json::value& v);
// Compact with every object's members sorted: equal values, equal text.
std::string canonical(const boost::json::value& v);
// 16 hex digits of the SHA-1 name-based UUID of `text`.
std::string stable_id(const std::string& text);
// "<size>:<crc32>" of a file's bytes; empty if it cannot be read.
std::string file_digest(const std::string& path);
boost::json::array strings(const std::vector<std::string>& v);
// A value as a CSV cell / axis label: strings bare, numbers as JSON.
std::string cell(const boost::json::value& v);

}  // namespace gemini::sweep::detail
