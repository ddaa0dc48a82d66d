// gemini: the command-line front end. Thin glue: each subcommand lives in its
// own cmd_*.cpp and calls the libraries.
#include <iostream>

#include "commands.h"
#include "common.h"

int main(int argc, char** argv) {
  CLI::App app{"gemini: validate, assemble and simulate Gemini NPU schedules"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "gemini 0.1.0");
  std::vector<gemini::cli::Command> commands{gemini::cli::add_validate(app),
                                             gemini::cli::add_info(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return gemini::cli::kExitUnreadable;
  }
  for (auto& c : commands) {
    const int status = c();
    if (status >= 0) return status;
  }
  return gemini::cli::kExitUnreadable;
}
