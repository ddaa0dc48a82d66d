#include "gemini/ir/loader.h"

#include <boost/json/basic_parser_impl.hpp>
#include <vector>

#include "builder.h"
#include "byte_source.h"
#include "json_router.h"

namespace gemini::ir {
namespace {

constexpr std::size_t kChunk = 1 << 20;

struct Position {
  std::uint64_t line = 1, column = 1;
  std::string excerpt;
};

// Line and column (1-based, columns in bytes) of a byte offset of the
// (decompressed) stream, with the text around it. Runs only on error.
Position locate(const std::string& path, std::uint64_t offset) {
  Position pos;
  std::string err;
  auto src = detail::ByteSource::open(path, err);
  if (!src) return pos;
  std::vector<char> buf(kChunk);
  std::uint64_t at = 0;
  std::string line;
  bool done = false;
  while (!done) {
    std::size_t n = 0;
    if (src->read(buf.data(), buf.size(), n) != detail::ByteSource::Status::ok) break;
    for (std::size_t i = 0; i < n; ++i, ++at) {
      if (at == offset) {
        pos.excerpt = line.size() > 40 ? line.substr(line.size() - 40) : line;
        pos.excerpt += "<HERE>";
        std::size_t k = i;
        for (int j = 0; j < 20 && k < n && buf[k] != '\n'; ++j, ++k) pos.excerpt += buf[k];
        done = true;
        break;
      }
      if (buf[i] == '\n') {
        ++pos.line;
        pos.column = 1;
        line.clear();
      } else {
        ++pos.column;
        line += buf[i];
        if (line.size() > 4096) line.erase(0, 2048);
      }
    }
  }
  if (!done) pos.excerpt = (line.size() > 40 ? line.substr(line.size() - 40) : line) + "<END>";
  std::string clean;
  for (unsigned char c : pos.excerpt) {
    if (c >= 0x20 && c < 0x7f) {
      clean += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      clean += "\\x";
      clean += hex[c >> 4];
      clean += hex[c & 15];
    }
  }
  pos.excerpt = clean;
  return pos;
}

bool all_space(const char* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (p[i] != ' ' && p[i] != '\n' && p[i] != '\r' && p[i] != '\t') return false;
  return true;
}

}  // namespace

LoadResult load_file(const std::string& path, Diagnostics& diags, const LoadOptions& opts) {
  LoadResult res;
  std::string err;
  auto src = detail::ByteSource::open(path, err);
  if (!src) {
    diags.report(Check::io_error, "", "cannot open: " + err);
    res.status = LoadStatus::unreadable;
    return res;
  }
  res.compressed = src->compressed();

  detail::Builder builder(res.model, diags, opts.dialect);
  boost::json::parse_options po;
  po.max_depth = 64;
  boost::json::basic_parser<detail::JsonRouter> parser(po, res.model.paths, builder);

  std::vector<char> buf(kChunk);
  bool any_value = false;
  boost::json::error_code ec;
  for (;;) {
    std::size_t n = 0;
    const auto st = src->read(buf.data(), buf.size(), n);
    if (st == detail::ByteSource::Status::io_error) {
      diags.report(Check::io_error, "", "read failed: " + src->error());
      res.status = LoadStatus::unreadable;
      return res;
    }
    if (st == detail::ByteSource::Status::gzip_error) {
      diags.report(Check::gzip_corrupt, "",
                   "gzip stream is corrupt after " + std::to_string(src->raw_offset()) +
                       " compressed bytes (" + std::to_string(res.bytes) +
                       " bytes inflated): " + src->error());
      res.status = LoadStatus::malformed;
      return res;
    }
    if (st == detail::ByteSource::Status::end) break;
    if (!any_value && !all_space(buf.data(), n)) any_value = true;
    const std::size_t used = parser.write_some(true, buf.data(), n, ec);
    if (ec) {
      const std::uint64_t at = res.bytes + used;
      Position p = locate(path, at);
      diags.report_at(Check::json_syntax, p.line, p.column,
                      "not valid JSON (" + ec.message() + ")" +
                          (res.compressed ? " in the decompressed stream" : "") + ": " + p.excerpt);
      res.status = LoadStatus::malformed;
      return res;
    }
    res.bytes += n;
  }
  if (!any_value) {
    diags.report(Check::empty_input, "",
                 res.bytes == 0 ? "the file is empty" : "the file holds only whitespace");
    res.status = LoadStatus::malformed;
    return res;
  }
  parser.write_some(false, nullptr, 0, ec);
  if (ec) {
    Position p = locate(path, res.bytes);
    diags.report_at(Check::json_syntax, p.line, p.column,
                    "not valid JSON (" + ec.message() + "): the input ends early" +
                        (res.compressed ? " in the decompressed stream" : "") + ": " + p.excerpt);
    res.status = LoadStatus::malformed;
    return res;
  }
  if (diags.has(Check::top_not_object)) {
    res.status = LoadStatus::malformed;
    return res;
  }
  if (!builder.finish()) res.status = LoadStatus::malformed;
  return res;
}

}  // namespace gemini::ir
