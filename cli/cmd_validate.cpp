// gemini validate FILE...: load and check IR files.
#include <algorithm>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <iostream>

#include "commands.h"
#include "common.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"
#include "gemini/model/check_file.h"
#include "gemini/model/network.h"

namespace gemini::cli {
namespace {

struct ValidateOptions {
  std::vector<std::string> files;
  bool json = false;
  std::size_t max_errors = 100;
  std::size_t max_warnings = 20;
  std::string dialect;
  std::string hw;
  std::string model;
};

int run(const ValidateOptions& opt) {
  auto hw = load_hw(opt.hw);
  if (!hw) return kExitUnreadable;
  int status = kExitOk;
  std::optional<model::Network> net;
  if (!opt.model.empty() && !(net = load_model_file(opt.model, status))) return status;
  boost::json::array files;
  for (const std::string& file : opt.files) {
    // Kept beyond what is printed: --json lists everything kept.
    ir::Diagnostics diags(std::max<std::size_t>(opt.max_errors, 1000),
                          std::max<std::size_t>(opt.max_warnings, 1000));
    ir::LoadOptions lo;
    lo.dialect = parse_dialect(opt.dialect);
    // The one check (model/check_file.h): the Python module's too.
    const model::FileCheck fc = model::check_ir_file(file, lo, *hw, net ? &*net : nullptr, diags);
    const ir::CheckedFile& checked = fc.checked;
    const ir::LoadResult& res = checked.load;
    const char* verdict = model::to_string(fc.verdict);
    const int file_status = fc.verdict == model::Verdict::unreadable ? kExitUnreadable
                            : fc.verdict == model::Verdict::invalid  ? kExitInvalid
                                                                     : kExitOk;
    status = std::max(status, file_status);
    if (opt.json) {
      boost::json::object f;
      f["file"] = file;
      f["status"] = verdict;
      if (res.status == ir::LoadStatus::ok) f["dialect"] = ir::to_string(res.model.dialect);
      f["errors"] = diags.errors();
      f["warnings"] = diags.warnings();
      f["not_shown"] = diags.dropped();
      // One entry per check reported: its count and its first diagnostic.
      boost::json::array summary;
      for (const ir::CheckInfo& c : ir::all_checks()) {
        const ir::Diagnostics::Tally& t = diags.tally(c.check);
        if (t.count == 0 || !t.first) continue;
        boost::json::object e = ir::diagnostic_json(*t.first);
        e["count"] = t.count;
        e["kept"] = t.kept;
        summary.push_back(std::move(e));
      }
      f["summary"] = std::move(summary);
      f["semantic_checks"] = checked.semantic_checks_ran;
      boost::json::array list;
      for (const auto& x : diags.items()) list.push_back(ir::diagnostic_json(x));
      f["diagnostics"] = std::move(list);
      files.push_back(std::move(f));
      continue;
    }
    print_diagnostics(std::cout, file, diags, opt.max_errors, opt.max_warnings);
    if (res.status == ir::LoadStatus::ok && !checked.semantic_checks_ran)
      std::cout << file
                << ": note: cross-reference, geometry, buffer and order checks run once "
                   "the errors above are fixed\n";
    std::cout << file << ": " << verdict;
    if (res.status == ir::LoadStatus::ok)
      std::cout << " (" << ir::to_string(res.model.dialect) << " dialect)";
    std::cout << ", " << diags.errors() << " error" << (diags.errors() == 1 ? "" : "s") << ", "
              << diags.warnings() << " warning" << (diags.warnings() == 1 ? "" : "s") << "\n";
  }
  if (opt.json) {
    boost::json::object out;
    out["files"] = std::move(files);
    out["exit_status"] = status;
    std::cout << boost::json::serialize(out) << "\n";
  }
  return status;
}

}  // namespace

Command add_validate(CLI::App& app) {
  auto opt = std::make_shared<ValidateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "validate",
      "Check IR files (either dialect, .json or .json.gz) against the format and "
      "the check catalogue (docs/validation.md). Exit 0 valid, 1 invalid, 2 unreadable.");
  cmd->add_option("files", opt->files, "IR files")->required();
  cmd->add_flag("--json", opt->json, "print one JSON document instead of text");
  add_unsigned_option(*cmd, "--max-errors", opt->max_errors, 1, std::size_t{1} << 30,
                      "errors to show per file (default 100); always shown before any warning, "
                      "the rest summarised one line per check");
  add_unsigned_option(*cmd, "--max-warnings", opt->max_warnings, 0, std::size_t{1} << 30,
                      "warnings to show per file (default 20; 0: counts only), the rest "
                      "summarised one line per check with its count and first location");
  add_dialect_option(*cmd, opt->dialect);
  add_hw_option(*cmd, opt->hw);
  cmd->add_option("--model", opt->model,
                  "layer-semantics model file (ARK format): also check every workload against "
                  "it (M-codes) and count the scheduler's known quirks it corrects");
  return [cmd, opt] { return cmd->parsed() ? run(*opt) : -1; };
}

}  // namespace gemini::cli
