#include "gemini/assembler/text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>

#include "little_endian.h"

namespace gemini::assembler {

namespace {
// Decimal digits of 00..99, for the printer's numbers.
constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
}  // namespace

char* write_int(char* p, std::int64_t v) {
  if (v < 0) {
    // The magnitude as unsigned: -INT64_MIN does not fit an int64.
    *p++ = '-';
    return std::to_chars(p, p + kIntTextBytes,
                         static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(v))
        .ptr;
  }
  if (v < 10) {
    *p = static_cast<char>('0' + v);
    return p + 1;
  }
  if (v < 100) {
    std::memcpy(p, kDigitPairs + 2 * v, 2);
    return p + 2;
  }
  // Most values of a listing (addresses, sizes, ids) have 3 to 8 digits:
  // written back to front in pairs once their count is known.
  auto u = static_cast<std::uint64_t>(v);
  if (u >= 100000000) return std::to_chars(p, p + kIntTextBytes, u).ptr;
  const int digits = u < 1000       ? 3
                     : u < 10000    ? 4
                     : u < 100000   ? 5
                     : u < 1000000  ? 6
                     : u < 10000000 ? 7
                                    : 8;
  char* end = p + digits;
  char* q = end;
  while (u >= 100) {
    q -= 2;
    std::memcpy(q, kDigitPairs + 2 * (u % 100), 2);
    u /= 100;
  }
  if (u >= 10) {
    q -= 2;
    std::memcpy(q, kDigitPairs + 2 * u, 2);
  } else {
    *--q = static_cast<char>('0' + u);
  }
  return end;
}

void append_int(std::string& out, std::int64_t v) {
  char buf[kIntTextBytes];
  out.append(buf, static_cast<std::size_t>(write_int(buf, v) - buf));
}

namespace {

// The longest text of a field's value: a 20-character number (an int64
// with its sign) or enumeration name, or a box of eight of them.
constexpr std::size_t kValueBytes = kIntTextBytes;
constexpr std::size_t kBoxBytes = 2 * (2 + 4 * kValueBytes + 3) + 1;
constexpr std::size_t kLineBytes = 4096;
// The padded length of a mnemonic or of a " name=" before a value.
constexpr std::size_t kPrefixBytes = 32;

// Every opcode's longest printed line fits kLineBytes (the table is fixed,
// so this holds or fails on the first print).
bool lines_fit() {
  for (const OpInfo& op : all_ops()) {
    std::size_t n = op.mnemonic.size() + 3 + kValueBytes;  // "q=<engine>"
    for (const Field& f : op.fields)
      n += 2 + f.name.size() + (f.type == FieldType::box ? kBoxBytes : kValueBytes);
    n += 1 + op.flag_name.size() + 4 + kValueBytes;   // flag, " wl=<id>"
    if (n + kPrefixBytes > kLineBytes) return false;  // print_raw's fixed-size copies
  }
  return true;
}

// Decimal with an optional '-', or hexadecimal after "0x" (no sign).
std::optional<std::int64_t> parse_int(std::string_view s) {
  std::int64_t v = 0;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
    if (s.front() == '-') return std::nullopt;  // from_chars would take "0x-5"
  }
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::int64_t> parse_value(const Field& f, std::string_view s) {
  const auto names = enum_names(f.type);
  if (names.empty()) return parse_int(s);
  const auto it = std::find(names.begin(), names.end(), s);
  if (it == names.end()) return std::nullopt;
  return static_cast<std::int64_t>(it - names.begin());
}

// A box's text "[n,c,h,w]:[n,c,h,w]" as written: its corners in 64 bits
// (lo, hi), range-checked against the field before they become an ir::Box.
using BoxText = std::array<std::array<std::int64_t, 4>, 2>;
std::optional<BoxText> parse_box(std::string_view s) {
  BoxText b{};
  auto group = [&](std::string_view g, std::array<std::int64_t, 4>& out) {
    if (g.size() < 2 || g.front() != '[' || g.back() != ']') return false;
    g = g.substr(1, g.size() - 2);
    for (int d = 0; d < 4; ++d) {
      const auto comma = g.find(',');
      if ((d < 3) != (comma != std::string_view::npos)) return false;
      auto v = parse_int(g.substr(0, comma));
      if (!v) return false;
      out[d] = *v;
      g = comma == std::string_view::npos ? std::string_view() : g.substr(comma + 1);
    }
    return true;
  };
  const auto colon = s.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  if (!group(s.substr(0, colon), b[0]) || !group(s.substr(colon + 1), b[1])) return std::nullopt;
  return b;
}

// How an opcode's line is printed, worked out once from the table (the
// printer writes tens of MB of listings): the text before each value
// (" name="), copied as one fixed-size block, and where and how its value
// is read and named.
struct FieldPrint {
  std::array<char, kPrefixBytes> prefix{};
  std::size_t prefix_len = 0;
  std::size_t offset = 0;  // into the payload
  std::size_t width = 0;
  FieldType type = FieldType::u8;
  bool optional = false;                    // left out when 0
  std::span<const std::string_view> names;  // enumerations: value -> name
};
struct OpPrint {
  bool known = false;
  std::array<char, kPrefixBytes> head{};  // the mnemonic
  std::size_t head_len = 0;
  bool queue = false;  // prints " q=<engine>"
  std::vector<FieldPrint> fields;
  std::string_view flag;
};

std::array<char, kPrefixBytes> padded(std::string_view a, std::string_view b = {},
                                      std::string_view c = {}) {
  std::array<char, kPrefixBytes> out{};
  if (a.size() + b.size() + c.size() > kPrefixBytes) {
    std::fprintf(stderr, "gemini: internal error: field name \"%s\" too long to print\n",
                 std::string(b).c_str());
    std::abort();
  }
  std::size_t n = 0;
  for (std::string_view piece : {a, b, c})
    for (char ch : piece) out[n++] = ch;
  return out;
}

const std::array<OpPrint, 256>& print_plans() {
  static const std::array<OpPrint, 256> plans = [] {
    std::array<OpPrint, 256> t{};
    for (const OpInfo& op : all_ops()) {
      OpPrint& p = t[static_cast<std::size_t>(op.op)];
      p.known = true;
      p.head = padded(op.mnemonic);
      p.head_len = op.mnemonic.size();
      p.queue = op.engine == Engine::kCount;
      p.flag = op.flag_name;
      for (const Field& f : op.fields) {
        FieldPrint x;
        x.prefix = padded(" ", f.name, "=");
        x.prefix_len = f.name.size() + 2;
        x.offset = f.offset - kHeaderBytes;
        x.width = field_width(f.type);
        x.type = f.type;
        x.optional = f.optional;
        x.names = enum_names(f.type);
        p.fields.push_back(x);
      }
    }
    return t;
  }();
  return plans;
}

// Copies s to p (no terminator); returns the end.
char* put_text(char* p, std::string_view s) { return std::copy(s.begin(), s.end(), p); }

// The text of `in` written at p, which has room for kLineBytes; the end.
char* print_raw(char* p, const Instr& in) {
  static const bool fit = lines_fit();
  if (!fit) {
    std::fprintf(stderr, "gemini: internal error: an instruction's text can exceed %zu bytes\n",
                 kLineBytes);
    std::abort();
  }
  const OpPrint& op = print_plans()[static_cast<std::size_t>(in.op)];
  if (!op.known) {
    std::fprintf(stderr, "gemini: internal error: printing opcode 0x%02x, which has no entry\n",
                 static_cast<unsigned>(in.op));
    std::abort();
  }
  // Fixed-size copies of the padded prefixes overrun what a line needs by
  // less than kPrefixBytes; lines_fit() leaves that much room.
  std::memcpy(p, op.head.data(), kPrefixBytes);
  p += op.head_len;
  if (op.queue) {
    p = put_text(p, " q=");
    p = put_text(p, to_string(in.queue));
  }
  const std::uint8_t* payload = in.payload.data();
  for (const FieldPrint& f : op.fields) {
    const std::uint8_t* at = payload + f.offset;
    if (f.optional && detail::load_le(at, f.width) == 0) continue;
    std::memcpy(p, f.prefix.data(), kPrefixBytes);
    p += f.prefix_len;
    if (f.type == FieldType::box) {
      *p++ = '[';
      for (std::size_t k = 0; k < 8; ++k) {
        if (k == 4) {
          p = put_text(p, "]:[");
        } else if (k != 0) {
          *p++ = ',';
        }
        p = write_int(p, static_cast<std::int64_t>(detail::load_le(at + 2 * k, 2)));
      }
      *p++ = ']';
      continue;
    }
    const std::uint64_t raw = detail::load_le(at, f.width);
    const std::int64_t v = f.type == FieldType::i32
                               ? static_cast<std::int32_t>(static_cast<std::uint32_t>(raw))
                               : static_cast<std::int64_t>(raw);
    if (v >= 0 && static_cast<std::uint64_t>(v) < f.names.size()) {
      p = put_text(p, f.names[v]);
    } else {
      p = write_int(p, v);
    }
  }
  if (in.flags & 1) {
    *p++ = ' ';
    p = put_text(p, op.flag);
  }
  if (in.workload != 0xffffffffu) {
    p = write_int(put_text(p, " wl="), in.workload);
  }
  return p;
}

}  // namespace

void print_to(std::string& out, const Instr& in) {
  std::array<char, kLineBytes> buf;
  out.append(buf.data(), static_cast<std::size_t>(print_raw(buf.data(), in) - buf.data()));
}

std::string print(const Instr& in) {
  std::string s;
  print_to(s, in);
  return s;
}

std::string print_program(const CoreProgram& p, const CommentFn& comment) {
  if (!comment) return print_program_to(p, {});
  std::string text;  // the last instruction's comment
  return print_program_to(p, [&](char* at, std::size_t room, const Instr& in) {
    if (text.empty()) text = comment(in);
    const std::size_t n = text.size();
    if (n <= room) {
      put_text(at, text);
      text.clear();
    }
    return n;  // more than `room`: called again for the same instruction
  });
}

namespace {

// The buffer lines are printed into: sized once (and grown only for a
// line longer than what is left of it), written through a pointer, its
// first `used` bytes the text so far.
class LineBuffer {
 public:
  // Not zeroed: every byte handed out is written before it is read (a
  // listing's chunk buffer is a quarter MB per core).
  explicit LineBuffer(std::size_t size) : buf_(new char[size]), size_(size) {}
  char* at() { return buf_.get() + used_; }
  std::size_t room() const { return size_ - used_; }
  void commit(const char* end) { used_ = static_cast<std::size_t>(end - buf_.get()); }
  void grow(std::size_t need) {
    const std::size_t size = std::max(size_ * 2, used_ + need);
    std::unique_ptr<char[]> bigger(new char[size]);
    std::memcpy(bigger.get(), buf_.get(), used_);
    buf_ = std::move(bigger);
    size_ = size;
  }
  std::string_view text() const { return {buf_.get(), used_}; }
  std::size_t used() const { return used_; }
  void clear() { used_ = 0; }
  std::string take() const { return std::string(text()); }

