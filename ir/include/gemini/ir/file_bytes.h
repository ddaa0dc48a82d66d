#pragma once
// Reads a whole file into memory, inflating it when it starts with the gzip
// magic bytes (whatever its name): for the small side files that are parsed
// in one piece (layer-semantics model files), not for IR files, which the
// loader streams.

#include <cstddef>
#include <string>

namespace gemini::ir {

// The most a side file may hold once inflated (1 GiB).
inline constexpr std::size_t kMaxFileBytes = std::size_t{1} << 30;

// False with `error` ("cannot open ...", "corrupt gzip stream ...", more
// than kMaxFileBytes).
bool read_file_bytes(const std::string& path, std::string& out, std::string& error);

}  // namespace gemini::ir
