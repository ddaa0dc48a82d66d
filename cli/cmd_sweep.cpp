// gemini sweep run|point|slurm|collect|plot: design-space sweeps
// (docs/sweeps.md). The sweep library plans the grid and runs or submits
// the points; this file is the glue to the command line.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include "commands.h"
#include "diagnostics_out.h"
#include "common.h"
#include "gemini/sim/sim_config.h"
#include "gemini/sweep/local.h"
#include "gemini/sweep/plan.h"
#include "gemini/sweep/results.h"
#include "gemini/sweep/slurm.h"
#include "gemini/sweep/study.h"
#include "install_paths.h"

extern char** environ;

namespace gemini::cli {
namespace {
namespace fs = std::filesystem;

struct SweepCliOptions {
  std::string sweep_file, dir, id, plot_out, plot_format = "png,svg", gemini;
  unsigned jobs = 0;
  bool force = false, retry_failed = false, submit = false;
  sweep::SlurmOptions slurm;
};

std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop = true; }

// Reads and expands the sweep file and writes the plan; prints problems.
std::optional<sweep::Plan> plan_sweep(const SweepCliOptions& o) {
  std::vector<std::string> errors;
  sweep::LoadOptions lo;
  lo.config_dirs = config_dirs();
  lo.check_hw = [](const std::string& text, const std::string& origin, ir::ConfigErrors& errors) {
    return sim::parse_hw_config(text, origin, errors).has_value();
  };
  auto spec = sweep::load_sweep(o.sweep_file, lo, errors);
  std::optional<sweep::Plan> plan;
  if (spec) plan = sweep::expand(*spec, errors);
  for (const std::string& e : errors) {
    std::cerr << e << "\n";
    record_refusal(o.sweep_file, e);
  }
  if (!plan) {
    std::cerr << o.sweep_file << ": the sweep file is invalid; nothing was run\n";
    return std::nullopt;
  }
  std::string error;
  if (!sweep::write_plan(o.dir, *plan, error)) {
    std::cerr << "gemini sweep: " << error << "\n";
    return std::nullopt;
  }
  return plan;
}

std::string seconds_text(double s) {
  char buf[64];
  if (s < 120)
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  else
    std::snprintf(buf, sizeof buf, "%d min %02d s", static_cast<int>(s) / 60,
                  static_cast<int>(std::lround(s)) % 60);
  return buf;
}

// The failed and missing points, at most `limit` lines of each.
void list_points(const std::vector<sweep::Row>& rows, std::size_t limit) {
  std::size_t failed = 0, missing = 0;
  for (const sweep::Row& r : rows) {
    const std::string what = r.point->id + " " + r.point->input.label +
                             (r.point->params.empty() ? "" : " (" + describe(*r.point) + ")");
    if (r.record && !r.record->ok && failed++ < limit)
      std::cout << "  failed:  " << what << ": " << r.record->message << "\n";
    if (!r.record && missing++ < limit) std::cout << "  missing: " << what << "\n";
  }
  if (failed > limit) std::cout << "  ... and " << failed - limit << " more failed\n";
  if (missing > limit) std::cout << "  ... and " << missing - limit << " more missing\n";
}

int exit_for(const sweep::Tally& t) { return t.failed || t.missing ? kExitInvalid : kExitOk; }

// A study (inputs with the scheduler's figures): DIR/study.json and .md
// beside the results; true when there is none.
bool write_study_of(const std::string& dir, const sweep::Plan& plan,
                    const std::vector<sweep::Row>& rows, std::string& error) {
  const auto study = sweep::make_study(plan, rows);
  return !study || sweep::write_study(dir, *study, error);
}

int run_sweep(const SweepCliOptions& o) {
  auto plan = plan_sweep(o);
  if (!plan) return kExitUnreadable;
  sweep::LocalOptions lo;
  lo.gemini = self_exe();
  lo.jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  lo.force = o.force;
  lo.retry_failed = o.retry_failed;
  lo.tty = isatty(STDERR_FILENO) != 0;
  lo.stop = &g_stop;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sweep::LocalSummary s;
  std::string error;
  bool written = sweep::run_local(o.dir, *plan, lo, std::cerr, s, error);
  if (written) written = write_study_of(o.dir, *plan, sweep::collect(o.dir, *plan), error);
  std::cout << "sweep " << plan->name << ": " << plan->points.size() << " points: " << s.tally.ok
            << " ok, " << s.tally.failed << " failed, " << s.tally.missing << " missing (ran "
            << s.ran << ", " << s.kept << " already done) in " << seconds_text(s.seconds)
            << " with --jobs " << lo.jobs << "\n";
  list_points(sweep::collect(o.dir, *plan), 20);
  if (!written) {
    std::cerr << "gemini sweep: " << error << "\n";
    return kExitUnreadable;
  }
  std::cout << "results: " << (fs::path(o.dir) / "results.csv").string() << ", "
            << (fs::path(o.dir) / "results.json").string() << "\n";
  if (s.interrupted) {
    std::cerr << "gemini sweep: interrupted; run the same command again to finish the "
              << s.tally.missing << " missing points\n";
    return 130;
  }
  return exit_for(s.tally);
}

int run_point_cmd(const SweepCliOptions& o) {
  std::string error;
  auto plan = sweep::read_plan(o.dir, error);
  if (!plan) {
    std::cerr << "gemini sweep point: " << error << "\n";
    return kExitUnreadable;
  }
  const sweep::Point* p = plan->find(o.id);
  if (!p) {
    std::cerr << "gemini sweep point: " << o.dir << "/plan.json has no point " << o.id << "\n";
    return kExitUnreadable;
  }
  // The simulation's progress goes to the point's log: say where.
  std::cerr << "gemini sweep point: " << p->id << " running; its progress and messages in "
            << sweep::log_file(o.dir, p->id) << "\n";
  auto r = sweep::run_point(o.dir, *p, self_exe(), {}, error);
  if (!r) {
    std::cerr << "gemini sweep point: " << error << "\n";
    return kExitUnreadable;
  }
  std::cout << p->id << " " << p->input.label << " (" << describe(*p)
            << "): " << (r->ok ? "ok" : "failed: " + r->message) << " in "
            << seconds_text(r->host_seconds) << "\n";
  return r->ok ? kExitOk : r->exit_code > 0 ? r->exit_code : kExitInvalid;
}

int collect_cmd(const SweepCliOptions& o, bool quiet) {
  std::string error;
  auto plan = sweep::read_plan(o.dir, error);
  if (!plan) {
    std::cerr << "gemini sweep: " << error << "\n";
    return kExitUnreadable;
  }
  const std::vector<sweep::Row> rows = sweep::collect(o.dir, *plan);
  if (!sweep::write_results(o.dir, *plan, rows, error)) {
    std::cerr << "gemini sweep: " << error << "\n";
    return kExitUnreadable;
  }
  // A study (inputs with the scheduler's figures): its ranking too.
  if (!write_study_of(o.dir, *plan, rows, error)) {
    std::cerr << "gemini sweep: " << error << "\n";
    return kExitUnreadable;
  }
  const sweep::Tally t = sweep::tally(rows);
  if (quiet) return kExitOk;
  std::cout << "sweep " << plan->name << ": " << rows.size() << " points: " << t.ok << " ok, "
            << t.failed << " failed, " << t.missing << " missing\n";
  list_points(rows, 50);
  std::cout << "results: " << (fs::path(o.dir) / "results.csv").string() << ", "
            << (fs::path(o.dir) / "results.json").string() << "\n";
  if (t.missing)
    std::cout << "rerun the missing points with `gemini sweep slurm " << plan->sweep_file << " -o "
              << o.dir << " --submit` (or `gemini sweep run`)\n";
  return exit_for(t);
}

int slurm_cmd(SweepCliOptions o) {
  auto plan = plan_sweep(o);
  if (!plan) return kExitUnreadable;
  std::string error;
  if (!sweep::write_results(o.dir, *plan, sweep::collect(o.dir, *plan), error)) {
    std::cerr << "gemini sweep: " << error << "\n";
    return kExitUnreadable;
  }
  std::size_t kept = 0;
  const auto todo = sweep::points_to_run(o.dir, *plan, o.force, o.retry_failed, &kept);
  if (todo.empty()) {
    std::cout << "nothing to run: all " << plan->points.size()
              << " points have results (gemini sweep collect " << o.dir << ")\n";
    return kExitOk;
  }
  o.slurm.gemini = o.gemini.empty() ? self_exe() : fs::absolute(o.gemini).string();
  sweep::JobScript job;
  if (!sweep::write_job_script(o.dir, *plan, todo, o.slurm, job, error)) {
    std::cerr << "gemini sweep slurm: " << error << "\n";
    return kExitUnreadable;
  }
  std::cout << "wrote " << job.script << ": a job array of " << job.tasks << " tasks (" << kept
            << " of " << plan->points.size() << " points already have results)\n";
  if (!o.submit) {
    std::cout << "submit it with: sbatch " << job.script << "\n";
    return kExitOk;
  }
  const std::string id = sweep::submit(job, error);
  if (id.empty()) {
    std::cerr << "gemini sweep slurm: " << error << "\n";
    return kExitUnreadable;
  }
  std::cout << "submitted job " << id << "\n";
  std::cout << "when it has finished: gemini sweep collect " << o.dir << "\n";
  return kExitOk;
}

// Runs one of the installed plot scripts on a file of the sweep directory.
int run_plot_script(const SweepCliOptions& o, const char* name, const std::string& input) {
  const std::string script = (fs::path(data_dir()) / "scripts" / name).string();
  std::error_code ec;
  if (!fs::exists(script, ec)) {
    std::cerr << "gemini sweep plot: " << script << " is missing (it is installed with gemini; or "
              << "run scripts/" << name << ")\n";
    return kExitUnreadable;
  }
  std::vector<std::string> args{
      script, input, "-o", o.plot_out.empty() ? (fs::path(o.dir) / "plots").string() : o.plot_out,
      "--format", o.plot_format};
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  if (const int rc = posix_spawn(&pid, script.c_str(), nullptr, nullptr, argv.data(), environ);
      rc != 0) {
    std::cerr << "gemini sweep plot: cannot run " << script << ": " << std::strerror(rc) << "\n";
    return kExitUnreadable;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : kExitUnreadable;
}

int plot_cmd(const SweepCliOptions& o) {
  if (const int s = collect_cmd(o, true); s != kExitOk) return s;
  if (const int s = run_plot_script(o, "plot_sweep.py", (fs::path(o.dir) / "results.json").string());
      s != kExitOk)
    return s;
  // A study: the design points side by side, ours and the scheduler's.
  const fs::path study = fs::path(o.dir) / "study.json";
  std::error_code ec;
  if (!fs::exists(study, ec)) return kExitOk;
  return run_plot_script(o, "plot_study.py", study.string());
}

int study_cmd(const SweepCliOptions& o) {
  std::string error;
  auto plan = sweep::read_plan(o.dir, error);
  if (!plan) {
    std::cerr << "gemini sweep study: " << error << "\n";
    return kExitUnreadable;
  }
  const std::vector<sweep::Row> rows = sweep::collect(o.dir, *plan);
  const auto study = sweep::make_study(*plan, rows);
  if (!study) {
    std::cerr << "gemini sweep study: " << o.dir
              << " is not a study: no input brings the scheduler's figures (an input's "
                 "\"hardware\" with its manifest, docs/sweeps.md)\n";
    return kExitInvalid;
  }
  if (!sweep::write_results(o.dir, *plan, rows, error) ||
      !sweep::write_study(o.dir, *study, error)) {
    std::cerr << "gemini sweep study: " << error << "\n";
    return kExitUnreadable;
  }
  sweep::print_study(std::cout, *study);
  std::cout << "study: " << (fs::path(o.dir) / "study.md").string() << ", "
            << (fs::path(o.dir) / "study.json").string() << "\n";
  return kExitOk;
}

}  // namespace

Command add_sweep(CLI::App& app) {
  auto o = std::make_shared<SweepCliOptions>();
  CLI::App* s = app.add_subcommand(
      "sweep",
      "Design-space sweeps: simulate schedules x hardware parameters x seeds, here or on a Slurm "
      "cluster, and gather and plot the results (docs/sweeps.md).");
  s->require_subcommand(1);
  CLI::App* run = s->add_subcommand("run", "Run every point of a sweep file on this machine.");
  run->add_option("sweep", o->sweep_file, "sweep file (JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  run->add_option("-o,--out", o->dir, "sweep directory (results, points, logs)")->required();
  run->add_option("-j,--jobs", o->jobs, "points run at once (default: the core count)")
      ->check(CLI::PositiveNumber);
  run->add_flag("--force", o->force, "rerun every point, even those with results");
  run->add_flag("--retry-failed", o->retry_failed, "rerun the points that failed");

  CLI::App* point = s->add_subcommand(
      "point", "Run one point of a planned sweep (what each Slurm array task runs).");
  point->add_option("dir", o->dir, "sweep directory")->required()->check(CLI::ExistingDirectory);
  point->add_option("id", o->id, "the point's id (DIR/plan.json)")->required();

  CLI::App* slurm = s->add_subcommand(
      "slurm",
      "Write (and with --submit, submit) a Slurm job array over the points that have no "
      "results yet.");
  slurm->add_option("sweep", o->sweep_file, "sweep file (JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  slurm->add_option("-o,--out", o->dir, "sweep directory, on a file system the nodes share")
      ->required();
  slurm->add_option("--partition", o->slurm.partition, "Slurm partition");
  slurm->add_option("--time", o->slurm.time, "time limit per point (Slurm's format, e.g. 30:00)");
  slurm->add_option("--array-max", o->slurm.array_max, "at most K tasks at once (--array=...%K)")
      ->check(CLI::PositiveNumber);
  slurm->add_option("--mem", o->slurm.mem, "memory per point (e.g. 8G)");
  slurm->add_option("--account", o->slurm.account, "Slurm account");
  slurm->add_option("--cpus-per-task", o->slurm.cpus_per_task, "CPUs per point (default 1)")
      ->check(CLI::PositiveNumber);
  slurm->add_option("--sbatch", o->slurm.extra,
                    "a further #SBATCH option, e.g. --sbatch=--qos=short");
  slurm->add_option("--gemini", o->gemini,
                    "the gemini the nodes run (default: this one, by absolute path)");
  slurm->add_flag("--submit", o->submit, "submit it with sbatch and print the job id");
  slurm->add_flag("--force", o->force, "run every point, even those with results");
  slurm->add_flag("--retry-failed", o->retry_failed, "rerun the points that failed");

  CLI::App* collect = s->add_subcommand(
      "collect",
      "Gather the finished points into DIR/results.csv and results.json and list the "
      "failed and missing ones.");
  collect->add_option("dir", o->dir, "sweep directory")->required()->check(CLI::ExistingDirectory);

  CLI::App* plot = s->add_subcommand(
      "plot",
      "Plot each metric against each axis, one line per input, and a study's design points "
      "(python3-matplotlib).");
  plot->add_option("dir", o->dir, "sweep directory")->required()->check(CLI::ExistingDirectory);
  plot->add_option("-o,--out", o->plot_out, "where the plots go (default DIR/plots)");
  plot->add_option("--format", o->plot_format, "png, svg or png,svg (default)")
      ->check(CLI::IsMember({"png", "svg", "png,svg", "svg,png"}));

  CLI::App* study = s->add_subcommand(
      "study",
      "Rank a study's design points (inputs with the scheduler's own figures) ours and its way: "
      "the tables, the rank correlations and DIR/study.json, .md.");
  study->add_option("dir", o->dir, "sweep directory")->required()->check(CLI::ExistingDirectory);

  return [=] {
    if (!s->parsed()) return -1;
    if (study->parsed()) return study_cmd(*o);
    if (run->parsed()) return run_sweep(*o);
    if (point->parsed()) return run_point_cmd(*o);
    if (slurm->parsed()) return slurm_cmd(*o);
    if (collect->parsed()) return collect_cmd(*o, false);
    if (plot->parsed()) return plot_cmd(*o);
    return int{kExitUnreadable};
  };
}

}  // namespace gemini::cli