 private:
  std::unique_ptr<char[]> buf_;
  std::size_t size_;
  std::size_t used_ = 0;
};

// Room kept for a comment before its writer is asked (most are far
// shorter; a longer one asks for more).
constexpr std::size_t kCommentRoom = 256;

// The program's text printed into `out`; with a sink, each time `out`
// holds `chunk` bytes or more it is handed over and emptied (whole lines),
// and what is left at the end is handed over too.
bool print_lines(const CoreProgram& p, const CommentWriter& comment, LineBuffer& out,
                 const TextSink* sink, std::size_t chunk) {
  // Room for `need` more bytes: what is printed is handed to the sink
  // first where there is one, else (or if that is not enough) the buffer
  // grows.
  auto make_room = [&](std::size_t need) {
    if (out.room() >= need) return true;
    if (sink && out.used() > 0) {
      if (!(*sink)(out.text())) return false;
      out.clear();
      if (out.room() >= need) return true;
    }
    out.grow(need);
    return true;
  };
  constexpr std::string_view kSeparator = "  ; ";
  if (!make_room(kIntTextBytes + 8)) return false;
  char* end = write_int(put_text(out.at(), ".core "), p.core_id);
  *end++ = '\n';
  out.commit(end);
  for (const Instr& in : p.instrs) {
    if (!make_room(kLineBytes + kSeparator.size() + kCommentRoom + 1)) return false;
    char* line = out.at();
    end = print_raw(line, in);
    if (comment) {
      char* text = end + kSeparator.size();
      // The room after the separator, less the newline.
      std::size_t room = out.room() - static_cast<std::size_t>(text - line) - 1;
      std::size_t n = comment(text, room, in);
      if (n > room) {
        // A long comment: room for the whole line, and the line again.
        const std::size_t need = kLineBytes + kSeparator.size() + n + 1;
        if (!make_room(need)) return false;
        line = out.at();
        end = print_raw(line, in);
        text = end + kSeparator.size();
        room = out.room() - static_cast<std::size_t>(text - line) - 1;
        n = comment(text, room, in);
        if (n > room) {
          std::fprintf(stderr, "gemini: internal error: a comment asked for %zu bytes, then more\n",
                       need);
          std::abort();
        }
      }
      if (n > 0) end = put_text(end, kSeparator) + n;
    }
    *end++ = '\n';
    out.commit(end);
    if (sink && out.used() >= chunk) {
      if (!(*sink)(out.text())) return false;
      out.clear();
    }
  }
  return !sink || out.used() == 0 || (*sink)(out.text());
}

}  // namespace

std::string print_program_to(const CoreProgram& p, const CommentWriter& comment) {
  LineBuffer out(p.instrs.size() * 200 + kLineBytes + kCommentRoom + 64);
  print_lines(p, comment, out, nullptr, 0);
  return out.take();
}

bool print_program_chunked(const CoreProgram& p, const CommentWriter& comment, const TextSink& sink,
                           std::size_t chunk) {
  // A line is far shorter than the margin, so the buffer keeps its size
  // unless a comment is longer than that.
  LineBuffer out(std::min<std::size_t>(chunk, std::size_t{1} << 30) + 2 * kLineBytes +
                 kCommentRoom);
  return print_lines(p, comment, out, &sink, chunk);
}

std::optional<Instr> parse_instr(std::string_view line, ParseError& err) {
  // Tokens separated by blanks; each remembers its column (1-based).
  std::vector<std::pair<std::string_view, std::size_t>> toks;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size() || line[i] == ';' || line[i] == '#') break;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != ';') ++i;
    toks.emplace_back(line.substr(start, i - start), start + 1);
  }
  auto fail = [&](std::size_t col, std::string msg) -> std::optional<Instr> {
    err.column = col;
    err.message = std::move(msg);
    return std::nullopt;
  };
  if (toks.empty()) return fail(1, "expected an instruction");
  const OpInfo* op = op_info(toks[0].first);
  if (!op) return fail(toks[0].second, "unknown mnemonic \"" + std::string(toks[0].first) + "\"");
  Instr in;
  in.op = op->op;
  in.queue = op->engine == Engine::kCount ? Engine::ctrl : op->engine;
  std::vector<bool> seen(op->fields.size(), false);
  bool saw_queue = false, saw_workload = false;
  for (std::size_t k = 1; k < toks.size(); ++k) {
    const auto [tok, col] = toks[k];
    if (!op->flag_name.empty() && tok == op->flag_name) {
      if (in.flags & 1) return fail(col, "flag \"" + std::string(tok) + "\" given twice");
      in.flags |= 1;
      continue;
    }
    const auto eq = tok.find('=');
    if (eq == std::string_view::npos)
      return fail(col, "expected name=value, got \"" + std::string(tok) + "\"");
    const std::string_view name = tok.substr(0, eq), value = tok.substr(eq + 1);
    const std::size_t vcol = col + eq + 1;
    if (name == "q") {
      if (op->engine != Engine::kCount)
        return fail(col, std::string(op->mnemonic) + " has a fixed queue");
      if (saw_queue) return fail(col, "field \"q\" given twice");
      auto e = engine_from(value);
      if (!e) return fail(vcol, "unknown queue \"" + std::string(value) + "\"");
      in.queue = *e;
      saw_queue = true;
      continue;
    }
    if (name == "wl") {
      if (saw_workload) return fail(col, "field \"wl\" given twice");
      saw_workload = true;
      auto v = parse_int(value);
      if (!v || *v < 0 || *v > 0xfffffffeLL) return fail(vcol, "expected a workload id");
      in.workload = static_cast<std::uint32_t>(*v);
      continue;
    }
    auto slot = find_field(*op, name);
    if (!slot)
      return fail(col, std::string(op->mnemonic) + " has no field \"" + std::string(name) + "\"");
    const std::size_t fi = static_cast<std::size_t>(slot->field - op->fields.data());
    if (seen[fi]) return fail(col, "field \"" + std::string(name) + "\" given twice");
    seen[fi] = true;
    if (slot->is_box) {
      auto b = parse_box(value);
      if (!b) return fail(vcol, "expected a box [n,c,h,w]:[n,c,h,w]");
      ir::Box box;
      for (std::size_t d = 0; d < 4; ++d) {
        for (const std::int64_t v : {(*b)[0][d], (*b)[1][d]})
          if (v < slot->field->min || v > slot->field->max)
            return fail(vcol,
                        "box coordinate outside [0, " + std::to_string(slot->field->max) + "]");
        box.lo[d] = static_cast<std::int32_t>((*b)[0][d]);  // in the field's range: fits
        box.hi[d] = static_cast<std::int32_t>((*b)[1][d]);
      }
      in.set_box_at(slot->index, box);
      continue;
    }
    auto v = parse_value(*slot->field, value);
    if (!v) return fail(vcol, "bad value \"" + std::string(value) + "\" for " + std::string(name));
    if (*v < slot->field->min || *v > slot->field->max)
      return fail(vcol, std::string(name) + "=" + std::to_string(*v) + " outside [" +
                            std::to_string(slot->field->min) + ", " +
                            std::to_string(slot->field->max) + "]");
    in.set_scalar(slot->index, *v);
  }
  if (op->engine == Engine::kCount && !saw_queue)
    return fail(toks[0].second, std::string(op->mnemonic) + " needs q=<queue>");
  for (std::size_t f = 0; f < op->fields.size(); ++f)
    if (!seen[f] && !op->fields[f].optional)
      return fail(line.size() + 1, std::string(op->mnemonic) + " is missing field \"" +
                                       std::string(op->fields[f].name) + "\"");
  return in;
}

