#pragma once
// A JSON document read whole: the side files parsed in one piece (model
// files, ARK plans, hardware configurations), as opposed to IR files, which
// the loader streams. Syntax errors come with a line and column; keys that
// repeat within one object (which JSON leaves undefined, and a parser would
// otherwise settle silently by keeping one) are listed by JSON pointer for
// the reader to report.

#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemini::ir {

struct JsonDocument {
  std::optional<boost::json::value> value;  // nullopt on a syntax error
  // The syntax error: what and where (1-based).
  std::string error;
  std::uint64_t line = 0, column = 0;
  // The JSON pointer of each repetition of a key in its object.
  std::vector<std::string> duplicate_keys;
};

JsonDocument parse_json_document(std::string_view text);

// A JSON pointer token: '~' -> "~0", '/' -> "~1".
std::string json_pointer_token(std::string_view key);

// A value as messages show what they got: `integer 5`, `string "1M"`,
// `true`, `an object`, ... (long strings cut at 40 characters).
std::string describe_json_value(const boost::json::value& v);

}  // namespace gemini::ir
