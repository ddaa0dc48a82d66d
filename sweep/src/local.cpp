#include "gemini/sweep/local.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <ostream>
#include <set>
#include <thread>

#include "progress_line.h"

namespace gemini::sweep {

std::vector<const Point*> points_to_run(const std::string& dir, const Plan& plan, bool force,
                                        bool retry_failed, std::size_t* kept) {
  std::vector<const Point*> todo;
  std::size_t k = 0;
  for (const Point& p : plan.points) {
    const auto r = force ? std::nullopt : read_point(dir, p.id);
    if (r && (r->ok || !retry_failed)) {
      ++k;
      continue;
    }
    todo.push_back(&p);
  }
  if (kept) *kept = k;
  return todo;
}

bool run_local(const std::string& dir, const Plan& plan, const LocalOptions& options,
               std::ostream& out, LocalSummary& summary, std::string& error) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  std::vector<Row> rows = collect(dir, plan);
  std::vector<const Point*> todo =
      points_to_run(dir, plan, options.force, options.retry_failed, &summary.kept);
  // Points about to rerun are not results any more.
  std::vector<std::size_t> row_of(plan.points.size());
  for (std::size_t i = 0; i < rows.size(); ++i) row_of[rows[i].point->index] = i;
  for (const Point* p : todo) rows[row_of[p->index]].record.reset();

  std::mutex mu;
  std::condition_variable cv;
  std::size_t next = 0, running = 0, done = 0, failed = 0;
  std::set<pid_t> children;
  std::string write_error;
  std::atomic<bool> interrupted{false};
  ProgressLine progress(out, options.tty, todo.size());
  if (!write_results(dir, plan, rows, write_error)) {
    error = write_error;
    return false;
  }

  auto worker = [&] {
    for (;;) {
      const Point* p = nullptr;
      {
        std::lock_guard<std::mutex> lock(mu);
        if (next >= todo.size() || interrupted || (options.stop && options.stop->load())) return;
        p = todo[next++];
        ++running;
      }
      RunHooks hooks;
      pid_t mine = -1;
      hooks.on_child = [&](pid_t pid) {
        std::lock_guard<std::mutex> lock(mu);
        if (pid > 0)
          children.insert(mine = pid);
        else
          children.erase(mine);
      };
      // The signal handler's flag: a child that Ctrl-C ended is not a failure.
      hooks.interrupted = options.stop ? options.stop : &interrupted;
      std::string err;
      auto record = run_point(dir, *p, options.gemini, hooks, err);
      std::lock_guard<std::mutex> lock(mu);
      --running;
      if (!record) {
        if (!hooks.interrupted->load()) {
          // Not started or not recorded: the sweep goes on, the point stays missing.
          progress.message(p->input.label + " (" + describe(*p) + "): " + err);
        }
        cv.notify_all();
        continue;
      }
      ++done;
      failed += !record->ok;
      rows[row_of[p->index]].record = std::move(*record);
      const PointRecord& r = *rows[row_of[p->index]].record;
      progress.finished(*p, r, done, failed);
      if (!write_results(dir, plan, rows, err)) write_error = err;
      cv.notify_all();
    }
  };

  const unsigned jobs =
      std::max(1u, std::min<unsigned>(options.jobs, todo.size() ? todo.size() : 1));
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < jobs && !todo.empty(); ++i) threads.emplace_back(worker);
  {
    std::unique_lock<std::mutex> lock(mu);
    while (done < todo.size() && !(next >= todo.size() && running == 0)) {
      cv.wait_for(lock, std::chrono::milliseconds(250));
      if (options.stop && options.stop->load() && !interrupted) {
        interrupted = true;
        for (pid_t c : children) kill(c, SIGTERM);
      }
      if (interrupted && running == 0) break;
      progress.tick(done, failed);
    }
  }
  for (std::thread& t : threads) t.join();
  progress.clear();
  summary.interrupted = interrupted;
  summary.ran = done;
  summary.tally = tally(rows);
  summary.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!write_results(dir, plan, rows, error)) return false;
  if (!write_error.empty()) {
    error = write_error;
    return false;
  }
  return true;
}

}  // namespace gemini::sweep
