#include "gemini/ir/file_bytes.h"

#include "byte_source.h"

namespace gemini::ir {

bool read_file_bytes(const std::string& path, std::string& out, std::string& error) {
  auto src = detail::ByteSource::open(path, error);
  if (!src) return false;
  out.clear();
  std::string chunk(1 << 16, '\0');
  for (;;) {
    std::size_t n = 0;
    const auto st = src->read(chunk.data(), chunk.size(), n);
    out.append(chunk.data(), n);
    if (out.size() > kMaxFileBytes) {
      // A few KB of gzip can inflate to gigabytes: bounded before it is taken.
      error = "it holds (or inflates to) more than " + std::to_string(kMaxFileBytes >> 20) +
              " MiB, more than a side file of gemini's may";
      return false;
    }
    if (st == detail::ByteSource::Status::end) return true;
    if (st != detail::ByteSource::Status::ok) {
      error = src->error();
      return false;
    }
  }
}

}  // namespace gemini::ir
