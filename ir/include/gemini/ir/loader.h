#pragma once
// Loading an IR file into the model.
//
// The file is read in chunks (gzip is detected by its magic bytes, not by the
// name) and parsed by a SAX parser that materialises one workload or DRAM
// entry at a time, so peak memory stays near the size of the model rather
// than of the text. Both dialects load into the same model (see model.h).
// Every problem goes to `diags`; load() itself never throws on bad input.

#include <optional>
#include <string>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/model.h"

namespace gemini::ir {

struct LoadOptions {
  std::optional<Dialect> dialect;  // force a dialect instead of detecting it
};

enum class LoadStatus : std::uint8_t {
  ok,          // parsed; the model may still carry reported schema errors
  unreadable,  // the file could not be opened or read (exit status 2)
  malformed,   // not JSON / corrupt gzip / not an IR object: no usable model
};

struct LoadResult {
  LoadStatus status = LoadStatus::ok;
  Model model;
  bool compressed = false;
  std::uint64_t bytes = 0;  // decompressed size
};

LoadResult load_file(const std::string& path, Diagnostics& diags, const LoadOptions& opts = {});

}  // namespace gemini::ir
