#include "pipeline.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <vector>

#include "common.h"
#include "diagnostics_out.h"
#include "gemini/assembler/assemble_file.h"
#include "semantics.h"

namespace gemini::cli {

namespace {
// User plus system CPU time of the process so far, in seconds.
double cpu_seconds(const rusage& u) {
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return s(u.ru_utime) + s(u.ru_stime);
}
}  // namespace

PhaseTimer::PhaseTimer()
    : on_(std::getenv("GEMINI_PHASES") != nullptr), t_(std::chrono::steady_clock::now()), sub_(t_) {
  if (!on_) return;
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  cpu_t_ = cpu_sub_ = cpu_seconds(u);
}

void PhaseTimer::mark(const char* phase) {
  const auto now = std::chrono::steady_clock::now();
  const bool is_sub = std::string_view(phase).find('/') != std::string_view::npos;
  const auto since = is_sub ? sub_ : t_;
  if (!on_) return;
  // CPU time of all threads in the phase (more than the wall time where it
  // runs in parallel), peak resident memory and page faults so far: first
  // touches of fresh memory cost microseconds each, so they show up in the
  // phase times.
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const double cpu = cpu_seconds(u);
  std::cerr << "phase " << phase << ": " << std::chrono::duration<double>(now - since).count()
            << " s (cpu " << cpu - (is_sub ? cpu_sub_ : cpu_t_) << " s, peak RSS "
            << u.ru_maxrss / 1024 << " MB, " << u.ru_minflt << " page faults)\n";
  sub_ = now;
  cpu_sub_ = cpu;
  if (!is_sub) {
    t_ = now;
    cpu_t_ = cpu;
  }
}

sim::ProgressMode progress_mode(bool asked, bool quiet) {
  if (isatty(STDERR_FILENO) != 0) return quiet && !asked ? sim::ProgressMode::off : sim::ProgressMode::bar;
  return asked ? sim::ProgressMode::lines : sim::ProgressMode::off;
}

StatusLine::StatusLine(sim::ProgressMode mode)
    : mode_(mode), start_(std::chrono::steady_clock::now()) {}

StatusLine::~StatusLine() { clear(); }

void StatusLine::clear() {
  if (shown_) std::cerr << "\r" << std::string(60, ' ') << "\r" << std::flush;
  shown_ = false;
}

void StatusLine::phase(const char* what) {
  const auto since = std::chrono::steady_clock::now() - start_;
  if (mode_ == sim::ProgressMode::bar && since >= std::chrono::seconds(1)) {
    std::cerr << "\r" << std::string(60, ' ') << "\rgemini: " << what << "..." << std::flush;
    shown_ = true;
  } else if (mode_ == sim::ProgressMode::lines && since >= std::chrono::seconds(2)) {
    std::cerr << "gemini: " << what << " (" << std::chrono::duration_cast<std::chrono::seconds>(since).count()
              << " s into the command)\n" << std::flush;
  }
}

void keep_until_exit(Lowered&& l) {
  static auto* kept = new std::vector<Lowered*>();
  kept->push_back(new Lowered(std::move(l)));
}

std::optional<Lowered> load_and_lower(const std::string& in, const ir::HardwareConfig& hw,
                                      const std::string& dialect, const char* verb, int& status,
                                      StatusLine* status_line,
                                      const std::function<void(const ir::Model&)>& on_loaded,
                                      const model::LayerSemantics* semantics, bool quiet,
                                      const ir::ImportOptions& import) {
  ir::Diagnostics diags(100);
  ir::LoadOptions lo;
  lo.dialect = parse_dialect(dialect);
  PhaseTimer timer;
  assembler::AssembleOptions ao;
  ao.import = import;
  if (semantics) {
    ao.lower.geometry = &semantics->geometry;
    ao.semantics = [semantics, &hw](ir::Model& m, ir::Diagnostics& d) {
      return semantics->apply(m, d, &hw);
    };
  }
  auto f = assembler::assemble_file(
      in, hw, lo, diags,
      [&](const char* phase) {
        timer.mark(phase);
        if (!status_line) return;
        if (std::string_view(phase) == "load+validate") status_line->phase("importing");
        if (std::string_view(phase) == "import") status_line->phase("lowering");
      },
      on_loaded, ao);
  using Failed = assembler::AssembledFile::Failed;
  switch (f.failed) {
    case Failed::input:
      print_diagnostics(std::cerr, in, diags, 20, 0);
      std::cerr << in << ": " << verb << ": the input is invalid (gemini validate lists all)\n";
      status = f.load_status == ir::LoadStatus::unreadable ? kExitUnreadable : kExitInvalid;
      return std::nullopt;
    case Failed::import:
      print_diagnostics(std::cerr, in, f.import_diagnostics, 20, 20);
      status = kExitInvalid;
      return std::nullopt;
    case Failed::lowering:
      for (std::size_t i = 0; i < f.lower_errors.size() && i < 50; ++i) {
        std::cerr << in << ": " << f.lower_errors[i] << "\n";
        record_refusal(in, f.lower_errors[i]);
      }
      std::cerr << in << ": " << verb << "\n";
      status = kExitInvalid;
      return std::nullopt;
    case Failed::none:
      break;
  }
  // The quirks corrected from the model: one warning each (M009), as
  // `validate --model` prints them.
  if (semantics && !quiet)
    for (const auto& [quirk, n] : semantics->quirks.named())
      std::cerr << in << ": M009: warning: " << quirk << ": corrected " << n
                << " time(s) from the model (gemini validate --model says where)\n";
  status = kExitOk;
  return Lowered{std::move(f.model), std::move(*f.program), std::move(f.scratch),
                 std::move(f.import_report)};
}

}  // namespace gemini::cli
