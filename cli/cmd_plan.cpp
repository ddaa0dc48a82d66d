// gemini plan: an IR schedule written as an ARK plan (gpu_backend/,
// plan_build.h), checked by reading it back.
#include <boost/json.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "common.h"
#include "gemini/gpu/plan_build.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"
#include "gemini/model/semantics.h"

namespace gemini::cli {
namespace {

struct PlanOptions {
  std::string in, model, out, dialect, hw;
};

std::optional<boost::json::value> read_json(const std::string& path) {
  std::ifstream is(path, std::ios::binary);
  std::ostringstream ss;
  ss << is.rdbuf();
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(ss.str(), ec);
  if (!is || ec) return std::nullopt;
  return v;
}

int run_plan_cmd(const PlanOptions& opt) {
  auto hw = load_hw(opt.hw);
  if (!hw) return kExitUnreadable;
  int status = kExitOk;
  auto net = load_model_file(opt.model, status);
  if (!net) return status;
  auto doc = read_json(opt.model);
  if (!doc) {
    std::cerr << opt.model << ": cannot be read again as JSON\n";
    return kExitUnreadable;
  }
  ir::Diagnostics d(100);
  ir::LoadOptions lo;
  lo.dialect = parse_dialect(opt.dialect);
  ir::CheckedFile f = ir::load_and_validate(opt.in, lo, *hw, d);
  if (f.load.status != ir::LoadStatus::ok || d.errors() > 0) {
    print_diagnostics(std::cerr, opt.in, d, 20, 0);
    std::cerr << opt.in << ": no plan: the input is invalid (gemini validate lists all)\n";
    return f.load.status == ir::LoadStatus::unreadable ? kExitUnreadable : kExitInvalid;
  }
  ir::Diagnostics sd(100);
  model::correct_and_check(f.load.model, *net, sd, &*hw);
  if (sd.errors() > 0) {
    print_diagnostics(std::cerr, opt.in, sd, 20, 0);
    std::cerr << opt.in << ": no plan: the schedule does not compute " << opt.model << "\n";
    return kExitInvalid;
  }
  ir::Diagnostics pd(100);
  auto plan = gpu::build_plan(f.load.model, *net, *doc, pd);
  if (!plan) {
    print_diagnostics(std::cerr, opt.in, pd, 20, 20);
    return kExitInvalid;
  }
  std::string error;
  if (!gpu::write_plan(*plan, opt.out, error)) {
    std::cerr << "gemini plan: " << error << "\n";
    return kExitUnreadable;
  }
  // Read back: what was written is a plan file by the format's rules.
  ir::Diagnostics back(100);
  if (!gpu::load_plan(opt.out, back)) {
    print_diagnostics(std::cerr, opt.out, back, 20, 20);
    std::cerr << "gemini plan: internal error: the written plan does not read back\n";
    std::abort();
  }
  std::int64_t tasks = 0;
  for (const gpu::PlanTaskInfo& t : plan->task_infos) tasks += t.ops.front().num_tasks;
  std::cout << opt.out << ": " << plan->task_infos.size() << " task infos, " << tasks
            << " tasks on " << plan->num_processors << " processors (cores), "
            << plan->processor_groups.size() << " processor groups\n";
  return kExitOk;
}

}  // namespace

Command add_plan(CLI::App& app) {
  auto opt = std::make_shared<PlanOptions>();
  CLI::App* s = app.add_subcommand(
      "plan",
      "Write an IR schedule as an ARK plan file: one task per workload tile, processor groups in "
      "the schedule's dependency order (docs/gpu.md). `gemini ref --plan` runs it.");
  s->add_option("input", opt->in, "IR file")->required();
  s->add_option("--model", opt->model, "layer-semantics model file (ARK format)")->required();
  s->add_option("-o,--output", opt->out, "the plan file to write")->required();
  add_dialect_option(*s, opt->dialect);
  add_hw_option(*s, opt->hw);
  return [s, opt] { return s->parsed() ? run_plan_cmd(*opt) : -1; };
}

}  // namespace gemini::cli
