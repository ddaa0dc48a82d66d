#pragma once
// JsonWriter: a small streaming JSON emitter (no DOM), pretty-printed with
// two-space indentation and short arrays of numbers kept on one line. Output
// is deterministic: the same calls give the same bytes. It formats into its
// own buffer and hands the stream large blocks (iostream's per-call cost
// dominated writing 100 MB files); flush() or the destructor writes the rest.

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gemini::ir {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& os) : os_(os) { buf_.reserve(kFlushAt + 4096); }
  ~JsonWriter() { flush(); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;
  void flush();

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view k);
  void value(std::int64_t v);
  void value(double v);  // a non-finite one (inf, NaN) as null
  void value(bool v);
  void value(std::string_view v);
  void value(const char* v) { value(std::string_view(v)); }
  void null();
  // A one-line array of integers.
  template <typename It>
  void int_array(It first, It last) {
    before_value();
    buf_ += '[';
    for (It it = first; it != last; ++it) {
      buf_ += it == first ? " " : ", ";
      put_int(static_cast<std::int64_t>(*it));
    }
    buf_ += first == last ? "]" : " ]";
    maybe_flush();
  }

 private:
  static constexpr std::size_t kFlushAt = 1 << 20;
  void put_int(std::int64_t v);
  void maybe_flush() {
    if (buf_.size() >= kFlushAt) flush();
  }
  std::string buf_;
  void before_value();
  void newline();
  void escape(std::string_view s);
  std::ostream& os_;
  struct Level {
    bool object;
    bool empty = true;
  };
  std::vector<Level> stack_;
  bool after_key_ = false;
};

}  // namespace gemini::ir
