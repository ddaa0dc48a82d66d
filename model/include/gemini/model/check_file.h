#pragma once
// One IR file's verdict, as `gemini validate` gives it and the Python
// module's validate() returns it: loaded and checked (ir::load_and_validate),
// then -- with a layer-semantics model, once the file itself is clean -- its
// known quirks corrected and every workload checked against the model
// (correct_and_check), as `asm --model` and `sim --model` do, so that every
// command gives the same verdict on a file.

#include <string>

#include "gemini/ir/diagnostics.h"
#include "gemini/ir/hw_config.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"
#include "gemini/model/network.h"

namespace gemini::model {

enum class Verdict { valid, invalid, unreadable };
const char* to_string(Verdict v);  // "valid", "invalid", "unreadable"

struct FileCheck {
  ir::CheckedFile checked;
  Verdict verdict = Verdict::unreadable;
};

// Checks `path` into `d`; `net` may be null (no semantics).
FileCheck check_ir_file(const std::string& path, const ir::LoadOptions& options,
                        const ir::HardwareConfig& hw, const Network* net, ir::Diagnostics& d);

}  // namespace gemini::model
