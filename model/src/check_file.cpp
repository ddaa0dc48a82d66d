#include "gemini/model/check_file.h"

#include "gemini/model/semantics.h"

namespace gemini::model {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::valid:
      return "valid";
    case Verdict::invalid:
      return "invalid";
    case Verdict::unreadable:
      break;
  }
  return "unreadable";
}

FileCheck check_ir_file(const std::string& path, const ir::LoadOptions& options,
                        const ir::HardwareConfig& hw, const Network* net, ir::Diagnostics& d) {
  FileCheck out;
  out.checked = ir::load_and_validate(path, options, hw, d);
  // Against the layer semantics: once the file itself is clean, the known
  // quirks are corrected (and counted) and every workload checked. Where
  // the corrections changed the structure, the IR checks run again on the
  // corrected model (correct_and_check), as `asm --model` does.
  if (net && out.checked.semantic_checks_ran && d.errors() == 0)
    correct_and_check(out.checked.load.model, *net, d, &hw);
  out.verdict = out.checked.load.status == ir::LoadStatus::unreadable ? Verdict::unreadable
                : d.errors() > 0                                      ? Verdict::invalid
                                                                      : Verdict::valid;
  return out;
}

}  // namespace gemini::model
