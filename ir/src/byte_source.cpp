#include "byte_source.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace gemini::ir::detail {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

class PlainSource final : public ByteSource {
 public:
  PlainSource(File f, std::string head) : f_(std::move(f)), head_(std::move(head)) {}
  Status read(char* buf, std::size_t cap, std::size_t& n) override {
    n = 0;
    if (pos_ < head_.size()) {
      n = std::min(cap, head_.size() - pos_);
      std::memcpy(buf, head_.data() + pos_, n);
      pos_ += n;
      return Status::ok;
    }
    n = std::fread(buf, 1, cap, f_.get());
    raw_offset_ += n;
    if (n > 0) return Status::ok;
    if (std::ferror(f_.get())) {
      error_ = std::strerror(errno);
      return Status::io_error;
    }
    return Status::end;
  }

 private:
  File f_;
  std::string head_;  // bytes read to sniff the magic
  std::size_t pos_ = 0;
};

class GzipSource final : public ByteSource {
 public:
  GzipSource(File f, std::string head) : f_(std::move(f)), in_(1 << 18) {
    compressed_ = true;
    std::memcpy(in_.data(), head.data(), head.size());
    zs_.next_in = reinterpret_cast<Bytef*>(in_.data());
    zs_.avail_in = static_cast<uInt>(head.size());
    raw_offset_ = head.size();
    ok_ = inflateInit2(&zs_, 16 + MAX_WBITS) == Z_OK;
  }
  ~GzipSource() override { inflateEnd(&zs_); }

  Status read(char* buf, std::size_t cap, std::size_t& n) override {
    n = 0;
    if (pending_ != Status::ok) return pending_;
    if (!ok_) {
      error_ = "cannot initialise zlib";
      return Status::gzip_error;
    }
    if (done_) return Status::end;
    zs_.next_out = reinterpret_cast<Bytef*>(buf);
    zs_.avail_out = static_cast<uInt>(cap);
    // An error after some bytes were inflated into `buf`: those bytes are
    // delivered first and the error on the next call, so that what was
    // read before it counts (and is parsed).
    auto fail = [&](Status st, std::string why) {
      error_ = std::move(why);
      n = cap - zs_.avail_out;
      if (n == 0) return st;
      pending_ = st;
      return Status::ok;
    };
    while (zs_.avail_out > 0) {
      if (zs_.avail_in == 0) {
        std::size_t got = std::fread(in_.data(), 1, in_.size(), f_.get());
        if (got == 0) {
          if (std::ferror(f_.get())) return fail(Status::io_error, std::strerror(errno));
          if (!member_end_)
            return fail(Status::gzip_error, "gzip stream ends early (truncated file)");
          done_ = true;
          break;
        }
        raw_offset_ += got;
        zs_.next_in = reinterpret_cast<Bytef*>(in_.data());
        zs_.avail_in = static_cast<uInt>(got);
      }
      if (member_end_) {
        // Another gzip member follows (concatenated .gz files are legal).
        if (inflateReset(&zs_) != Z_OK) return fail(Status::gzip_error, "cannot restart zlib");
        member_end_ = false;
      }
      int rc = inflate(&zs_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        member_end_ = true;
      } else if (rc != Z_OK) {
        if (rc == Z_BUF_ERROR && zs_.avail_in == 0) continue;  // needs more input
        return fail(Status::gzip_error, zs_.msg ? zs_.msg : "inflate failed");
      }
    }
    n = cap - zs_.avail_out;
    if (n == 0 && done_) return Status::end;
    return Status::ok;
  }

 private:
  File f_;
  std::vector<char> in_;
  z_stream zs_{};
  bool ok_ = false;
  bool member_end_ = false;
  bool done_ = false;
  Status pending_ = Status::ok;  // an error to report on the next read
};

}  // namespace

std::unique_ptr<ByteSource> ByteSource::open(const std::string& path, std::string& error) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) {
    error = std::strerror(errno);
    return nullptr;
  }
  std::string head(2, '\0');
  std::size_t got = std::fread(head.data(), 1, 2, f.get());
  if (std::ferror(f.get())) {
    error = std::strerror(errno);
    return nullptr;
  }
  head.resize(got);
  if (got == 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
      static_cast<unsigned char>(head[1]) == 0x8b)
    return std::make_unique<GzipSource>(std::move(f), std::move(head));
  return std::make_unique<PlainSource>(std::move(f), std::move(head));
}

}  // namespace gemini::ir::detail
