#pragma once
// Reads a whole file into memory, inflating it when it starts with the gzip
// magic bytes (whatever its name): for the small side files that are parsed
// in one piece (layer-semantics model files), not for IR files, which the
// loader streams.

#include <string>

namespace gemini::ir {

// False with `error` ("cannot open ...", "corrupt gzip stream ...").
bool read_file_bytes(const std::string& path, std::string& out, std::string& error);

}  // namespace gemini::ir
