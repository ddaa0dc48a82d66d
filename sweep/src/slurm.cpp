#include "gemini/sweep/slurm.h"

#include <sys/wait.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "json_io.h"

namespace gemini::sweep {
namespace fs = std::filesystem;

namespace {
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
}  // namespace

bool write_job_script(const std::string& dir_in, const Plan& plan,
                      const std::vector<const Point*>& points, const SlurmOptions& o,
                      JobScript& job, std::string& error) {
  const std::string dir = fs::absolute(dir_in).lexically_normal().string();
  const fs::path sdir = fs::path(dir) / "slurm";
  std::error_code ec;
  fs::create_directories(sdir / "logs", ec);
  int n = 1;
  while (fs::exists(sdir / ("job-" + std::to_string(n) + ".sh"), ec)) ++n;
  job.script = (sdir / ("job-" + std::to_string(n) + ".sh")).string();
  job.ids = (sdir / ("job-" + std::to_string(n) + ".ids")).string();
  job.tasks = points.size();
  std::string ids;
  for (const Point* p : points) ids += p->id + "\n";
  std::string name;
  for (char c : plan.name)
    name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  std::ostringstream s;
  s << "#!/bin/bash\n";
  s << "# Written by `gemini sweep slurm` for the sweep \"" << plan.name << "\" ("
    << plan.sweep_file << "):\n";
  s << "# " << points.size() << " of its " << plan.points.size()
    << " points, one per array task; task i runs the point on line i+1 of\n# " << job.ids
    << ".\n# Gather the results with: " << o.gemini << " sweep collect " << dir << "\n";
  s << "#SBATCH --job-name=gemini-sweep-" << name << "\n";
  s << "#SBATCH --array=0-" << (points.empty() ? 0 : points.size() - 1);
  if (o.array_max > 0) s << "%" << o.array_max;
  s << "\n";
  s << "#SBATCH --chdir=" << dir << "\n";
  s << "#SBATCH --output=" << (sdir / "logs" / "%A_%a.out").string() << "\n";
  s << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=" << o.cpus_per_task << "\n";
  if (!o.partition.empty()) s << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.time.empty()) s << "#SBATCH --time=" << o.time << "\n";
  if (!o.mem.empty()) s << "#SBATCH --mem=" << o.mem << "\n";
  if (!o.account.empty()) s << "#SBATCH --account=" << o.account << "\n";
  for (const std::string& x : o.extra) s << "#SBATCH " << x << "\n";
  s << "set -euo pipefail\n";
  s << "id=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " << quote(job.ids) << ")\n";
  s << "echo \"gemini sweep: job ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}: point $id on "
       "$(hostname)\"\n";
  s << "exec " << quote(o.gemini) << " sweep point " << quote(dir) << " \"$id\"\n";
  if (!detail::write_atomic(job.ids, ids, error) ||
      !detail::write_atomic(job.script, s.str(), error))
    return false;
  fs::permissions(job.script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add,
                  ec);
  return true;
}

std::string submit(const JobScript& job, std::string& error) {
  const std::string cmd = "sbatch --parsable " + quote(job.script) + " 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) {
    error = "cannot run sbatch";
    return "";
  }
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, f)) out += buf;
  const int status = pclose(f);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (status != 0) {
    error = WIFEXITED(status) && WEXITSTATUS(status) == 127
                ? "sbatch not found: submit from a Slurm login node (or see `" + job.script + "`)"
                : "sbatch failed: " + out;
    return "";
  }
  // --parsable prints "<job id>[;<cluster>]" (after any warnings).
  const std::size_t nl = out.rfind('\n');
  std::string id = out.substr(nl == std::string::npos ? 0 : nl + 1);
  id = id.substr(0, id.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    error = "sbatch said something other than a job id: " + out;
    return "";
  }
  return id;
}

}  // namespace gemini::sweep
