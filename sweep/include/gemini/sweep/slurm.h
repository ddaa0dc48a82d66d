#pragma once
// `gemini sweep slurm`: a Slurm job array over the points a sweep still
// needs, one point per task, each task running `gemini sweep point DIR ID`
// by the absolute path of the gemini that wrote it. The only shared state is
// the sweep directory (a shared file system): the job script, the list of
// point ids it runs (task i runs line i+1), the plan and the records.

#include <string>
#include <vector>

#include "gemini/sweep/plan.h"

namespace gemini::sweep {

struct SlurmOptions {
  std::string gemini;  // absolute path of the executable the tasks run
  std::string partition, time, account, mem;
  int array_max = 0;  // at most this many tasks at once (0: Slurm's choice)
  int cpus_per_task = 1;
  std::vector<std::string> extra;  // further #SBATCH lines, e.g. "--qos=short"
};

struct JobScript {
  std::string script;  // DIR/slurm/job-<n>.sh
  std::string ids;     // DIR/slurm/job-<n>.ids
  std::size_t tasks = 0;
};

// Writes the job script and its id list for `points`.
bool write_job_script(const std::string& dir, const Plan& plan,
                      const std::vector<const Point*>& points, const SlurmOptions& options,
                      JobScript& job, std::string& error);

// Runs `sbatch --parsable SCRIPT`; returns the job id, or empty with
// `error` (sbatch's own message).
std::string submit(const JobScript& job, std::string& error);

}  // namespace gemini::sweep
