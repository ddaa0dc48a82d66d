#include "gemini/ir/json_writer.h"

#include <array>
#include <charconv>
#include <cmath>

namespace gemini::ir {

void JsonWriter::flush() {
  if (buf_.empty()) return;
  os_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
}

void JsonWriter::put_int(std::int64_t v) {
  char tmp[24];
  auto [p, ec] = std::to_chars(tmp, tmp + sizeof tmp, v);
  buf_.append(tmp, static_cast<std::size_t>(p - tmp));
}

void JsonWriter::newline() {
  buf_ += '\n';
  buf_.append(2 * stack_.size(), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  Level& l = stack_.back();
  if (!l.empty) buf_ += ',';
  l.empty = false;
  newline();
}

void JsonWriter::begin_object() {
  before_value();
  buf_ += '{';
  stack_.push_back({true});
}

void JsonWriter::end_object() {
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  buf_ += '}';
  if (stack_.empty()) buf_ += '\n';
  maybe_flush();
}

void JsonWriter::begin_array() {
  before_value();
  buf_ += '[';
  stack_.push_back({false});
}

void JsonWriter::end_array() {
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  buf_ += ']';
  maybe_flush();
}

void JsonWriter::key(std::string_view k) {
  before_value();
  escape(k);
  buf_ += " : ";
  after_key_ = true;
}

void JsonWriter::value(std::int64_t v) {
  before_value();
  put_int(v);
}

void JsonWriter::value(double v) {
  // JSON has no infinity or NaN: such a value is written as null.
  if (!std::isfinite(v)) {
    null();
    return;
  }
  before_value();
  std::array<char, 64> buf{};
  auto [p, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  std::string_view s(buf.data(), static_cast<std::size_t>(p - buf.data()));
  buf_ += s;
  // Keep it a JSON number that reads back as a double.
  if (s.find_first_of(".eE") == std::string_view::npos &&
      s.find_first_of("ni") == std::string_view::npos)
    buf_ += ".0";
}

void JsonWriter::value(bool v) {
  before_value();
  buf_ += v ? "true" : "false";
}

void JsonWriter::value(std::string_view v) {
  before_value();
  escape(v);
}

void JsonWriter::null() {
  before_value();
  buf_ += "null";
}

void JsonWriter::escape(std::string_view s) {
  buf_ += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        buf_ += "\\\"";
        break;
      case '\\':
        buf_ += "\\\\";
        break;
      case '\n':
        buf_ += "\\n";
        break;
      case '\r':
        buf_ += "\\r";
        break;
      case '\t':
        buf_ += "\\t";
        break;
      default:
        if (c < 0x20) {
          static const char* hex = "0123456789abcdef";
          buf_ += "\\u00";
          buf_ += hex[c >> 4];
          buf_ += hex[c & 15];
        } else {
          buf_ += static_cast<char>(c);
        }
    }
  }
  buf_ += '"';
}

}  // namespace gemini::ir
