#pragma once
// ByteSource: reads a file in chunks, inflating it on the fly when it starts
// with the gzip magic bytes (1f 8b), whatever its name. Multi-member gzip
// streams are read through. Errors are returned, never thrown.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace gemini::ir::detail {

class ByteSource {
 public:
  enum class Status { ok, end, io_error, gzip_error };

  virtual ~ByteSource() = default;
  // Fills up to `cap` bytes into `buf`; `n` is set to the count. Returns `end`
  // (with n == 0) once everything was delivered.
  virtual Status read(char* buf, std::size_t cap, std::size_t& n) = 0;
  // What went wrong, for io_error / gzip_error.
  const std::string& error() const { return error_; }
  bool compressed() const { return compressed_; }
  // Compressed bytes consumed so far (for gzip errors).
  std::uint64_t raw_offset() const { return raw_offset_; }

  // Opens `path`; on failure returns nullptr and sets `error`.
  static std::unique_ptr<ByteSource> open(const std::string& path, std::string& error);

 protected:
  std::string error_;
  bool compressed_ = false;
  std::uint64_t raw_offset_ = 0;
};

}  // namespace gemini::ir::detail
