#include "gemini/ir/json_document.h"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/value_stack.hpp>
#include <set>

#include "value_reader.h"

namespace gemini::ir {
namespace json = boost::json;

std::string json_pointer_token(std::string_view key) {
  std::string s;
  s.reserve(key.size());
  for (char c : key) {
    if (c == '~') {
      s += "~0";
    } else if (c == '/') {
      s += "~1";
    } else {
      s += c;
    }
  }
  return s;
}

namespace {

// Builds the value as boost::json's own parser does (a value_stack), and
// keeps, per open container, the keys seen (objects) or the element index
// (arrays), to name a repeated key by its pointer.
class Handler {
 public:
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  explicit Handler(std::vector<std::string>& duplicates) : duplicates_(duplicates) {}

  bool on_document_begin(json::error_code&) {
    st_.reset();
    return true;
  }
  bool on_document_end(json::error_code&) { return true; }
  bool on_object_begin(json::error_code&) {
    frames_.push_back(Frame{true, {}, {}, 0});
    return true;
  }
  bool on_object_end(std::size_t n, json::error_code&) {
    frames_.pop_back();
    st_.push_object(n);
    end_value();
    return true;
  }
  bool on_array_begin(json::error_code&) {
    frames_.push_back(Frame{false, {}, {}, 0});
    return true;
  }
  bool on_array_end(std::size_t n, json::error_code&) {
    frames_.pop_back();
    st_.push_array(n);
    end_value();
    return true;
  }
  bool on_key_part(json::string_view s, std::size_t, json::error_code&) {
    key_.append(s.data(), s.size());
    st_.push_chars(s);
    return true;
  }
  bool on_key(json::string_view s, std::size_t, json::error_code&) {
    key_.append(s.data(), s.size());
    st_.push_key(s);
    Frame& f = frames_.back();
    if (!f.keys.insert(key_).second) {
      f.key = key_;
      duplicates_.push_back(pointer());
    }
    f.key = std::move(key_);
    key_.clear();
    return true;
  }
  bool on_string_part(json::string_view s, std::size_t, json::error_code&) {
    st_.push_chars(s);
    return true;
  }
  bool on_string(json::string_view s, std::size_t, json::error_code&) {
    st_.push_string(s);
    end_value();
    return true;
  }
  bool on_number_part(json::string_view, json::error_code&) { return true; }
  bool on_int64(std::int64_t i, json::string_view, json::error_code&) {
    st_.push_int64(i);
    end_value();
    return true;
  }
  bool on_uint64(std::uint64_t u, json::string_view, json::error_code&) {
    st_.push_uint64(u);
    end_value();
    return true;
  }
  bool on_double(double d, json::string_view, json::error_code&) {
    st_.push_double(d);
    end_value();
    return true;
  }
  bool on_bool(bool b, json::error_code&) {
    st_.push_bool(b);
    end_value();
    return true;
  }
  bool on_null(json::error_code&) {
    st_.push_null();
    end_value();
    return true;
  }
  bool on_comment_part(json::string_view, json::error_code&) { return true; }
  bool on_comment(json::string_view, json::error_code&) { return true; }

  json::value release() { return st_.release(); }

 private:
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;        // objects: the key whose value is being read
    std::size_t index = 0;  // arrays: the element being read
  };
  void end_value() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }
  std::string pointer() const {
    std::string p;
    for (const Frame& f : frames_) {
      p += '/';
      p += f.object ? json_pointer_token(f.key) : std::to_string(f.index);
    }
    return p;
  }

  json::value_stack st_;
  std::vector<Frame> frames_;
  std::string key_;
  std::vector<std::string>& duplicates_;
};

}  // namespace

JsonDocument parse_json_document(std::string_view text) {
  JsonDocument doc;
  json::parse_options po;
  po.max_depth = 64;
  json::basic_parser<Handler> p(po, doc.duplicate_keys);
  json::error_code ec;
  const std::size_t n = p.write_some(false, text.data(), text.size(), ec);
  std::size_t at = n;
  if (!ec) {
    // Only whitespace may follow the document.
    while (at < text.size() &&
           (text[at] == ' ' || text[at] == '\n' || text[at] == '\r' || text[at] == '\t'))
      ++at;
    if (at == text.size()) {
      doc.value = p.handler().release();
      return doc;
    }
    doc.error = "more data after the document";
  } else {
    doc.error = ec.message();
  }
  doc.duplicate_keys.clear();
  doc.line = 1;
  doc.column = 1;
  for (std::size_t i = 0; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++doc.line;
      doc.column = 1;
    } else {
      ++doc.column;
    }
  }
  return doc;
}

}  // namespace gemini::ir