std::optional<CoreProgram> parse_program(std::string_view text, ParseError& err) {
  CoreProgram p;
  bool have_core = false;
  std::size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == ';' || line[first] == '#') continue;
    if (line.substr(first).starts_with(".core")) {
      auto rest = line.substr(first + 5);
      const auto s = rest.find_first_not_of(" \t");
      const auto end = s == std::string_view::npos ? s : rest.find_first_of(" \t;#", s);
      auto v =
          s == std::string_view::npos || s == 0 ? std::nullopt : parse_int(rest.substr(s, end - s));
      if (!v || *v < 0 || *v > kMaxCoreId || have_core) {
        err = {line_no, first + 1,
               have_core
                   ? "a second .core directive"
                   : "expected .core <id> with an id in [0, " + std::to_string(kMaxCoreId) + "]"};
        return std::nullopt;
      }
      // Only blanks or a comment may follow.
      const auto after = end == std::string_view::npos ? end : rest.find_first_not_of(" \t", end);
      if (after != std::string_view::npos && rest[after] != ';' && rest[after] != '#') {
        err = {line_no, first + 5 + after + 1,
               "unexpected \"" + std::string(rest.substr(after)) + "\" after .core <id>"};
        return std::nullopt;
      }
      p.core_id = static_cast<std::int32_t>(*v);
      have_core = true;
      continue;
    }
    if (!have_core) {
      err = {line_no, first + 1, "expected .core <id> before the first instruction"};
      return std::nullopt;
    }
    auto in = parse_instr(line, err);
    if (!in) {
      err.line = line_no;
      return std::nullopt;
    }
    p.instrs.push_back(*in);
  }
  if (!have_core) {
    err = {line_no == 0 ? 1 : line_no, 1, "expected .core <id>"};
    return std::nullopt;
  }
  return p;
}

}  // namespace gemini::assembler
