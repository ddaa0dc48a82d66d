#pragma once
// Shared by the libFuzzer harnesses (docs/fuzzing.md): an input as a file
// the readers that take a path can open (a memfd: nothing touches the
// disk), and the invariant checks that turn a silent wrong answer into a
// crash the fuzzer reports.

#include <cstddef>
#include <cstdint>
#include <string>

namespace gemini::fuzz {

// The bytes as an anonymous in-memory file; path() names it
// (/proc/self/fd/N) until the object is destroyed.
class MemFile {
 public:
  MemFile(const std::uint8_t* data, std::size_t size);
  explicit MemFile(const std::string& bytes)
      : MemFile(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()) {}
  ~MemFile();
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// Aborts with `what` when `ok` is false: a broken invariant is a finding.
void require(bool ok, const char* what);

// With GEMINI_FUZZ_VERBOSE set, prints how far an input got ("simulated:
// 1234 cycles"): to see what a seed or a finding exercises.
void note(const std::string& what);

// A fixture of tests/data (aborts when it cannot be read).
std::string test_data(const std::string& name);

}  // namespace gemini::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
