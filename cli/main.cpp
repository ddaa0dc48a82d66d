// gemini: the command-line front end. Thin glue: each subcommand lives in its
// own cmd_*.cpp and calls the libraries.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <new>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "commands.h"
#include "common.h"
#include "diagnostics_out.h"

namespace {

int run_command(CLI::App& app, int argc, char** argv) {
  std::vector<gemini::cli::Command> commands{
      gemini::cli::add_validate(app), gemini::cli::add_info(app),   gemini::cli::add_import(app),
      gemini::cli::add_asm(app),      gemini::cli::add_sim(app),    gemini::cli::add_golden(app),
      gemini::cli::add_ref(app),      gemini::cli::add_xcheck(app), gemini::cli::add_plan(app),
      gemini::cli::add_sweep(app),    gemini::cli::add_dram_replay(app), gemini::cli::add_noc(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::Success& e) {  // a listing flag did its work (gemini sim --list-params)
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    gemini::cli::record_refusal("", e.what());
    return gemini::cli::kExitUnreadable;
  }
  for (auto& c : commands) {
    const int status = c();
    if (status >= 0) return status;
  }
  return gemini::cli::kExitUnreadable;
}

int run(int argc, char** argv) {
  CLI::App app{"gemini: validate, assemble and simulate Gemini NPU schedules"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "gemini 0.1.0");
  std::string diagnostics_json;
  app.add_option("--diagnostics-json", diagnostics_json,
                 "also write every diagnostic and refusal of the command to FILE as JSON, "
                 "whatever the exit status (for programs that run gemini; before the "
                 "command: gemini --diagnostics-json d.json sim ...)");
  const int status = run_command(app, argc, argv);
  std::string error;
  if (!diagnostics_json.empty() && !gemini::cli::write_recorded(diagnostics_json, status, error)) {
    std::cerr << "gemini: " << error << "\n";
    return std::max(status, gemini::cli::kExitUnreadable);
  }
  return status;
}

// A run is one batch job whose memory peaks near its end (the model, then
// the program): memory freed along the way is better kept for reuse than
// handed back to the kernel and faulted in again. glibc otherwise serves
// blocks above 128 KB (up to 32 MB, adaptively) with mmap and unmaps them on
// free, and trims the heap top above 128 KB. About 5% off `validate` and
// `asm` on the 76 MB corpus file; the peak resident size grows by 2-3%.
void tune_malloc() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  tune_malloc();
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "gemini: out of memory\n";
    return gemini::cli::kExitUnreadable;
  } catch (const std::exception& e) {
    // Bad input never throws (it is diagnosed); an exception here is a bug.
    std::cerr << "gemini: internal error: " << e.what() << "\n";
    std::abort();
  } catch (...) {
    std::cerr << "gemini: internal error: unknown exception\n";
    std::abort();
  }
}
