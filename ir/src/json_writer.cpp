#include "gemini/ir/json_writer.h"

#include <array>
#include <charconv>

namespace gemini::ir {

void JsonWriter::newline() {
  os_ << '\n';
  for (std::size_t i = 0; i < stack_.size(); ++i) os_ << "  ";
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  Level& l = stack_.back();
  if (!l.empty) os_ << ',';
  l.empty = false;
  newline();
}

void JsonWriter::begin_object() {
  before_value();
  os_ << '{';
  stack_.push_back({true});
}

void JsonWriter::end_object() {
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  os_ << '}';
  if (stack_.empty()) os_ << '\n';
}

void JsonWriter::begin_array() {
  before_value();
  os_ << '[';
  stack_.push_back({false});
}

void JsonWriter::end_array() {
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty) newline();
  os_ << ']';
}

void JsonWriter::key(std::string_view k) {
  before_value();
  escape(k);
  os_ << " : ";
  after_key_ = true;
}

void JsonWriter::value(std::int64_t v) {
  before_value();
  os_ << v;
}

void JsonWriter::value(double v) {
  before_value();
  std::array<char, 64> buf{};
  auto [p, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  std::string_view s(buf.data(), static_cast<std::size_t>(p - buf.data()));
  os_ << s;
  // Keep it a JSON number that reads back as a double.
  if (s.find_first_of(".eE") == std::string_view::npos &&
      s.find_first_of("ni") == std::string_view::npos)
    os_ << ".0";
}

void JsonWriter::value(bool v) {
  before_value();
  os_ << (v ? "true" : "false");
}

void JsonWriter::value(std::string_view v) {
  before_value();
  escape(v);
}

void JsonWriter::null() {
  before_value();
  os_ << "null";
}

void JsonWriter::escape(std::string_view s) {
  os_ << '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        os_ << "\\\"";
        break;
      case '\\':
        os_ << "\\\\";
        break;
      case '\n':
        os_ << "\\n";
        break;
      case '\r':
        os_ << "\\r";
        break;
      case '\t':
        os_ << "\\t";
        break;
      default:
        if (c < 0x20) {
          static const char* hex = "0123456789abcdef";
          os_ << "\\u00" << hex[c >> 4] << hex[c & 15];
        } else {
          os_ << static_cast<char>(c);
        }
    }
  }
  os_ << '"';
}

}  // namespace gemini::ir
