#include "pipeline.h"

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "common.h"
#include "gemini/ir/import.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"

namespace gemini::cli {

PhaseTimer::PhaseTimer()
    : on_(std::getenv("GEMINI_PHASES") != nullptr), t_(std::chrono::steady_clock::now()) {}

void PhaseTimer::mark(const char* phase) {
  const auto now = std::chrono::steady_clock::now();
  if (on_)
    std::cerr << "phase " << phase << ": " << std::chrono::duration<double>(now - t_).count()
              << " s\n";
  t_ = now;
}

StatusLine::StatusLine(bool enabled)
    : enabled_(enabled), start_(std::chrono::steady_clock::now()) {}

StatusLine::~StatusLine() {
  if (shown_) std::cerr << "\r" << std::string(60, ' ') << "\r" << std::flush;
}

void StatusLine::phase(const char* what) {
  if (!enabled_ || std::chrono::steady_clock::now() - start_ < std::chrono::seconds(1)) return;
  std::cerr << "\r" << std::string(60, ' ') << "\rgemini: " << what << "..." << std::flush;
  shown_ = true;
}

std::optional<Lowered> load_and_lower(const std::string& in, const ir::HardwareConfig& hw,
                                      const std::string& dialect, const char* verb, int& status,
                                      StatusLine* status_line) {
  auto say = [&](const char* what) {
    if (status_line) status_line->phase(what);
  };
  ir::Diagnostics diags(100);
  ir::LoadOptions lo;
  lo.dialect = parse_dialect(dialect);
  // Lowering trusts the IR: an invalid schedule is refused.
  PhaseTimer timer;
  ir::CheckedFile checked = ir::load_and_validate(in, lo, hw, diags);
  timer.mark("load+validate");
  say("importing");
  ir::LoadResult& r = checked.load;
  if (r.status != ir::LoadStatus::ok || diags.errors() > 0) {
    print_diagnostics(std::cerr, in, diags, 20);
    std::cerr << in << ": " << verb << ": the input is invalid (gemini validate lists all)\n";
    status = r.status == ir::LoadStatus::unreadable ? kExitUnreadable : kExitInvalid;
    return std::nullopt;
  }
  if (r.model.dialect == ir::Dialect::set) {  // the same import as `gemini import`, in memory
    ir::Diagnostics idiags;
    if (!ir::import_model(r.model, hw, {}, idiags)) {
      print_diagnostics(std::cerr, in, idiags, 20);
      status = kExitInvalid;
      return std::nullopt;
    }
  }
  timer.mark("import");
  say("lowering");
  std::vector<std::string> errors;
  auto prog = assembler::lower(r.model, hw, errors);
  if (!prog) {
    for (std::size_t i = 0; i < errors.size() && i < 50; ++i)
      std::cerr << in << ": " << errors[i] << "\n";
    std::cerr << in << ": " << verb << "\n";
    status = kExitInvalid;
    return std::nullopt;
  }
  timer.mark("lower");
  status = kExitOk;
  return Lowered{std::move(r.model), std::move(*prog)};
}

}  // namespace gemini::cli
