#pragma once
// Resources bounded before they are taken. A run whose memory is sized by
// its input (a model's tensors, a functional simulation's L2 per core)
// computes what it will need first and refuses, saying what was asked,
// when that exceeds its limit: by default the memory the machine has
// available, or what --memory-limit says.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gemini::ir {

// The largest L2, WL0 or --buffersize a configuration may name (1 TiB).
inline constexpr std::int64_t kMaxMemoryBytes = std::int64_t{1} << 40;

// MemAvailable of /proc/meminfo, else the physical memory; at least 1.
std::int64_t available_memory_bytes();

// "1073741824", "512M", "16G", "1.5GiB", "2T" (K, M, G, T: powers of 1024,
// with or without "iB" or "B"); nullopt for anything else, or 0 bytes, or
// more than 2^62.
std::optional<std::int64_t> parse_byte_size(std::string_view s);

// "1.5 GiB", "512 KiB", "100 bytes".
std::string format_bytes(std::int64_t bytes);

// The limit a run checks against: `bytes`, or when 0 the machine's
// available memory at the time of the check.
struct MemoryLimit {
  std::int64_t bytes = 0;
  std::int64_t resolve() const { return bytes > 0 ? bytes : available_memory_bytes(); }
  std::string describe()
      const;  // "the machine's available memory (12.3 GiB)" or "--memory-limit 4.0 GiB"
};

// Nullopt when `needed` bytes (nullopt: more than an int64 counts) fit the
// limit; else what to print: "<what> needs 2.0 TiB (<detail>), more than
// the machine's available memory (12.3 GiB); --memory-limit sets another
// limit".
std::optional<std::string> exceeds(const MemoryLimit& limit, std::optional<std::int64_t> needed,
                                   const std::string& what, const std::string& detail);

}  // namespace gemini::ir
