// gemini golden check / update: the golden timing regression (golden/).
#include <iostream>

#include "commands.h"
#include "common.h"
#include "gemini/golden/golden.h"

namespace gemini::cli {

Command add_golden(CLI::App& app) {
  auto dir = std::make_shared<std::string>("golden");
  CLI::App* g = app.add_subcommand(
      "golden",
      "Golden timing regression: re-run the cases of DIR/cases.json and compare the "
      "reports with DIR/reports (check), or rewrite them (update).");
  g->require_subcommand(1);
  CLI::App* c = g->add_subcommand("check", "Fail on any difference from the golden reports.");
  CLI::App* u = g->add_subcommand("update", "Rewrite the golden reports.");
  for (CLI::App* s : {c, u}) s->add_option("--dir", *dir, "golden directory (default: golden)");
  return [g, c, u, dir]() -> int {
    if (!g->parsed()) return -1;
    if (c->parsed()) return golden::check(*dir, std::cout) == 0 ? kExitOk : kExitInvalid;
    if (u->parsed()) return golden::update(*dir, std::cout) == 0 ? kExitOk : kExitInvalid;
    return kExitUnreadable;
  };
}

}  // namespace gemini::cli
