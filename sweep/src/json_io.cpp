#include "json_io.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/stream_parser.hpp>
#include <boost/uuid/name_generator_sha1.hpp>
#include <boost/uuid/uuid_io.hpp>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "gemini/ir/json_writer.h"

namespace gemini::sweep::detail {
namespace json = boost::json;

bool read_text(const std::string& path, std::string& text, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

bool read_json(const std::string& path, json::value& v, std::string& error) {
  std::string text;
  if (!read_text(path, text, error)) return false;
  json::error_code ec;
  json::stream_parser p;
  const std::size_t n = p.write_some(text.data(), text.size(), ec);
  if (!ec) p.finish(ec);
  if (ec) {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < n && i < text.size(); ++i) {
      col = text[i] == '\n' ? 1 : col + 1;
      line += text[i] == '\n';
    }
    error = path + ":" + std::to_string(line) + ":" + std::to_string(col) +
            ": not valid JSON: " + ec.message();
    return false;
  }
  v = p.release();
  return true;
}

bool write_atomic(const std::string& path, const std::string& text, std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream os(tmp, std::ios::binary);
    os << text;
    os.flush();
    if (!os) {
      error = path + ": cannot write";
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = path + ": cannot rename " + tmp + " into place";
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

namespace {
void emit(ir::JsonWriter& w, const json::value& v) {
  switch (v.kind()) {
    case json::kind::object:
      w.begin_object();
      for (const auto& kv : v.get_object()) {
        w.key(kv.key());
        emit(w, kv.value());
      }
      w.end_object();
      break;
    case json::kind::array:
      w.begin_array();
      for (const json::value& e : v.get_array()) emit(w, e);
      w.end_array();
      break;
    case json::kind::string:
      w.value(std::string_view(v.get_string()));
      break;
    case json::kind::int64:
      w.value(v.get_int64());
      break;
    case json::kind::uint64:
      if (v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
        w.value(static_cast<std::int64_t>(v.get_uint64()));
      else
        w.value(static_cast<double>(v.get_uint64()));
      break;
    case json::kind::double_:
      w.value(v.get_double());
      break;
    case json::kind::bool_:
      w.value(v.get_bool());
      break;
    case json::kind::null:
      w.null();
      break;
  }
}

void canon(std::string& out, const json::value& v) {
  if (v.is_object()) {
    std::vector<const json::key_value_pair*> kvs;
    for (const auto& kv : v.get_object()) kvs.push_back(&kv);
    std::sort(kvs.begin(), kvs.end(), [](auto* a, auto* b) { return a->key() < b->key(); });
    out += '{';
    for (std::size_t i = 0; i < kvs.size(); ++i) {
      if (i) out += ',';
      out += json::serialize(json::string(kvs[i]->key()));
      out += ':';
      canon(out, kvs[i]->value());
    }
    out += '}';
  } else if (v.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < v.get_array().size(); ++i) {
      if (i) out += ',';
      canon(out, v.get_array()[i]);
    }
    out += ']';
  } else {
    out += json::serialize(v);
  }
}
}  // namespace

std::string pretty(const json::value& v) {
  std::ostringstream os;
  {
    ir::JsonWriter w(os);
    emit(w, v);
  }
  os << "\n";
  return os.str();
}

std::string canonical(const json::value& v) {
  std::string out;
  canon(out, v);
  return out;
}

std::string stable_id(const std::string& text) {
  // A fixed namespace for gemini sweep points (any constant UUID would do).
  static const boost::uuids::uuid ns = {{0x6d, 0x1c, 0x2b, 0x47, 0x8e, 0x55, 0x4a, 0x3f, 0x9b, 0x02,
                                         0x51, 0xc7, 0x3e, 0x90, 0xa4, 0x18}};
  const boost::uuids::uuid u = boost::uuids::name_generator_sha1(ns)(text);
  std::string hex = boost::uuids::to_string(u);
  hex.erase(std::remove(hex.begin(), hex.end(), '-'), hex.end());
  return hex.substr(0, 16);
}

std::string file_digest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::vector<char> buf(1 << 20);
  uLong crc = crc32(0L, Z_NULL, 0);
  std::uint64_t size = 0;
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const std::streamsize n = in.gcount();
    if (n <= 0) break;
    crc = crc32(crc, reinterpret_cast<const Bytef*>(buf.data()), static_cast<uInt>(n));
    size += static_cast<std::uint64_t>(n);
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "%08lx", static_cast<unsigned long>(crc));
  return std::to_string(size) + ":" + hex;
}

json::array strings(const std::vector<std::string>& v) {
  json::array a;
  for (const std::string& s : v) a.emplace_back(s);
  return a;
}

std::string cell(const json::value& v) {
  if (v.is_string()) return std::string(v.get_string());
  if (v.is_null()) return "";
  if (v.is_double()) {  // shortest round-trip form: 0.25, 1, 3.8662716463096114
    std::array<char, 64> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v.get_double());
    return std::string(buf.data(), r.ptr);
  }
  return json::serialize(v);
}

}  // namespace gemini::sweep::detail
