#include "gemini/assembler/text.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace gemini::assembler {

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<std::size_t>(p - buf));
}

namespace {

constexpr std::string_view kTokenKinds[] = {"data", "credit", "dram"};
constexpr std::string_view kVpOps[] = {"pool_max", "pool_avg", "add", "transpose", "copy"};
constexpr std::string_view kCutModes[] = {"none", "k", "h", "kh"};
constexpr std::string_view kWl0Srcs[] = {"l2", "dram"};

template <std::size_t N>
std::optional<std::int64_t> index_of(const std::string_view (&names)[N], std::string_view s) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == s) return static_cast<std::int64_t>(i);
  return std::nullopt;
}

// Writes a line into a buffer that is known to be large enough for it
// (kLineBytes, checked against the table once).
class LineWriter {
 public:
  explicit LineWriter(char* p) : p_(p) {}
  void put(char c) { *p_++ = c; }
  void put(std::string_view s) {
    std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
  }
  void put_int(std::int64_t v) { p_ = std::to_chars(p_, p_ + 20, v).ptr; }
  char* end() const { return p_; }

 private:
  char* p_;
};

// The longest text of a field's value: a 20-character number (an int64
// with its sign) or enumeration name, or a box of eight of them.
constexpr std::size_t kValueBytes = 20;
constexpr std::size_t kBoxBytes = 2 * (2 + 4 * kValueBytes + 3) + 1;
constexpr std::size_t kLineBytes = 4096;

// Every opcode's longest printed line fits kLineBytes (the table is fixed,
// so this holds or fails on the first print).
bool lines_fit() {
  for (const OpInfo& op : all_ops()) {
    std::size_t n = op.mnemonic.size() + 3 + kValueBytes;  // "q=<engine>"
    for (const Field& f : op.fields)
      n += 2 + f.name.size() + (f.type == FieldType::box ? kBoxBytes : kValueBytes);
    n += 1 + op.flag_name.size() + 4 + kValueBytes;  // flag, " wl=<id>"
    if (n > kLineBytes) return false;
  }
  return true;
}

// A field's value as text: its name for enumerations, else the number.
void put_value(LineWriter& out, const Field& f, std::int64_t v) {
  auto name = [&](auto& names) {
    if (v >= 0 && static_cast<std::size_t>(v) < std::size(names))
      out.put(names[static_cast<std::size_t>(v)]);
    else
      out.put_int(v);
  };
  switch (f.type) {
    case FieldType::engine:
      out.put(to_string(static_cast<Engine>(v)));
      return;
    case FieldType::token_kind:
      return name(kTokenKinds);
    case FieldType::vp_op:
      return name(kVpOps);
    case FieldType::cut_mode:
      return name(kCutModes);
    case FieldType::wl0_src:
      return name(kWl0Srcs);
    case FieldType::loop_order:
      out.put(loop_order_name(static_cast<std::uint8_t>(v)));
      return;
    default:
      out.put_int(v);
  }
}

void put_box(LineWriter& out, const Box& b) {
  out.put('[');
  for (int d = 0; d < 4; ++d) {
    if (d) out.put(',');
    out.put_int(b.lo[d]);
  }
  out.put("]:[");
  for (int d = 0; d < 4; ++d) {
    if (d) out.put(',');
    out.put_int(b.hi[d]);
  }
  out.put(']');
}

std::optional<std::int64_t> parse_int(std::string_view s) {
  std::int64_t v = 0;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::int64_t> parse_value(const Field& f, std::string_view s) {
  switch (f.type) {
    case FieldType::engine: {
      auto e = engine_from(s);
      if (!e) return std::nullopt;
      return static_cast<std::int64_t>(*e);
    }
    case FieldType::token_kind:
      return index_of(kTokenKinds, s);
    case FieldType::vp_op:
      return index_of(kVpOps, s);
    case FieldType::cut_mode:
      return index_of(kCutModes, s);
    case FieldType::wl0_src:
      return index_of(kWl0Srcs, s);
    case FieldType::loop_order: {
      auto i = loop_order_index(s);
      if (!i) return std::nullopt;
      return *i;
    }
    default:
      return parse_int(s);
  }
}

std::optional<Box> parse_box(std::string_view s) {
  Box b;
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
  if (!group(s.substr(0, colon), b.lo) || !group(s.substr(colon + 1), b.hi)) return std::nullopt;
  return b;
}

}  // namespace

void print_to(std::string& out, const Instr& in) {
  static const bool fit = lines_fit();
  if (!fit) {
    std::fprintf(stderr, "gemini: internal error: an instruction's text can exceed %zu bytes\n",
                 kLineBytes);
    std::abort();
  }
  const OpInfo& op = in.info();
  std::array<char, kLineBytes> buf;
  LineWriter w(buf.data());
  w.put(op.mnemonic);
  if (op.engine == Engine::kCount) {
    w.put(" q=");
    w.put(to_string(in.queue));
  }
  for (const Field& f : op.fields) {
    w.put(' ');
    w.put(f.name);
    w.put('=');
    if (f.type == FieldType::box)
      put_box(w, in.box_value(f));
    else
      put_value(w, f, in.value(f));
  }
  if (in.flags & 1) {
    w.put(' ');
    w.put(op.flag_name);
  }
  if (in.workload != 0xffffffffu) {
    w.put(" wl=");
    w.put_int(in.workload);
  }
  out.append(buf.data(), static_cast<std::size_t>(w.end() - buf.data()));
}

std::string print(const Instr& in) {
  std::string s;
  print_to(s, in);
  return s;
}

std::string print_program(const CoreProgram& p, const CommentFn& comment) {
  if (!comment) return print_program_to(p, {});
  return print_program_to(p, [&](std::string& out, const Instr& in) { out += comment(in); });
}

std::string print_program_to(const CoreProgram& p, const AppendCommentFn& comment) {
  std::string out = ".core " + std::to_string(p.core_id) + "\n";
  out.reserve(p.instrs.size() * 200);
  for (const Instr& in : p.instrs) {
    print_to(out, in);
    if (comment) {
      const std::size_t mark = out.size();
      out += "  ; ";
      const std::size_t text = out.size();
      comment(out, in);
      if (out.size() == text) out.resize(mark);  // no comment: no "; "
    }
    out += '\n';
  }
  return out;
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
  bool saw_queue = false;
  for (std::size_t k = 1; k < toks.size(); ++k) {
    const auto [tok, col] = toks[k];
    if (!op->flag_name.empty() && tok == op->flag_name) {
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
      auto e = engine_from(value);
      if (!e) return fail(vcol, "unknown queue \"" + std::string(value) + "\"");
      in.queue = *e;
      saw_queue = true;
      continue;
    }
    if (name == "wl") {
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
      for (int d = 0; d < 4; ++d)
        if (b->lo[d] < slot->field->min || b->lo[d] > slot->field->max ||
            b->hi[d] < slot->field->min || b->hi[d] > slot->field->max)
          return fail(vcol, "box coordinate outside [0, " + std::to_string(slot->field->max) + "]");
      in.set_box_at(slot->index, *b);
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
    if (!seen[f])
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
      auto v = s == std::string_view::npos
                   ? std::nullopt
                   : parse_int(rest.substr(s, rest.find_first_of(" \t;", s) - s));
      if (!v || *v < 0 || *v > 65535 || have_core) {
        err = {line_no, first + 1, have_core ? "a second .core directive" : "expected .core <id>"};
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
