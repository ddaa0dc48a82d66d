#include "fuzz_support.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace gemini::fuzz {

MemFile::MemFile(const std::uint8_t* data, std::size_t size) {
  fd_ = memfd_create("gemini-fuzz", MFD_CLOEXEC);
  require(fd_ >= 0, "memfd_create failed");
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd_, data + done, size - done);
    require(n > 0, "writing the memfd failed");
    done += static_cast<std::size_t>(n);
  }
  path_ = "/proc/self/fd/" + std::to_string(fd_);
}

MemFile::~MemFile() {
  if (fd_ >= 0) ::close(fd_);
}

void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "gemini fuzz: invariant broken: %s\n", what);
  std::abort();
}

void note(const std::string& what) {
  static const bool verbose = std::getenv("GEMINI_FUZZ_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "  %s\n", what.c_str());
}

std::string test_data(const std::string& name) {
  std::ifstream in(std::string(GEMINI_TEST_DATA) + "/" + name, std::ios::binary);
  require(static_cast<bool>(in), "a tests/data fixture cannot be read");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace gemini::fuzz
