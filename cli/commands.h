#pragma once
// The gemini subcommands. Each registers its options on a CLI11 app and
// returns the process exit status: 0 success, 1 invalid input, 2 unreadable
// input or bad usage.

#include <CLI/CLI.hpp>
#include <functional>

namespace gemini::cli {

using Command = std::function<int()>;

Command add_validate(CLI::App& app);
Command add_info(CLI::App& app);
Command add_import(CLI::App& app);
Command add_asm(CLI::App& app);  // asm, disasm, as
Command add_sim(CLI::App& app);
Command add_golden(CLI::App& app);  // golden check, golden update
Command add_ref(CLI::App& app);
Command add_xcheck(CLI::App& app);
Command add_plan(CLI::App& app);
Command add_sweep(CLI::App& app);  // sweep run, point, slurm, collect, plot
Command add_dram_replay(CLI::App& app);
Command add_noc(CLI::App& app);    // synthetic traffic on a NoC model

}  // namespace gemini::cli
